"""The bracket and a dupla's path show what happens at the table and what awaits confirmation, labelled as the
jogos page labels it, while the bracket moves on counted results only (the printed chave shows only those); an
eliminated dupla's page says where and by whom; the format shows before the draw; times are written "14:00".

The knockout event here is the AABB starter's (8 duplas, best of 5 in the first round): one quarter-final at the
table, one decided and awaiting confirmation, one contested, one not begun.
"""

from __future__ import annotations

import html as html_lib
import io
import re
from datetime import time, timedelta

import pytest
from django.utils import timezone
from pypdf import PdfReader

from tests.support.event_states import _answer, _jogos, _user, knockout_live_make, live_line
from tournaments import presenters
from tournaments.caching import pages_clear
from tournaments.models import Jogo, StaffRole, Tournament
from tournaments.printing.contents import when_where
from tournaments.printing.page import Footer
from tournaments.selectors import tournament_state_cache_clear, tournament_state_get
from tournaments.setup.services import tournament_create, tournament_publish
from tournaments.sumula.commands import MaoAdd
from tournaments.sumula.services import Actor, sumula_mao_add

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    pages_clear()
    yield
    pages_clear()


def _get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def _text(page: str) -> str:
    page = re.sub(r"<head>.*?</head>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html_lib.unescape(page).split()).replace(" .", ".")


def _articles(page: str) -> list[tuple[str, str]]:
    """The bracket's jogos (their <article>), with the names of their two duplas joined by " x "."""
    out = []
    for article in re.findall(r'<article class="bj .*?</article>', page, flags=re.S):
        names = [html_lib.unescape(n) for n in re.findall(r'<span class="bj-name">.*?<bdi>(.*?)</bdi>', article)]
        out.append((" x ".join(names), article))
    return out


def _article(page: str, jogo: Jogo) -> str:
    wanted = f"{jogo.dupla_a.display_name} x {jogo.dupla_b.display_name}"
    return next(article for names, article in _articles(page) if names == wanted)


def _referee(t: Tournament):
    return StaffRole.objects.get(tournament=t, role=StaffRole.REFEREE).user


@pytest.fixture
def knockout_live(db) -> Tournament:
    return knockout_live_make()


def _round1(t: Tournament) -> list[Jogo]:
    return _jogos(t, round=1)


# --- item 1: the bracket and the path, live and provisional -------------------------------------------------


def test_a_jogo_at_the_table_shows_its_live_score_on_the_bracket_and_in_the_path(client, knockout_live):
    t = knockout_live
    live = _round1(t)[0]
    page = _get(client, f"/torneios/{t.slug}/chave/")
    article = _article(page, live)
    text = _text(article)
    assert "bj-live" in article and "em andamento" in text
    assert re.findall(r'<span class="bj-score">(\d*)', article) == ["1", "0"]  # partidas won
    assert f"12 x 0, {live_line(live, 2, 3, 4)}" in text  # the partida being played, as the jogos page says it
    assert "is-winner" not in article and "is-leading" not in article
    # the jogos page and "agora" say the same
    assert live_line(live, 2, 3, 4) in _text(_get(client, f"/torneios/{t.slug}/jogos/"))
    # the dupla's path, from its side (side b: 0 x 1)
    path = _text(_get(client, f"/torneios/{t.slug}/duplas/{live.dupla_b.key}/").split('id="chave-titulo"')[1])
    assert f"Quartas de final contra {live.dupla_a.display_name} 0 x 1 em andamento" in path
    # a mão later, the page (live, cached per live version) moves on
    sumula_mao_add(
        tournament=t,
        key=live.key,
        mao=MaoAdd.from_json({"id": "mao-7", "to": 0, "points": 1}),
        actor=Actor(user=_referee(t), method="session"),
    )
    assert live_line(live, 2, 4, 4) in _text(_article(_get(client, f"/torneios/{t.slug}/chave/"), live))


def test_a_provisional_result_shows_labelled_and_nobody_moves_on(client, knockout_live):
    t = knockout_live
    _live, awaiting, contested, later = _round1(t)
    page = _get(client, f"/torneios/{t.slug}/chave/")
    article = _article(page, awaiting)
    text = _text(article)
    assert "provisório: aguarda confirmação" in text and "bj-awaiting" in article
    assert re.findall(r'<span class="bj-score">(\d*)', article) == ["3", "0"]
    assert "12 x 3, 12 x 5, 12 x 7" in text
    assert "is-winner" not in article and "✓" not in article  # not counted: no winner
    assert re.search(
        r'bj-row is-leading">\s*<span class="bj-name"><bdi>' + re.escape(awaiting.dupla_a.display_name), article
    )
    contested_text = _text(_article(page, contested))
    assert "provisório: contestado" in contested_text
    later_text = _text(_article(page, later))
    assert "a jogar" in later_text
    # the semi-finals are still empty: the bracket moves on counted results only
    semis = [a for names, a in _articles(page) if names == "a definir x a definir"]
    assert len(semis) == 4  # two semi-finals, the final, the third-place jogo
    assert awaiting.dupla_a.display_name not in _text(page.split("Semifinais", 1)[1].split("Classificação")[0])
    # the dupla's path says the same, from its side
    path = _text(_get(client, f"/torneios/{t.slug}/duplas/{awaiting.dupla_b.key}/").split('id="chave-titulo"')[1])
    assert f"contra {awaiting.dupla_a.display_name} 0 x 3 provisório: aguarda confirmação" in path
    assert "Eliminada" not in path and "derrota" not in path
    # both duplas confirm: it counts, the winner moves on, and the bracket says so
    _answer(t, awaiting, awaiting.dupla_a)
    _answer(t, awaiting, awaiting.dupla_b)
    page = _get(client, f"/torneios/{t.slug}/chave/")
    article = _article(page, awaiting)
    assert "is-winner" in article and "provisório" not in _text(article)
    assert awaiting.dupla_a.display_name in _text(page.split("Semifinais", 1)[1])


def test_the_printed_chave_shows_counted_results_only(client, knockout_live):
    t = knockout_live
    tournament_state_cache_clear()  # a state read from scratch holds the súmulas as they stand
    state = tournament_state_get(tournament=t)
    page = presenters.bracket_present(state, whole=True, provisional=False)
    first = page.stages[0].rounds[0].jogos
    assert all(s.score is None and not s.winner and not s.leading for j in first for s in j.slots)
    assert all(j.live is None and not j.partidas for j in first)
    shown = presenters.bracket_present(state)  # the page: the same jogos as they stand
    assert [s.score for s in shown.stages[0].rounds[0].jogos[1].slots] == [3, 0]
    pdf = client.get(f"/torneios/{t.slug}/chave.pdf").content
    lines = PdfReader(io.BytesIO(pdf)).pages[0].extract_text().splitlines()
    assert not [line for line in lines if re.fullmatch(r"\d", line.strip())], lines  # no partidas won printed
    # once it counts, the sheet prints it
    _live, awaiting, _c, _l = _round1(t)
    _answer(t, awaiting, awaiting.dupla_a)
    _answer(t, awaiting, awaiting.dupla_b)
    pdf = client.get(f"/torneios/{t.slug}/chave.pdf").content
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert text.count(awaiting.dupla_a.display_name) == 2  # in its quarter-final and in its semi-final


# --- item 6: an eliminated dupla is told so ----------------------------------------------------------------


def test_a_dupla_knocked_out_is_told_where_and_by_whom(client, knockout_live):
    t = knockout_live
    _live, awaiting, _c, _l = _round1(t)
    loser, winner = awaiting.dupla_b, awaiting.dupla_a
    waiting = "aguarde o resultado dos outros jogos"
    before = _text(_get(client, f"/torneios/{t.slug}/duplas/{loser.key}/"))
    assert waiting in before and "Eliminada" not in before  # provisional: not out yet
    _answer(t, awaiting, awaiting.dupla_a)
    _answer(t, awaiting, awaiting.dupla_b)
    for url in (f"/torneios/{t.slug}/duplas/{loser.key}/", f"/d/{loser.token}/"):
        text = _text(_get(client, url))
        assert "Fora da disputa" in text, url
        assert f"Eliminada nas quartas de final por {winner.display_name}." in text, url
        assert waiting not in text, url
    assert "Eliminada" not in _text(_get(client, f"/torneios/{t.slug}/duplas/{winner.key}/"))


def test_a_finished_event_says_where_each_dupla_went_out_and_its_place(client, event_after):
    t = event_after
    knockout = Jogo.objects.filter(tournament=t, group__isnull=True).select_related("dupla_a", "dupla_b")
    final = knockout.filter(third_place=False).order_by("-round").first()
    semi = knockout.filter(third_place=False, round=final.round - 1).order_by("position").first()
    runner_up = _text(_get(client, f"/torneios/{t.slug}/duplas/{final.dupla_b.key}/"))
    assert "2º · prata" in runner_up
    assert f"Vice-campeã: perdeu a final para {final.dupla_a.display_name}." in runner_up
    semi_loser = _text(_get(client, f"/d/{semi.dupla_b.token}/"))
    assert f"Eliminada na semifinal por {semi.dupla_a.display_name}." in semi_loser
    assert re.search(r"Colocação final (🥉 )?[34]º", semi_loser)
    champion = _text(_get(client, f"/torneios/{t.slug}/duplas/{final.dupla_a.key}/"))
    assert "1º · ouro" in champion and "Eliminada" not in champion and "Não se classificou" not in champion
    # a dupla that did not qualify from its group: the group and its place there, and its final place
    state = tournament_state_get(tournament=t)
    groups = state.view.stages[0]
    table = groups.tables[1]
    third = table.rows[2]
    page = _text(_get(client, f"/torneios/{t.slug}/duplas/{third.dupla}/"))
    assert f"Não se classificou no grupo {table.key}: 3º lugar." in page
    assert re.search(r"Colocação final [5-8]º", page)


# --- item 5: the format before the draw ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("starter", "lines"),
    [
        ("aabb", ["Mata-mata — melhor de 5 na 1ª rodada e de 3 nas seguintes"]),
        (
            "fenacef",
            [
                "Fase de grupos — grupos de 4 duplas, melhor de 3; 2 classificadas por grupo",
                "Mata-mata — melhor de 5",
            ],
        ),
        (
            "blank",  # the preset's format (FENACEF): groups of 4, then the knockout
            [
                "Fase de grupos — grupos de 4 duplas, melhor de 3; 2 classificadas por grupo",
                "Mata-mata — melhor de 5",
            ],
        ),
    ],
)
def test_the_format_set_at_the_desk_shows_before_the_draw(client, starter, lines):
    organizer = _user(f"comissao-{starter}")
    t = tournament_create(
        user=organizer, starter=starter, name=f"Copa {starter}", date=timezone.localdate() + timedelta(days=9)
    )
    tournament_publish(tournament=t, user=organizer)
    page = _text(_get(client, f"/torneios/{t.slug}/").split('id="regulamento"')[1].split("</section>")[0])
    assert "ainda não foi definido" not in page
    for line in lines:
        assert line in page, (line, page)
    assert ("Pontos classificatórios" in page) == (starter != "aabb")


def test_after_the_draw_the_format_is_what_the_stages_say(client, knockout_live):
    page = _text(_get(client, f"/torneios/{knockout_live.slug}/").split('id="regulamento"')[1].split("</section>")[0])
    assert (
        "Quartas de final: melhor de 5" in page and "Semifinais: melhor de 3" in page and "Final: melhor de 3" in page
    )
    assert "nas seguintes" not in page


# --- item 14: one way to write a time ----------------------------------------------------------------------


def test_times_are_written_the_same_way_everywhere(client, knockout_live):
    t = knockout_live
    assert t.start_time == time(14, 0)  # the AABB starter's start time
    assert presenters.time_br(time(9, 5)) == "09:05"
    event = _text(_get(client, f"/torneios/{t.slug}/"))
    assert "Início 14:00" in event and "14h00" not in event
    assert re.search(r"Atualizado às \d\d:\d\d", event)
    signup = _text(_get(client, f"/torneios/{t.slug}/inscricao/"))
    assert "14:00" in signup and "14h00" not in signup
    assert re.fullmatch(r"gerado em \d\d/\d\d/\d{4} às \d\d:\d\d", Footer.now(t.name).generated)
    assert "14:00" in when_where(t) and "14h00" not in when_where(t)
