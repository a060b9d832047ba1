"""The online ranking (DOMAIN §9.5): partidas between four accounts walk each account's score (the Nível's walk,
``scoring.ranking.walk_step``) as they end; robots and guests do not count; an abandonment counts for the one who
abandoned; the statistics come from the game log; /jogar/ranking/ with search and pages, /jogar/jogadores/<username>/
with the level, statistics and the chart, no private data; linking an account to an atleta."""

from __future__ import annotations

import pytest

from scoring.ranking import level_slug, player_level, score_walk
from tournaments.models import OnlineRating, OnlineRatingPoint
from tournaments.online import ranking

from .ranking_support import account, play_partida, table_of

pytestmark = pytest.mark.django_db


def four(prefix: str = "j"):
    users, profiles = [], []
    for i, name in enumerate(("Ana", "Bruno", "Carla", "Davi")):
        user, profile = account(f"{prefix}{i}", first_name=name, email=f"{prefix}{i}@exemplo.com.br")
        users.append(user)
        profiles.append(profile)
    return users, profiles


def test_a_partida_of_four_accounts_walks_each_one(client):
    users, profiles = four()
    table = table_of(profiles)
    log, now = play_partida(table, profiles, seed=3)
    assert log.ended_by == "points" and log.winner in (0, 1)
    for seat, profile in enumerate(profiles):
        rating = OnlineRating.objects.get(pk=profile.pk)
        won = seat % 2 == log.winner
        assert (rating.played, rating.won, rating.abandoned) == (1, int(won), 0)
        assert rating.score == score_walk(results=[(won, False)])[-1]
        assert rating.level == player_level(score=rating.score)
        point = OnlineRatingPoint.objects.get(profile=profile)
        assert (point.n, point.seat, point.won, point.log_id) == (1, seat, won, log.pk)
        # every finished mão counted for everyone at the table, the winners' mãos for their dupla
        results = [m["result"] for m in log.data["maos"] if m["result"] is not None]
        assert rating.maos == len(results)
        assert rating.maos_won == sum(1 for r in results if r.get("to") == seat % 2)
    # a second partida at the same table: the walk goes on from where it was
    log2, _ = play_partida(table, profiles, seed=5, now=now)
    for seat, profile in enumerate(profiles):
        seq = [(seat % 2 == entry.winner, False) for entry in (log, log2)]
        rating = OnlineRating.objects.get(pk=profile.pk)
        assert rating.played == 2 and rating.score == score_walk(results=seq)[-1]
        assert list(OnlineRatingPoint.objects.filter(profile=profile).values_list("n", flat=True)) == [1, 2]
    # the rebuild from the points gives the same ratings
    before = list(OnlineRating.objects.order_by("pk").values())
    OnlineRating.objects.all().delete()
    assert ranking.ranking_rebuild() == 4
    after = list(OnlineRating.objects.order_by("pk").values())
    assert [{k: v for k, v in r.items() if k != "updated_at"} for r in before] == [
        {k: v for k, v in r.items() if k != "updated_at"} for r in after
    ]


def test_robots_and_guests_do_not_count():
    from tests.support.online import guest

    _users, profiles = four("r")
    # three accounts and a robot: nobody walks
    table = table_of(profiles[:3])
    play_partida(table, profiles[:3], seed=2)
    assert not OnlineRating.objects.exists() and not OnlineRatingPoint.objects.exists()
    # three accounts and a guest: the accounts walk, the guest has no rating
    visitor, _session = guest("Visita")
    table = table_of([profiles[0], visitor, profiles[2], profiles[3]])
    play_partida(table, [profiles[0], visitor, profiles[2], profiles[3]], seed=4)
    assert set(OnlineRating.objects.values_list("pk", flat=True)) == {profiles[0].pk, profiles[2].pk, profiles[3].pk}


def test_an_abandonment_counts_for_the_one_who_abandoned():
    _users, profiles = four("a")
    table = table_of(profiles)
    log, _now = play_partida(table, profiles, seed=9, abandon=1, abandon_after=2)
    assert log.ended_by == "abandonment" and log.data["abandoned_by"] == 1 and log.winner == 0
    ratings = {r.pk: r for r in OnlineRating.objects.all()}
    assert (ratings[profiles[1].pk].abandoned, ratings[profiles[1].pk].won) == (1, 0)
    assert (ratings[profiles[3].pk].abandoned, ratings[profiles[3].pk].won) == (0, 0)  # the partner lost, no more
    assert ratings[profiles[0].pk].won == ratings[profiles[2].pk].won == 1
    assert OnlineRatingPoint.objects.get(profile=profiles[1]).abandoned


def test_statistics_from_a_log():
    log = {
        "winner": 1,
        "abandoned_by": None,
        "maos": [
            {  # seat 0 asks truco, seat 1 raises to 6, seat 0 accepts: dupla 1 scores
                "events": [
                    {"type": "bet", "seat": 0, "level": 3},
                    {"type": "answer", "seat": 1, "accept": "raise", "level": 6},
                    {"type": "answer", "seat": 0, "accept": True},
                ],
                "result": {"to": 1, "points": 6, "how": "played"},
            },
            {  # seat 2 asks, seat 3 runs
                "events": [{"type": "bet", "seat": 2, "level": 3}, {"type": "answer", "seat": 3, "accept": False}],
                "result": {"to": 0, "points": 1, "how": "ran"},
            },
            {  # seat 1 asks, nobody answers in time: ran
                "events": [
                    {"type": "bet", "seat": 1, "level": 3},
                    {"type": "expiry", "seat": 2, "what": "answer", "then": "ran"},
                ],
                "result": {"to": 1, "points": 1, "how": "ran"},
            },
            {"events": [], "result": {"to": None}},  # all rodadas tied
        ],
    }
    stats = ranking.partida_stats(log)
    assert [s.won for s in stats] == [False, True, False, True]
    assert [s.maos for s in stats] == [4] * 4
    assert [s.maos_won for s in stats] == [1, 2, 1, 2]
    assert [s.trucos_asked for s in stats] == [1, 2, 1, 0]
    assert [s.truco_maos for s in stats] == [1] * 4
    assert [s.truco_maos_won for s in stats] == [0, 1, 0, 1]
    assert [s.ran for s in stats] == [0, 0, 1, 1]
    assert level_slug("Pica-Fumo") == "pica-fumo"


def test_at_a_tournament_table_the_account_linked_to_the_seats_atleta_walks(load_file):
    """A tournament seat is a player of a dupla (TableSeat.player), whoever's browser holds it: the account linked
    to that player's atleta walks for it; players whose atleta has no account do not."""
    from django.utils import timezone

    from tests.support.sumula import cup_setup
    from tournaments.models import AccountAtleta, Jogo, PartidaLog, TableSeat

    tournament = cup_setup(load_file, slug="copa-ranking")
    jogo = (
        Jogo.objects.filter(tournament=tournament)
        .select_related("dupla_a__player1__atleta", "dupla_a__player2", "dupla_b__player1__atleta", "dupla_b__player2")
        .order_by("pk")
        .first()
    )
    a = [jogo.dupla_a.player1, jogo.dupla_a.player2]
    b = [jogo.dupla_b.player1, jogo.dupla_b.player2]
    users, _profiles = four("t")
    AccountAtleta.objects.create(user=users[0], atleta=a[0].atleta, reason="teste", at=timezone.now())
    AccountAtleta.objects.create(user=users[1], atleta=b[0].atleta, reason="teste", at=timezone.now())
    log = PartidaLog.objects.create(
        table=table_of(_profiles),  # any table: the log's own seats are the ones given
        n=1,
        data={"winner": 0, "maos": [{"events": [], "result": {"to": 0, "points": 12, "how": "played"}}]},
        winner=0,
        ended_by="points",
        finished_at=timezone.now(),
    )
    seats = [TableSeat(seat=s, player=p, present=True) for s, p in enumerate((a[0], b[0], a[1], b[1]))]
    walked = ranking.partida_count(log=log, seats=seats)
    ratings = {r.profile.user_id: r for r in OnlineRating.objects.select_related("profile")}
    assert set(ratings) == {users[0].pk, users[1].pk} and len(walked) == 2
    assert (ratings[users[0].pk].won, ratings[users[1].pk].won) == (1, 0)
    # a seat with a robot: the partida does not count
    seats[3] = TableSeat(seat=3, robot="basico", present=True)
    log2 = PartidaLog.objects.create(
        table=log.table, n=2, data=log.data, winner=0, ended_by="points", finished_at=timezone.now()
    )
    assert ranking.partida_count(log=log2, seats=seats) == []
