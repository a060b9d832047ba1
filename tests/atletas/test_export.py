"""The tournament file's ``ranking``: each player's atleta Nível at export time (INTERCHANGE, DOMAIN §7.2)."""

import pytest

from scoring.ranking import player_level, score_walk
from tests.support.sumula import cup_file, jogo_between, jogo_duplas, result_counted
from tournaments.interchange.writer import tournament_export


def won_by(t, winner, loser):
    first = jogo_duplas(t, jogo_between(t, winner, loser))[0]
    return ((12, 3), (12, 5)) if first == winner else ((3, 12), (5, 12))


@pytest.mark.django_db
def test_ranking_gives_every_players_atleta_nivel_across_tournaments(load_file, django_capture_on_commit_callbacks):
    files = []
    for slug, date in (("copa-a", "2026-01-10"), ("copa-b", "2026-02-10")):
        data = cup_file(slug)
        data["tournament"]["date"] = date
        for p in data["players"]:
            p["birth_date"] = "1990-05-05"
        files.append(data)
    files[1]["players"].append({"key": "p9", "name": "Ivo Sem Dupla"})
    files[1]["registrations"] = [{"players": ["p9"]}]
    with django_capture_on_commit_callbacks(execute=True):
        a, b = (load_file(f) for f in files)
        result_counted(a, jogo_between(a, "d1", "d2"), partidas=won_by(a, "d1", "d2"))
        result_counted(b, jogo_between(b, "d1", "d3"), partidas=won_by(b, "d1", "d3"))
    ranking = tournament_export(tournament=b)["ranking"]
    assert {r["player"] for r in ranking} == {f"p{i}" for i in range(1, 10)}  # every player listed
    by_player = {r["player"]: r for r in ranking}
    # d1's players won one jogo in each cup: their atleta's Nível counts both, not only this cup's
    two_wins = score_walk(results=[(True, False), (True, False)])[-1]
    assert by_player["p1"] == {"player": "p1", "score": two_wins, "level": player_level(score=two_wins)}
    assert ranking[0]["player"] in ("p1", "p2")
    # lost in copa-a, nothing counted in copa-b yet: still their Nível (0 after one loss)
    assert by_player["p3"]["level"] == "Fichinha" and by_player["p3"]["score"] == 0
    # no counted jogo anywhere
    assert by_player["p9"] == {"player": "p9", "score": 0, "level": "Marreco"}
    assert by_player["p7"] == {"player": "p7", "score": 0, "level": "Marreco"}
