"""Event day: the event page in each phase, the list of events, the duplas' pages, the TV mode, standings with
nothing played, the language switch, round times, the city, compression and htmx, and the cost of each page.

The events come from tests/support/event_states.py (made through the desk's own services); larger twins of them, made
the same way, are built here for the query counts.
"""

from __future__ import annotations

import copy
import gzip
import html as html_lib
import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.support.event_states import (
    COMPETITION_SEED,
    PAIRING_SEED,
    _answer,
    _confirmed,
    _group_rank,
    _jogos,
    _mesas,
    _pairs,
    _result,
    _signups,
    _user,
    live_line,
)
from tests.support.files import base_file, groups_file, import_errors, knockout_file
from tournaments.caching import pages_clear
from tournaments.draws import services as draws
from tournaments.interchange.writer import tournament_export
from tournaments.models import Draw, Dupla, GroupEntry, Jogo, Player, Registration, StaffRole, Stage, Tournament
from tournaments.roles import role_grant
from tournaments.selectors import tournament_state_cache_clear
from tournaments.services import tournament_import
from tournaments.setup.services import format_update, tournament_create, tournament_publish, tournament_update
from tournaments.sumula.commands import MaoAdd
from tournaments.sumula.services import Actor, sumula_mao_add

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    """Rendered pages are kept per tournament version: a page of a previous test must not answer for this one."""
    pages_clear()
    yield
    pages_clear()


# --- helpers ---------------------------------------------------------------------------------------


def _get(client, url: str, status: int = 200, **extra) -> str:
    response = client.get(url, **extra)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def _text(page: str) -> str:
    """The visible text of a page, tags removed and spaces collapsed (as a reader meets it)."""
    page = re.sub(r"<head>.*?</head>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html_lib.unescape(page).split())


def _section(page: str, start: str, end: str | None = None) -> str:
    """The part of ``page`` from the first ``start`` to the next ``end`` (or to the end)."""
    assert start in page, start
    rest = page.split(start, 1)[1]
    return rest.split(end, 1)[0] if end and end in rest else rest


def _event(t: Tournament) -> str:
    return f"/torneios/{t.slug}/"


def _dupla_url(t: Tournament, key: str) -> str:
    return f"/torneios/{t.slug}/duplas/{key}/"


def _name(dupla: Dupla) -> str:
    return dupla.display_name


def _live_jogo(t: Tournament) -> Jogo:
    return Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=t, status=Jogo.IN_PROGRESS)


def _organizer(t: Tournament):
    return StaffRole.objects.get(tournament=t, role=StaffRole.ORGANIZER).user


def _referee(t: Tournament):
    return StaffRole.objects.get(tournament=t, role=StaffRole.REFEREE).user


def _has_htmx(page: str) -> bool:
    return re.search(r"<script[^>]+htmx[^>]*>", page) is not None


def _standings_tables(page: str) -> list[str]:
    return re.findall(r'<table class="(?:standings|tv-table)">.*?</table>', page, flags=re.S)


def _rank_cells(table: str) -> list[str]:
    """The first cell of each body row: the rank ("1º") or nothing."""
    body = table.split("<tbody>", 1)[1]
    return [html_lib.unescape(c).strip() for c in re.findall(r"<tr[^>]*><td[^>]*>(.*?)</td>", body, flags=re.S)]


# --- the event page, phase by phase ---------------------------------------------------------------


def test_before_the_draw_the_page_lists_registrations_by_name_and_the_waiting_list(client, event_before):
    t = event_before
    regs = list(Registration.objects.filter(tournament=t).select_related("player1", "player2").order_by("order", "id"))
    names = [" e ".join(p.name for p in (r.player1, r.player2) if p) for r in regs]
    accepted, waiting = names[:-2], names[-2:]  # the fixture: the last 2 individuals wait (12 athletes, 10 places)
    page = _get(client, _event(t))
    text = _text(page)
    registrations = _text(_section(page, 'id="inscritos"', "</section>"))
    assert f"{len(accepted)} inscrições aceitas" in registrations
    for name in accepted:
        assert name in _text(_section(page, 'id="inscritos"', "Lista de espera")), name
    assert "Diego Pereira e Elisa Melo" in registrations  # the pair that registered together, together
    waiting_part = _text(_section(page, "Lista de espera", "</section>"))
    assert waiting_part.index(waiting[0]) < waiting_part.index(waiting[1])  # in the waiting list's order
    for name in accepted:
        assert name not in waiting_part, name
    assert "sorteio das duplas deixou sem par" not in text  # no pairing draw yet
    assert "nenhuma dupla formada ainda · limite de 5 duplas" in text
    assert f'href="/torneios/{t.slug}/inscricao/"' in page and "Inscreva-se" in text
    assert f'href="/torneios/{t.slug}/exportar.json"' in page and "Baixar os dados (JSON)" in text
    assert "Agora" not in _section(page, "<main", 'class="big-links"')
    assert "Atualizado às" not in text and "hx-trigger" not in page
    assert "Sorteios" not in text


def test_after_the_pairing_draw_the_odd_one_out_is_shown_waiting(client, event_drawn):
    """The pairing draw paired 12 of 13 athletes (16 places): the one left over stays on the waiting list
    (docs/regras.md §2 step 3) and is shown there, instead of vanishing from every page."""
    t = event_drawn
    left = Registration.objects.select_related("player1").get(
        tournament=t, player2__isnull=True, status=Registration.WAITING
    )
    page = _get(client, _event(t))
    waiting = _text(_section(page, "Lista de espera", "</ol>"))
    assert left.player1.name in waiting
    assert "o sorteio das duplas deixou sem par" in page.replace("Quem o sorteio", "quem o sorteio").lower()


def test_the_drawn_event_shows_its_draws_and_the_first_jogos_called(client, event_drawn):
    t = event_drawn
    organizer = _organizer(t)
    organizer.first_name, organizer.last_name = "Marta", "Quintela"
    organizer.save()
    page = _get(client, _event(t))
    text = _text(page)
    assert "6 duplas formadas · limite de 8 duplas" in text
    # the draws, as public records: what, when, by whom (the full name, never the username), the seed, the result
    draws_part = _text(_section(page, 'id="sorteios"', "</section>"))
    pairing = Draw.objects.get(tournament=t, kind=Draw.PAIRING)
    assert "Formação das duplas" in draws_part
    assert timezone.localtime(pairing.performed_at).strftime("%d/%m/%Y %H:%M") in draws_part
    assert str(PAIRING_SEED) in draws_part and str(COMPETITION_SEED) in draws_part
    assert "Marta Quintela" in draws_part and organizer.username not in page
    for dupla in Dupla.objects.filter(tournament=t).select_related("player1", "player2"):
        assert (
            f"{dupla.player1.name} e {dupla.player2.name}" in draws_part
            or f"{dupla.player2.name} e {dupla.player1.name}" in draws_part
        ), dupla
    groups = {}
    for entry in (
        GroupEntry.objects.filter(group__stage__tournament=t).select_related("group", "dupla").order_by("order")
    ):
        groups.setdefault(entry.group.key, []).append(_name(entry.dupla))
    for key, members in groups.items():
        assert f"Grupo {key}: {', '.join(members)}" in draws_part, key
    # the first jogos called, at their mesas
    called = _text(_section(page, 'id="chamados"', "</section>"))
    assert "Primeiros jogos: Rodada 1" in called
    first_round = _jogos(t, round=1)
    assert first_round
    for jogo in first_round:
        assert f"Mesa {jogo.mesa} Rodada 1" in called, jogo.key
        assert _name(jogo.dupla_a) in called and _name(jogo.dupla_b) in called
    assert "Agora" not in _section(page, "<main", 'class="big-links"') and not _has_htmx(page)


def test_during_the_event_the_page_shows_what_happens_now_and_is_polled(client, event_during):
    t = event_during
    live = _live_jogo(t)
    page = _get(client, _event(t))
    agora = _section(page, '<div id="agora"', 'class="big-links"')
    assert 'hx-trigger="every 10s"' in agora and f'hx-get="{_event(t)}"' in agora  # a jogo at a mesa: every 10 s
    assert _has_htmx(page)
    text = _text(agora)
    assert "Agora" in text and "1 jogo na mesa" in text
    in_play = _text(_section(agora, 'id="na-mesa"', "</section>"))
    assert f"Mesa {live.mesa}" in in_play and "em andamento" in in_play
    assert _name(live.dupla_a) in in_play and _name(live.dupla_b) in in_play
    assert live_line(live, 2, 3, 4) in in_play  # the live score of the partida being played, each dupla named
    called = _text(_section(agora, 'id="chamados"', "</section>"))
    assert "Próximos jogos: Rodada 2" in called
    not_begun = [j for j in _jogos(t, round=2) if j.status == Jogo.SCHEDULED]
    assert len(not_begun) == 2
    for jogo in not_begun:
        assert f"Mesa {jogo.mesa} Rodada 2" in called and _name(jogo.dupla_a) in called
    latest = _text(_section(agora, 'id="resultados"', "</section>"))
    assert "provisório: contestado" in latest and "provisório: aguarda confirmação" in latest
    assert "Rodada 1" in latest
    assert re.search(r"Atualizado às \d\d:\d\d", text)
    # the poll gets the block alone
    partial = _get(client, _event(t), headers={"HX-Request": "true", "HX-Target": "agora"})
    assert partial.lstrip().startswith('<div id="agora"') and "<html" not in partial
    assert live_line(live, 2, 3, 4) in _text(partial) and 'id="chamados"' in partial  # the jogos called come with it


def test_after_the_event_the_page_shows_the_podium(client, event_after):
    t = event_after
    page = _get(client, _event(t))
    text = _text(page)
    podium = _text(_section(page, 'id="podio"', "</section>"))
    final = (
        Jogo.objects.select_related("dupla_a", "dupla_b")
        .filter(tournament=t, group__isnull=True, third_place=False)
        .order_by("-round")
        .first()
    )
    third = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=t, third_place=True)
    # in the knockout the better placed dupla (side a) always wins
    assert f"1º · ouro {_name(final.dupla_a)}" in podium
    assert f"2º · prata {_name(final.dupla_b)}" in podium
    assert f"3º · bronze {_name(third.dupla_a)}" in podium
    # one set of links after the podium (walk review #13): the big ones, "Classificação" leading to the final one
    links = _section(page, 'id="podio"', 'id="sobre"')
    assert links.count(f'href="/torneios/{t.slug}/classificacao/?ver=geral"') == 1 and "Classificação final" in links
    assert links.count(f'href="/torneios/{t.slug}/chave/"') == 1
    assert f'href="/torneios/{t.slug}/classificacao/"' not in links
    assert "Classificação final completa" not in text
    assert "Agora" not in _text(_section(page, "<main", 'class="big-links"'))
    assert "Atualizado às" not in text
    assert "hx-trigger" not in page and not _has_htmx(page)
    assert "8 duplas formadas" in text


@pytest.mark.parametrize("state", ["event_before", "event_drawn", "event_during", "event_after"])
def test_no_private_data_on_the_event_day_pages(client, request, state):
    t = request.getfixturevalue(state)
    secrets: set[str] = set()
    for p in Player.objects.filter(tournament=t):
        if p.birth_date:
            secrets |= {p.birth_date.isoformat(), p.birth_date.strftime("%d/%m/%Y")}
        secrets |= {p.email, p.phone}
    secrets |= set(get_user_model().objects.values_list("username", flat=True))
    for d in Dupla.objects.filter(tournament=t):
        secrets |= {d.token, d.pin_hash}
    secrets.discard("")
    secrets.discard(None)
    assert any("@" in s for s in secrets) or state in ("event_during", "event_after")
    urls = [
        _event(t),
        f"/torneios/{t.slug}/duplas/",
        f"/torneios/{t.slug}/duplas/?q=a",
        f"/torneios/{t.slug}/tv/",
        f"/torneios/{t.slug}/exportar.json",
    ]
    urls += [_dupla_url(t, k) for k in Dupla.objects.filter(tournament=t).values_list("key", flat=True)]
    for url in urls:
        body = _get(client, url)
        for secret in secrets:
            assert secret not in body, (url, secret)
        assert "exemplo.com.br" not in body, url


# --- the list of events ---------------------------------------------------------------------------------


def _list_sections(page: str) -> dict[str, str]:
    parts = re.findall(r'<section class="event-section" aria-labelledby="secao-([a-z-]+)">(.*?)</section>', page, re.S)
    return {key: _text(body) for key, body in parts}


def test_the_list_has_live_upcoming_and_finished_sections(client, event_before, event_drawn, event_during, event_after):
    cities = {
        event_before: "Campinas/SP",
        event_drawn: "São José dos Campos/SP",
        event_during: "Ribeirão Preto/SP",
        event_after: "Campinas/SP",
    }
    for t, city in cities.items():
        tournament_update(tournament=t, user=_organizer(t), changes={"city": city})
    page = _get(client, "/torneios/")
    assert page.index(">Ao vivo agora<") < page.index(">Próximos<") < page.index(">Encerrados<")
    sections = _list_sections(page)
    assert set(sections) == {"ao-vivo", "proximos", "encerrados"}
    assert "Campeonato Regional de Truco" in sections["ao-vivo"] and "em andamento" in sections["ao-vivo"]
    assert "Ribeirão Preto/SP" in sections["ao-vivo"] and "12 duplas" in sections["ao-vivo"]
    upcoming = sections["proximos"]
    # the soonest first: the drawn event is in 7 days, the one taking registrations in 30
    assert upcoming.index("Copa Outono de Truco") < upcoming.index("Copa Primavera de Truco")
    assert "Taça Cidade de Truco" in sections["encerrados"] and "encerrado" in sections["encerrados"]
    for key, body in sections.items():
        others = [
            n
            for k, n in (
                ("ao-vivo", "Campeonato Regional"),
                ("proximos", "Copa Outono"),
                ("proximos", "Copa Primavera"),
                ("encerrados", "Taça Cidade"),
            )
            if k != key
        ]
        for name in others:
            assert name not in body, (key, name)


def test_the_list_search_by_name_city_or_venue_ignores_case_and_accents(
    client, event_before, event_drawn, event_during, event_after
):
    tournament_update(tournament=event_before, user=_organizer(event_before), changes={"city": "Campinas/SP"})
    tournament_update(tournament=event_drawn, user=_organizer(event_drawn), changes={"city": "São José dos Campos"})
    tournament_update(tournament=event_after, user=_organizer(event_after), changes={"city": "Ribeirão Preto"})

    def found(q: str) -> set[str]:
        page = _get(client, "/torneios/", data={"q": q})
        names = {
            "Copa Primavera de Truco",
            "Copa Outono de Truco",
            "Campeonato Regional de Truco",
            "Taça Cidade de Truco",
        }
        body = "".join(_list_sections(page).values())
        return {n for n in names if n in body}

    assert found("CAMPINAS") == {"Copa Primavera de Truco"}
    assert found("sao jose") == {"Copa Outono de Truco"}  # São José, without the accents
    assert found("ribeirao") == {"Taça Cidade de Truco"}
    assert found("ginasio") == {"Campeonato Regional de Truco"}  # the venue, Ginásio Municipal
    assert found("bancários") == {"Copa Primavera de Truco"}  # venue "Clube dos Bancários, salão 2"
    assert found("TAÇA") == {"Taça Cidade de Truco"}
    assert found("copa") == {"Copa Primavera de Truco", "Copa Outono de Truco"}
    page = _get(client, "/torneios/", data={"q": "copa"})
    assert "2 torneios encontrados para “copa”" in _text(page) and 'value="copa"' in page
    empty = _get(client, "/torneios/", data={"q": "Manaus"})
    assert "Nenhum torneio com esse nome ou cidade." in empty
    assert not _list_sections(empty)
    assert len(_list_sections(_get(client, "/torneios/", data={"q": "   "}))) == 3  # blank: everything


# --- the duplas: the list, the search, one dupla's page -------------------------------------------------


def test_the_duplas_page_lists_every_dupla_and_searches_by_dupla_or_player(client, event_during, load_file):
    t = event_during
    duplas = list(Dupla.objects.filter(tournament=t).select_related("player1", "player2"))
    page = _get(client, f"/torneios/{t.slug}/duplas/")
    for d in duplas:
        assert f'href="{_dupla_url(t, d.key)}"' in page, d.key
    assert page.count('<li><a href="/torneios/') == len(duplas) == 12
    karina = next(d for d in duplas if "Karina Gomes" in (d.player1.name, d.player2.name))
    found = _get(client, f"/torneios/{t.slug}/duplas/", data={"q": "KARINA"})
    assert f'href="{_dupla_url(t, karina.key)}"' in found and found.count('<li><a href="/torneios/') == 1
    assert "1 dupla encontrada para “KARINA”" in _text(found)
    fabio = _get(client, f"/torneios/{t.slug}/duplas/", data={"q": "fabio barbosa"})  # Fábio, without the accent
    assert "Fábio Barbosa" in fabio and fabio.count('<li><a href="/torneios/') == 1
    nothing = _get(client, f"/torneios/{t.slug}/duplas/", data={"q": "Zequinha"})
    assert "Nenhuma dupla com esse nome" in nothing and '<li><a href="/torneios/' not in nothing
    # by the dupla's own name, or one of its players' names
    named = load_file(groups_file(slug="com-nomes"))
    by_name = _get(client, "/torneios/com-nomes/duplas/", data={"q": "zapeiros"})
    assert "Os Zapeiros" in by_name and by_name.count('<li><a href="/torneios/') == 1
    by_player = _get(client, "/torneios/com-nomes/duplas/", data={"q": "Ana Souza"})
    assert "Os Zapeiros" in by_player and "Ana Souza e Bruno Lima" in by_player
    assert named.slug == "com-nomes"


def test_before_the_draw_there_is_no_dupla_yet(client, event_before):
    page = _get(client, f"/torneios/{event_before.slug}/duplas/")
    assert "Nenhuma dupla formada ainda." in page
    _get(client, _dupla_url(event_before, "d1"), status=404)


def test_the_page_of_a_dupla_at_the_table_says_it_is_playing_now(client, event_during):
    t = event_during
    live = _live_jogo(t)
    me, them = live.dupla_b, live.dupla_a  # side b: the live score seen from its side
    page = _get(client, _dupla_url(t, me.key))
    card = _section(page, '<section class="card next-jogo', "</section>")
    assert "is-live" in page.split('<section class="card next-jogo', 1)[1][:20]
    card_text = _text(card)
    assert "Jogando agora" in card_text and f"Mesa {live.mesa}" in card_text
    assert f"contra {_name(them)}" in card_text
    assert "0 x 12, partida 2: 4 x 3" in card_text  # partida 1 lost 0 x 12; partida 2 at 4 x 3, from its side
    assert f'href="/torneios/{t.slug}/jogos/{live.key}/"' in card
    # its jogos, every one, from its side
    mine = list(
        Jogo.objects.filter(tournament=t, group__isnull=False).filter(dupla_a=me)
        | Jogo.objects.filter(tournament=t, group__isnull=False).filter(dupla_b=me)
    )
    jogos = _section(page, 'id="jogos-titulo"', "</section>")
    assert jogos.count('<div class="jogo-mesa">') == len(mine) == 3
    for jogo in mine:
        other = jogo.dupla_b if jogo.dupla_a_id == me.id else jogo.dupla_a
        assert _name(other) in _text(jogos)
    # its group table, its row marked
    tables = _standings_tables(page)
    assert len(tables) == 1
    mine_rows = re.findall(r'<tr class="[^"]*is-me[^"]*">.*?</tr>', tables[0], flags=re.S)
    assert len(mine_rows) == 1 and _name(me) in _text(mine_rows[0])
    assert "Caminho na chave" not in page  # no knockout jogo yet
    assert _has_htmx(page) and 'hx-trigger="every 10s"' in page
    # a dupla waiting for its next jogo: "Próximo jogo", at its mesa
    waiting = next(j for j in _jogos(t, round=2) if j.status == Jogo.SCHEDULED)
    other_page = _text(
        _section(_get(client, _dupla_url(t, waiting.dupla_a.key)), '<section class="card next-jogo', "</section>")
    )
    assert "Próximo jogo" in other_page and "Jogando agora" not in other_page
    assert f"Mesa {waiting.mesa}" in other_page and "Rodada 2" in other_page


def test_the_private_page_shows_the_same_body_and_the_confirmations(client, event_during):
    t = event_during
    live = _live_jogo(t)
    page = _get(client, f"/d/{live.dupla_b.token}/")
    assert "Jogando agora" in page and f"Mesa {live.mesa}" in _text(page)
    assert "Confirmar súmulas" in page and "Seus jogos" in page
    assert re.search(r'<tr class="[^"]*is-me', page)
    # the fixture's half-confirmed jogo (the third of round 2) waits for the other dupla's answer
    half = _jogos(t, round=2)[2]
    other = _get(client, f"/d/{half.dupla_b.token}/")
    confirm = _text(_section(other, 'id="confirmar"', "</section>"))
    assert f"contra {_name(half.dupla_a)}" in confirm and "A dupla adversária já confirmou." in confirm
    assert "Confirmar a súmula" in confirm


def test_the_page_of_a_finished_dupla_shows_its_place_and_its_path(client, event_after):
    t = event_after
    final = (
        Jogo.objects.select_related("dupla_a", "dupla_b")
        .filter(tournament=t, group__isnull=True, third_place=False)
        .order_by("-round")
        .first()
    )
    champion = _get(client, _dupla_url(t, final.dupla_a.key))
    text = _text(champion)
    assert "Colocação final" in text and "1º · ouro" in text
    path = _text(_section(champion, 'id="chave-titulo"', "</section>\n</section>"))
    assert "Caminho na chave" in champion and "Semifinais" in path and "Final" in path and "Campeã!" in path
    assert f"contra {_name(final.dupla_b)}" in path
    runner_up = _text(_get(client, _dupla_url(t, final.dupla_b.key)))
    assert "2º · prata" in runner_up and "Eliminada nesta fase." in runner_up
    assert "Atualizado às" not in text and "hx-trigger" not in champion


def test_an_unknown_dupla_is_404(client, event_during):
    t = event_during
    for key in ("nao-existe", "r99", "r1/outra"):
        response = client.get(_dupla_url(t, key))
        assert response.status_code == 404, key
        assert "Página não encontrada" in response.content.decode()
    assert client.get("/torneios/nao-existe/duplas/r1/").status_code == 404
    assert client.get("/torneios/nao-existe/duplas/").status_code == 404
    assert client.get("/torneios/nao-existe/tv/").status_code == 404


# --- the TV mode ----------------------------------------------------------------------------------


def _slides(page: str) -> list[str]:
    return [_text(s) for s in re.findall(r'<section class="tv-slide[^"]*".*?</section>', page, flags=re.S)]


def test_the_tv_cycles_through_jogos_standings_and_bracket(client, event_during, event_after, event_before):
    live = _live_jogo(event_during)
    page = _get(client, f"/torneios/{event_during.slug}/tv/")
    assert '<script src="/static/js/tv.js" defer></script>' in page and 'data-seconds="' in page
    slides = _slides(page)
    titles = [s.split(" Mesa ")[0] for s in slides]
    assert titles[0].startswith("Jogos nas mesas")
    assert f"Mesa {live.mesa}" in slides[0] and live_line(live, 2, 3, 4) in slides[0]
    assert any(s.startswith("Próximos jogos · Rodada 2") for s in slides)
    assert any(s.startswith("Últimos resultados") for s in slides)
    assert any(s.startswith("Classificação · Grupos A a C") for s in slides)
    assert "Ver a súmula" not in page  # nothing to click on a TV
    after = _get(client, f"/torneios/{event_after.slug}/tv/")
    slides = _slides(after)
    assert slides[0].startswith("Classificação final") and re.search(r"1º\s+ouro", slides[0])
    assert any(s.startswith("Chave") and "Final" in s and "Campeã" in s for s in slides)
    before = _slides(_get(client, f"/torneios/{event_before.slug}/tv/"))
    assert before == ["Nada para mostrar ainda Os jogos aparecem aqui depois do sorteio."]


def test_a_finished_event_does_not_say_when_it_was_updated(client, event_after):
    t = event_after
    for url in (
        _event(t),
        f"/torneios/{t.slug}/duplas/",
        _dupla_url(t, "r1"),
        f"/torneios/{t.slug}/classificacao/",
        f"/torneios/{t.slug}/chave/",
        f"/torneios/{t.slug}/jogos/",
        f"/torneios/{t.slug}/tv/",
    ):
        assert "Atualizado às" not in _get(client, url), url


# --- standings: nothing played, no ranks ------------------------------------------------------------


def _assert_unranked(tables: list[str], where: str) -> None:
    assert tables, where
    for table in tables:
        assert all(cell == "" for cell in _rank_cells(table)), (where, _rank_cells(table))
        assert "is-tied" not in table and "empate: aguarda sorteio" not in table, where
        assert "decidido por" not in table, where


def test_a_group_with_nothing_played_shows_no_rank_and_no_tie(client, event_drawn):
    t = event_drawn
    standings = _get(client, f"/torneios/{t.slug}/classificacao/")
    groups = re.findall(r'<section class="card group-card".*?</section>', standings, flags=re.S)
    assert len(groups) == 2
    for group in groups:
        assert 'class="pill pill-upcoming"' in group
        assert "0 de 3 jogos encerrados" in group
    _assert_unranked(_standings_tables(standings), "classificação")
    assert "Há duplas empatadas em tudo" not in standings
    _assert_unranked(_standings_tables(_get(client, f"/torneios/{t.slug}/tv/")), "tv")
    _assert_unranked(_standings_tables(_get(client, _dupla_url(t, "r1"))), "página da dupla")
    # the group as drawn: its rows in the draw's order
    order = [
        _name(e.dupla)
        for e in GroupEntry.objects.filter(group__stage__tournament=t, group__key="A")
        .select_related("dupla")
        .order_by("order")
    ]
    table_a = _text(_standings_tables(standings)[0])
    assert [table_a.index(n) for n in order] == sorted(table_a.index(n) for n in order)


def test_a_result_not_yet_counted_ranks_nobody_and_a_counted_one_ranks_its_group(client, event_drawn):
    t = event_drawn
    referee = _referee(t)
    jogo = next(j for j in _jogos(t, round=1) if j.group.key == "A")
    rank = _group_rank(t)
    _result(t, jogo, rank, referee=referee)  # recorded by the referee, not confirmed: provisional
    page = _get(client, f"/torneios/{t.slug}/classificacao/")
    _assert_unranked(_standings_tables(page), "resultado provisório")
    _answer(t, jogo, jogo.dupla_a)
    _answer(t, jogo, jogo.dupla_b)  # both duplas confirm: it counts
    page = _get(client, f"/torneios/{t.slug}/classificacao/")
    table_a, table_b = _standings_tables(page)
    assert _rank_cells(table_a)[0] == "1º"
    assert all(_rank_cells(table_a)), _rank_cells(table_a)
    _assert_unranked([table_b], "grupo B, ainda sem jogo")
    groups = re.findall(r'<section class="card group-card".*?</section>', page, flags=re.S)
    assert "pill-upcoming" not in groups[0] and "pill pill-upcoming" in groups[1]


def test_a_long_general_classification_shows_the_top_places_and_links_to_all(client, load_file):
    from tournaments.synthetic import synthetic_tournament

    data = synthetic_tournament(duplas=24)
    data["tournament"]["slug"] = "geral-longa"
    t = load_file(data)
    assert t.finished
    page = _get(client, "/torneios/geral-longa/classificacao/")
    general = _section(page, 'id="geral"', "</section>")
    places = re.findall(r'<span class="place">(\d+)º</span>', general)
    assert places == [str(n) for n in range(1, 9)]
    assert 'href="?ver=geral"' in general and "Ver a classificação geral completa (24 duplas)" in general
    assert 'action="/torneios/geral-longa/duplas/"' in general and "Encontre sua dupla" in general
    whole = _get(client, "/torneios/geral-longa/classificacao/", data={"ver": "geral"})
    places = re.findall(r'<span class="place">(\d+)º</span>', whole)
    assert len(places) == 24, f"?ver=geral deveria listar as 24 duplas, listou {len(places)}"
    # a short classification is shown whole, with no link
    load_file(knockout_file(slug="curta"))
    page = _get(client, "/torneios/curta/classificacao/")
    assert len(re.findall(r'<span class="place">', page)) == 4 and "?ver=geral" not in page


def test_a_dupla_without_its_own_name_is_printed_once(client, event_after, load_file):
    t = event_after
    duplas = list(Dupla.objects.filter(tournament=t).select_related("player1", "player2"))
    urls = [
        _event(t),
        f"/torneios/{t.slug}/classificacao/",
        f"/torneios/{t.slug}/classificacao/?ver=geral",
        f"/torneios/{t.slug}/chave/",
        f"/torneios/{t.slug}/jogos/",
        f"/torneios/{t.slug}/duplas/",
        f"/torneios/{t.slug}/tv/",
    ] + [_dupla_url(t, d.key) for d in duplas]
    for url in urls:
        text = _text(_get(client, url))
        for d in duplas:
            a, b = d.player1.name, d.player2.name
            assert f"{a} / {b}" in text or url.endswith("/jogos/") or "/duplas/r" in url, (url, d.key)
            assert f"{a} / {b} {a} e {b}" not in text, (url, d.key)
    # a dupla with its own name: the name, then its players
    load_file(groups_file(slug="com-nomes"))
    for url in ("/torneios/com-nomes/", "/torneios/com-nomes/classificacao/", "/torneios/com-nomes/duplas/d1/"):
        text = _text(_get(client, url))
        assert "Os Zapeiros Ana Souza e Bruno Lima" in text, url


# --- the language --------------------------------------------------------------------------------


def test_portuguese_whatever_the_browser_says(client, event_during):
    response = client.get("/torneios/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    page = response.content.decode()
    assert '<html lang="pt-BR">' in page and "<h1>Torneios</h1>" in page
    assert response["Content-Language"] == "pt-BR"
    event = _get(client, _event(event_during), HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="pt-BR">' in event and "Agora" in event
    footer = _section(page, "<footer", "</footer>")
    assert 'href="/ajuda/"' in footer
    assert 'href="/idioma/en/?next=/torneios/"' in footer and ">English<" in footer


def test_the_language_switch_sets_the_cookie_and_goes_back(client, event_during):
    response = client.get("/idioma/en/", {"next": "/torneios/"})
    assert response.status_code == 302 and response["Location"] == "/torneios/"
    assert response.cookies["django_language"].value == "en"
    page = _get(client, "/torneios/")
    assert '<html lang="en">' in page and "<h1>Tournaments</h1>" in page
    footer = _section(page, "<footer", "</footer>")
    assert 'href="/idioma/pt-br/?next=/torneios/"' in footer and ">Português<" in footer
    assert 'href="/ajuda/"' in footer
    # cached pages are kept per language
    assert '<html lang="en">' in _get(client, _event(event_during))
    back = client.get("/idioma/pt-br/", {"next": _event(event_during)})
    assert back["Location"] == _event(event_during) and back.cookies["django_language"].value == "pt-br"
    assert '<html lang="pt-BR">' in _get(client, _event(event_during))


@pytest.mark.parametrize(
    "target",
    [
        "https://malicioso.example/",
        "//malicioso.example/x",
        "javascript:alert(1)",
        "http://testserver.malicioso.example/",
        "",
    ],
)
def test_the_language_switch_never_leaves_the_site(client, target):
    response = client.get("/idioma/en/", {"next": target})
    assert response.status_code == 302 and response["Location"] == "/"


def test_an_unknown_language_sets_nothing(client):
    response = client.get("/idioma/xx/", {"next": "/torneios/"})
    assert response.status_code == 302 and "django_language" not in response.cookies
    assert '<html lang="pt-BR">' in _get(client, "/torneios/")
    assert client.post("/idioma/en/", {"next": "/torneios/"}).status_code == 405


# --- round times ---------------------------------------------------------------------------------------


def _unplayed_groups_file(slug: str) -> dict:
    data = groups_file(slug=slug)
    data["jogos"] = []
    data["stages"][0].pop("sorteios", None)
    return data


def test_round_times_go_through_the_file_and_show_next_to_the_jogos_called(client, load_file):
    data = _unplayed_groups_file("com-horarios")
    data["stages"][0]["round_times"] = {"1": "14:00", "2": "9h30", "3": ""}
    t = load_file(data)
    stage = Stage.objects.get(tournament=t, key="grupos")
    assert stage.round_times == {"1": "14:00", "2": "09:30"}
    exported = tournament_export(tournament=t)
    assert exported["stages"][0]["round_times"] == {"1": "14:00", "2": "09:30"}
    assert "round_times" not in exported["stages"][1]
    public = json.loads(_get(client, "/torneios/com-horarios/exportar.json"))
    assert public["stages"][0]["round_times"] == {"1": "14:00", "2": "09:30"}
    again = copy.deepcopy(exported)
    again["tournament"]["slug"] = "com-horarios-2"
    copy_of = tournament_import(data=again)
    assert Stage.objects.get(tournament=copy_of, key="grupos").round_times == {"1": "14:00", "2": "09:30"}
    # shown next to the jogos called: on the event page, the TV and the dupla's next jogo
    page = _get(client, "/torneios/com-horarios/")
    called = _section(page, 'id="chamados"', "</section>")
    jogos = called.count('class="jogo-mesa"')
    assert jogos >= 2 and called.count('<span class="time">14:00</span>') == jogos
    assert "Primeiros jogos: Rodada 1" in _text(called)
    assert '<span class="time">14:00</span>' in _get(client, "/torneios/com-horarios/tv/")
    first = Jogo.objects.filter(tournament=t, round=1).select_related("dupla_a").order_by("id").first()
    card = _section(_get(client, _dupla_url(t, first.dupla_a.key)), '<section class="card next-jogo', "</section>")
    assert '<span class="time">14:00</span>' in card


@pytest.mark.parametrize(
    "times, message",
    [
        ({"1": "25:00"}, "horário '25:00' inválido: use HH:MM, por exemplo 14:30"),
        ({"1": "14:60"}, "horário '14:60' inválido: use HH:MM, por exemplo 14:30"),
        ({"1": "meio-dia"}, "horário 'meio-dia' inválido: use HH:MM, por exemplo 14:30"),
        ({"0": "14:00"}, "rodada '0' inválida: use 1 para a primeira rodada, 2 para a segunda…"),
        ({"primeira": "14:00"}, "rodada 'primeira' inválida"),
        (["14:00"], 'deve ser um objeto {"rodada": "HH:MM"}'),
    ],
)
def test_bad_round_times_in_a_file_are_refused_with_the_reason(times, message):
    data = _unplayed_groups_file("horario-ruim")
    data["stages"][0]["round_times"] = times
    errors = import_errors(data)
    assert any(message in e and "round_times" in e for e in errors), errors
    assert not Tournament.objects.filter(slug="horario-ruim").exists()


def _round_time_post(client, t: Tournament, **fields):
    data = {"fase": "grupos", "rodada": "1", "horario": "15:30"} | fields
    return client.post(f"/organizar/{t.slug}/programacao/horario/", data)


def test_the_organizer_gives_a_round_its_time_on_the_desk(client, event_drawn):
    t = event_drawn
    client.force_login(_organizer(t))
    response = _round_time_post(client, t)
    assert response.status_code == 302 and response["Location"] == f"/organizar/{t.slug}/programacao/"
    assert Stage.objects.get(tournament=t, key="grupos").round_times == {"1": "15:30"}
    assert "15:30" in _get(client, f"/organizar/{t.slug}/programacao/")
    public = Client()
    called = _section(_get(public, _event(t)), 'id="chamados"', "</section>")
    assert called.count('<span class="time">15:30</span>') == called.count('class="jogo-mesa"') == 2
    assert '<span class="time">15:30</span>' in _get(public, f"/torneios/{t.slug}/tv/")
    # a bad time: the reason on the page, nothing changed
    for fields, message in (
        ({"horario": "25:99"}, "Horário da rodada: horário '25:99' inválido"),
        ({"rodada": "x"}, "Horário da rodada: rodada inválida."),
        ({"fase": "nao-existe"}, "Horário da rodada: fase 'nao-existe' não existe"),
    ):
        response = _round_time_post(client, t, **fields)
        assert response.status_code == 200, fields
        assert message in html_lib.unescape(response.content.decode()), fields
        assert Stage.objects.get(tournament=t, key="grupos").round_times == {"1": "15:30"}
    # cleared with an empty time
    assert _round_time_post(client, t, horario="").status_code == 302
    assert Stage.objects.get(tournament=t, key="grupos").round_times == {}
    assert '<span class="time">' not in _get(public, _event(t))


@pytest.mark.parametrize("who", ["anonymous", "referee", "stranger"])
def test_only_the_organizer_gives_round_times(client, event_drawn, who):
    t = event_drawn
    if who == "referee":
        client.force_login(_referee(t))
    elif who == "stranger":
        client.force_login(_user("curioso"))
    response = _round_time_post(client, t)
    expected = {"anonymous": 302, "referee": 403, "stranger": 404}[who]
    assert response.status_code == expected
    if who == "anonymous":
        assert response["Location"].startswith("/entrar/?next=")
    assert Stage.objects.get(tournament=t, key="grupos").round_times == {}
    assert '<span class="time">' not in _get(Client(), _event(t))


# --- the city --------------------------------------------------------------------------------------------


def test_the_city_goes_through_the_file_and_shows_on_the_pages(client):
    t = tournament_import(data=base_file(name="Copa de Campinas", city="Campinas/SP"))
    assert t.city == "Campinas/SP"
    exported = tournament_export(tournament=t)
    assert exported["tournament"]["city"] == "Campinas/SP"
    again = copy.deepcopy(exported)
    again["tournament"]["slug"] = "copa-de-campinas-2"
    assert tournament_import(data=again).city == "Campinas/SP"
    plain = tournament_import(data=base_file(name="Copa Sem Cidade"))
    assert plain.city == "" and "city" not in tournament_export(tournament=plain)["tournament"]
    page = _get(client, _event(t))
    assert "Cidade Campinas/SP" in _text(_section(page, 'id="sobre"', "</section>"))
    assert "Campinas/SP" in _text(_section(page, '<p class="event-meta">', "</p>"))
    assert "Cidade" not in _text(_section(_get(client, _event(plain)), 'id="sobre"', "</section>"))
    listed = _get(client, "/torneios/", data={"q": "campinas"})
    assert "Copa de Campinas" in listed and "Copa Sem Cidade" not in listed
    errors = import_errors(base_file(name="Copa Longe", city="x" * 121))
    assert any("city" in e for e in errors), errors


def test_the_organizer_sets_the_city_on_the_desk(client, event_before):
    t = event_before
    client.force_login(_organizer(t))
    url = f"/organizar/{t.slug}/editar/"
    form = client.get(url).context["form"]
    assert "city" in form.fields
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data |= {
        "date": t.date.isoformat(),
        "start_time": "14:00",
        "preset": "aabb",
        "public_signup": "on",
        "city": "São Carlos/SP",
    }
    data = {k: v for k, v in data.items() if k not in ("registration_opens", "registration_closes") or v}
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    t.refresh_from_db()
    assert t.city == "São Carlos/SP"
    public = Client()
    assert "São Carlos/SP" in _get(public, _event(t))
    assert "Copa Primavera de Truco" in _get(public, "/torneios/", data={"q": "sao carlos"})


# --- compression and htmx ------------------------------------------------------------------------------


def test_public_pages_are_compressed_and_desk_pages_are_not(client, event_during):
    t = event_during
    live = _live_jogo(t)
    public = [
        "/torneios/",
        _event(t),
        f"/torneios/{t.slug}/duplas/",
        _dupla_url(t, live.dupla_a.key),
        f"/torneios/{t.slug}/tv/",
        f"/torneios/{t.slug}/classificacao/",
        f"/torneios/{t.slug}/chave/",
        f"/torneios/{t.slug}/jogos/",
        f"/torneios/{t.slug}/jogos/{live.key}/",
    ]
    for url in public:
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert response.status_code == 200, url
        assert response.get("Content-Encoding") == "gzip", url
        assert "Accept-Encoding" in response["Vary"], url
        assert b"</html>" in gzip.decompress(response.content), url
        plain = client.get(url)
        assert plain.get("Content-Encoding") is None and b"</html>" in plain.content, url
    client.force_login(_organizer(t))
    for url in (f"/organizar/{t.slug}/", f"/organizar/{t.slug}/programacao/", f"/organizar/{t.slug}/editar/"):
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200, url
        assert response.get("Content-Encoding") is None, url


def test_htmx_only_on_the_pages_that_use_it(client, event_before, event_drawn, event_during, event_after):
    live = _live_jogo(event_during)
    d = event_during.slug
    with_htmx = [
        f"/torneios/{d}/classificacao/",
        f"/torneios/{d}/chave/",
        f"/torneios/{d}/jogos/",
        f"/torneios/{d}/jogos/{live.key}/",
        _dupla_url(event_during, live.dupla_a.key),
        _event(event_during),
    ]
    without = [
        "/torneios/",
        f"/torneios/{event_before.slug}/inscricao/",
        "/entrar/",
        _event(event_before),
        _event(event_drawn),
        _event(event_after),
    ]
    for url in with_htmx:
        assert _has_htmx(_get(client, url)), url
    for url in without:
        page = _get(client, url)
        assert not _has_htmx(page) and "hx-" not in page.replace("hx-history", ""), url
    client.force_login(_organizer(event_during))
    assert _has_htmx(_get(client, f"/organizar/{d}/"))


# --- the cost: the same number of queries, whatever the size of the event ---------------------------


def _make_before(prefix: str, individuals: int, limit: int) -> Tournament:
    organizer = _user(f"{prefix}-comissao")
    t = tournament_create(
        user=organizer,
        starter="aabb",
        name=f"Copa {prefix}",
        date=timezone.localdate() + timedelta(days=30),
        venue="Clube",
    )
    t = tournament_publish(tournament=t, user=organizer)
    t = tournament_update(tournament=t, user=organizer, changes={"max_duplas": limit})
    _signups(t, individuals=individuals, pair_after=3, source=Registration.FORM)
    return t


def _make_drawn(prefix: str, individuals: int, limit: int, mesas: int) -> Tournament:
    organizer, referee = _user(f"{prefix}-comissao"), _user(f"{prefix}-arbitro")
    t = tournament_create(
        user=organizer,
        starter="aabb",
        name=f"Copa {prefix}",
        date=timezone.localdate() + timedelta(days=7),
        venue="Sede",
    )
    t = tournament_publish(tournament=t, user=organizer)
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE, by=organizer)
    t = tournament_update(tournament=t, user=organizer, changes={"max_duplas": limit})
    format_update(
        tournament=t,
        user=organizer,
        format={
            "kind": "groups_knockout",
            "group_size": 3,
            "per_group": 2,
            "best_others": 0,
            "best_of_groups": 3,
            "best_of_knockout": 3,
            "best_of_rounds": {},
            "bracket_method": "seeded",
        },
    )
    _signups(t, individuals=individuals, pair_after=4, source=Registration.FORM)
    from tournaments.registrations.services import registration_close

    registration_close(tournament=t, user=organizer)
    draws.pairing_run(tournament=t, user=organizer, seed=PAIRING_SEED)
    _mesas(t, mesas, organizer=organizer, referee=referee)
    t.refresh_from_db()
    draws.competition_publish(tournament=t, user=organizer, seed=COMPETITION_SEED)
    t.refresh_from_db()
    return t


def _make_during(prefix: str, pairs: int, best_others: int, mesas: int) -> Tournament:
    organizer, referee = _user(f"{prefix}-comissao"), _user(f"{prefix}-arbitro")
    t = tournament_create(
        user=organizer, starter="fenacef", name=f"Copa {prefix}", date=timezone.localdate(), venue="Ginásio"
    )
    t = tournament_publish(tournament=t, user=organizer)
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE, by=organizer)
    format_update(tournament=t, user=organizer, format=t.format | {"best_others": best_others})
    _pairs(t, pairs, organizer=organizer)
    _mesas(t, mesas, organizer=organizer, referee=referee)
    t.refresh_from_db()
    draws.competition_publish(tournament=t, user=organizer, seed=COMPETITION_SEED)
    t.refresh_from_db()
    rank = _group_rank(t)
    for n, jogo in enumerate(_jogos(t, round=1)):
        _confirmed(t, jogo, rank, referee=referee, spread=n % 5, sign=n < 2)
    second = _jogos(t, round=2)
    live, awaiting, contested = second[0], second[1], second[2]
    for k, (to, points) in enumerate([(0, 3)] * 4 + [(1, 1), (0, 3)]):
        sumula_mao_add(
            tournament=t,
            key=live.key,
            mao=MaoAdd.from_json({"id": f"mao-{live.key}-{k}", "to": to, "points": points}),
            actor=Actor(user=referee, method="session", device="celular"),
        )
    _result(t, awaiting, rank, referee=referee)
    _result(t, contested, rank, referee=referee, spread=4)
    _answer(t, contested, contested.dupla_a)
    _answer(t, contested, contested.dupla_b, accept=False, reason="placar errado")
    t.refresh_from_db()
    return t


def _make_after(prefix: str, pairs: int, mesas: int) -> Tournament:
    organizer, referee = _user(f"{prefix}-comissao"), _user(f"{prefix}-arbitro")
    t = tournament_create(
        user=organizer,
        starter="fenacef",
        name=f"Copa {prefix}",
        date=timezone.localdate() - timedelta(days=14),
        venue="Associação",
    )
    t = tournament_publish(tournament=t, user=organizer)
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE, by=organizer)
    t = tournament_update(tournament=t, user=organizer, changes={"settings": {"third_place": "match"}})
    _pairs(t, pairs, organizer=organizer)
    _mesas(t, mesas, organizer=organizer, referee=referee)
    t.refresh_from_db()
    draws.competition_publish(tournament=t, user=organizer, seed=COMPETITION_SEED)
    rank = _group_rank(t)
    n = 0
    while pending := _jogos(t, status=Jogo.SCHEDULED):
        for jogo in pending:
            _confirmed(t, jogo, rank, referee=referee, spread=n % 5, sign=jogo.group_id is None)
            n += 1
    t.refresh_from_db()
    assert t.finished
    return t


def _count(client, url: str) -> int:
    tournament_state_cache_clear()
    pages_clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200, url
    return len(ctx.captured_queries)


def _pages(t: Tournament, dupla_key: str | None) -> dict[str, str]:
    pages = {"evento": _event(t), "duplas": f"/torneios/{t.slug}/duplas/", "tv": f"/torneios/{t.slug}/tv/"}
    if dupla_key:
        pages["dupla"] = _dupla_url(t, dupla_key)
    return pages


def _assert_same_cost(client, small: Tournament, big: Tournament, small_key, big_key, phase: str):
    assert (
        Dupla.objects.filter(tournament=big).count() >= 2 * Dupla.objects.filter(tournament=small).count()
        or Registration.objects.filter(tournament=big).count()
        >= 2 * Registration.objects.filter(tournament=small).count()
    )
    small_pages, big_pages = _pages(small, small_key), _pages(big, big_key)
    counts = {name: (_count(client, small_pages[name]), _count(client, big_pages[name])) for name in small_pages}
    for name, (a, b) in counts.items():
        assert a == b, (phase, name, counts)
        # 17: the jogos called to their mesa ("Sua vez") are one query, the circuit the event is an etapa of another
        assert a <= 17, (phase, name, counts)
    # computed once per version: the next visit reads the tournament alone (and a live page its live version;
    # the TV also the version of the circuit whose ranking it shows, one more indexed query)
    for name, url in big_pages.items():
        client.get(url)
        with CaptureQueriesContext(connection) as ctx:
            client.get(url)
        most = 3 if name == "tv" else 2
        assert len(ctx.captured_queries) <= most, (phase, name, [q["sql"] for q in ctx.captured_queries])


def test_queries_before_the_draw_do_not_grow_with_the_registrations(client):
    small = _make_before("pequena", individuals=10, limit=5)
    big = _make_before("grande", individuals=60, limit=16)
    _assert_same_cost(client, small, big, None, None, "antes")


def test_queries_of_a_drawn_event_do_not_grow_with_the_duplas(client):
    small = _make_drawn("pequena", individuals=11, limit=8, mesas=3)
    big = _make_drawn("grande", individuals=23, limit=16, mesas=6)
    assert Dupla.objects.filter(tournament=big).count() == 12
    _assert_same_cost(client, small, big, "r1", "r1", "sorteado")


def test_queries_during_the_event_do_not_grow_with_the_duplas(client):
    small = _make_during("pequena", pairs=12, best_others=2, mesas=6)
    big = _make_during("grande", pairs=24, best_others=4, mesas=12)
    _assert_same_cost(client, small, big, _live_jogo(small).dupla_a.key, _live_jogo(big).dupla_a.key, "durante")


def test_queries_after_the_event_do_not_grow_with_the_duplas(client):
    small = _make_after("pequena", pairs=8, mesas=4)
    big = _make_after("grande", pairs=16, mesas=8)

    def champion(t):
        return (
            Jogo.objects.filter(tournament=t, group__isnull=True, third_place=False)
            .order_by("-round")
            .select_related("dupla_a")
            .first()
            .dupla_a.key
        )

    _assert_same_cost(client, small, big, champion(small), champion(big), "depois")


def test_a_new_registration_shows_on_the_cached_event_page(client, event_before):
    """The event page is cached per version: a registration (or the sign-up closing) renews it."""
    from tournaments.registrations.checks import PersonIn
    from tournaments.registrations.services import registration_add, registration_close

    t = event_before
    first = _get(client, _event(t))
    assert "Quitéria Nova Inscrita" not in first and "Inscreva-se" in first
    registration_add(
        tournament=t,
        players=[
            PersonIn(
                name="Quitéria Nova Inscrita",
                birth_date=timezone.localdate() - timedelta(days=365 * 30),
                email="q@example.com",
            )
        ],
    )
    after = _get(client, _event(t))
    assert "Quitéria Nova Inscrita" in after and "q@example.com" not in after
    organizer = StaffRole.objects.filter(tournament=t, role="organizer").first().user
    registration_close(tournament=t, user=organizer)
    assert "Inscreva-se" not in _get(client, _event(t))
