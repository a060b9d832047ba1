"""The public súmula page, live scores on /jogos/, and the duplas' answers through their private link.

/torneios/<slug>/jogos/<key>/ shows one jogo's súmula mão by mão (running
totals, how each mão ended, the status in Portuguese, confirmations, the
signature by role, the via and its earlier vias); /jogos/ follows every mão
without the standings being recomputed; /d/<token>/ lists the súmulas waiting
for the dupla's answer and confirms or contests them. What counts in the
standings is a result from ``confirmed`` on. No private data on any page.
"""

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.support.sumula import PIN, answer, api, cup_setup, jogo_between, jogo_duplas, play, post, sign, staff_user
from tournaments.models import Dupla, Jogo, Player, StaffRole, SumulaEvent, Tournament
from tournaments.selectors import tournament_live_version, tournament_state_get

pytestmark = pytest.mark.django_db

REFEREE_NAME = "arbitro-joaquim-77"


@pytest.fixture
def cup(load_file):
    tournament = cup_setup(load_file)
    for n, player in enumerate(Player.objects.filter(tournament=tournament).order_by("key"), start=1):
        player.birth_date = dt.date(1980, 1, n)
        player.email = f"atleta{n}@segredo.example"
        player.phone = f"+55 11 97777-00{n:02d}"
        player.save()
    return tournament


@pytest.fixture
def ref(cup):
    """A client signed in as the tournament's referee (through the API, as the referee's phone does)."""
    client = Client()
    client.force_login(staff_user(cup, REFEREE_NAME, StaffRole.REFEREE))
    return client


@pytest.fixture
def j1(cup):
    key = jogo_between(cup, "d1", "d4")
    assert jogo_duplas(cup, key) == ("d1", "d4")
    return key


def sumula_url(t, key, **query) -> str:
    url = reverse("tournaments:sumula", kwargs={"slug": t.slug, "key": key})
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def mao(ref, t, key, ident, to, points=None, how="played", reason=""):
    body = {"id": ident, "to": to, "how": how}
    if points is not None:
        body["points"] = points
    if reason:
        body["reason"] = reason
    response = post(ref, api(t.slug, key, "maos"), body)
    assert response.status_code == 201, response.content
    return response


def fresh(t) -> Tournament:
    return Tournament.objects.get(pk=t.pk)


def main_of(html: str) -> str:
    return html.split('id="conteudo"')[1]


def dupla_page(client, dupla):
    return client.get(reverse("privatelink:dupla", kwargs={"token": dupla.token}))


def answer_by_link(client, dupla, key, choice, reason="", via="current"):
    """The dupla's page's answer form as posted: ``via`` the via the page showed (by default the jogo's via now;
    None: a form without it)."""
    data = {"resposta": choice, "motivo": reason}
    if via == "current":
        via = Jogo.objects.filter(tournament_id=dupla.tournament_id, key=key).values_list("via", flat=True).first() or 1
    if via is not None:
        data["via"] = str(via)
    return client.post(reverse("privatelink:answer", kwargs={"token": dupla.token, "key": key}), data)


# --- the súmula page -----------------------------------------------------------------------------------------


def test_the_sumula_shows_every_mao_with_its_running_totals(client, cup, ref, j1):
    play(ref, cup.slug, j1, [0], "a")  # partida 1: d1 12 x 0, four truco mãos
    mao(ref, cup, j1, "b1", 1, 3)  # 0 x 3
    mao(ref, cup, j1, "b2", 0, 1, how="ran")  # d4 ran from the truco: 1 x 3
    mao(ref, cup, j1, "b3", None)  # three tied rounds: nobody scores
    mao(ref, cup, j1, "b4", 0, 1, how="penalty", reason="baralho marcado")  # 2 x 3
    mao(ref, cup, j1, "b5", 1, 6)  # 2 x 9
    response = client.get(sumula_url(cup, j1))
    assert response.status_code == 200
    html = main_of(response.content.decode())
    # who plays, where, and the status
    for text in (
        "Súmula · Grupo A · Rodada 1",  # the jogo as people know it, never its key
        "Ana Souza / Bruno Lima",
        "Gabi Rocha / Hugo Alves",
        "Grupo A",
        "Rodada 1",
        "Mesa 1",
        "melhor de 3",
        "em andamento",
        "Partida 1",
        "Partida 2",
    ):
        assert text in html, text
    assert "ª via" not in html  # the first via: nothing to tell (a corrected súmula says "2ª via")
    # partida 1: four mãos of truco for dupla A, the totals 3, 6, 9, 12 in its column
    first = html.split('id="partida-1"')[1].split('id="partida-2"')[0]
    assert first.count("truco") == 4 and "Placar final" in first
    assert [int(n) for n in re.findall(r'<span class="gain">\+3</span>(\d+)</td>', first)] == [3, 6, 9, 12]
    # partida 2: how each mão ended and the running score in two columns
    second = html.split('id="partida-2"')[1]
    rows = re.findall(
        r"<tr[^>]*>\s*<td class=\"c-n\">(\d+)</td>\s*<td class=\"c-how\">(.*?)</td>\s*"
        r"<td class=\"c-side[^\"]*\">(?:<span class=\"gain\">\+\d+</span>)?(\d+)</td>\s*"
        r"<td class=\"c-side[^\"]*\">(?:<span class=\"gain\">\+\d+</span>)?(\d+)</td>",
        second,
        re.S,
    )
    assert [(n, a, b) for n, _how, a, b in rows] == [
        ("1", "0", "3"),
        ("2", "1", "3"),
        ("3", "1", "3"),
        ("4", "2", "3"),
        ("5", "2", "9"),
    ]
    hows = [how for _n, how, _a, _b in rows]
    assert "truco" in hows[0] and "correu do truco" in hows[1] and "Gabi Rocha / Hugo Alves" in hows[1]
    assert "empate" in hows[2] and "penalidade" in hows[3] and "baralho marcado" in hows[3] and "seis" in hows[4]
    assert "em andamento" in second and "2 x 9" in second
    # live while played: the content is polled every 10 s
    assert 'hx-trigger="every 10s"' in html


def test_the_sheet_says_how_each_mao_went_in_plain_words(client, cup, ref, j1):
    """The mãos' column reads "Como foi a mão" (not "Mão Como") and a played mão says what it was worth: "sem
    truco", "truco", "seis"… (not "jogada · truco"; walk review #21)."""
    mao(ref, cup, j1, "s1", 0, 1)
    mao(ref, cup, j1, "s2", 1, 3)
    mao(ref, cup, j1, "s3", 0, 6)
    html = main_of(client.get(sumula_url(cup, j1)).content.decode())
    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert "Como foi a mão" in head and "Número da mão" in head and ">Como<" not in head
    hows = re.findall(r'<td class="c-how">(.*?)</td>', html)
    assert hows == ["sem truco", "truco", "seis"]
    assert "jogada" not in html


def test_a_poll_gets_only_the_sumula_partial(client, cup, ref, j1):
    mao(ref, cup, j1, "m1", 0, 3)
    response = client.get(sumula_url(cup, j1), headers={"HX-Request": "true", "HX-Target": "sumula-conteudo"})
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div id="sumula-conteudo"') and "Partida 1" in html
    assert "HX-Request" in response["Vary"]


def test_provisional_then_confirmed_then_homologated(client, cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "j")
    html = main_of(client.get(sumula_url(cup, j1)).content.decode())
    assert "provisório — aguarda confirmação" in html and "pill-awaiting" in html
    assert "Vitória de <bdi>Ana Souza / Bruno Lima</bdi>" in html and "ainda não respondeu" in html
    assert 'hx-trigger="every 10s"' in html
    # the duplas confirm: one by its PIN, the other by its private link
    assert answer(Client(), cup.slug, j1, "d1").status_code == 200
    d4 = Dupla.objects.get(tournament=cup, key="d4")
    assert answer_by_link(Client(), d4, j1, "confirmar").status_code == 302
    html = main_of(client.get(sumula_url(cup, j1)).content.decode())
    assert ">confirmada<" in html and "pill-confirmed" in html
    assert html.count("confirmou em ") == 2 and "pelo PIN" in html and "pelo link" in html
    # the referee signs: said by role, never by account name
    assert sign(ref, cup.slug, j1).status_code == 200
    html = client.get(sumula_url(cup, j1)).content.decode()
    assert ">homologada<" in html and "Homologada pelo árbitro em " in html
    assert REFEREE_NAME not in html
    assert "hx-trigger" not in main_of(html)  # a homologated súmula no longer changes: no polling


def test_walkover_and_perda_do_jogo_with_their_reasons(client, cup, ref):
    key = jogo_between(cup, "d2", "d3")
    _a, b = jogo_duplas(cup, key)
    assert post(ref, api(cup.slug, key, "resultado"), {"walkover": b}).status_code == 200
    html = main_of(client.get(sumula_url(cup, key)).content.decode())
    assert "WO: <bdi>" in html and "ausente" in html
    other = jogo_between(cup, "d1", "d2")
    assert (
        post(
            ref,
            api(cup.slug, other, "penalidade"),
            {"id": "pen1", "scope": "jogo", "lost_by": "d2", "reason": "agressão verbal"},
        ).status_code
        == 200
    )
    html = main_of(client.get(sumula_url(cup, other)).content.decode())
    assert "Perda do jogo" in html and "agressão verbal" in html


def test_a_corrected_sumula_links_its_earlier_via(client, cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "v")
    response = post(
        ref, api(cup.slug, j1, "correcao"), {"reason": "a súmula trocou as duplas", "partidas": [[0, 12], [7, 12]]}
    )
    assert response.status_code == 200, response.content
    html = main_of(client.get(sumula_url(cup, j1)).content.decode())
    assert "2ª via (súmula corrigida)" in html and "Substitui a 1ª via: a súmula trocou as duplas" in html
    assert f'href="{sumula_url(cup, j1, via=1)}"' in html and "Ler a 1ª via" in html
    assert "Vitória de <bdi>Gabi Rocha / Hugo Alves</bdi>" in html and "7 x 12" in html
    assert "Anotada só pelo placar final" in html
    old = client.get(sumula_url(cup, j1, via=1))
    assert old.status_code == 200
    old_html = main_of(old.content.decode())
    assert "Você está lendo a 1ª via, que não vale mais" in old_html and "Substituída em " in old_html
    assert old_html.count('<td class="c-how">truco</td>') == 8  # the mãos as they were, two partidas of four
    assert "Vitória de <bdi>Ana Souza / Bruno Lima</bdi>" in old_html
    assert "hx-trigger" not in old_html  # an earlier via never changes
    assert REFEREE_NAME not in old.content.decode()
    assert client.get(sumula_url(cup, j1, via=2)).status_code == 200  # the current via, asked by its number


@pytest.mark.parametrize("query", ["via=3", "via=0", "via=abc", "via=-1", "via=%C2%B2"])
def test_an_unknown_via_is_404(client, cup, ref, j1, query):
    play(ref, cup.slug, j1, [0, 0], "x")
    post(ref, api(cup.slug, j1, "correcao"), {"reason": "erro", "partidas": [[0, 12], [7, 12]]})
    assert client.get(sumula_url(cup, j1) + "?" + query).status_code == 404


def test_unknown_jogo_or_tournament_is_404_and_only_get_and_head(client, cup, j1):
    assert client.get(sumula_url(cup, "nao-existe")).status_code == 404
    assert client.get(f"/torneios/nao-existe/jogos/{j1}/").status_code == 404
    assert client.get(sumula_url(cup, j1)).status_code == 200  # a scheduled jogo: its empty súmula
    assert "Nenhuma mão anotada ainda" in client.get(sumula_url(cup, j1)).content.decode()
    assert client.head(sumula_url(cup, j1)).status_code == 200
    assert client.post(sumula_url(cup, j1)).status_code == 405


def test_no_private_data_on_the_sumula_page(client, cup, ref, j1):
    play(ref, cup.slug, j1, [0, 1], "p")
    mao(ref, cup, j1, "p-x", 0, 3)
    html = client.get(sumula_url(cup, j1)).content.decode()  # live: partida 3 under way
    for k in range(3):
        mao(ref, cup, j1, f"r{k}", 0, 3)  # partida 3: 12 x 0, the jogo 2 x 1
    assert answer(Client(), cup.slug, j1, "d1").status_code == 200
    assert answer(Client(), cup.slug, j1, "d4", accept=False, reason="a última mão foi do outro").status_code == 200
    assert sign(ref, cup.slug, j1, reason="mão conferida com a mesa").status_code == 200
    pages = [
        html,
        client.get(sumula_url(cup, j1)).content.decode(),
        client.get(reverse("tournaments:jogos", kwargs={"slug": cup.slug})).content.decode(),
    ]
    assert "a última mão foi do outro" in pages[1] and "mão conferida com a mesa" in pages[1]
    secrets = [REFEREE_NAME, *PIN.values()]
    for d in Dupla.objects.filter(tournament=cup):
        secrets += [d.token, d.pin_hash]
    for p in Player.objects.filter(tournament=cup):
        secrets += [p.email, p.phone, p.birth_date.isoformat(), p.birth_date.strftime("%d/%m/%Y")]
    for page in pages:
        for secret in secrets:
            assert secret not in page, secret


# --- /jogos/: live scores and provisional results ------------------------------------------------------------


def test_jogos_shows_each_mao_without_recomputing_the_standings(client, cup, ref, j1):
    url = reverse("tournaments:jogos", kwargs={"slug": cup.slug})
    html = client.get(url).content.decode()
    assert 'hx-trigger="every 30s"' in html  # nothing at the table yet
    assert f'href="{sumula_url(cup, j1)}"' in html  # each jogo links its súmula
    before, live_before = fresh(cup), tournament_live_version(tournament=cup)
    mao(ref, cup, j1, "l1", 0, 3)
    after = fresh(cup)
    assert after.results_version == before.results_version
    assert tournament_live_version(tournament=cup) == live_before + 1
    html = client.get(url).content.decode()
    assert "partida 1:" in html and "3 x 0" in html
    assert 'hx-trigger="every 10s"' in html  # a jogo at the table: polled more often
    mao(ref, cup, j1, "l2", 1, 6)
    assert fresh(cup).results_version == before.results_version
    partial = client.get(url, headers={"HX-Request": "true", "HX-Target": "jogos-lista"}).content.decode()
    assert "<html" not in partial and "3 x 6" in partial


def test_jogos_labels_a_provisional_result_until_both_confirm(client, cup, ref, j1):
    url = reverse("tournaments:jogos", kwargs={"slug": cup.slug})
    play(ref, cup.slug, j1, [0, 0], "q")
    html = client.get(url).content.decode()
    item = html.split(f'href="{sumula_url(cup, j1)}"')[0].rsplit("<li", 1)[1]
    assert "pill-awaiting" in item and "provisório: aguarda confirmação" in item and "12 x 0, 12 x 0" in item
    assert answer(Client(), cup.slug, j1, "d1").status_code == 200
    assert answer(Client(), cup.slug, j1, "d4", accept=False, reason="faltou uma mão").status_code == 200
    html = client.get(url).content.decode()
    item = html.split(f'href="{sumula_url(cup, j1)}"')[0].rsplit("<li", 1)[1]
    assert "pill-contested" in item and "provisório: contestado" in item
    assert answer(Client(), cup.slug, j1, "d4").status_code == 200
    html = client.get(url).content.decode()
    item = html.split(f'href="{sumula_url(cup, j1)}"')[0].rsplit("<li", 1)[1]
    assert "pill-confirmed" in item and "provisório" not in item


def _points(t) -> dict[str, int]:
    state = tournament_state_get(tournament=fresh(t))
    table = state.view.stages[0].tables[0]
    return {row.dupla: row.stats.points for row in table.rows}


def test_standings_count_a_result_only_once_confirmed(client, cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "s")
    assert Jogo.objects.get(tournament=cup, key=j1).status == Jogo.AWAITING
    assert _points(cup)["d1"] == 0  # decided but not confirmed: not counted
    standings = client.get(reverse("tournaments:standings", kwargs={"slug": cup.slug})).content.decode()
    assert "0 de 6 jogos encerrados" in standings
    d1, d4 = (Dupla.objects.get(tournament=cup, key=k) for k in ("d1", "d4"))
    assert answer_by_link(Client(), d1, j1, "confirmar").status_code == 302
    assert _points(cup)["d1"] == 0  # one confirmation is not enough
    assert answer_by_link(Client(), d4, j1, "confirmar").status_code == 302
    assert Jogo.objects.get(tournament=cup, key=j1).status == Jogo.CONFIRMED
    assert _points(cup)["d1"] == 3 and _points(cup)["d4"] == 0
    standings = client.get(reverse("tournaments:standings", kwargs={"slug": cup.slug})).content.decode()
    assert "1 de 6 jogos encerrados" in standings


# --- the dupla's private page: confirm or contest by its link ------------------------------------------------


def test_the_private_page_confirms_and_contests(cup, ref, j1):
    d1, d4 = (Dupla.objects.get(tournament=cup, key=k) for k in ("d1", "d4"))
    browser = Client(enforce_csrf_checks=True)
    html = dupla_page(browser, d1).content.decode()
    assert "Confirmar a súmula" not in html  # nothing decided yet
    play(ref, cup.slug, j1, [0, 0], "c")
    response = dupla_page(browser, d1)
    html = response.content.decode()
    assert response["Referrer-Policy"] == "no-referrer" and "private" in response["Cache-Control"]
    section = html.split('id="confirmar"')[1].split("</section>")[0]
    assert "Confirmar a súmula" in section and "Contestar" in section and "12 x 0, 12 x 0" in section
    assert f'href="{sumula_url(cup, j1)}"' in section and "Gabi Rocha / Hugo Alves" in section
    # the link is the credential: the form is accepted as a browser sends it from a no-referrer page
    # (Origin: null, which a CSRF check refuses); a made-up link is not found
    url = reverse("privatelink:answer", kwargs={"token": d1.token, "key": j1})
    forged = reverse("privatelink:answer", kwargs={"token": "x" * 22, "key": j1})
    assert browser.post(forged, {"resposta": "confirmar", "via": "1"}, HTTP_ORIGIN="null").status_code == 404
    response = browser.post(url, {"resposta": "confirmar", "via": "1"}, HTTP_ORIGIN="null")
    assert response.status_code == 302 and response["Location"].endswith("#confirmar")
    jogo = Jogo.objects.get(tournament=cup, key=j1)
    assert jogo.status == Jogo.AWAITING and jogo.confirmations["a"]["answer"] == "confirmed"
    assert jogo.confirmations["a"]["by"] == "link"
    event = SumulaEvent.objects.filter(jogo=jogo, action="confirmation").get()
    assert event.dupla_id == d1.pk and event.method == "link"
    html = browser.get(response["Location"]).content.decode()
    assert "Sua dupla confirmou a súmula do jogo" in html
    assert "Confirmar a súmula" not in html.split('id="confirmar"')[1].split("</section>")[0]  # answered
    # the other dupla contests: a reason is required
    other = Client()
    response = answer_by_link(other, d4, j1, "contestar", reason="  ", via=1)
    assert response.status_code == 302
    assert "para contestar, diga o motivo" in other.get(response["Location"]).content.decode()
    assert Jogo.objects.get(pk=jogo.pk).status == Jogo.AWAITING
    response = answer_by_link(other, d4, j1, "contestar", reason="a mão 3 foi nossa", via=1)
    assert response.status_code == 302
    jogo.refresh_from_db()
    assert jogo.status == Jogo.CONTESTED and jogo.confirmations["b"]["reason"] == "a mão 3 foi nossa"
    html = other.get(response["Location"]).content.decode()
    assert "Sua dupla contestou a súmula" in html and "Sua dupla contestou: a mão 3 foi nossa" in html
    assert "Confirmar a súmula" in html  # a contest can still become a confirmation
    # the public súmula tells it
    public = Client().get(sumula_url(cup, j1)).content.decode()
    assert ">contestada<" in public and "a mão 3 foi nossa" in public and "contestou em " in public
    # and the contesting dupla changes its mind
    assert answer_by_link(other, d4, j1, "confirmar", via=1).status_code == 302
    assert Jogo.objects.get(pk=jogo.pk).status == Jogo.CONFIRMED


def test_another_duplas_link_cannot_answer_a_jogo_it_does_not_play(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "o")
    d2 = Dupla.objects.get(tournament=cup, key="d2")
    before = Jogo.objects.filter(key=j1).values("status", "confirmations", "version").get()
    client = Client()
    response = answer_by_link(client, d2, j1, "confirmar")
    assert response.status_code == 302
    assert "não joga este jogo" in client.get(response["Location"]).content.decode()
    assert Jogo.objects.filter(key=j1).values("status", "confirmations", "version").get() == before
    # nor a jogo of another tournament, nor an unknown one, nor with a made-up link
    assert (
        "não encontrado"
        in client.get(answer_by_link(client, d2, "nao-existe", "confirmar")["Location"]).content.decode()
    )
    assert client.post(f"/d/{'x' * 22}/jogos/{j1}/resposta/", {"resposta": "confirmar"}).status_code == 404
    assert client.get(reverse("privatelink:answer", kwargs={"token": d2.token, "key": j1})).status_code == 405


def test_an_answer_to_a_via_that_was_replaced_is_not_taken(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "r")
    assert (
        post(ref, api(cup.slug, j1, "correcao"), {"reason": "erro", "partidas": [[12, 3], [12, 5]]}).status_code == 200
    )
    d1 = Dupla.objects.get(tournament=cup, key="d1")
    client = Client()
    response = answer_by_link(client, d1, j1, "confirmar", via=1)
    assert (
        "a súmula mudou: agora é a via 2; confira o resultado e confirme de novo"
        in client.get(response["Location"]).content.decode()
    )
    assert Jogo.objects.get(tournament=cup, key=j1).confirmations == {}
    html = dupla_page(client, d1).content.decode()
    assert "2ª via (súmula corrigida)" in html and "Motivo da correção: erro" in html and 'name="via" value="2"' in html
