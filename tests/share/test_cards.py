"""The share cards (Open Graph PNGs, 1200×630): each opened with Pillow and checked for its size and what it shows
(the served bytes are the drawing of the values checked here, and the drawing's colours are where they belong),
drawn once per version and served from the cache after, a new version after a write, no private data, 404s."""

import io

import pytest
from django.utils import translation
from PIL import Image

from tests.circuits.support import circuit_file, etapa_file
from tests.support.files import BIRTH, demo_file, knockout_file
from tournaments.atletas.selectors import atleta_history
from tournaments.circuits.file import circuit_import
from tournaments.circuits.selectors import circuit_standing
from tournaments.models import Player, Tournament
from tournaments.public import share
from tournaments.selectors import tournament_state_get
from tournaments.setup.services import tournament_update
from tournaments.sharecards import HEIGHT, WIDTH, card_png
from tournaments.sharecards.draw import FELT, GOLD, MEDALS, WHITE

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    """The cards' words are read here outside a request: in the site's language, whatever a test before left."""
    with translation.override("pt-br"):
        yield


@pytest.fixture
def events(load_file):
    demo = load_file(demo_file(load_file))  # groups over, knockout under way
    finished = load_file(knockout_file())  # champion Os Zapeiros, medals
    return demo, finished


@pytest.fixture
def season(load_file):
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    return circuit_import(data=circuit_file())


def opened(response) -> Image.Image:
    """The answer as Pillow reads it: a PNG of 1200×630 with a palette, no text chunk in it; in RGB."""
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png" and response["X-Content-Type-Options"] == "nosniff"
    image = Image.open(io.BytesIO(response.content))
    image.load()
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT) == (1200, 630) and image.mode == "P"
    assert len(image.getcolors(256) or ()) > 8  # the card's colours and their antialiasing
    assert not getattr(image, "text", {})  # no metadata travels with it
    return image.convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """The same colour, give or take what the PNG's palette rounds."""
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 12


def count(image: Image.Image, colour: tuple[int, int, int], box=None) -> int:
    part = image.crop(box) if box else image
    return sum(1 for pixel in part.getdata() if near(pixel, colour))


def no_private_data(values: object) -> None:
    text = repr(values)
    for p in Player.objects.all():
        assert not p.birth_date or (
            p.birth_date.isoformat() not in text and p.birth_date.strftime("%d/%m/%Y") not in text
        )
        assert not p.email or p.email not in text
        assert not p.phone or p.phone not in text
    assert BIRTH not in text and "exemplo.com.br" not in text


def test_the_event_card(client, events):
    demo, finished = events
    state = tournament_state_get(tournament=demo)
    card = share.event_card(state)
    assert card.title == "Copa Demo de Truco" and "27/04/2024" in card.subtitle and "Bar Classe A" in card.subtitle
    assert card.badge == "em andamento" and card.badge_tone == "live"
    assert card.facts[0] == ("7", "duplas") and card.facts[2] == ("2", "grupos")
    done, total = share.jogos_count(state)
    assert card.facts[1] == (f"{done} de {total}", "jogos jogados") and 0 < done < total
    response = client.get("/torneios/copa-demo/cartao.png")
    image = opened(response)
    assert response.content == card_png(card)  # the card served is the drawing of these values
    assert near(image.getpixel((600, 4)), GOLD)  # the brand's gold band on top
    assert count(image, FELT, (48, 250, 1152, 560)) > 2000  # the numbers, in the felt's green, on the panel

    over = share.event_card(tournament_state_get(tournament=finished))
    assert over.highlight == "Campeã: Os Zapeiros" and over.badge_tone == "finished"
    assert opened(client.get("/torneios/aabb-demo/cartao.png"))


def test_the_podium_card(client, events):
    _demo, finished = events
    card = share.podium_card(tournament_state_get(tournament=finished))
    assert [(r.place, r.name, r.medal) for r in card.rows] == [
        ("1º", "Os Zapeiros", "gold"),
        ("2º", "Manilha Velha", "silver"),
        ("3º", "Truco Ladrão", "bronze"),
    ]
    assert card.rows[0].detail == "Ana Souza e Bruno Lima"
    response = client.get("/torneios/aabb-demo/cartao-podio.png")
    image = opened(response)
    assert response.content == card_png(card)
    for medal in ("gold", "silver", "bronze"):  # a disc of each medal's colour
        assert count(image, MEDALS[medal], (48, 250, 200, 560)) > 800, medal
    # before the end: no podium yet, and the card says so
    waiting = share.podium_card(tournament_state_get(tournament=events[0]))
    assert waiting.rows == () and waiting.empty == "O pódio sai quando o torneio terminar."
    assert opened(client.get("/torneios/copa-demo/cartao-podio.png"))


def test_the_bracket_card(client, events):
    demo, finished = events
    card = share.bracket_card(tournament_state_get(tournament=demo))
    assert [name for name, _ in card.rounds] == ["Quartas de final", "Semifinais", "Final"]
    quarters = card.rounds[0][1]
    decided = [m for m in quarters if m.score_a or m.score_b]
    assert [(m.a, m.b, m.score_a, m.score_b, m.winner) for m in decided] == [
        ("Dupla Espadilha", "Truco Ladrão", "3", "1", 0)
    ]
    assert card.rounds[2][1][0].a == "a definir" and card.highlight == ""
    response = client.get("/torneios/copa-demo/cartao-chave.png")
    image = opened(response)
    assert response.content == card_png(card)
    assert count(image, WHITE, (48, 250, 1152, 560)) > 40000  # the jogos' boxes
    over = share.bracket_card(tournament_state_get(tournament=finished))
    assert over.highlight == "Campeã: Os Zapeiros"
    assert [name for name, _ in over.rounds] == ["Semifinais", "Final"]


def test_the_circuit_and_atleta_cards(client, season):
    standing = circuit_standing(circuit=season)
    card = share.circuit_card(standing)
    assert card.title == "Liga de Teste" and card.subtitle == "Ranking · 2 de 2 etapas"
    assert len(card.rows) == 8 and card.rows[0].place == "1º" and card.rows[0].value.endswith("pts")
    assert card.rows[0].medal == "gold"
    response = client.get("/circuitos/liga-teste/cartao.png")
    opened(response)
    assert response.content == card_png(card)

    key = standing.rows[0].key
    history = atleta_history(key=key)
    card = share.atleta_card(history)
    assert card.title == standing.rows[0].name and card.subtitle.startswith("Nível: ")
    assert card.facts[0] == ("2", "torneios") and card.facts[3][1] == "medalhas"
    response = client.get(f"/atletas/{key}/cartao.png")
    opened(response)
    assert response.content == card_png(card)
    assert opened(client.get("/cartao.png"))  # the site's own card


def test_no_private_data_on_any_card(events, season):
    demo, finished = events
    for t in (demo, finished, *Tournament.objects.filter(slug__startswith="etapa-")):
        state = tournament_state_get(tournament=t)
        for card in (share.event_card(state), share.podium_card(state), share.bracket_card(state)):
            no_private_data(card)
    standing = circuit_standing(circuit=season)
    no_private_data(share.circuit_card(standing))
    for row in standing.rows:
        no_private_data(share.atleta_card(atleta_history(key=row.key)))


def test_a_card_is_drawn_once_per_version(client, events, monkeypatch):
    demo, _finished = events
    drawn = []
    real = share.card_png
    monkeypatch.setattr(share, "card_png", lambda card: drawn.append(card) or real(card))
    first = client.get("/torneios/copa-demo/cartao.png")
    second = client.get("/torneios/copa-demo/cartao.png")
    assert len(drawn) == 1 and second.content == first.content  # served from the cache
    assert client.get("/torneios/copa-demo/cartao.png", headers={"If-None-Match": first["ETag"]}).status_code == 304
    # asked for with its current version, it may be kept a day; with another, a few minutes
    version = share.event_version(Tournament.objects.get(pk=demo.pk))
    assert "max-age=86400" in client.get(f"/torneios/copa-demo/cartao.png?v={version}")["Cache-Control"]
    assert "max-age=300" in client.get("/torneios/copa-demo/cartao.png?v=r0")["Cache-Control"]
    assert len(drawn) == 1  # a made-up ?v= is the same card: nothing new drawn or kept
    # a write gives the event a new version: a new card, with what changed
    tournament_update(tournament=Tournament.objects.get(pk=demo.pk), user=None, changes={"venue": "Bar Novo"})
    third = client.get("/torneios/copa-demo/cartao.png")
    assert len(drawn) == 2 and "Bar Novo" in drawn[1].subtitle and third.content != first.content
    assert third["ETag"] != first["ETag"]


def test_missing_and_draft(client, events, season):
    assert client.get("/torneios/nao-existe/cartao.png").status_code == 404
    assert client.get("/circuitos/nao-existe/cartao.png").status_code == 404
    assert client.get("/atletas/zzzzzzzz/cartao.png").status_code == 404
    assert client.post("/torneios/copa-demo/cartao.png").status_code == 405
    Tournament.objects.filter(slug="copa-demo").update(published=False)
    assert client.get("/torneios/copa-demo/cartao.png").status_code == 404  # a draft: its staff only
