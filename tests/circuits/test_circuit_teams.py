"""The circuit's equipe ranking (DOMAIN §7.3 "Equipe"): fed by the players' teams of the etapas (the tournament
file's ``"team"``, a registration's equipe), the counted points of each equipe's best 4 atletas, figures worked
out by hand; a team edit on an etapa moves the circuit's ranking at once."""

import pytest

from tests.circuits.support import circuit_file, etapa_file
from tournaments.circuits.file import circuit_file_export, circuit_import
from tournaments.circuits.selectors import circuit_standing
from tournaments.models import Circuit, Player, Registration
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.services import registration_edit

pytestmark = pytest.mark.django_db

# etapa 1 (weight 1): d1 (p1, p2) 1st 100, d2 (p3, p4) 2nd 75, d3 (p5, p6) 3rd 60, d4 (p7, p8) 4th 50
# etapa 2 (weight 2): d2 1st 200, d1 2nd 150, d4 3rd 120, d3 4th 100
# so: p1, p2 250; p3, p4 275; p5, p6 160; p7, p8 170 (every etapa counts)
FERAS, ZAP, CASA = "Feras do Truco", "Clube Zap", "Casa do Truco"


def with_teams(data, teams):
    for player in data["players"]:
        if player["key"] in teams:
            player["team"] = teams[player["key"]]
    return data


@pytest.fixture
def circuit(load_file):
    # Feras: p1, p2, p3, p5, p7 (five atletas: the best 4 count); Zap: p6, p8; p4 changes equipe between the
    # etapas (Feras in the first, Zap in the second: the latest counts); nobody else has one
    first = {"p1": FERAS, "p2": FERAS, "p3": FERAS, "p4": FERAS, "p5": FERAS, "p7": FERAS, "p6": ZAP, "p8": ZAP}
    second = {**first, "p4": ZAP, "p8": ""}
    one = load_file(with_teams(etapa_file("etapa-1", date="2025-03-01"), first))
    two = load_file(with_teams(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")), second))
    made = circuit_import(data=circuit_file(etapas=["etapa-1", {"tournament": "etapa-2", "weight": 2}]))
    return made, one, two


def atleta(tournament, key):
    return Player.objects.get(tournament=tournament, key=key).atleta.key


def test_teams_sum_the_counted_points_of_their_best_four_atletas(circuit):
    made, one, _two = circuit
    standing = circuit_standing(circuit=made)
    points = {row.key: row.points for row in standing.rows}
    p = {k: atleta(one, k) for k in ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8")}
    assert [points[p[k]] for k in ("p1", "p3", "p5", "p7")] == [250, 275, 160, 170]
    feras, zap = standing.teams
    # Feras: p3 275 + p1 250 + p2 250 + p7 170 = 945; p5's 160 is the fifth, left out
    assert (feras.rank, feras.team, feras.points) == (1, FERAS, 945)
    assert feras.atletas[0] == p["p3"] and set(feras.atletas) == {p["p3"], p["p1"], p["p2"], p["p7"]}
    # Zap: p4 275 (its equipe in the latest etapa) + p8 170 (none named in etapa 2: etapa 1's) + p6 160 = 605
    assert (zap.rank, zap.team, zap.points) == (2, ZAP, 605)
    assert set(zap.atletas) == {p["p4"], p["p8"], p["p6"]}
    rows = {row.key: row for row in standing.rows}
    assert rows[p["p4"]].team == ZAP and rows[p["p1"]].team == FERAS
    # the circuit file's computed section says the same
    data = circuit_file_export(circuit=made)
    assert [(t["rank"], t["team"], t["points"]) for t in data["teams"]] == [(1, FERAS, 945), (2, ZAP, 605)]


def test_ranking_after_the_first_etapa_uses_its_teams(circuit):
    made, one, _two = circuit
    teams = {t.team: t for t in circuit_standing(circuit=made, after="etapa-1").teams}
    # etapa 1 only: Feras p1 100, p2 100, p3 75, p4 75 (p5 60 and p7 50 left out) = 350; Zap p6 60 + p8 50 = 110
    assert teams[FERAS].points == 350 and teams[ZAP].points == 110
    assert set(teams[FERAS].atletas) == {atleta(one, k) for k in ("p1", "p2", "p3", "p4")}


def test_a_team_edit_on_an_etapa_moves_the_circuit_ranking_at_once(circuit, django_user_model):
    made, _one, two = circuit
    before = circuit_standing(circuit=made)  # kept in the cache under the circuit's version
    version = Circuit.objects.get(pk=made.pk).version
    # d4's players as the desk registered them (the etapa's file formed its duplas directly)
    p7, p8 = Player.objects.get(tournament=two, key="p7"), Player.objects.get(tournament=two, key="p8")
    reg = Registration.objects.create(tournament=two, order=1, player1=p7, player2=p8, status=Registration.PAIRED)
    organizer = django_user_model.objects.create_user(username="org")
    registration_edit(
        registration=reg,
        players=[PersonIn(p7.name, p7.birth_date, team=ZAP), PersonIn(p8.name, p8.birth_date, team=ZAP)],
        user=organizer,
    )
    assert Player.objects.get(pk=p7.pk).team == ZAP
    made.refresh_from_db()
    assert made.version > version
    after = circuit_standing(circuit=made)
    assert after is not before and after.version == made.version
    teams = {t.team: t.points for t in after.teams}
    # Feras loses p7 (170) and counts p5 (160) instead: 275 + 250 + 250 + 160 = 935
    # Zap gains p7: p4 275 + p7 170 + p8 170 + p6 160 = 775 (four atletas)
    assert teams == {FERAS: 935, ZAP: 775}
    assert [t.team for t in after.teams] == [FERAS, ZAP]
    assert [t.points for t in before.teams] == [945, 605]  # the standing kept before the edit is not what is read


def test_an_edit_that_leaves_the_teams_alone_leaves_the_circuit_alone(circuit):
    made, _one, two = circuit
    p5, p6 = Player.objects.get(tournament=two, key="p5"), Player.objects.get(tournament=two, key="p6")
    reg = Registration.objects.create(tournament=two, order=1, player1=p5, player2=p6, status=Registration.PAIRED)
    version = Circuit.objects.get(pk=made.pk).version
    registration_edit(
        registration=reg,
        players=[
            PersonIn(p5.name, p5.birth_date, phone="(11) 98888-7777", team=p5.team),
            PersonIn(p6.name, p6.birth_date, team=p6.team),
        ],
        user=None,
    )
    assert Circuit.objects.get(pk=made.pk).version == version


def test_the_desks_dupla_edit_sets_teams_and_moves_the_circuit_ranking(circuit):
    from tournaments.draws.duplas import dupla_edit
    from tournaments.models import AuditEntry, Dupla

    made, _one, two = circuit
    version = Circuit.objects.get(pk=made.pk).version
    d4 = Dupla.objects.get(tournament=two, key="d4")  # p7, p8: no registration (the file formed the dupla)
    dupla_edit(dupla=d4, user=None, name=d4.name, seed=d4.seed, teams=(f"  {ZAP} ", ZAP))
    assert (Player.objects.get(tournament=two, key="p7").team, Player.objects.get(tournament=two, key="p8").team) == (
        ZAP,
        ZAP,
    )
    made.refresh_from_db()
    assert made.version > version
    assert {t.team: t.points for t in circuit_standing(circuit=made).teams} == {FERAS: 935, ZAP: 775}
    audit = AuditEntry.objects.filter(tournament=two, action="dupla_edit").get()
    assert audit.before["teams"] == [FERAS, ""] and audit.after["teams"] == [ZAP, ZAP]
    # the same teams again: nothing written, the circuit stays
    dupla_edit(dupla=d4, user=None, name=d4.name, seed=d4.seed, teams=(ZAP, ZAP))
    assert Circuit.objects.get(pk=made.pk).version == made.version
