"""Every public page says what it is when shared: a meta description, the Open Graph tags with its card (absolute,
with the version it shows, and answered as a PNG), and on the event, circuit and atleta pages a "Compartilhar no
WhatsApp" link; the desk's pages and a dupla's private page say none of it."""

import re
from html import unescape
from urllib.parse import unquote, urlsplit

import pytest

from tests.circuits.support import circuit_file, etapa_file
from tests.support.files import BIRTH, demo_file, knockout_file
from tournaments.circuits.file import circuit_import
from tournaments.circuits.selectors import circuit_standing
from tournaments.models import Dupla, Jogo, StaffRole, Tournament

pytestmark = pytest.mark.django_db

SITE = "https://zap.example.org"


@pytest.fixture
def world(load_file, settings):
    settings.SITE_URL = SITE
    load_file(demo_file(load_file))
    load_file(knockout_file())
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    return circuit_import(data=circuit_file())


def metas(body: str) -> dict[str, str]:
    found = {}
    for _attr, name, content in re.findall(r'<meta (name|property)="([^"]+)" content="([^"]*)">', body):
        found[name] = unescape(content)
    return found


def public_pages(circuit) -> list[str]:
    jogo = Jogo.objects.filter(tournament__slug="copa-demo").exclude(dupla_a=None).order_by("id").first()
    atleta = circuit_standing(circuit=circuit).rows[0].key
    return [
        "/torneios/",
        "/torneios/copa-demo/",
        "/torneios/copa-demo/classificacao/",
        "/torneios/copa-demo/chave/",
        "/torneios/copa-demo/jogos/",
        "/torneios/copa-demo/tv/",
        "/torneios/copa-demo/duplas/",
        "/torneios/copa-demo/duplas/d1/",
        f"/torneios/copa-demo/jogos/{jogo.key}/",
        "/torneios/aabb-demo/",
        "/torneios/aabb-demo/chave/",
        "/ranking/",
        f"/atletas/{atleta}/",
        "/circuitos/",
        "/circuitos/liga-teste/",
        "/ajuda/",
    ]


def test_every_public_page_has_a_description_and_its_card(client, world):
    for path in public_pages(world):
        response = client.get(path)
        assert response.status_code == 200, path
        body = response.content.decode()
        tags = metas(body)
        assert len(tags.get("description", "")) >= 30, (path, tags.get("description"))
        assert tags["og:description"] == tags["description"], path
        assert tags["og:title"] and tags["og:site_name"] == "Zap" and tags["og:type"] == "website", path
        assert tags["og:url"] == SITE + path, path
        assert tags["og:image"].startswith(SITE + "/") and tags["twitter:card"] == "summary_large_image", path
        assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630"), path
        assert BIRTH not in tags["description"] and "@" not in tags["description"], path
        image = urlsplit(tags["og:image"])
        card = client.get(image.path + (f"?{image.query}" if image.query else ""))
        assert card.status_code == 200 and card["Content-Type"] == "image/png", (path, tags["og:image"])
        assert card.content[:8] == b"\x89PNG\r\n\x1a\n", path


def test_each_page_links_the_card_of_what_it_shows(client, world):
    demo = Tournament.objects.get(slug="copa-demo")
    finished = Tournament.objects.get(slug="aabb-demo")
    tags = metas(client.get("/torneios/copa-demo/").content.decode())
    assert tags["og:image"] == f"{SITE}/torneios/copa-demo/cartao.png?v=r{demo.results_version}"
    assert tags["og:title"] == "Copa Demo de Truco"
    assert "27/04/2024" in tags["description"] and "em andamento" in tags["description"]
    tags = metas(client.get("/torneios/copa-demo/chave/").content.decode())
    assert tags["og:image"] == f"{SITE}/torneios/copa-demo/cartao-chave.png?v=r{demo.results_version}"
    assert tags["og:title"] == "Chave · Copa Demo de Truco"
    tags = metas(client.get("/torneios/aabb-demo/").content.decode())  # over: the podium
    assert tags["og:image"] == f"{SITE}/torneios/aabb-demo/cartao-podio.png?v=r{finished.results_version}"
    assert "Pódio: 1º Os Zapeiros; 2º Manilha Velha; 3º Truco Ladrão." in tags["description"]
    tags = metas(client.get("/circuitos/liga-teste/").content.decode())
    assert tags["og:image"] == f"{SITE}/circuitos/liga-teste/cartao.png?v=v{world.version}"
    assert tags["description"].startswith("Ranking do circuito Liga de Teste: 8 atletas, 2 de 2 etapas")
    tags = metas(client.get("/torneios/").content.decode())
    assert tags["og:image"] == f"{SITE}/cartao.png"


def whatsapp(body: str) -> str:
    links = re.findall(r'<a class="share-whatsapp" href="([^"]+)" target="_blank" rel="noopener">', body)
    assert len(links) == 1, links
    href = unescape(links[0])
    assert href.startswith("https://wa.me/?text=")
    return unquote(href.removeprefix("https://wa.me/?text="))


def test_the_whatsapp_link(client, world):
    for path in ("/torneios/copa-demo/", "/torneios/copa-demo/classificacao/", "/torneios/aabb-demo/chave/"):
        text = whatsapp(client.get(path).content.decode())
        assert text.endswith(SITE + path) and "no Zap" in text, text
    text = whatsapp(client.get("/torneios/copa-demo/chave/").content.decode())
    assert text == f"Chave · Copa Demo de Truco — no Zap: {SITE}/torneios/copa-demo/chave/"
    text = whatsapp(client.get("/circuitos/liga-teste/").content.decode())
    assert text == f"Ranking · Liga de Teste — no Zap: {SITE}/circuitos/liga-teste/"
    atleta = circuit_standing(circuit=world).rows[0]
    text = whatsapp(client.get(f"/atletas/{atleta.key}/").content.decode())
    assert text == f"{atleta.name} — no Zap: {SITE}/atletas/{atleta.key}/"


def test_no_share_tags_on_private_pages(client, world, django_user_model):
    demo = Tournament.objects.get(slug="copa-demo")
    owner = django_user_model.objects.create_user("comissao", password="x-senha-longa-1")
    StaffRole.objects.create(tournament=demo, user=owner, role=StaffRole.ORGANIZER)
    dupla = Dupla.objects.filter(tournament=demo).order_by("id").first()
    body = client.get(f"/d/{dupla.token}/").content.decode()
    assert "og:" not in body and 'name="description"' not in body and "wa.me" not in body
    client.force_login(owner)
    body = client.get("/organizar/copa-demo/").content.decode()
    assert "og:" not in body and "wa.me" not in body
