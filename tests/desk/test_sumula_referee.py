"""The referee's screens without JS (/organizar/<slug>/arbitragem/): the list of jogos, and the súmula screen
whose every button is a form that calls the same service as the súmula API and comes back (PRG)."""

import json
import re

import pytest
from django.test import Client

from tests.support.sumula import PIN, api, cup_file, cup_setup, jogo_duplas, post, staff_user
from tournaments.draws.tables import jogo_referee_set
from tournaments.models import Jogo, Mao, Mesa, StaffRole, SumulaEvent, SumulaVia

pytestmark = pytest.mark.django_db

SLUG = "copa-sumula"


@pytest.fixture
def cup(load_file):
    return cup_setup(load_file)


@pytest.fixture
def referee(cup):
    user = staff_user(cup, "arbitra")
    Mesa.objects.create(tournament=cup, number=1, referee=user)  # j1, j3, j5 are played on mesa 1
    return user


@pytest.fixture
def ref_client(referee):
    client = Client()
    client.force_login(referee)
    return client


def screen(key: str = "j1") -> str:
    return f"/organizar/{SLUG}/arbitragem/{key}/"


def mao(client, key="j1", **fields):
    data = {"op": "mao", "how": "played"} | {k: str(v) for k, v in fields.items()}
    return client.post(screen(key), data)


def alerts(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", m).strip() for m in re.findall(r'role="alert"[^>]*>(.*?)</div>', html, re.S)]


def maos(key="j1") -> list[tuple]:
    return list(
        Mao.objects.filter(partida__jogo__key=key)
        .order_by("partida__number", "order")
        .values_list("partida__number", "to", "points", "how")
    )


# --- the list ------------------------------------------------------------------------------------------


def test_the_referee_sees_the_jogos_of_their_mesa_and_of_their_own(cup, referee, ref_client):
    owner = staff_user(cup, "dona", role=StaffRole.ORGANIZER)
    other = staff_user(cup, "outro")
    jogo = {j.key: j.pk for j in Jogo.objects.filter(tournament=cup)}
    jogo_referee_set(tournament=cup, user=owner, jogo_id=jogo["j4"], referee_id=referee.pk)  # on mesa 2
    jogo_referee_set(tournament=cup, user=owner, jogo_id=jogo["j5"], referee_id=other.pk)  # mesa 1, given away
    html = ref_client.get(f"/organizar/{SLUG}/arbitragem/").content.decode()
    linked = set(re.findall(r"/arbitragem/(j\d)/", html))
    assert linked == {"j1", "j3", "j4"}
    assert "Meus jogos" in html
    everything = ref_client.get(f"/organizar/{SLUG}/arbitragem/?todos=1").content.decode()
    assert set(re.findall(r"/arbitragem/(j\d)/", everything)) == {f"j{n}" for n in range(1, 7)}
    assert "árbitro: outro" in everything


def test_the_list_puts_the_jogos_at_the_table_first_then_those_to_play_then_the_finished(cup, referee, ref_client):
    staff = Client()
    staff.force_login(referee)
    post(staff, api(SLUG, "j3", "maos"), {"id": "x1", "to": 0, "points": 3})  # j3 at the table
    post(staff, api(SLUG, "j5", "resultado"), {"partidas": [[12, 0], [12, 3]]})  # j5 decided
    post(staff, api(SLUG, "j5", "homologacao"), {"via": 1, "reason": "as duplas saíram sem confirmar"})
    html = ref_client.get(f"/organizar/{SLUG}/arbitragem/").content.decode()
    order = re.findall(r"/arbitragem/(j\d)/", html)
    assert order == ["j3", "j1", "j5"]
    assert html.index("Na mesa") < html.index("A jogar") < html.index("Encerrados")
    # the partida being played names the duplas around its score, in the order the card lists them
    j3 = Jogo.objects.select_related(
        "dupla_a__player1", "dupla_a__player2", "dupla_b__player1", "dupla_b__player2"
    ).get(tournament=cup, key="j3")
    first, second = (f"{d.player1.name.split()[0]} / {d.player2.name.split()[0]}" for d in (j3.dupla_a, j3.dupla_b))
    assert f"partida 1 em jogo: {first} 3 x 0 {second}" in html
    card = html[html.index("/arbitragem/j3/") :]
    assert card.index(j3.dupla_a.display_name) < card.index(j3.dupla_b.display_name) < card.index("partida 1 em jogo")


def test_an_organizer_sees_every_jogo(cup):
    owner = staff_user(cup, "dona", role=StaffRole.ORGANIZER)
    client = Client()
    client.force_login(owner)
    html = client.get(f"/organizar/{SLUG}/arbitragem/").content.decode()
    assert len(set(re.findall(r"/arbitragem/(j\d)/", html))) == 6
    assert "Todos os jogos" in html


def test_the_list_asks_few_queries(cup, referee, ref_client, django_assert_max_num_queries):
    ref_client.get(f"/organizar/{SLUG}/arbitragem/?todos=1")  # the tournament's state is cached per version
    with django_assert_max_num_queries(8):
        response = ref_client.get(f"/organizar/{SLUG}/arbitragem/?todos=1")
    assert response.status_code == 200


def test_a_referee_of_another_tournament_gets_404(cup, load_file):
    other = load_file(cup_file("outra-copa"))
    stranger = staff_user(other, "de-fora")
    client = Client()
    client.force_login(stranger)
    assert client.get(f"/organizar/{SLUG}/arbitragem/").status_code == 404
    assert client.get(screen()).status_code == 404
    assert mao(client, to=0, points=3).status_code == 404
    assert maos() == []


def test_anonymous_goes_to_the_login(cup):
    client = Client()
    for url in (f"/organizar/{SLUG}/arbitragem/", screen()):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/entrar/?next="), url
    response = mao(client, to=0, points=3)
    assert response.status_code == 302 and response["Location"].startswith("/entrar/?next=")
    assert maos() == []


# --- the súmula screen without JS ----------------------------------------------------------------------


def test_the_screen_shows_the_buttons_and_hands_the_script_its_data(cup, referee, ref_client):
    response = ref_client.get(screen())
    html = response.content.decode()
    assert response["Cache-Control"] == "no-store"
    assert "Ana Souza / Bruno Lima" in html and "Gabi Rocha / Hugo Alves" in html
    assert 'aria-label="Ana / Bruno: venceu a mão de 12"' in html
    assert 'aria-label="Gabi / Hugo: a outra dupla correu (9)"' in html
    # no inline script: only the JSON block and scripts with src
    for tag in re.findall(r"<script[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    data = json.loads(re.search(r'<script id="sumula-data" type="application/json">(.*?)</script>', html, re.S)[1])
    assert data["api"]["maos"] == f"/api/v1/torneios/{SLUG}/jogos/j1/maos/"
    assert data["sumula"]["options"]["played"] == [1, 3, 6, 9, 12]
    assert data["storage"] == f"zap-sumula:{SLUG}:j1"
    assert "/static/js/sumula.js" in html and "/static/css/sumula.css" in html


def test_a_mao_form_records_the_mao_and_comes_back(cup, referee, ref_client):
    response = mao(ref_client, to=0, points=3, id="srv-0b8a4c1e-7d3f-4f7a-9a51-0c3e2b1d4e5f")
    assert response.status_code == 302
    assert response["Location"] == screen() + "#placar"
    assert maos() == [(1, 0, 3, "played")]
    assert Jogo.objects.get(tournament=cup, key="j1").status == "in_progress"
    page = ref_client.get(response["Location"]).content.decode()
    assert re.search(r'data-bind="points-0"[^>]*>3<', page)
    # the same form sent again (a double click, the back button) records nothing more
    mao(ref_client, to=0, points=3, id="srv-0b8a4c1e-7d3f-4f7a-9a51-0c3e2b1d4e5f")
    assert maos() == [(1, 0, 3, "played")]
    # the other entries of the pad: a dupla that ran, a tie
    mao(ref_client, to=1, points=6, how="ran")
    mao(ref_client, to="")
    assert maos() == [(1, 0, 3, "played"), (1, 1, 6, "ran"), (1, None, None, "played")]
    assert Mao.objects.filter(partida__jogo__key="j1").first().scorer == referee


def test_a_forbidden_value_shows_the_rule_and_writes_nothing(cup, referee, ref_client):
    events = SumulaEvent.objects.count()
    response = mao(ref_client, to=0, points=5)
    assert response.status_code == 302
    assert maos() == [] and SumulaEvent.objects.count() == events
    page = ref_client.get(response["Location"]).content.decode()
    assert any("uma mão vale 1, 3, 6, 9 ou 12; recebido 5" in a for a in alerts(page)), alerts(page)
    # a mão de onze is worth 3: a 6 is refused, and the screen offers no 6 there
    for _ in range(3):
        mao(ref_client, to=0, points=3)
    mao(ref_client, to=0, points=1, how="ran")
    mao(ref_client, to=0, points=1)  # 11 x 0
    page = ref_client.get(screen()).content.decode()
    assert re.search(r'aria-label="Ana / Bruno: venceu a mão de 6" disabled', page)
    assert not re.search(r'aria-label="Ana / Bruno: venceu a mão de 3" disabled', page)
    assert "Mão de onze: Ana / Bruno decide" in page
    before = maos()
    page = ref_client.get(mao(ref_client, to=1, points=6)["Location"]).content.decode()
    assert maos() == before
    assert any("mão de onze aceita vale 3" in a for a in alerts(page)), alerts(page)
    # the refusal of the mão de onze gives 1 to the other dupla
    mao(ref_client, to=1, points=1, how="refused")
    assert maos()[-1] == (1, 1, 1, "refused")


def test_a_post_naming_no_action_is_not_allowed(cup, referee, ref_client):
    assert ref_client.post(screen(), {"to": "0", "points": "3"}).status_code == 405
    assert ref_client.post(screen("nao-existe"), {"op": "mao", "to": "0", "points": "3"}).status_code == 404
    assert maos() == []


def test_undo_takes_back_the_last_mao_only(cup, referee, ref_client):
    mao(ref_client, to=0, points=3)
    mao(ref_client, to=1, points=1)
    first, last = [m["id"] for m in ref_client.get(api(SLUG, "j1")).json()["partidas"][0]["maos"]]
    page = ref_client.get(ref_client.post(screen(), {"op": "desfazer", "mao": first})["Location"]).content.decode()
    assert any("só a última mão pode ser desfeita" in a for a in alerts(page))
    assert len(maos()) == 2
    assert f'name="mao" value="{last}"' in page
    ref_client.post(screen(), {"op": "desfazer", "mao": last})
    assert maos() == [(1, 0, 3, "played")]


def _play_two_partidas(client, key="j1"):
    for _ in range(2):
        for _ in range(4):
            mao(client, key, to=0, points=3)


def test_the_whole_jogo_without_js_confirmed_with_pins_and_signed(cup, referee, ref_client):
    _play_two_partidas(ref_client)
    jogo = Jogo.objects.get(tournament=cup, key="j1")
    assert jogo.status == "awaiting_confirmation"
    page = ref_client.get(screen()).content.decode()
    assert "O que falta" in page and 'name="pin"' in page
    assert "Decisão do árbitro (obrigatória" in page
    # a wrong PIN: refused, nothing answered
    response = ref_client.post(
        screen(), {"op": "confirmacao", "via": "1", "dupla": "d1", "pin": "999999", "accept": "1"}
    )
    assert response["Location"] == screen() + "#avisos"
    assert any("PIN incorreto" in a for a in alerts(ref_client.get(screen()).content.decode()))
    assert Jogo.objects.get(pk=jogo.pk).confirmations == {}
    # contesting needs a reason (and costs no PIN try)
    ref_client.post(screen(), {"op": "confirmacao", "via": "1", "dupla": "d4", "pin": PIN["d4"], "accept": "0"})
    assert any("escreva o motivo" in a for a in alerts(ref_client.get(screen()).content.decode()))
    response = ref_client.post(
        screen(), {"op": "confirmacao", "via": "1", "dupla": "d1", "pin": PIN["d1"], "accept": "1"}
    )
    assert response["Location"] == screen() + "#confirmacao"
    ref_client.post(screen(), {"op": "confirmacao", "via": "1", "dupla": "d4", "pin": PIN["d4"], "accept": "1"})
    jogo.refresh_from_db()
    assert jogo.status == "confirmed"
    page = ref_client.get(screen()).content.decode()
    assert "As duas duplas confirmaram." in page and "Decisão do árbitro (obrigatória" not in page
    ref_client.post(screen(), {"op": "homologacao", "via": "1"})
    jogo.refresh_from_db()
    assert jogo.status == "homologated" and jogo.signed_by == referee
    page = ref_client.get(screen()).content.decode()
    assert "Corrigir (nova via)" in page and "assinada por arbitra" in page


def test_a_decided_jogo_is_signed_with_a_decision_when_a_dupla_did_not_confirm(cup, referee, ref_client):
    _play_two_partidas(ref_client)
    ref_client.post(screen(), {"op": "homologacao", "via": "1"})
    assert any("falta a confirmação de uma dupla" in a for a in alerts(ref_client.get(screen()).content.decode()))
    ref_client.post(screen(), {"op": "homologacao", "via": "1", "reason": "a dupla d4 foi embora"})
    jogo = Jogo.objects.get(tournament=cup, key="j1")
    assert jogo.status == "homologated" and jogo.signed_reason == "a dupla d4 foi embora"


def test_quick_result_walkover_penalty_and_correction(cup, referee, ref_client):
    # quick entry: the final scores of the partidas; an impossible score is refused
    page = ref_client.get(ref_client.post(screen(), {"op": "resultado", "p1_a": "12", "p1_b": "12"})["Location"])
    assert any("12 x 12 impossível" in a for a in alerts(page.content.decode()))
    ref_client.post(
        screen(), {"op": "resultado", "p1_a": "12", "p1_b": "5", "p2_a": "3", "p2_b": "12", "p3_a": "12", "p3_b": "10"}
    )
    jogo = Jogo.objects.get(tournament=cup, key="j1")
    assert jogo.status == "awaiting_confirmation"
    assert ref_client.get(api(SLUG, "j1")).json()["score"] == [2, 1]
    # a walkover on another jogo
    ref_client.post(screen("j3"), {"op": "wo", "absent": "d3", "reason": "não compareceu"})
    assert ref_client.get(api(SLUG, "j3")).json()["walkover"] == "d3"
    assert "WO: Elisa Melo / Fábio Nunes ausente" in ref_client.get(screen("j3")).content.decode()
    # perda da partida needs a reason; then the partida is 12 x 0 to the other dupla
    ref_client.post(screen("j5"), {"op": "penalidade", "scope": "partida", "lost_by": "d2"})
    assert Mao.objects.filter(partida__jogo__key="j5").count() == 0
    ref_client.post(screen("j5"), {"op": "penalidade", "scope": "partida", "lost_by": "d2", "reason": "celular"})
    assert ref_client.get(api(SLUG, "j5")).json()["partidas"][0]["score"] == [12, 0]
    # correction of the signed j1: a new via with its reason
    ref_client.post(screen(), {"op": "homologacao", "via": "1", "reason": "as duplas saíram"})
    ref_client.post(
        screen(),
        {
            "op": "correcao",
            "reason": "placar trocado na 2ª partida",
            "p1_a": "12",
            "p1_b": "5",
            "p2_a": "12",
            "p2_b": "3",
        },
    )
    jogo.refresh_from_db()
    assert (jogo.via, jogo.via_reason, jogo.status) == (2, "placar trocado na 2ª partida", "awaiting_confirmation")
    assert SumulaVia.objects.filter(jogo=jogo, via=1).exists()
    assert "Via 2: placar trocado na 2ª partida" in ref_client.get(screen()).content.decode()


def test_the_correction_form_starts_from_the_current_result_and_stays_closed_after_signing(cup, referee, ref_client):
    """Issue 24, item 10: the correction used to start empty (the referee retyped every partida), and it was open
    on every signed súmula."""
    import re

    ref_client.post(
        screen(), {"op": "resultado", "p1_a": "12", "p1_b": "5", "p2_a": "3", "p2_b": "12", "p3_a": "12", "p3_b": "10"}
    )
    ref_client.post(screen(), {"op": "homologacao", "via": "1", "reason": "as duplas saíram"})
    page = ref_client.get(screen()).content.decode()
    correction = re.search(r'<details class="card sumula-more" id="correcao"( open)?>(.*?)</details>', page, re.S)
    assert correction is not None and correction.group(1) is None  # closed until asked for
    values = dict(re.findall(r'id="fix-p\d-[ab]" name="(p\d_[ab])"[^>]*? value="(\d+)"', correction.group(2)))
    assert values == {"p1_a": "12", "p1_b": "5", "p2_a": "3", "p2_b": "12", "p3_a": "12", "p3_b": "10"}
    # the quick entry of a jogo still to play starts empty
    entry = ref_client.get(screen("j3")).content.decode()
    assert 'id="res-p1-a"' in entry and not re.search(r'id="res-p\d-[ab]"[^>]*value=', entry)


def test_a_wrong_pin_on_the_screen_says_the_tries_left_then_the_lockout(cup, referee, ref_client):
    _play_two_partidas(ref_client)
    wrong = {"op": "confirmacao", "via": "1", "dupla": "d1", "pin": "000000", "accept": "1"}
    ref_client.post(screen(), wrong)
    shown = alerts(ref_client.get(screen()).content.decode())
    assert any(a.endswith(". Mais 5 tentativas antes do bloqueio de 10 minutos.") for a in shown), shown
    for _ in range(4):
        ref_client.post(screen(), wrong)
    shown = alerts(ref_client.get(screen()).content.decode())
    assert any(
        a.startswith("PIN incorreto para") and a.endswith(". Mais 1 tentativa antes do bloqueio de 10 minutos.")
        for a in shown
    ), shown
    ref_client.post(screen(), wrong)
    shown = alerts(ref_client.get(screen()).content.decode())
    assert any(
        "PIN bloqueado por excesso de tentativas erradas: tente de novo em 10 minutos ou procure o árbitro da mesa" in a
        for a in shown
    ), shown
    assert not any("tentativa antes" in a or "tentativas antes" in a for a in shown)


def test_the_pin_lockout_reaches_the_referee_screen(cup, referee, ref_client):
    _play_two_partidas(ref_client)
    for _ in range(6):
        ref_client.post(screen(), {"op": "confirmacao", "via": "1", "dupla": "d1", "pin": "000000", "accept": "1"})
    ref_client.post(screen(), {"op": "confirmacao", "via": "1", "dupla": "d1", "pin": PIN["d1"], "accept": "1"})
    assert any("PIN bloqueado" in a for a in alerts(ref_client.get(screen()).content.decode()))
    assert Jogo.objects.get(tournament=cup, key="j1").confirmations == {}


def test_a_walkover_asks_its_reason_and_waits_only_for_the_present_dupla(cup, referee, ref_client):
    """Issue 41 item 16: the WO asked no reason, then waited for the absent dupla's PIN, so the referee had to
    "assinar sem a confirmação". Now the reason is required, the absent dupla is not asked, and the present
    dupla's confirmation lets the referee sign as for any jogo."""
    absent, present = sorted(jogo_duplas(cup, "j3"), key=lambda d: d != "d3")
    page = ref_client.get(screen("j3")).content.decode()
    assert 'name="absent"' in page and 'id="wo-reason"' in page and "required" in page.split('id="wo-reason"')[1][:80]
    # without a reason: refused, with the words of the form, and nothing written
    refused = ref_client.get(ref_client.post(screen("j3"), {"op": "wo", "absent": absent})["Location"])
    assert any("WO: escreva o motivo" in a for a in alerts(refused.content.decode()))
    assert Jogo.objects.get(key="j3").walkover == ""
    ref_client.post(screen("j3"), {"op": "wo", "absent": absent, "reason": "não veio à chamada das 14h"})
    sheet = ref_client.get(api(SLUG, "j3")).json()
    assert (sheet["walkover"], sheet["walkover_reason"], sheet["status"]) == (
        absent,
        "não veio à chamada das 14h",
        "awaiting_confirmation",
    )
    page = ref_client.get(screen("j3")).content.decode()
    assert "Motivo do WO: não veio à chamada das 14h" in page
    assert f'name="dupla" value="{present}"' in page and f'name="dupla" value="{absent}"' not in page
    assert "a dupla ausente não confirma" in page
    ref_client.post(
        screen("j3"), {"op": "confirmacao", "dupla": present, "via": "1", "pin": PIN[present], "accept": "1"}
    )
    assert Jogo.objects.get(key="j3").status == "confirmed"
    page = ref_client.get(screen("j3")).content.decode()
    assert "Assinar sem a confirmação" not in page and "A dupla presente confirmou." in page
    ref_client.post(screen("j3"), {"op": "homologacao", "via": "1"})
    jogo = Jogo.objects.get(key="j3")
    assert (jogo.status, jogo.signed_reason, jogo.penalty_reason) == ("homologated", "", "não veio à chamada das 14h")
    public = Client().get(f"/torneios/{SLUG}/jogos/j3/").content.decode()
    assert "Motivo: não veio à chamada das 14h" in public and "ausente: não confirma o WO" in public
