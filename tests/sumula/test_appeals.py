"""Appeals (recursos, issue 24 point 12c; AABB Art.6, FENACEF Art.39): a dupla appeals the referee's decision, the
comissão organizadora decides it. A record of its own (``Appeal``), logged in the súmula's log and the history,
through the one write path; nothing is half-written when refused."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.support.sumula import answer, db_snapshot, play, sign, staff_user
from tournaments.models import Appeal, AuditEntry, Dupla, Jogo, StaffRole, SumulaEvent, Tournament
from tournaments.permissions import may_decide_appeal
from tournaments.refusals import Refused
from tournaments.sumula.services import Actor, appeal_decide, appeal_file

pytestmark = pytest.mark.django_db

LINK = "Mozilla/5.0 (phone) · 10.0.0.7"


def dupla(cup, key: str) -> Dupla:
    return Dupla.objects.get(tournament=cup, key=key)


def link_actor(d: Dupla) -> Actor:
    return Actor(dupla=d, method="link", device=LINK)


def file(cup, j1, key: str = "d4", reason: object = "a mão 3 da 2ª partida foi nossa", via: object = 1) -> Appeal:
    d = dupla(cup, key)
    return appeal_file(tournament=cup, key=j1, dupla=d, via=via, reason=reason, actor=link_actor(d))


def decided_over_contest(ref, cup, j1) -> None:
    """j1 played (d1 wins 2 x 0), d4 contests, the referee decides and signs: homologated."""
    play(ref, cup.slug, j1, [0, 0], "r")
    assert answer(Client(), cup.slug, j1, "d4", accept=False, reason="a mão 3 foi nossa").status_code == 200
    assert sign(ref, cup.slug, j1, reason="a súmula está certa, conferida com os dois parceiros").status_code == 200
    assert Jogo.objects.get(tournament=cup, key=j1).status == Jogo.HOMOLOGATED


@pytest.fixture
def organizer(cup):
    return staff_user(cup, "comissao", StaffRole.ORGANIZER)


@pytest.fixture
def referee_user(ref):
    return get_user_model().objects.get(username="arbitro")


# --- filing: which states allow it -----------------------------------------------------------------------------


def refused_with(cup, j1, key: str, words: str, kind=Refused.CONFLICT) -> None:
    before = db_snapshot(), Appeal.objects.count(), AuditEntry.objects.count()
    with pytest.raises(Refused) as caught:
        file(cup, j1, key)
    assert caught.value.kind == kind
    assert any(words in m for m in caught.value.messages), caught.value.messages
    assert (db_snapshot(), Appeal.objects.count(), AuditEntry.objects.count()) == before


def test_no_appeal_before_the_jogo_ends(cup, ref, j1):
    refused_with(cup, j1, "d4", "o jogo ainda não terminou")
    play(ref, cup.slug, j1, [0], "p")  # one partida of three: still in progress
    refused_with(cup, j1, "d4", "o jogo ainda não terminou")


def test_before_the_referee_decides_the_dupla_contests_instead(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "a")
    refused_with(cup, j1, "d4", "conteste a súmula")  # awaiting confirmation
    assert answer(Client(), cup.slug, j1, "d4", accept=False, reason="a mão 3 foi nossa").status_code == 200
    refused_with(cup, j1, "d4", "o árbitro ainda não decidiu")  # contested: the referee decides first


def test_a_sumula_both_duplas_confirmed_has_no_decision_to_appeal(cup, ref, j1):
    play(ref, cup.slug, j1, [0, 0], "c")
    for key in ("d1", "d4"):
        assert answer(Client(), cup.slug, j1, key).status_code == 200
    refused_with(cup, j1, "d4", "as duas duplas confirmaram")
    assert sign(ref, cup.slug, j1).status_code == 200
    refused_with(cup, j1, "d4", "sua dupla confirmou esta via")


def test_a_dupla_that_does_not_play_the_jogo_may_not_appeal_it(cup, ref, j1):
    decided_over_contest(ref, cup, j1)
    d2 = Dupla.objects.get(tournament=cup, key="d2").display_name
    refused_with(cup, j1, "d2", f"a dupla {d2} não joga este jogo", kind=Refused.FORBIDDEN)


def test_an_appeal_of_a_decided_sumula_is_recorded_with_who_when_how_and_why(cup, ref, j1):
    decided_over_contest(ref, cup, j1)
    jogo = Jogo.objects.get(tournament=cup, key=j1)
    version, results_version = jogo.version, Tournament.objects.get(pk=cup.pk).results_version
    appeal = file(cup, j1, reason="  a mão 3 da 2ª partida foi nossa  ")
    appeal.refresh_from_db()
    assert appeal.dupla.key == "d4" and appeal.via == 1 and appeal.jogo.key == j1
    assert appeal.reason == "a mão 3 da 2ª partida foi nossa"  # trimmed
    assert appeal.method == "link" and appeal.device == LINK and appeal.filed_at is not None
    assert appeal.decision == "" and appeal.decided_by is None and appeal.decided_at is None
    jogo.refresh_from_db()
    # no result changes: the súmula stays homologated, its pages get a new version
    assert jogo.status == Jogo.HOMOLOGATED and jogo.via == 1 and jogo.version == version + 1
    assert Tournament.objects.get(pk=cup.pk).results_version > results_version
    event = SumulaEvent.objects.filter(jogo=jogo).latest("id")
    assert (event.action, event.dupla.key, event.method, event.device, event.via) == ("appeal", "d4", "link", LINK, 1)
    assert event.data == {"appeal": appeal.pk, "dupla": "d4", "reason": "a mão 3 da 2ª partida foi nossa"}
    assert AuditEntry.objects.filter(tournament=cup, action="sumula.appeal").count() == 1


def test_the_other_dupla_that_did_not_confirm_may_appeal_too(cup, ref, j1):
    decided_over_contest(ref, cup, j1)  # d1 never answered: the referee decided over its missing confirmation
    assert file(cup, j1, "d1").dupla.key == "d1"


def test_one_appeal_per_dupla_and_via(cup, ref, j1, organizer):
    decided_over_contest(ref, cup, j1)
    appeal = file(cup, j1)
    refused_with(cup, j1, "d4", "já recorreu desta via")
    appeal_decide(
        tournament=cup, appeal_id=appeal.pk, decision="rejected", reason="sem prova", actor=Actor(user=organizer)
    )
    refused_with(cup, j1, "d4", "já decidiu o recurso da sua dupla sobre esta via da súmula (indeferido)")
    assert Appeal.objects.count() == 1


def test_an_appeal_for_a_via_that_is_not_the_sumulas_is_refused(cup, ref, j1):
    decided_over_contest(ref, cup, j1)
    with pytest.raises(Refused) as caught:
        file(cup, j1, via=2)
    assert caught.value.kind == Refused.CONFLICT and "agora é a via 1" in caught.value.messages[0]
    for via in (None, 0, "1", True, [1]):
        with pytest.raises(Refused) as caught:
            file(cup, j1, via=via)
        assert caught.value.kind == Refused.INVALID and "'via'" in caught.value.messages[0]
    assert not Appeal.objects.exists()


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("", "para recorrer, diga o motivo do recurso"),
        ("   \n ", "para recorrer, diga o motivo do recurso"),
        ("\u200b\u00a0", "para recorrer, diga o motivo do recurso"),
        (None, "para recorrer, diga o motivo do recurso"),
        (["motivo"], "o motivo deve ser um texto"),
        ("x" * 601, "o motivo tem no máximo 600 caracteres (este tem 601)"),
    ],
)
def test_the_reason_is_required_trimmed_and_bounded(cup, ref, j1, reason, words):
    decided_over_contest(ref, cup, j1)
    before = db_snapshot()
    with pytest.raises(Refused) as caught:
        file(cup, j1, reason=reason)
    assert caught.value.kind == Refused.INVALID and caught.value.messages == [words]
    assert db_snapshot() == before and not Appeal.objects.exists()


def test_a_reason_of_600_characters_fits(cup, ref, j1):
    decided_over_contest(ref, cup, j1)
    assert len(file(cup, j1, reason="x" * 600).reason) == 600


# --- deciding: the comissão organizadora only -------------------------------------------------------------------


def test_only_the_organizing_committee_decides_an_appeal(cup, referee_user, organizer):
    assert may_decide_appeal(user=organizer, tournament=cup)
    assert not may_decide_appeal(user=referee_user, tournament=cup)
    assert not may_decide_appeal(user=None, tournament=cup)
    assert not may_decide_appeal(user=staff_user(None, "sem-papel"), tournament=cup)
    admin = get_user_model().objects.create_superuser(username="raiz", password="senha-do-teste-1")
    assert may_decide_appeal(user=admin, tournament=cup)


def test_the_referee_may_not_decide_an_appeal(cup, ref, j1, referee_user):
    decided_over_contest(ref, cup, j1)
    appeal = file(cup, j1)
    before = db_snapshot()
    with pytest.raises(Refused) as caught:
        appeal_decide(
            tournament=cup, appeal_id=appeal.pk, decision="upheld", reason="eu revejo", actor=Actor(user=referee_user)
        )
    assert caught.value.kind == Refused.FORBIDDEN
    assert caught.value.messages == ["só a comissão organizadora decide um recurso"]
    appeal.refresh_from_db()
    assert appeal.decision == "" and db_snapshot() == before


def test_the_organizer_decides_with_a_reason_logged_and_audited(cup, ref, j1, organizer):
    decided_over_contest(ref, cup, j1)
    appeal = file(cup, j1)
    version = Jogo.objects.get(tournament=cup, key=j1).version
    decided = appeal_decide(
        tournament=cup,
        appeal_id=appeal.pk,
        decision="upheld",
        reason="  o vídeo mostra a mão 3 para a dupla B  ",
        actor=Actor(user=organizer),
    )
    decided.refresh_from_db()
    assert decided.decision == Appeal.UPHELD and decided.get_decision_display() == "deferido"
    assert decided.decision_reason == "o vídeo mostra a mão 3 para a dupla B"
    assert decided.decided_by == organizer and decided.decided_at is not None
    jogo = Jogo.objects.get(tournament=cup, key=j1)
    # the correction stays a separate act: the súmula is untouched
    assert jogo.status == Jogo.HOMOLOGATED and jogo.via == 1 and jogo.version == version + 1
    event = SumulaEvent.objects.filter(jogo=jogo).latest("id")
    assert event.action == "appeal_decided" and event.user == organizer
    assert event.data["decision"] == "upheld" and event.data["appeal"] == appeal.pk
    assert AuditEntry.objects.filter(tournament=cup, action="sumula.appeal_decide", user=organizer).count() == 1
    # the same decision again is a retry; another one is refused
    before = db_snapshot()
    again = appeal_decide(
        tournament=cup,
        appeal_id=appeal.pk,
        decision="upheld",
        reason="o vídeo mostra a mão 3 para a dupla B",
        actor=Actor(user=organizer),
    )
    assert again.pk == appeal.pk and db_snapshot() == before
    with pytest.raises(Refused) as caught:
        appeal_decide(
            tournament=cup, appeal_id=appeal.pk, decision="rejected", reason="não", actor=Actor(user=organizer)
        )
    assert caught.value.kind == Refused.CONFLICT and "já foi decidido (deferido)" in caught.value.messages[0]


@pytest.mark.parametrize(
    ("decision", "reason", "words"),
    [
        ("talvez", "x", "escolha a decisão do recurso: deferido ou indeferido"),
        ("", "x", "escolha a decisão do recurso: deferido ou indeferido"),
        (None, "x", "escolha a decisão do recurso: deferido ou indeferido"),
        ("rejected", "  ", "para decidir o recurso, escreva o motivo da decisão"),
        ("rejected", "y" * 601, "o motivo tem no máximo 600 caracteres (este tem 601)"),
    ],
)
def test_a_decision_needs_deferido_or_indeferido_and_a_reason(cup, ref, j1, organizer, decision, reason, words):
    decided_over_contest(ref, cup, j1)
    appeal = file(cup, j1)
    with pytest.raises(Refused) as caught:
        appeal_decide(
            tournament=cup, appeal_id=appeal.pk, decision=decision, reason=reason, actor=Actor(user=organizer)
        )
    assert caught.value.kind == Refused.INVALID and caught.value.messages == [words]
    appeal.refresh_from_db()
    assert appeal.decision == ""


def test_an_appeal_of_another_tournament_is_not_found(cup, ref, j1, organizer, load_file):
    from tests.support.sumula import cup_setup

    other = cup_setup(load_file, slug="outra-copa")
    decided_over_contest(ref, cup, j1)
    appeal = file(cup, j1)
    boss = staff_user(other, "outra-comissao", StaffRole.ORGANIZER)
    with pytest.raises(Refused) as caught:
        appeal_decide(tournament=other, appeal_id=appeal.pk, decision="upheld", reason="x", actor=Actor(user=boss))
    assert caught.value.kind == Refused.NOT_FOUND
