"""Public pages: every page answers, shows what players look for, leaks nothing private, stays cheap."""

import json
import re

import pytest
from django.urls import reverse

from tests.support.files import (
    BIRTH,
    bare_file,
    big_file,
    demo_file,
    edge_files,
    groups_file,
    knockout_file,
    large_file,
)
from tournaments.models import Dupla, Jogo
from tournaments.selectors import tournament_state_cache_clear, tournament_state_get
from tournaments.writes import tournament_rebuild

pytestmark = pytest.mark.django_db


PAGES = ["detail", "standings", "bracket", "jogos", "export"]


def _url(name: str, slug: str) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": slug})


@pytest.fixture
def demo(load_file):
    return load_file(demo_file(load_file))


@pytest.fixture
def finished(load_file):
    return load_file(knockout_file())


# --- every page answers --------------------------------------------------------------


def test_the_list_shows_each_event_with_date_venue_and_status(client, demo, finished):
    html = client.get(reverse("tournaments:list")).content.decode()
    assert "Copa Demo de Truco" in html and "Olimpíada AABB - Truco" in html
    assert "27/04/2024" in html and "18/05/2024" in html
    assert "Bar Classe A" in html
    assert "em andamento" in html and "encerrado" in html
    assert demo.get_absolute_url() in html and finished.get_absolute_url() in html


def test_the_list_answers_without_events(client):
    response = client.get(reverse("tournaments:list"))
    assert response.status_code == 200
    assert "Nenhum torneio" in response.content.decode()


@pytest.mark.parametrize("page", PAGES)
def test_each_page_of_a_demo_event_answers(client, demo, page):
    response = client.get(_url(page, demo.slug))
    assert response.status_code == 200


def test_the_event_page_shows_the_event_and_its_rules(client, demo):
    html = client.get(_url("detail", demo.slug)).content.decode()
    for text in (
        "Copa Demo de Truco",
        "27/04/2024",
        "14:00",  # one way to write a time across the site (presenters.labels.time_br)
        "Bar Classe A",
        "Mista, a partir de 18 anos",
        "FENACEF 2023",
        "melhor de 3",
        "melhor de 5",
        "Quartas de final",
        "Semifinais",
        "Final",
        "a outra dupla ganha 3 pontos",
        "Mão de ferro",
        "vale 1 ponto",
        "pelo average",
        "7 duplas formadas · limite de 16 duplas",
        "Os Zapeiros",
        "Ana Souza e Bruno Lima",
    ):
        assert text in html, text
    for name in ("standings", "bracket", "jogos", "export"):
        assert _url(name, demo.slug) in html


def test_the_standings_show_tables_tiebreaks_and_qualified_duplas(client, demo):
    html = client.get(_url("standings", demo.slug)).content.decode()
    assert "Grupo A" in html and "Grupo B" in html
    assert "decidido por confronto direto" in html  # Manilha Velha over Truco Ladrão
    assert "decidido por sorteio" in html  # group B, recorded draw
    assert "classificada" in html
    assert "1,387" in html  # 86 / 62, three decimals, comma
    assert "+24" in html
    assert "Comparação entre grupos" in html
    assert "Legenda" in html
    assert "Classificação geral" not in html  # not finished yet


def test_the_standings_show_a_tie_awaiting_the_sorteio(client, load_file):
    t = load_file(groups_file(sorteio=False, slug="empate"))
    html = client.get(_url("standings", t.slug)).content.decode()
    assert "empate: aguarda sorteio" in html
    bracket = client.get(_url("bracket", t.slug)).content.decode()
    assert "A chave ainda não foi sorteada" in bracket


def test_average_shows_infinity_and_dash(client, load_file):
    t = load_file(edge_files()[2])
    html = client.get(_url("standings", t.slug)).content.decode()
    assert "∞" in html and "—" in html
    assert "Classificação geral" in html  # a single group, decided: the event is over


def test_a_finished_event_shows_medals_and_players(client, finished):
    html = client.get(_url("standings", finished.slug)).content.decode()
    assert "Classificação geral" in html
    for text in ("icon-medal-gold", "icon-medal-silver", "icon-medal-bronze", "ouro", "prata", "bronze", "Ana Souza"):
        assert text in html, text
    assert "Bruno Lima" in html and "Este torneio não tem fase de grupos" not in html
    # medals are drawn (inline SVG), not emoji a device without an emoji font shows as empty boxes
    assert not any(emoji in html for emoji in "🥇🥈🥉🏆")
    detail = client.get(_url("detail", finished.slug)).content.decode()
    assert "Pódio" in detail and "icon-medal-gold" in detail and "🥇" not in detail


def test_the_bracket_shows_rounds_scores_winners_and_byes(client, demo, finished):
    html = client.get(_url("bracket", demo.slug)).content.decode()
    for text in (
        "Quartas de final",
        "Semifinais",
        "Final",
        "melhor de 5",
        "melhor de 3",
        "folga",
        '<span class="pill pill-bye">folga</span>',  # a bye, in Portuguese (walk review #21)
        "is-winner",
        "em andamento",
        "12 x 7",
    ):
        assert text in html, text
    html = client.get(_url("bracket", finished.slug)).content.decode()
    assert "Disputa de 3º lugar" in html and "Campeã" in html and "ausente" in html


def test_the_jogos_show_rounds_mesas_scores_and_live_partida(client, demo):
    html = client.get(_url("jogos", demo.slug)).content.decode()
    for text in (
        "Rodada 1",
        "Rodada 3",
        "Quartas de final",
        "Semifinais",
        "Mesa",
        "12 x 7, 9 x 12, 12 x 3",
        "a jogar",
        "em andamento",
        "encerrado",
        "WO",
        "partida 2:",
        "6 x 1",
        "Folga",
    ):
        assert text in html, text
    assert 'hx-trigger="every 10s"' in html  # a jogo at the table: polled every 10 s (else every 30 s)


def test_the_jogos_filter_by_dupla(client, demo):
    html = client.get(_url("jogos", demo.slug), {"dupla": "d4"}).content.decode()
    assert html.count('class="jogo ') == 3
    assert "Jogos de <strong>Seis Nele</strong>" in html
    everything = client.get(_url("jogos", demo.slug), {"dupla": "nao-existe"})
    assert everything.status_code == 200
    assert everything.content.decode().count('class="jogo ') == 12


def test_a_poll_gets_only_the_live_partial(client, demo):
    headers = {"HX-Request": "true", "HX-Target": "jogos-lista"}
    response = client.get(_url("jogos", demo.slug), headers=headers)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="jogos-lista"') and "<html" not in html
    assert "12 x 7, 9 x 12, 12 x 3" in html
    assert "HX-Request" in response["Vary"]
    for page, target in (("standings", "tabelas"), ("bracket", "chave")):
        html = client.get(_url(page, demo.slug), headers={"HX-Request": "true", "HX-Target": target}).content.decode()
        assert html.lstrip().startswith(f'<div id="{target}"') and "<html" not in html


# --- unknown events, edge cases ----------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_an_unknown_slug_is_404(client, page):
    response = client.get(_url(page, "nao-existe"))
    assert response.status_code == 404
    if page != "export":
        assert "Página não encontrada" in response.content.decode()


@pytest.mark.parametrize("index", range(len(edge_files())))
def test_pages_of_edge_cases_answer(client, load_file, index):
    t = load_file(edge_files()[index])
    for page in PAGES:
        response = client.get(_url(page, t.slug))
        assert response.status_code == 200, (t.slug, page)
    assert client.get(_url("jogos", t.slug), {"dupla": "d1"}).status_code == 200
    assert client.get(reverse("tournaments:list")).status_code == 200


def test_edge_case_texts(client, load_file):
    files = {f["tournament"]["slug"]: f for f in edge_files()}
    empty = load_file(files["sem-nada"])
    detail = client.get(_url("detail", empty.slug)).content.decode()
    # nothing drawn: the format the draw will make (the preset's, AABB: a knockout, best of 5 and then 3)
    assert "ainda não foi definido" not in detail
    assert re.search(r"<strong>Mata-mata</strong>\s*— melhor de 5 na 1ª rodada e de 3 nas seguintes", detail)
    assert "Nenhum jogo marcado ainda" in client.get(_url("jogos", empty.slug)).content.decode()
    assert "não tem fase eliminatória" in client.get(_url("bracket", empty.slug)).content.decode()
    odd = load_file(files["mata-com-byes"])
    html = client.get(_url("jogos", odd.slug)).content.decode()
    assert "perda do jogo: atraso" in html and "perda da partida" in html
    both = load_file(files["wo-duplo"])
    assert "WO duplo" in client.get(_url("bracket", both.slug)).content.decode()


def test_a_stored_status_without_scores_still_reads(client, demo):
    """A jogo marked in progress before any mão is entered shows as 'em andamento'."""
    Jogo.objects.filter(tournament=demo, status=Jogo.SCHEDULED).update(status=Jogo.IN_PROGRESS)
    tournament_rebuild(tournament=demo)  # every write is followed by a refresh (services do it)
    html = client.get(_url("jogos", demo.slug)).content.decode()
    assert "a jogar" not in html.split('id="jogos-lista"')[1]


# --- privacy ---------------------------------------------------------------------------------


def test_no_private_data_in_any_page_or_in_the_export(client, demo, finished):
    # a dupla's private link and its PIN hash are secrets too
    pins = set(Dupla.objects.values_list("token", flat=True)) | set(
        Dupla.objects.values_list("pin_hash", flat=True)
    ) - {""}
    urls = [reverse("tournaments:list")] + [_url(p, t.slug) for t in (demo, finished) for p in PAGES]
    urls += [_url("jogos", demo.slug) + "?dupla=d1"]
    for url in urls:
        body = client.get(url).content.decode()
        for secret in (BIRTH, "14/03/1987", "exemplo.com.br", "98888-7777", *pins):
            assert secret not in body, (url, secret)
    data = json.loads(client.get(_url("export", demo.slug)).content)
    assert all(set(p) <= {"key", "name"} for p in data["players"])
    assert all("pin" not in d for d in data["duplas"])


# --- cost: the number of queries does not grow with the event -------------------------------------


def _count(client, url, cold=True) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.caching import pages_clear

    if cold:
        tournament_state_cache_clear()
        pages_clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("page", PAGES)
def test_queries_do_not_grow_with_the_number_of_duplas(client, load_file, django_assert_max_num_queries, page):
    small = load_file(knockout_file(finished=False, slug="pequeno"))
    big = load_file(large_file(groups=4, size=5))
    assert tournament_state_get(tournament=big).view.stage("mata").bracket is not None
    tournament_state_cache_clear()
    # the event page also reads the recorded draws (and, before the event, the registrations); the live pages
    # and the export the jogos' versions (the live version, then which súmulas changed since the state); the
    # export also whether the pairing draw ran (its waiting list holds only those beyond the limit) and the
    # players' atletas' Nível (its ranking section); the event page also the circuit it is an etapa of
    with django_assert_max_num_queries({"detail": 13, "export": 14}.get(page, 11)):
        client.get(_url(page, big.slug))
    assert _count(client, _url(page, small.slug)) == _count(client, _url(page, big.slug))
    # computed once per version: the next visit only reads the tournament
    assert _count(client, _url(page, big.slug), cold=False) < _count(client, _url(page, big.slug))


def test_the_list_queries_do_not_grow_with_the_number_of_events(client, load_file, django_assert_max_num_queries):
    load_file(knockout_file(slug="um"))
    one = _count(client, reverse("tournaments:list"))
    for n in range(4):
        load_file(knockout_file(slug=f"outro-{n}", finished=bool(n % 2)))
    load_file(bare_file("Vazio", "vazio"))
    with django_assert_max_num_queries(10):
        client.get(reverse("tournaments:list"))
    assert _count(client, reverse("tournaments:list")) == one


def test_a_finished_event_is_not_polled(client, finished):
    for page in ("standings", "bracket", "jogos"):
        assert "every 30s" not in client.get(_url(page, finished.slug)).content.decode()


def test_a_server_error_shows_the_500_page(client, demo, monkeypatch):
    from tournaments import presenters

    def broken(state):
        raise RuntimeError("falha de teste")

    monkeypatch.setattr(presenters, "event_present", broken)
    client.raise_request_exception = False
    response = client.get(_url("detail", demo.slug))
    assert response.status_code == 500
    assert "Algo deu errado" in response.content.decode()


# --- big events: shown in parts (one round, 16 groups, a section of the bracket) --------------


@pytest.fixture
def big(load_file):
    return load_file(big_file())


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    from tournaments.caching import pages_clear

    pages_clear()
    yield
    pages_clear()


def _jogos_count(html: str) -> int:
    return html.count('<li class="jogo ')


def test_small_events_are_shown_whole(client, demo):
    for page in ("standings", "bracket", "jogos"):
        html = client.get(_url(page, demo.slug)).content.decode()
        assert 'class="pager' not in html and "?rodada=" not in html and "?secao=" not in html, page
    assert _jogos_count(client.get(_url("jogos", demo.slug)).content.decode()) == 12
    # a page number asked of a small event changes nothing
    assert _jogos_count(client.get(_url("jogos", demo.slug), {"rodada": "2"}).content.decode()) == 12


def test_a_big_event_shows_one_round_of_jogos_at_a_time(client, big):
    state = tournament_state_get(tournament=big)
    html = client.get(_url("jogos", big.slug)).content.decode()
    # every jogo finished: the last round (the final) by default, with links to every round
    assert _jogos_count(html) == 1
    assert 'aria-current="page">Final</a>' in html
    for text in (
        'href="?rodada=1"',
        ">Rodada 1<",
        ">Rodada 3<",
        ">1ª rodada<",
        ">16-avos de final<",
        ">Oitavas de final<",
        ">Disputa de 3º lugar<",
    ):
        assert text in html, text
    html = client.get(_url("jogos", big.slug), {"rodada": "1"}).content.decode()
    assert _jogos_count(html) == 80  # 40 groups, 2 jogos each per round
    assert 'href="?rodada=1" aria-current="page"' in html
    assert 'href="?rodada=2" rel="next"' in html and 'rel="prev"' not in html
    assert "80 jogos" in html
    # a dupla's jogos: all of them, every round, no round navigation
    key = sorted(state.duplas)[0]
    rows = [
        j
        for j in state.jogo_rows
        if state.dupla_key_by_id()[j.dupla_a_id] == key or state.dupla_key_by_id()[j.dupla_b_id] == key
    ]
    html = client.get(_url("jogos", big.slug), {"dupla": key}).content.decode()
    assert _jogos_count(html) == len(rows) >= 3
    assert 'class="pager"' not in html
    # a round that does not exist: the default one
    for wrong in ("999", "0", "abc", "-1"):
        response = client.get(_url("jogos", big.slug), {"rodada": wrong})
        assert response.status_code == 200 and _jogos_count(response.content.decode()) == 1, wrong


def test_the_default_round_is_the_first_with_jogos_to_finish(client, load_file):
    live = load_file(big_file(live=True, slug="grande-ao-vivo"))
    html = client.get(_url("jogos", live.slug)).content.decode()
    assert 'aria-current="page"><span class="dot" aria-hidden="true"></span>Rodada 3</a>' in html
    assert "a jogar" in html and "em andamento" in html
    assert "A chave será sorteada" in html  # the knockout waits: said in the navigation
    # the poll asks for the page it is on: the default (which moves on by itself) or the round chosen
    assert f'hx-get="{_url("jogos", live.slug)}"' in html
    html = client.get(_url("jogos", live.slug), {"rodada": "2"}).content.decode()
    assert f'hx-get="{_url("jogos", live.slug)}?rodada=2"' in html
    headers = {"HX-Request": "true", "HX-Target": "jogos-lista"}
    partial = client.get(_url("jogos", live.slug) + "?rodada=2", headers=headers).content.decode()
    assert partial.lstrip().startswith('<div id="jogos-lista"') and "<html" not in partial
    assert 'href="?rodada=2" aria-current="page"' in partial and _jogos_count(partial) == 80


def test_many_groups_are_shown_sixteen_a_page(client, big):
    url = _url("standings", big.slug)
    html = client.get(url).content.decode()
    assert html.count('class="card group-card"') == 16
    assert 'id="grupo-grupos-a"' in html and 'id="grupo-grupos-p"' in html and 'id="grupo-grupos-q"' not in html
    # the first page shows the top places of the final classification; the whole list is its own page
    assert "Classificação geral" in html and html.count('<span class="place">') == 8
    assert 'href="?ver=geral"' in html and "Ver a classificação geral completa (160 duplas)" in html
    whole = client.get(url, {"ver": "geral"}).content.decode()
    assert whole.count('<span class="place">') == 160 and 'class="card group-card"' not in whole
    # pages named by their groups, and every group one link away
    for text in (
        ">A–P</a>",
        ">Q–AF</a>",
        ">AG–AN</a>",
        'href="?pagina=2" rel="next"',
        'href="#grupo-grupos-c"',
        'href="?pagina=2#grupo-grupos-z"',
        'href="?pagina=3#grupo-grupos-an"',
    ):
        assert text in html, text
    html = client.get(url, {"pagina": "2"}).content.decode()
    assert html.count('class="card group-card"') == 16
    assert 'id="grupo-grupos-q"' in html and 'id="grupo-grupos-af"' in html and 'id="grupo-grupos-a"' not in html
    assert '<span class="place">' not in html and 'href="?ver=geral"' in html
    assert 'href="?pagina=2" aria-current="page"' in html
    # the jump list is kept per value (valuecache): each page's own, its groups one anchor away
    assert 'href="#grupo-grupos-z"' in html and 'href="?pagina=1#grupo-grupos-c"' in html
    assert 'href="#grupo-grupos-c"' not in html and 'href="?pagina=2#grupo-grupos-z"' not in html
    again = client.get(url).content.decode()
    assert 'href="#grupo-grupos-c"' in again and 'href="?pagina=2#grupo-grupos-z"' in again
    html = client.get(url, {"pagina": "3"}).content.decode()
    assert html.count('class="card group-card"') == 8 and 'id="grupo-grupos-an"' in html
    assert 'rel="next"' not in html
    for wrong in ("4", "0", "x"):
        assert 'id="grupo-grupos-a"' in client.get(url, {"pagina": wrong}).content.decode(), wrong


def test_a_big_bracket_shows_the_round_of_32_on_and_the_rest_by_section(client, big):
    bracket = tournament_state_get(tournament=big).view.stage("mata").bracket
    assert len(bracket.rounds) == 7  # 80 duplas in a bracket of 128
    url = _url("bracket", big.slug)
    html = client.get(url).content.decode()
    for name in ("16-avos de final", "Oitavas de final", "Quartas de final", "Semifinais", "Final"):
        assert f"<h4>{name}</h4>" in html, name
    assert "<h4>1ª rodada</h4>" not in html and "<h4>2ª rodada</h4>" not in html
    assert html.count('<article class="bj ') == 16 + 8 + 4 + 2 + 1 + 1  # and the third-place jogo
    assert all(f'href="?secao={n}"' in html for n in range(1, 33)) and 'href="?secao=33"' not in html
    # the classification stops at the round of 32, with a link to all of it
    assert html.count('<span class="place">') == 32
    assert "Classificação completa (160 duplas)" in html and "?ver=geral" in html

    html = client.get(url, {"secao": "3"}).content.decode()
    assert "Seção 3" in html and 'href="?secao=2" rel="prev"' in html and 'href="?secao=4" rel="next"' in html
    assert f'href="{url}">Fase final</a>' in html
    assert "<h4>1ª rodada</h4>" in html and "<h4>2ª rodada</h4>" in html and "<h4>16-avos de final</h4>" in html
    assert html.count('<article class="bj ') == 2 + 1 + 1  # its two rounds, then the jogo it leads to
    feeder = bracket.rounds[1][2]  # round 2, position 3: the last jogo of section 3
    names = tournament_state_get(tournament=big).duplas
    if feeder.winner:
        assert f"Classificada: <strong>{names[feeder.winner].display_name}</strong>" in html
    assert "Campeã" not in html and "Classificação final" not in html
    for wrong in ("33", "0", "x"):
        assert "<h4>Oitavas de final</h4>" in client.get(url, {"secao": wrong}).content.decode(), wrong


def test_parts_of_big_events_cost_the_same_queries_as_small_ones(client, load_file):
    from tournaments.synthetic import synthetic_tournament

    small = load_file(synthetic_tournament(duplas=16))
    big = load_file(big_file())
    for page, query in (
        ("jogos", "?rodada=1"),
        ("jogos", ""),
        ("standings", "?pagina=2"),
        ("bracket", "?secao=5"),
        ("bracket", ""),
    ):
        counts = [_count(client, _url(page, t.slug) + query) for t in (small, big)]
        assert counts[0] == counts[1] <= 10, (page, query, counts)


# --- the page cache ------------------------------------------------------------------------------


def test_a_live_page_says_the_time_of_the_request_not_of_the_rendering(client, load_file):
    import re

    from tournaments.public.views import NOW_MARK

    live = load_file(knockout_file(finished=False, slug="ao-vivo"))
    url = _url("jogos", live.slug)
    first = client.get(url).content.decode()
    assert NOW_MARK not in first and re.search(r"Atualizado às \d\d:\d\d", first)


def test_a_page_is_rendered_once_per_version(client, big, monkeypatch):

    from tournaments import presenters
    from tournaments.public import views
    from tournaments.public.views import NOW_MARK

    url = _url("jogos", big.slug) + "?rodada=1"
    first = client.get(url).content.decode()
    calls = []
    original = presenters.jogos_present
    monkeypatch.setattr(presenters, "jogos_present", lambda state, **kw: calls.append(kw) or original(state, **kw))
    assert _count(client, url, cold=False) == 2  # the tournament and its live version, nothing else
    assert client.get(url).content.decode() == first and calls == []
    # a finished event says no "Atualizado às": nothing changes any more
    assert NOW_MARK not in first and "Atualizado às" not in first
    # a write bumps the version: the page is built again, with the change
    dupla = Dupla.objects.filter(tournament=big).order_by("id").first()
    Dupla.objects.filter(pk=dupla.pk).update(name="Nova Dupla do Cache")
    tournament_rebuild(tournament=big)
    big.refresh_from_db()
    html = client.get(url).content.decode()
    assert len(calls) == 1  # every dupla plays in round 1
    assert "Nova Dupla do Cache" in html and "Nova Dupla do Cache" not in first
    # made-up parameters are answered, never kept
    kept = []
    monkeypatch.setattr(views, "page_put", lambda key, body: kept.append(key))
    for wrong in ("999", "01", "abc"):
        assert client.get(_url("jogos", big.slug), {"rodada": wrong}).status_code == 200
    assert kept == []
    assert client.get(_url("jogos", big.slug), {"rodada": "3"}).status_code == 200
    assert len(kept) == 1


def test_a_poll_and_the_whole_page_are_kept_apart(client, big):
    url = _url("jogos", big.slug) + "?rodada=2"
    whole = client.get(url).content.decode()
    partial = client.get(url, headers={"HX-Request": "true", "HX-Target": "jogos-lista"}).content.decode()
    assert "<html" in whole and "<html" not in partial
    assert client.get(url).content.decode() == whole
    assert "<html" in client.get(url, headers={"HX-Request": "true", "HX-Target": "f-dupla"}).content.decode()


def test_a_disqualified_dupla_is_marked_in_both_classification_lists(client, load_file):
    from tests.support.files import base_file

    data = base_file(preset="aabb", slug="com-desclassificada")
    data["duplas"][3]["disqualified"] = True
    data["stages"] = [
        {
            "key": "mata",
            "kind": "knockout",
            "best_of": 3,
            "entrants": ["d1", "d2", "d3", "d4"],
            "draw": {"method": "fixed", "order": ["d1", "d4", "d2", "d3"]},
        }
    ]
    data["jogos"] = [
        {"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 5], [12, 6]]},
        {"stage": "mata", "duplas": ["d2", "d3"], "partidas": [[12, 5], [12, 11]]},
        {"stage": "mata", "duplas": ["d4", "d3"], "walkover": "d4"},
        {"stage": "mata", "duplas": ["d1", "d2"], "partidas": [[12, 5], [12, 9]]},
    ]
    t = load_file(data)
    for page in ("standings", "bracket"):
        html = client.get(_url(page, t.slug)).content.decode()
        assert "desclassificada" in html, page
