"""A confirmation or a signature is for the via it saw (issue 21, item 1), and wrong types are refused with their
field (item 7): ``partidas`` that is not a list, an empty ``how``, a required reason made of invisible characters.

docs/contrato.md, súmula API: ``confirmacao/`` takes ``{"dupla", "pin", "via", "accept"}`` and ``homologacao/``
takes ``{"via"}``; another via → 409, nothing written; a missing or malformed via → 422 naming 'via'.
"""

import unicodedata

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.text import is_blank
from tests.support.sumula import PIN, answer, api, db_snapshot, play, post, sign
from tournaments.models import Dupla, Jogo
from tournaments.refusals import Refused
from tournaments.result_form import Errors, result_read
from tournaments.sumula import services
from tournaments.web import refusal_status

pytestmark = pytest.mark.django_db

STALE = "a súmula mudou: agora é a via 2; confira o resultado e confirme de novo"
CORRECTION = {"reason": "placar trocado na 2ª partida", "partidas": [[12, 3], [12, 5]]}
DB_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


def errors_of(response) -> list[str]:
    return response.json()["errors"]


def corrected(ref, cup, j1) -> None:
    """j1 decided (via 1), then corrected: via 2, awaiting both confirmations again."""
    play(ref, cup.slug, j1, [0, 0], "v")
    assert post(ref, api(cup.slug, j1, "correcao"), CORRECTION).status_code == 200
    assert Jogo.objects.get(tournament=cup, key=j1).via == 2


# --- the API: the via is part of the answer and of the signature --------------------------------------------


def test_a_confirmation_for_the_via_before_a_correction_is_refused_and_writes_nothing(cup, ref, j1):
    corrected(ref, cup, j1)
    before = db_snapshot()
    for dupla, accept, extra in (("d1", True, {}), ("d4", False, {"reason": "a mão 3 foi nossa"})):
        r = answer(Client(), cup.slug, j1, dupla, accept=accept, via=1, **extra)
        assert r.status_code == 409, r.content
        assert any("agora é a via 2" in m for m in errors_of(r)), errors_of(r)
        assert db_snapshot() == before
    assert any(STALE in m for m in errors_of(answer(Client(), cup.slug, j1, "d1", via=1)))
    # a via that does not exist yet is not this one either
    assert answer(Client(), cup.slug, j1, "d1", via=3).status_code == 409
    assert db_snapshot() == before
    # the via now shown: taken
    r = answer(Client(), cup.slug, j1, "d1", via=2)
    assert r.status_code == 200 and r.json()["confirmations"]["d1"] == "confirmed"


def test_a_retried_confirmation_for_the_old_via_is_refused_after_a_correction(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "w")
    assert answer(Client(), cup.slug, j1, "d1", via=1).status_code == 200
    before = db_snapshot()
    assert answer(Client(), cup.slug, j1, "d1", via=1).status_code == 200  # the same answer again: nothing new
    assert db_snapshot() == before
    assert answer(Client(), cup.slug, j1, "d4", via=1).json()["status"] == "confirmed"
    assert answer(Client(), cup.slug, j1, "d4", via=1).status_code == 200  # retried once confirmed: harmless
    assert post(ref, api(cup.slug, j1, "correcao"), CORRECTION).status_code == 200
    before = db_snapshot()
    for dupla in ("d1", "d4"):  # the phones' retries of their via-1 answers
        assert answer(Client(), cup.slug, j1, dupla, via=1).status_code == 409
    assert db_snapshot() == before
    assert Jogo.objects.get(tournament=cup, key=j1).confirmations == {}


def test_a_signature_is_for_the_via_it_saw(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "s")
    assert sign(ref, cup.slug, j1, via=1, reason="as duplas saíram").status_code == 200
    assert post(ref, api(cup.slug, j1, "correcao"), CORRECTION).status_code == 200
    before = db_snapshot()
    # the retried signature of via 1, and a signature of a via that is not there: refused, nothing written
    for via in (1, 3):
        r = sign(ref, cup.slug, j1, via=via, reason="decidido")
        assert r.status_code == 409, r.content
        assert any("agora é a via 2; confira o resultado e assine de novo" in m for m in errors_of(r))
        assert db_snapshot() == before
    r = sign(ref, cup.slug, j1, via=2, reason="decidido")
    assert r.status_code == 200 and r.json()["status"] == "homologated" and r.json()["via"] == 2


# every JSON value that is not a whole number ≥ 1 (booleans are not numbers)
# (a number beyond 64 bits or infinite, or a text with a NUL or half a surrogate pair, never reaches the via check: the body
# reader refuses it, 400 naming the field)
STORABLE = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")
NOT_A_VIA = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=0),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(STORABLE, max_size=5),
    st.lists(st.integers(-(2**63), 2**63 - 1), max_size=2),
    st.dictionaries(st.text(STORABLE, max_size=3), st.integers(-(2**63), 2**63 - 1), max_size=1),
)


@DB_SETTINGS
@given(via=NOT_A_VIA, missing=st.booleans())
def test_a_missing_or_malformed_via_is_422_naming_via(cup, ref, j1, via, missing):
    if not Jogo.objects.get(tournament=cup, key=j1).status == "awaiting_confirmation":
        play(ref, cup.slug, j1, [0, 0], "m")
    before = db_snapshot()
    confirmation = {"dupla": "d1", "pin": PIN["d1"], "accept": True}
    signature = {"reason": "as duplas saíram"}
    if not missing:
        confirmation["via"] = signature["via"] = via
    for client, action, body in ((Client(), "confirmacao", confirmation), (ref, "homologacao", signature)):
        r = post(client, api(cup.slug, j1, action), body)
        assert r.status_code == 422, (action, body, r.content)
        assert any("'via'" in m for m in errors_of(r)), errors_of(r)
        assert db_snapshot() == before


def test_a_malformed_via_or_a_blank_contest_costs_no_pin_try(cup, ref, j1):
    from tournaments.models import PinFailure

    play(ref, cup.slug, j1, [0, 0], "p")
    r = post(Client(), api(cup.slug, j1, "confirmacao"), {"dupla": "d1", "pin": "000000", "via": "1", "accept": True})
    assert r.status_code == 422 and PinFailure.objects.count() == 0
    r = answer(Client(), cup.slug, j1, "d1", accept=False, reason="\u200b", pin="000000")  # nor a blank contest
    assert r.status_code == 422 and PinFailure.objects.count() == 0


# --- the race: a correction lands after the dupla saw via 1 and before its answer is written ------------------


def test_a_correction_landing_while_a_confirmation_is_on_its_way_wins(cup, ref, j1, monkeypatch):
    """The dupla reads via 1; its answer passes the API's checks (the PIN); then the correction commits; then
    the answer takes the jogo's lock. The via is checked under that lock: the answer is refused."""
    play(ref, cup.slug, j1, [0, 0], "r")
    seen = Client().get(api(cup.slug, j1)).json()
    assert seen["via"] == 1 and seen["status"] == "awaiting_confirmation"
    from tournaments.api import sumula as api_module

    real_pin_verify = api_module.pin_verify

    def pin_verify_then_correction(**kwargs):
        real_pin_verify(**kwargs)
        r = post(ref, api(cup.slug, j1, "correcao"), CORRECTION)  # the referee's correction commits meanwhile
        assert r.status_code == 200 and r.json()["via"] > seen["via"]

    monkeypatch.setattr(api_module, "pin_verify", pin_verify_then_correction)
    for n, dupla in enumerate(("d1", "d4")):
        r = answer(Client(), cup.slug, j1, dupla, via=seen["via"])
        assert r.status_code == 409, r.content
        assert any(f"agora é a via {n + 2}; confira o resultado e confirme de novo" in m for m in errors_of(r))
    jogo = Jogo.objects.get(tournament=cup, key=j1)
    assert jogo.via == 3 and jogo.confirmations == {} and jogo.status == "awaiting_confirmation"


def test_the_service_checks_the_via_after_its_own_checks_of_the_body(cup, ref, j1, monkeypatch):
    """Even when the correction commits after the service read its arguments, before it took the lock."""
    play(ref, cup.slug, j1, [0, 0], "q")
    dupla = Dupla.objects.get(tournament=cup, key="d1")
    real_reason = services.reason_clean
    done = []

    def reason_then_correction(value, **kwargs):
        out = real_reason(value, **kwargs)
        if not done:  # the service's last step before its transaction and the jogo's lock
            done.append(True)
            assert post(ref, api(cup.slug, j1, "correcao"), CORRECTION).status_code == 200
        return out

    monkeypatch.setattr(services, "reason_clean", reason_then_correction)
    with pytest.raises(Refused) as refused:
        services.sumula_answer(
            tournament=cup,
            key=j1,
            dupla=dupla,
            via=1,
            accept=True,
            reason=None,
            actor=services.Actor(dupla=dupla, method="pin"),
        )
    assert refusal_status(refused.value) == 409
    assert Jogo.objects.get(tournament=cup, key=j1).confirmations == {}
    assert Jogo.objects.get(tournament=cup, key=j1).via == 2
    done.clear()
    with pytest.raises(Refused) as refused:
        services.sumula_sign(tournament=cup, key=j1, via=2, reason="decidido", actor=services.Actor(method="session"))
    assert refusal_status(refused.value) == 409 and Jogo.objects.get(tournament=cup, key=j1).signed_at is None


# --- the referee's screen and the private link send the via they showed -------------------------------------


def screen(cup, key):
    return reverse("referee:jogo", args=[cup.slug, key])


def alerts(client, cup, key) -> str:
    return client.get(screen(cup, key)).content.decode()


def test_the_referee_screen_sends_the_via_it_showed(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "t")
    page = ref.get(screen(cup, j1)).content.decode()
    # every confirmation form and the signature form carry the via shown
    assert page.count('name="op" value="confirmacao"><input type="hidden" name="dupla"') == 2
    assert page.count('<input type="hidden" name="via" value="1">') == 3
    assert post(ref, api(cup.slug, j1, "correcao"), CORRECTION).status_code == 200
    before = db_snapshot()
    for form in (
        {"op": "confirmacao", "dupla": "d1", "pin": PIN["d1"], "accept": "1", "via": "1"},
        {"op": "confirmacao", "dupla": "d4", "pin": PIN["d4"], "accept": "0", "reason": "não", "via": "1"},
        {"op": "homologacao", "reason": "as duplas saíram", "via": "1"},
    ):
        response = ref.post(screen(cup, j1), form)
        assert response.status_code == 302 and response["Location"].endswith("#avisos")
        html = alerts(ref, cup, j1)
        assert "a súmula mudou: agora é a via 2; confira o resultado e" in html, form
        assert db_snapshot() == before
    # the screen now shows via 2 and its forms carry it
    html = ref.get(screen(cup, j1)).content.decode()
    assert "via 2" in html and '<input type="hidden" name="via" value="2">' in html
    # a form without its via: a message naming it, nothing written
    ref.post(screen(cup, j1), {"op": "confirmacao", "dupla": "d1", "pin": PIN["d1"], "accept": "1"})
    assert "&#x27;via&#x27;" in alerts(ref, cup, j1) or "'via'" in alerts(ref, cup, j1)
    ref.post(screen(cup, j1), {"op": "homologacao", "reason": "x", "via": "dois"})
    assert db_snapshot() == before
    ref.post(screen(cup, j1), {"op": "confirmacao", "dupla": "d1", "pin": PIN["d1"], "accept": "1", "via": "2"})
    assert Jogo.objects.get(tournament=cup, key=j1).confirmations["a"]["answer"] == "confirmed"


def test_the_private_link_refuses_a_stale_or_missing_via(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "u")
    d4 = Dupla.objects.get(tournament=cup, key="d4")
    client = Client()
    page = client.get(reverse("privatelink:dupla", kwargs={"token": d4.token})).content.decode()
    assert page.count('name="via" value="1"') == 2  # the confirm and the contest forms
    assert post(ref, api(cup.slug, j1, "correcao"), CORRECTION).status_code == 200
    url = reverse("privatelink:answer", kwargs={"token": d4.token, "key": j1})
    before = db_snapshot()
    for form in (
        {"resposta": "confirmar", "via": "1"},
        {"resposta": "contestar", "motivo": "não", "via": "1"},
        {"resposta": "confirmar"},
        {"resposta": "confirmar", "via": "²"},
        {"resposta": "confirmar", "via": ""},
    ):
        response = client.post(url, form)
        assert response.status_code == 302
        html = client.get(response["Location"]).content.decode()
        assert ("a súmula mudou: agora é a via 2" in html) if form.get("via") == "1" else ("&#x27;via&#x27;" in html)
        assert 'name="via" value="2"' in html  # and the current súmula, to answer again
        assert db_snapshot() == before
    response = client.post(url, {"resposta": "confirmar", "via": "2"})
    assert Jogo.objects.get(tournament=cup, key=j1).confirmations["b"]["answer"] == "confirmed"


# --- item 7: wrong types refused with their field ----------------------------------------------------------


@pytest.mark.parametrize("partidas", [False, True, 0, 1, "", "12x3", {}, {"a": 1}])
def test_partidas_that_is_not_a_list_is_refused_and_wipes_nothing(cup, ref, j1, partidas):
    play(ref, cup.slug, j1, [0, 0], "f")
    before = db_snapshot()
    for action, body in (("correcao", {"reason": "erro", "partidas": partidas}), ("resultado", {"partidas": partidas})):
        r = post(ref, api(cup.slug, j1, action), body)
        assert r.status_code in (409, 422), r.content
        assert db_snapshot() == before
    r = post(ref, api(cup.slug, j1, "correcao"), {"reason": "erro", "partidas": partidas})
    assert r.status_code == 422 and any("partidas" in m for m in errors_of(r)), r.content
    assert Jogo.objects.get(tournament=cup, key=j1).status == "awaiting_confirmation"
    # before anything is played, a quick result with such partidas is refused too (never "nothing played")
    other = other_jogo(cup, j1).key
    r = post(ref, api(cup.slug, other, "resultado"), {"partidas": partidas})
    assert r.status_code == 422 and any("partidas" in m for m in errors_of(r)), r.content


def test_a_file_with_partidas_false_is_read_as_an_error_not_as_nothing_played():
    errors = Errors()
    assert result_read({"partidas": False}, "jogos[0]", ("d1", "d2"), 3, errors) is None
    assert [e.place for e in errors] == ["jogos[0].partidas"]
    assert result_read({"partidas": None}, "jogos[0]", ("d1", "d2"), 3, Errors()) is None  # absent: nothing yet


def other_jogo(cup, j1) -> Jogo:
    return (
        Jogo.objects.exclude(key=j1)
        .filter(tournament=cup, group__isnull=False, status="scheduled")
        .select_related("dupla_a")
        .order_by("id")
        .first()
    )


@pytest.mark.parametrize("how", ["", None, 0, False, [], {}, "PLAYED", " played"])
def test_a_how_that_is_present_must_be_one_of_the_four(cup, ref, j1, how):
    other = other_jogo(cup, j1).key
    before = db_snapshot()
    r = post(ref, api(cup.slug, other, "maos"), {"id": "h1", "to": 0, "points": 3, "how": how})
    assert r.status_code == 422 and any("'how'" in m for m in errors_of(r)), r.content
    assert db_snapshot() == before
    # absent: played
    r = post(ref, api(cup.slug, other, "maos"), {"id": "h2", "to": 0, "points": 3})
    assert r.status_code == 201 and r.json()["partidas"][0]["maos"][0].get("how", "played") == "played"
    play(ref, cup.slug, j1, [0, 0], "g")
    before = db_snapshot()
    maos = [{"to": 0, "points": 3}] * 3 + [{"to": 0, "points": 3, "how": how}]
    r = post(ref, api(cup.slug, j1, "correcao"), {"reason": "erro", "partidas": [{"maos": maos}, [12, 0]]})
    assert r.status_code == 422 and any("how" in m for m in errors_of(r)), r.content
    assert db_snapshot() == before


# invisible characters: controls, formats (zero-width space, word joiner, BOM, bidi marks), spaces, separators
# and lone combining marks
INVISIBLE = st.sampled_from(
    [
        "\u200b",
        "\u200c",
        "\u200d",
        "\u2060",
        "\ufeff",
        "\u00a0",
        "\u2007",
        "\u202f",
        "\u3000",
        "\u2028",
        "\u2029",
        "\u200e",
        "\u200f",
        "\u202e",
        "\u00ad",
        "\u180e",
        "\x01",
        "\x1f",
        "\x7f",
        "\u0085",
        "\t",
        "\n",
        " ",
        "\u0301",
        "\u20dd",
        "\u3164",
        "\u2800",
        "\U000e0020",
    ]
)
BLANK = st.lists(INVISIBLE, max_size=8).map("".join)
OF_CATEGORY = {
    cat: [c for c in map(chr, range(0x110000)) if unicodedata.category(c) == cat]
    for cat in ("Cc", "Cf", "Zs", "Zl", "Zp", "Mn")
}


@given(blank=BLANK, category=st.sampled_from(["Cc", "Cf", "Zs", "Zl", "Zp", "Mn"]), data=st.data())
def test_a_text_of_invisible_characters_is_blank_and_one_visible_character_is_not(blank, category, data):
    assert is_blank(blank)
    assert is_blank("".join(data.draw(st.lists(st.sampled_from(OF_CATEGORY[category]), max_size=4))))
    visible = data.draw(
        st.characters(categories=["L", "N", "P", "S"]).filter(lambda c: c not in "\u115f\u1160\u3164\uffa0\u2800")
    )
    at = data.draw(st.integers(min_value=0, max_value=len(blank)))
    assert not is_blank(blank[:at] + visible + blank[at:])
    assert is_blank(None) and is_blank(3)  # not a text: no reason either


@DB_SETTINGS
@given(blank=BLANK)
def test_a_required_reason_of_invisible_characters_is_missing(cup, ref, j1, blank):
    if Jogo.objects.get(tournament=cup, key=j1).status != "awaiting_confirmation":
        play(ref, cup.slug, j1, [0, 0], "b")
    before = db_snapshot()
    refused = [
        post(ref, api(cup.slug, j1, "correcao"), {"reason": blank, "partidas": [[12, 3], [12, 5]]}),
        answer(Client(), cup.slug, j1, "d4", accept=False, reason=blank),
        sign(ref, cup.slug, j1, reason=blank),  # a confirmation is missing: the decision needs a reason
        post(ref, api(cup.slug, j1, "penalidade"), {"id": "pen-b", "scope": "jogo", "lost_by": "d4", "reason": blank}),
        post(ref, api(cup.slug, j1, "correcao"), {"reason": "erro", "penalty": {"lost_by": "d4", "reason": blank}}),
        post(
            ref,
            api(cup.slug, j1, "correcao"),
            {
                "reason": "erro",
                "partidas": [
                    {
                        "maos": [{"to": 0, "points": 1, "how": "penalty", "reason": blank}]
                        + [{"to": 0, "points": 3}] * 4
                    },
                    [12, 0],
                ],
            },
        ),
        post(
            ref,
            api(cup.slug, j1, "correcao"),
            {"reason": "erro", "partidas": [{"penalty": {"lost_by": "d4", "reason": blank}}, [12, 0]]},
        ),
    ]
    for n, r in enumerate(refused):
        assert r.status_code in (409, 422), (n, r.content)
        assert r.status_code == 422 or n == 3, (n, r.content)  # a penalty on a decided jogo: 409 first
        assert db_snapshot() == before
    # a mão de penalidade while playing, and perda da partida/jogo: the same check
    other = other_jogo(cup, j1)
    before = db_snapshot()
    r = post(
        ref, api(cup.slug, other.key, "maos"), {"id": "pb", "to": 0, "points": 1, "how": "penalty", "reason": blank}
    )
    assert r.status_code == 422 and any("motivo" in m for m in errors_of(r)), r.content
    for scope in ("partida", "jogo"):
        r = post(
            ref,
            api(cup.slug, other.key, "penalidade"),
            {"id": f"pen-{scope}", "scope": scope, "lost_by": other.dupla_a.key, "reason": blank},
        )
        assert r.status_code == 422 and any("motivo" in m for m in errors_of(r)), r.content
    assert db_snapshot() == before


def test_the_referee_screen_and_the_private_link_use_the_same_reason_check(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "x")
    before = db_snapshot()
    ref.post(
        screen(cup, j1),
        {"op": "confirmacao", "dupla": "d4", "pin": PIN["d4"], "accept": "0", "reason": "\u200b\u2060", "via": "1"},
    )
    assert "para contestar, escreva o motivo" in alerts(ref, cup, j1)
    ref.post(screen(cup, j1), {"op": "homologacao", "reason": "\ufeff", "via": "1"})
    assert "registre a decisão do árbitro" in alerts(ref, cup, j1)
    ref.post(
        screen(cup, j1), {"op": "correcao", "reason": "\u200b", "p1_a": "12", "p1_b": "3", "p2_a": "12", "p2_b": "5"}
    )
    ref.post(screen(cup, j1), {"op": "penalidade", "scope": "jogo", "lost_by": "d4", "reason": "\u2060"})
    d4 = Dupla.objects.get(tournament=cup, key="d4")
    Client().post(
        reverse("privatelink:answer", kwargs={"token": d4.token, "key": j1}),
        {"resposta": "contestar", "motivo": "\u00a0\u200b", "via": "1"},
    )
    assert db_snapshot() == before
    from tournaments.models import PinFailure

    assert PinFailure.objects.count() == 0  # the contest's reason is checked before the PIN


def test_a_reason_with_visible_text_keeps_it(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "y")
    r = answer(Client(), cup.slug, j1, "d4", accept=False, reason="\u200b a mão 3 foi nossa ")
    assert r.status_code == 200
    assert Jogo.objects.get(tournament=cup, key=j1).confirmations["b"]["reason"] == "\u200b a mão 3 foi nossa"


def test_the_referee_screen_refuses_an_empty_how_too(cup, ref, j1):
    before = db_snapshot()
    ref.post(screen(cup, j1), {"op": "mao", "to": "0", "points": "3", "how": ""})
    assert "&#x27;how&#x27; deve ser played" in alerts(ref, cup, j1)
    assert db_snapshot() == before
    ref.post(screen(cup, j1), {"op": "mao", "to": "0", "points": "3"})  # without 'how': played
    assert Client().get(api(cup.slug, j1)).json()["current"] == [3, 0]
