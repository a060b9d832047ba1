"""The season archive (issue 45 point 5, tournaments/circuits/archive.py): closing a circuit freezes its ranking
(page, file, CSV, atletas' pages) even when an etapa's results change later, is audited and cannot be done twice,
refuses while an etapa has not finished and refuses every later change; a new season carries the rules, the
points table and the equipes, under a new address, the old one linking to it; only the circuit's organizer may
do either (the desk gives anyone else 404)."""

import json

import pytest
from django.core.cache import caches

from tests.circuits.support import circuit_file, etapa_file
from tests.support.desk import client_for, make_user
from tournaments.circuits.archive import (
    circuit_close,
    circuit_season_next,
    season_name_next,
    standing_dump,
    standing_load,
)
from tournaments.circuits.file import circuit_file_export, circuit_import
from tournaments.circuits.selectors import circuit_page, circuit_standing
from tournaments.circuits.services import (
    CircuitRefused,
    CircuitSettings,
    circuit_etapa_attach,
    circuit_exclude,
    circuit_settings_set,
)
from tournaments.draws.duplas import dupla_disqualify
from tournaments.models import (
    Circuit,
    CircuitAudit,
    CircuitEquipe,
    CircuitSnapshot,
    Dupla,
    EtapaPlace,
    Player,
    StaffRole,
)

pytestmark = pytest.mark.django_db

FERAS, ZAP = "Feras do Truco", "Clube Zap"


def with_teams(data, teams):
    for player in data["players"]:
        if player["key"] in teams:
            player["team"] = teams[player["key"]]
    return data


def with_contacts(data):
    for n, player in enumerate(data["players"], start=1):
        player.update(
            birth_date=f"19{70 + n}-0{n}-1{n}", email=f"atleta{n}@exemplo.com.br", phone=f"11 9{n}{n}{n}4-5678"
        )
    return data


@pytest.fixture
def organizer(db):
    return make_user("liga-org")


@pytest.fixture
def season(load_file, organizer):
    """Two finished etapas (etapa 1: d1 1st 100, d2 2nd 75, d3 3rd 60, d4 4th 50; etapa 2: d2 1st, d1 2nd, d4 3rd,
    d3 4th): p1, p2 175; p3, p4 175; p5, p6 110; p7, p8 110. Equipes: Feras p1-p4, Zap p5, p6."""
    teams = {"p1": FERAS, "p2": FERAS, "p3": FERAS, "p4": FERAS, "p5": ZAP, "p6": ZAP}
    one = load_file(with_contacts(with_teams(etapa_file("etapa-1", date="2025-03-01"), teams)))
    two = load_file(
        with_contacts(with_teams(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")), teams))
    )
    circuit = circuit_import(data=circuit_file(count_best=2, qualify={"top": 2, "min_etapas": 1, "alternates": 1}))
    circuit.created_by = organizer
    circuit.save(update_fields=["created_by"])
    for t in (one, two):
        StaffRole.objects.create(tournament=t, user=organizer, role=StaffRole.ORGANIZER)
    return circuit, one, two


def rows_of(standing):
    return [(r.rank, r.key, r.points, r.team, r.qualify, tuple(sorted(r.results))) for r in standing.rows]


def fresh(circuit):
    caches["default"].clear()
    return Circuit.objects.get(pk=circuit.pk)


def disqualify_champion_of(tournament, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        dupla_disqualify(dupla=Dupla.objects.get(tournament=tournament, key="d1"), user=None, reason="conduta")


# --- closing ------------------------------------------------------------------------------------------------------


def test_closing_freezes_the_ranking_even_when_an_etapas_results_change_later(
    season, organizer, client, django_capture_on_commit_callbacks
):
    circuit, one, _two = season
    before = circuit_standing(circuit=circuit)
    before_file = circuit_file_export(circuit=circuit)
    circuit_close(circuit=circuit, user=organizer)
    assert CircuitSnapshot.objects.filter(circuit=circuit).count() == 1
    places = sorted(EtapaPlace.objects.filter(tournament=one).values_list("player_id", "place"))
    # a disqualification in etapa 1, after closing: the tournament's own classification changes…
    disqualify_champion_of(one, django_capture_on_commit_callbacks)
    assert Dupla.objects.get(tournament=one, key="d1").disqualified
    # …but the circuit's places and its ranking, read from scratch, stay as they were at closing
    assert sorted(EtapaPlace.objects.filter(tournament=one).values_list("player_id", "place")) == places
    circuit = fresh(circuit)
    after = circuit_standing(circuit=circuit)
    assert rows_of(after) == rows_of(before)
    assert [(t.rank, t.team, t.points) for t in after.teams] == [(t.rank, t.team, t.points) for t in before.teams]
    frozen_file = circuit_file_export(circuit=circuit)
    assert frozen_file["ranking"] == before_file["ranking"] and frozen_file["teams"] == before_file["teams"]
    # the page reads the stored ranking too (not the rows by part), with the "encerrado" mark
    page = circuit_page(circuit=circuit)
    assert [(r.rank, r.key, r.points) for r in page.rows] == [(r.rank, r.key, r.points) for r in before.rows]
    html = client.get(f"/circuitos/{circuit.slug}/").content.decode()
    assert "encerrado" in html and "este é o ranking final" in html
    csv = client.get(f"/circuitos/{circuit.slug}/ranking.csv").content.decode("utf-8-sig")
    p1 = Player.objects.get(tournament=one, key="p1").atleta
    assert p1.name in csv
    p1_row = next(r for r in after.rows if r.key == p1.key)
    assert p1_row.results["etapa-1"].place == 1 and p1_row.points == 175
    listed = client.get("/circuitos/").content.decode()
    assert "encerrado" in listed and "ver ranking final" in listed


def test_the_same_change_on_an_open_circuit_does_move_its_ranking(season, django_capture_on_commit_callbacks):
    """The control of the test above: without closing, the disqualification moves p1 down."""
    circuit, one, _two = season
    before = circuit_standing(circuit=circuit)
    disqualify_champion_of(one, django_capture_on_commit_callbacks)
    after = circuit_standing(circuit=fresh(circuit))
    p1 = Player.objects.get(tournament=one, key="p1").atleta.key
    assert next(r.points for r in before.rows if r.key == p1) == 175
    assert next(r.points for r in after.rows if r.key == p1) == 75  # 0 in etapa 1 (disqualified) + 75


def test_closing_is_audited_and_cannot_be_done_twice(season, organizer):
    circuit, _one, _two = season
    version = circuit.version
    circuit_close(circuit=circuit, user=organizer)
    circuit = Circuit.objects.get(pk=circuit.pk)
    assert circuit.closed_at is not None and circuit.closed_by == organizer and circuit.version > version
    audit = CircuitAudit.objects.get(circuit=circuit, action="close")
    assert audit.user == organizer and audit.after["atletas"] == 8 and audit.after["etapas"] == ["etapa-1", "etapa-2"]
    assert "temporada encerrada" in audit.summary
    with pytest.raises(CircuitRefused, match="já foi encerrado em"):
        circuit_close(circuit=circuit, user=organizer)
    assert CircuitSnapshot.objects.filter(circuit=circuit).count() == 1
    assert CircuitAudit.objects.filter(circuit=circuit, action="close").count() == 1


def test_a_closed_circuit_refuses_every_change(season, organizer, load_file):
    circuit, one, _two = season
    circuit_close(circuit=circuit, user=organizer)
    circuit = Circuit.objects.get(pk=circuit.pk)
    points = dict(circuit.points)
    with pytest.raises(CircuitRefused, match="está encerrado"):
        circuit_settings_set(
            circuit=circuit, user=organizer, settings=CircuitSettings(name="Outro nome", points={"1": 5, "others": 1})
        )
    atleta = Player.objects.get(tournament=one, key="p3").atleta
    with pytest.raises(CircuitRefused, match="está encerrado"):
        circuit_exclude(circuit=circuit, user=organizer, atleta=atleta, reason="conduta")
    three = load_file(etapa_file("etapa-3", date="2025-06-01"))
    StaffRole.objects.create(tournament=three, user=organizer, role=StaffRole.ORGANIZER)
    with pytest.raises(CircuitRefused, match="está encerrado"):
        circuit_etapa_attach(circuit=circuit, user=organizer, tournament=three)
    circuit = Circuit.objects.get(pk=circuit.pk)
    assert circuit.name == "Liga de Teste" and circuit.points == points and circuit.etapas.count() == 2


def test_closing_waits_for_every_etapa_to_finish(load_file, organizer):
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", finished=False))
    circuit = circuit_import(data=circuit_file())
    circuit.created_by = organizer
    circuit.save(update_fields=["created_by"])
    with pytest.raises(CircuitRefused, match="a etapa Etapa etapa-2 ainda não terminou"):
        circuit_close(circuit=circuit, user=organizer)
    empty = circuit_import(data=circuit_file(slug="vazio", etapas=[]))
    empty.created_by = organizer
    empty.save(update_fields=["created_by"])
    with pytest.raises(CircuitRefused, match="não tem etapas"):
        circuit_close(circuit=empty, user=organizer)
    assert not Circuit.objects.filter(closed_at__isnull=False).exists()
    assert not CircuitSnapshot.objects.exists()


def test_the_snapshot_reads_back_as_the_same_ranking(season):
    circuit, _one, _two = season
    standing = circuit_standing(circuit=circuit)
    stored = json.loads(json.dumps(standing_dump(standing)))  # as the database's JSON column gives it back
    assert standing_load(stored, version=standing.version) == standing


def test_the_snapshot_holds_no_private_data(season, organizer):
    circuit, _one, _two = season
    circuit_close(circuit=circuit, user=organizer)
    text = json.dumps(CircuitSnapshot.objects.get(circuit=circuit).standing, ensure_ascii=False)
    for private in ("@exemplo.com.br", "5678", "1971-01-11", "1972-02-12"):
        assert private not in text
    assert "Feras do Truco" in text


# --- the next season -------------------------------------------------------------------------------------------


def test_a_new_season_carries_rules_points_and_equipes_and_the_old_one_links_to_it(
    season, organizer, load_file, client
):
    circuit, one, _two = season
    circuit_settings_set(
        circuit=circuit,
        user=organizer,
        settings=CircuitSettings(
            name="Liga de Teste 2025",
            points={"1": 40, "2": 30, "3-4": 20, "others": 5},
            count_best=2,
            qualify_top=2,
            qualify_min_etapas=1,
            qualify_alternates=1,
        ),
    )
    circuit_close(circuit=circuit, user=organizer)
    circuit = Circuit.objects.get(pk=circuit.pk)
    made = circuit_season_next(circuit=circuit, user=organizer, name="Liga de Teste 2026", slug="liga-teste-2026")
    assert made.previous == circuit and made.created_by == organizer and made.closed_at is None
    assert made.points == {"1": 40, "2": 30, "3-4": 20, "others": 5}
    assert (made.template, made.count_best, made.qualify_top, made.qualify_min_etapas, made.qualify_alternates) == (
        circuit.template,
        2,
        2,
        1,
        1,
    )
    carried = dict(CircuitEquipe.objects.filter(circuit=made).values_list("atleta__key", "team"))
    atleta = {k: Player.objects.get(tournament=one, key=k).atleta.key for k in ("p1", "p4", "p5", "p7")}
    assert carried[atleta["p1"]] == FERAS and carried[atleta["p4"]] == FERAS and carried[atleta["p5"]] == ZAP
    assert atleta["p7"] not in carried and len(carried) == 6
    # audited on both
    assert CircuitAudit.objects.filter(circuit=made, action="create", user=organizer).count() == 1
    old_audit = CircuitAudit.objects.get(circuit=circuit, action="season_next")
    assert old_audit.after == {"next": "liga-teste-2026", "equipes": 6}
    # the old page links to the new one and the new one back
    old_page = client.get("/circuitos/liga-teste/").content.decode()
    assert 'href="/circuitos/liga-teste-2026/"' in old_page and "Temporada seguinte" in old_page
    new_page = client.get("/circuitos/liga-teste-2026/").content.decode()
    assert 'href="/circuitos/liga-teste/"' in new_page and "Temporada anterior" in new_page
    # in the new season, an etapa whose registrations name no equipe: the carried ones count
    first = load_file(with_contacts(etapa_file("etapa-2026-1", date="2026-03-01")))
    StaffRole.objects.create(tournament=first, user=organizer, role=StaffRole.ORGANIZER)
    circuit_etapa_attach(circuit=made, user=organizer, tournament=first)
    made = Circuit.objects.get(pk=made.pk)
    standing = circuit_standing(circuit=made)
    teams = {r.key: r.team for r in standing.rows}
    assert teams[atleta["p1"]] == FERAS and teams[atleta["p5"]] == ZAP and teams[atleta["p7"]] == ""
    # 2026 etapa: d1 (p1, p2) 40, d2 (p3, p4) 30, d3 (p5, p6) 20, d4 20: Feras 40+40+30+30, Zap 20+20
    assert [(t.team, t.points) for t in standing.teams] == [(FERAS, 140), (ZAP, 40)]
    # the ranking by part (the page as it stands) says the same
    page = circuit_page(circuit=made)
    assert {r.key: r.team for r in page.rows} == teams
    assert [(t.team, t.points) for t in page.teams] == [(FERAS, 140), (ZAP, 40)]


def test_an_equipe_named_in_the_new_season_wins_over_the_carried_one(season, organizer, load_file):
    circuit, one, _two = season
    made = circuit_season_next(circuit=circuit, user=organizer, name="Liga 2026", slug="liga-2026")
    first = load_file(with_contacts(with_teams(etapa_file("etapa-2026-1", date="2026-03-01"), {"p1": ZAP})))
    StaffRole.objects.create(tournament=first, user=organizer, role=StaffRole.ORGANIZER)
    circuit_etapa_attach(circuit=made, user=organizer, tournament=first)
    p1, p2 = (Player.objects.get(tournament=one, key=k).atleta.key for k in ("p1", "p2"))
    teams = {r.key: r.team for r in circuit_standing(circuit=Circuit.objects.get(pk=made.pk)).rows}
    assert teams[p1] == ZAP and teams[p2] == FERAS


def test_a_season_has_one_next_season_and_a_new_address(season, organizer):
    circuit, _one, _two = season
    with pytest.raises(CircuitRefused) as refused:
        circuit_season_next(circuit=circuit, user=organizer, name="Liga 2026", slug="liga-teste")
    assert "já existe um circuito com o endereço liga-teste" in str(refused.value)
    circuit_season_next(circuit=circuit, user=organizer, name="Liga 2026", slug="liga-2026")
    with pytest.raises(CircuitRefused, match="já tem a temporada seguinte"):
        circuit_season_next(circuit=circuit, user=organizer, name="Liga 2026 bis", slug="liga-2026-bis")
    assert Circuit.objects.count() == 2


def test_the_desk_suggests_the_next_years_name():
    assert season_name_next("Liga Paulista de Truco 2025") == "Liga Paulista de Truco 2026"
    assert season_name_next("Copa 2024/2025") == "Copa 2024/2026"
    assert season_name_next("Liga sem ano") == "Liga sem ano"


# --- permissions: only the circuit's organizer ------------------------------------------------------------------


def test_only_the_circuits_organizer_closes_it_or_makes_its_next_season(season, client):
    circuit, one, _two = season
    other = make_user("outro-org", one)  # organizes etapa 1, but not the circuit
    with pytest.raises(CircuitRefused, match="só o organizador do circuito"):
        circuit_close(circuit=circuit, user=other)
    with pytest.raises(CircuitRefused, match="só o organizador do circuito"):
        circuit_season_next(circuit=circuit, user=other, name="Liga 2026", slug="liga-2026")
    with pytest.raises(CircuitRefused, match="só o organizador do circuito"):
        circuit_close(circuit=circuit, user=None)
    c = client_for(other)
    assert c.get(f"/organizar/circuitos/{circuit.slug}/temporada/").status_code == 404
    assert c.post(f"/organizar/circuitos/{circuit.slug}/temporada/encerrar/", {"confirm": "on"}).status_code == 404
    response = c.post(f"/organizar/circuitos/{circuit.slug}/temporada/", {"name": "Liga 2026", "slug": "liga-2026"})
    assert response.status_code == 404
    anonymous = client.post(f"/organizar/circuitos/{circuit.slug}/temporada/encerrar/", {"confirm": "on"})
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/entrar/")
    circuit = Circuit.objects.get(pk=circuit.pk)
    assert circuit.closed_at is None and Circuit.objects.count() == 1
    assert not CircuitAudit.objects.filter(circuit=circuit, action__in=("close", "season_next")).exists()


# --- the desk ---------------------------------------------------------------------------------------------------


def test_the_desk_closes_after_confirmation_then_makes_the_next_season(season, organizer):
    circuit, _one, _two = season
    c = client_for(organizer)
    page = c.get(f"/organizar/circuitos/{circuit.slug}/temporada/")
    text = page.content.decode()
    assert page.status_code == 200 and "Encerrar a temporada" in text and "em andamento" in text
    assert 'value="Liga de Teste"' not in text  # no year in the name: no suggestion
    assert (
        'href="/organizar/circuitos/liga-teste/temporada/"'
        in c.get(f"/organizar/circuitos/{circuit.slug}/").content.decode()
    )
    # without the box ticked: nothing closes
    unticked = c.post(f"/organizar/circuitos/{circuit.slug}/temporada/encerrar/", {})
    assert unticked.status_code == 200 and "Confirme que quer encerrar a temporada" in unticked.content.decode()
    assert Circuit.objects.get(pk=circuit.pk).closed_at is None
    closed = c.post(f"/organizar/circuitos/{circuit.slug}/temporada/encerrar/", {"confirm": "on"})
    assert closed.status_code == 302 and closed["Location"] == f"/organizar/circuitos/{circuit.slug}/temporada/"
    text = c.get(closed["Location"]).content.decode()
    assert "Temporada encerrada em" in text and "Encerrar a temporada" not in text
    # twice: refused with its message, nothing stored again
    again = c.post(f"/organizar/circuitos/{circuit.slug}/temporada/encerrar/", {"confirm": "on"})
    assert again.status_code == 200 and "já foi encerrado em" in again.content.decode()
    assert CircuitAudit.objects.filter(circuit=circuit, action="close").count() == 1
    # the desk says it is closed, and a change of its rules is refused there with the reason
    desk = c.get(f"/organizar/circuitos/{circuit.slug}/").content.decode()
    assert "Temporada encerrada em" in desk
    # the next season: a taken address is shown next to its field; then made, back to its desk
    taken = c.post(f"/organizar/circuitos/{circuit.slug}/temporada/", {"name": "Liga de Teste 2", "slug": "liga-teste"})
    assert taken.status_code == 200
    assert "já existe um circuito com o endereço liga-teste" in " ".join(taken.context["season_form"].errors["slug"])
    made = c.post(f"/organizar/circuitos/{circuit.slug}/temporada/", {"name": "Liga de Teste 2", "slug": ""})
    assert made.status_code == 302 and made["Location"] == "/organizar/circuitos/liga-de-teste-2/"
    new = Circuit.objects.get(slug="liga-de-teste-2")
    assert new.previous_id == circuit.pk
    text = c.get(f"/organizar/circuitos/{new.slug}/temporada/").content.decode()
    assert "Temporada anterior" in text and "6 atletas trouxeram a sua equipe dela" in text


def test_the_desk_lists_why_a_season_cannot_close_yet(load_file, organizer):
    load_file(etapa_file("etapa-1", date="2025-03-01", finished=False))
    circuit = circuit_import(data=circuit_file(etapas=["etapa-1"]))
    circuit.created_by = organizer
    circuit.save(update_fields=["created_by"])
    text = client_for(organizer).get(f"/organizar/circuitos/{circuit.slug}/temporada/").content.decode()
    assert "Ainda não dá para encerrar" in text and "ainda não terminou" in text
    assert 'action="/organizar/circuitos/liga-teste/temporada/encerrar/"' not in text
