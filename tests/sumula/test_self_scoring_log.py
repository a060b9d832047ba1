"""Table self-scoring in the súmula domain: a dupla's mãos entered from its link are logged with the dupla
(``Actor`` with method "link"), and ``entered_only_by`` (whether the dupla's entry is its confirmation) reads the
current via's log: only the dupla's own mãos, none undone left out, nothing from the referee."""

import pytest

from tests.support.sumula import cup_setup, jogo_between
from tournaments.models import Dupla, Jogo, SumulaEvent
from tournaments.sumula.commands import MaoAdd, Penalty
from tournaments.sumula.selectors import entered_only_by, mao_entered_by, mao_in_sumula
from tournaments.sumula.services import Actor, sumula_mao_add, sumula_mao_undo, sumula_penalty

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(load_file):
    return cup_setup(load_file, slug="copa-anota-log")


def _mao(cup, key, actor, ident, to=0):
    return sumula_mao_add(
        tournament=cup, key=key, mao=MaoAdd.from_json({"id": ident, "to": to, "points": 3}), actor=actor
    )


def test_the_log_names_the_dupla_and_entered_only_by_reads_it(cup):
    key = jogo_between(cup, "d1", "d4")
    d1, d4 = Dupla.objects.get(tournament=cup, key="d1"), Dupla.objects.get(tournament=cup, key="d4")
    jogo = Jogo.objects.get(tournament=cup, key=key)
    assert not entered_only_by(jogo=jogo, dupla=d1)  # nothing recorded
    link = Actor(dupla=d1, method="link", device="celular")
    _mao(cup, key, link, "a1")
    _mao(cup, key, link, "a2")
    event = SumulaEvent.objects.get(jogo=jogo, client_id="a1")
    assert (event.dupla_id, event.method, event.user_id, event.device) == (d1.pk, "link", None, "celular")
    jogo.refresh_from_db()
    assert entered_only_by(jogo=jogo, dupla=d1) and not entered_only_by(jogo=jogo, dupla=d4)
    assert mao_entered_by(jogo=jogo, mao="a2") == d1.pk and mao_in_sumula(jogo=jogo, mao="a2")
    sumula_mao_undo(tournament=cup, key=key, mao="a2", actor=link)
    assert not mao_in_sumula(jogo=jogo, mao="a2")
    assert entered_only_by(jogo=jogo, dupla=d1)  # the undone mão is in the log, not in the súmula
    # the other dupla's mão (both may score when the event allows it): no longer only d1's
    _mao(cup, key, Actor(dupla=d4, method="link"), "b1", to=1)
    assert not entered_only_by(jogo=jogo, dupla=d1)


def test_a_mao_or_penalty_by_the_referee_means_both_duplas_confirm(cup):
    key = jogo_between(cup, "d1", "d4")
    d1 = Dupla.objects.get(tournament=cup, key="d1")
    jogo = Jogo.objects.get(tournament=cup, key=key)
    link = Actor(dupla=d1, method="link")
    _mao(cup, key, link, "a1")
    _mao(cup, key, Actor(method="command"), "r1")
    assert not entered_only_by(jogo=jogo, dupla=d1)
    other = Jogo.objects.get(tournament=cup, key=jogo_between(cup, "d1", "d2"))
    _mao(cup, other.key, link, "c1")
    penalty = Penalty.from_json({"id": "pen", "scope": "partida", "lost_by": "d2", "reason": "celular na mesa"})
    sumula_penalty(tournament=cup, key=other.key, data=penalty, actor=Actor(method="command"))
    other.refresh_from_db()
    assert not entered_only_by(jogo=other, dupla=d1)
