"""Table self-scoring (docs/regras.md §8): when the event allows it, a dupla enters its own jogo's mãos from its
private link (/d/<token>/jogos/<key>/, every button a form: no JS), the súmula's log names it, and the other dupla
confirms; its own entry is its confirmation when only its mãos decided the jogo."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.support.sumula import (
    api,
    cup_setup,
    db_snapshot,
    jogo_between,
    jogo_duplas,
    play,
    post,
    result_counted,
    sign,
    staff_user,
)
from tournaments.models import Dupla, Jogo, Mao, StaffRole, SumulaEvent
from tournaments.permissions import may_self_score
from tournaments.selectors import tournament_state_get

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(load_file):
    tournament = cup_setup(load_file, slug="copa-anota")
    tournament.allow_self_scoring = True
    tournament.save(update_fields=["allow_self_scoring"])
    return tournament


@pytest.fixture
def j1(cup):
    key = jogo_between(cup, "d1", "d4")
    assert jogo_duplas(cup, key) == ("d1", "d4")
    return key


def dupla(cup, key: str) -> Dupla:
    return Dupla.objects.get(tournament=cup, key=key)


def jogo(cup, key: str) -> Jogo:
    return Jogo.objects.get(tournament=cup, key=key)


def score_url(d: Dupla, key: str) -> str:
    return reverse("privatelink:score", kwargs={"token": d.token, "key": key})


def mao(client, d: Dupla, key: str, to: int, points: int = 3, how: str = "played"):
    return client.post(score_url(d, key), {"op": "mao", "to": str(to), "points": str(points), "how": how})


def partida(client, d: Dupla, key: str, to: int):
    """Four mãos of 3 to side ``to``: 12 x 0."""
    for _n in range(4):
        response = mao(client, d, key, to)
        assert response.status_code == 302, response.content
    return response


def test_a_dupla_scores_its_jogo_without_js_and_the_other_dupla_confirms(client, cup, j1):
    d1, d4 = dupla(cup, "d1"), dupla(cup, "d4")
    page = client.get(reverse("privatelink:dupla", kwargs={"token": d1.token})).content.decode()
    assert "Este evento permite que as duplas anotem a própria súmula" in page
    assert score_url(d1, j1) in page
    screen = client.get(score_url(d1, j1))
    assert screen.status_code == 200
    html = screen.content.decode()
    assert 'class="mao-form"' in html and "WO e penalidades são decisões do árbitro" in html
    assert "<script" not in html  # the forms are the page: no JS needed
    assert screen["Referrer-Policy"] == "no-referrer" and "private" in screen["Cache-Control"]
    assert "noindex" in screen["X-Robots-Tag"]
    partida(client, d1, j1, 0)
    assert jogo(cup, j1).status == "in_progress"
    last = partida(client, d1, j1, 1)  # 1 x 1 in partidas
    assert jogo(cup, j1).status == "in_progress"
    for _n in range(3):
        mao(client, d1, j1, 0)
    last = mao(client, d1, j1, 0)  # the mão that decides the jogo: 2 x 1, d1 wins
    assert last.status_code == 302 and last["Location"].endswith("#confirmar")
    decided = jogo(cup, j1)
    assert decided.status == "awaiting_confirmation"
    # d1's entry is its confirmation, through the one answer service, by its link
    assert decided.confirmations["a"]["answer"] == "confirmed" and decided.confirmations["a"]["by"] == "link"
    assert "b" not in decided.confirmations
    followed = client.get(last["Location"]).content.decode()
    assert "falta a dupla adversária confirmar" in followed
    # the other dupla sees it to confirm on its page, and confirms with its link
    assert j1 in client.get(reverse("privatelink:dupla", kwargs={"token": d4.token})).content.decode()
    response = client.post(
        reverse("privatelink:answer", kwargs={"token": d4.token, "key": j1}), {"resposta": "confirmar", "via": "1"}
    )
    assert response.status_code == 302
    confirmed = jogo(cup, j1)
    assert confirmed.status == "confirmed" and confirmed.counted_via == 1
    # the result counts: the engine has it, d1 the winner
    state = tournament_state_get(tournament=cup, cached=False)
    record = state.record_by_jogo[confirmed.pk]
    assert record.duplas == ("d1", "d4") and record.result.winner == 0


def test_the_log_names_the_dupla_for_every_mao_and_its_implied_confirmation(client, cup, j1):
    d1 = dupla(cup, "d1")
    partida(client, d1, j1, 0)
    partida(client, d1, j1, 0)
    events = list(SumulaEvent.objects.filter(jogo__key=j1, jogo__tournament=cup).order_by("id"))
    assert [e.action for e in events] == ["mao"] * 8 + ["confirmation"]
    assert all(e.dupla_id == d1.pk and e.method == "link" and e.user_id is None for e in events)
    public = client.get(reverse("tournaments:sumula", kwargs={"slug": cup.slug, "key": j1}))
    assert public.status_code == 200


def test_refused_when_the_event_does_not_allow_it(client, cup, j1):
    cup.allow_self_scoring = False
    cup.save(update_fields=["allow_self_scoring"])
    d1 = dupla(cup, "d1")
    page = client.get(reverse("privatelink:dupla", kwargs={"token": d1.token})).content.decode()
    assert "Anotar a súmula" not in page and score_url(d1, j1) not in page
    before = db_snapshot()
    assert client.get(score_url(d1, j1)).status_code == 403
    refused = mao(client, d1, j1, 0)
    assert refused.status_code == 403 and "Sua dupla não pode anotar esta súmula" in refused.content.decode()
    assert refused["Referrer-Policy"] == "no-referrer"
    assert db_snapshot() == before


def test_refused_for_a_jogo_of_another_dupla(client, cup, j1):
    d2 = dupla(cup, "d2")
    before = db_snapshot()
    assert client.get(score_url(d2, j1)).status_code == 403
    assert mao(client, d2, j1, 0).status_code == 403
    assert client.post(score_url(d2, j1), {"op": "desfazer", "mao": "x"}).status_code == 403
    assert db_snapshot() == before
    assert not may_self_score(tournament=cup, dupla=d2, jogo=jogo(cup, j1))


def test_refused_after_the_jogo_is_decided(client, cup, j1):
    d1, d4 = dupla(cup, "d1"), dupla(cup, "d4")
    partida(client, d1, j1, 0)
    partida(client, d1, j1, 0)
    assert jogo(cup, j1).status == "awaiting_confirmation"
    for who in (d1, d4):
        assert not may_self_score(tournament=cup, dupla=who, jogo=jogo(cup, j1))
        before = db_snapshot()
        response = mao(client, who, j1, 1)
        assert response.status_code == 302 and response["Location"].endswith("#confirmar")
        assert "já foi decidido" in client.get(response["Location"]).content.decode()
        assert db_snapshot() == before
        # the screen sends the dupla to its page, where it confirms
        assert client.get(score_url(who, j1))["Location"].endswith("#confirmar")
    undo = client.post(score_url(d1, j1), {"op": "desfazer", "mao": "x"})
    assert undo.status_code == 302 and Mao.objects.filter(partida__jogo__key=j1).count() == 8


def test_refused_after_the_signature(client, cup, j1):
    d1, d4 = dupla(cup, "d1"), dupla(cup, "d4")
    partida(client, d1, j1, 0)
    partida(client, d1, j1, 0)
    client.post(
        reverse("privatelink:answer", kwargs={"token": d4.token, "key": j1}), {"resposta": "confirmar", "via": "1"}
    )
    ref = Client()
    ref.force_login(staff_user(cup, "arbitro-anota", StaffRole.REFEREE))
    assert sign(ref, cup.slug, j1).status_code == 200
    signed = jogo(cup, j1)
    assert signed.status == "homologated"
    assert not may_self_score(tournament=cup, dupla=d1, jogo=signed)
    before = db_snapshot()
    assert mao(client, d1, j1, 1)["Location"].endswith("#confirmar")
    assert db_snapshot() == before


def test_the_door_says_no_once_signed_even_with_the_status_of_a_jogo_to_play(cup, j1):
    d1 = dupla(cup, "d1")
    row = jogo(cup, j1)
    assert may_self_score(tournament=cup, dupla=d1, jogo=row)
    row.signed_at = timezone.now()
    assert not may_self_score(tournament=cup, dupla=d1, jogo=row)


def test_undo_of_the_last_mao(client, cup, j1):
    d1 = dupla(cup, "d1")
    mao(client, d1, j1, 0)
    mao(client, d1, j1, 1, points=1)
    screen = client.get(score_url(d1, j1)).content.decode()
    assert "Desfazer a última mão" in screen
    first, last = (m.key for m in Mao.objects.filter(partida__jogo__key=j1).order_by("order"))
    assert f'name="mao" value="{last}"' in screen
    # only the last
    refused = client.post(score_url(d1, j1), {"op": "desfazer", "mao": first})
    assert "só a última mão pode ser desfeita" in client.get(refused["Location"]).content.decode()
    assert Mao.objects.filter(partida__jogo__key=j1).count() == 2
    response = client.post(score_url(d1, j1), {"op": "desfazer", "mao": last})
    assert response.status_code == 302
    assert "Última mão desfeita." in client.get(response["Location"]).content.decode()
    assert list(Mao.objects.filter(partida__jogo__key=j1).values_list("key", flat=True)) == [first]
    undo = SumulaEvent.objects.get(jogo__key=j1, action="undo")
    assert undo.dupla_id == d1.pk and undo.method == "link"


def test_no_penalty_from_the_dupla(client, cup, j1):
    d1 = dupla(cup, "d1")
    before = db_snapshot()
    response = mao(client, d1, j1, 1, points=1, how="penalty")
    assert response.status_code == 302
    assert "decisões do árbitro" in client.get(response["Location"]).content.decode()
    assert db_snapshot() == before


def test_with_the_referee_mãos_too_both_duplas_confirm(client, cup, j1):
    d1 = dupla(cup, "d1")
    ref = Client()
    ref.force_login(staff_user(cup, "arbitro-misto", StaffRole.REFEREE))
    play(ref, cup.slug, j1, [0], prefix="ref")  # the referee enters the first partida
    partida(client, d1, j1, 0)  # the dupla the second
    decided = jogo(cup, j1)
    assert decided.status == "awaiting_confirmation" and decided.confirmations == {}
    assert post(ref, api(cup.slug, j1, "maos"), {"id": "late", "to": 0, "points": 3}).status_code == 409


def test_a_dupla_undoes_only_the_mãos_it_entered(client, cup, j1):
    d1 = dupla(cup, "d1")
    ref = Client()
    ref.force_login(staff_user(cup, "arbitro-desfaz", StaffRole.REFEREE))
    assert post(ref, api(cup.slug, j1, "maos"), {"id": "do-arbitro", "to": 1, "points": 3}).status_code == 201
    screen = client.get(score_url(d1, j1)).content.decode()
    assert "Desfazer a última mão" not in screen  # the referee's mão: no button, and a forged form is refused
    before = db_snapshot()
    response = client.post(score_url(d1, j1), {"op": "desfazer", "mao": "do-arbitro"})
    assert "anotada pelo árbitro ou pela outra dupla" in client.get(response["Location"]).content.decode()
    assert db_snapshot() == before
    # an id that is in no súmula: the service's own words
    response = client.post(score_url(d1, j1), {"op": "desfazer", "mao": "nenhuma"})
    assert "não está nesta súmula" in client.get(response["Location"]).content.decode()


def test_a_refused_implied_confirmation_says_the_mao_stands_and_asks_for_the_answer(client, cup, j1, monkeypatch):
    """The implied confirmation is a second write after the mão: if it is refused, the mão is still recorded, and
    the page says so (it used to say "Não foi possível anotar", though the mão was written)."""
    from tournaments.refusals import Refused

    def refused(**kwargs):
        raise Refused.conflict("a súmula mudou de via")

    d1 = dupla(cup, "d1")
    partida(client, d1, j1, 0)  # 1 x 0 in partidas, best of 3
    monkeypatch.setattr("tournaments.dupla.views.sumula_answer", refused)
    last = partida(client, d1, j1, 0)  # its last mão decides the jogo: 2 x 0
    assert last["Location"].endswith("#confirmar")
    decided = jogo(cup, j1)
    assert decided.status == "awaiting_confirmation" and "a" not in decided.confirmations
    assert Mao.objects.filter(partida__jogo=decided).count() == 8  # every mão stands
    page = client.get(last["Location"]).content.decode()
    assert "A mão foi anotada" in page and "a súmula mudou de via" in page and "Não foi possível anotar" not in page


def test_the_card_to_score_comes_after_the_sumulas_to_confirm_when_it_has_no_jogo(client, cup):
    """Issue 41 item 20: the dupla page put an empty "Anotar a súmula" card above "Confirmar súmulas". With a jogo
    to score the card comes first; with none, after the súmulas to confirm."""
    d1 = dupla(cup, "d1")
    page = client.get(reverse("privatelink:dupla", kwargs={"token": d1.token})).content.decode()
    assert page.count('id="anotar"') == 1 and page.index('id="anotar"') < page.index('id="confirmar"')
    for other in ("d2", "d3", "d4"):
        result_counted(cup, jogo_between(cup, "d1", other))
    page = client.get(reverse("privatelink:dupla", kwargs={"token": d1.token})).content.decode()
    assert page.count('id="anotar"') == 1 and page.index('id="confirmar"') < page.index('id="anotar"')
    assert "Nenhum jogo da sua dupla para anotar agora." in page
