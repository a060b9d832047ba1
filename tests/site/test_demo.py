"""The demo tournaments (demo/*.json) and the load_demo command."""

import importlib.util
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tournaments.interchange.writer import tournament_export
from tournaments.models import Dupla, Jogo, Tournament
from tournaments.services import tournament_import

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"

pytestmark = pytest.mark.django_db


def load_demo(*args) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def export(slug: str) -> dict:
    return tournament_export(tournament=Tournament.objects.get(slug=slug))


@pytest.fixture
def demo():
    load_demo()


def test_load_demo_twice_keeps_two_tournaments():
    first = load_demo()
    assert "importado" in first
    second = load_demo()
    assert Tournament.objects.count() == 2
    assert set(Tournament.objects.values_list("slug", flat=True)) == {"aabb-2024", "fenacef-2023"}
    assert second.count("já está carregado") == 2


def test_load_demo_reset_imports_again(demo):
    before = set(Tournament.objects.values_list("id", flat=True))
    out = load_demo("--reset")
    assert out.count("reimportado") == 2
    assert Tournament.objects.count() == 2
    assert not before & set(Tournament.objects.values_list("id", flat=True))
    assert Dupla.objects.filter(tournament__slug="aabb-2024").count() == 16


def test_aabb_pairing_waiting_list_and_bracket(demo):
    t = Tournament.objects.get(slug="aabb-2024")
    data = export("aabb-2024")
    assert Dupla.objects.filter(tournament=t).count() == 16
    assert [d["key"] for d in data["duplas"]] == [f"r{n}" for n in range(1, 17)]
    assert data["waiting_list"] == ["p33", "p34", "p35"]
    assert data["registrations"] == [{"players": ["p33"]}, {"players": ["p34"]}, {"players": ["p35"]}]
    assert all("birth_date" not in p for p in data["players"])  # private

    rounds = data["bracket"]["eliminatoria"]["rounds"]
    assert [len(r) for r in rounds] == [8, 4, 2, 1]
    assert [r[0]["best_of"] for r in rounds] == [5, 3, 3, 3]
    assert all(j["winner"] is not None and not j["bye"] for r in rounds for j in r)
    assert all(max(j["score"]) == 3 for j in rounds[0]) and all(max(j["score"]) == 2 for r in rounds[1:] for j in r)

    third = data["bracket_third_place"]["eliminatoria"]
    semi_losers = {d for j in rounds[2] for d in j["duplas"] if d != j["winner"]}
    assert set(third["duplas"]) == semi_losers
    assert third["winner"] in semi_losers and max(third["score"]) == 2

    medals = [c for c in data["classification"] if c["medal"]]
    assert [c["medal"] for c in medals] == ["gold", "silver", "bronze"]
    assert medals[0]["dupla"] == rounds[3][0]["winner"]
    assert medals[2]["dupla"] == third["winner"]
    assert len({p for c in medals for p in c["players"]}) == 6  # every athlete of the top 3 duplas
    assert not Jogo.objects.filter(tournament=t).exclude(status=Jogo.HOMOLOGATED).exists()


def test_fenacef_groups_tiebreaks_walkover_and_classification(demo):
    t = Tournament.objects.get(slug="fenacef-2023")
    data = export("fenacef-2023")
    groups = data["standings"]["classificatoria"]
    assert sorted(len(rows) for rows in groups.values()) == [4, 4, 5, 5]  # groups of different sizes

    a = groups["A"]
    assert [(r["dupla"], r["decided_by"]) for r in a[1:3]] == [("d2", "head_to_head"), ("d3", "points")]
    assert (a[1]["points"], a[1]["partidas_won"]) == (a[2]["points"], a[2]["partidas_won"])
    assert a[1]["qualified"] and not a[2]["qualified"]

    c = groups["C"]
    assert [(r["dupla"], r["decided_by"]) for r in c[:3]] == [("d13", "draw"), ("d11", "draw"), ("d12", "points")]
    assert len({(r["points"], r["partidas_won"], r["saldo"]) for r in c[:3]}) == 1
    assert not any(r["tied"] for rows in groups.values() for r in rows)
    stage = next(s for s in data["stages"] if s["key"] == "classificatoria")
    assert stage["sorteios"] == [{"group": "C", "order": ["d13", "d11", "d12"]}]

    assert any("walkover" in j for j in data["jogos"])
    assert all(r["jogos"] == len(rows) - 1 for rows in groups.values() for r in rows)  # every group jogo played
    assert sum(r["qualified"] for rows in groups.values() for r in rows) == 8

    rounds = data["bracket"]["eliminatoria"]["rounds"]
    assert [len(r) for r in rounds] == [4, 2, 1]
    assert all(j["winner"] and j["best_of"] == 5 and max(j["score"]) == 3 for r in rounds for j in r)
    assert data["bracket_third_place"] == {}  # third place by average
    medals = [c for c in data["classification"] if c["medal"]]
    assert [c["medal"] for c in medals] == ["gold", "silver", "bronze"]
    semi_losers = {d for j in rounds[1] for d in j["duplas"] if d != j["winner"]}
    assert medals[2]["dupla"] in semi_losers
    assert len(data["classification"]) == 18
    assert not Jogo.objects.filter(tournament=t).exclude(status=Jogo.HOMOLOGATED).exists()


def test_demo_files_carry_maos_of_every_kind():
    kinds = set()
    for name in ("aabb-2024.json", "fenacef-2023.json"):
        data = json.loads((DEMO_DIR / name).read_text(encoding="utf-8"))
        for jogo in data["jogos"]:
            for p in jogo.get("partidas", []):
                if isinstance(p, dict):
                    for m in p["maos"]:
                        kinds.add("tied" if m["to"] is None else m.get("how", "played"))
                        if m.get("how") == "penalty":
                            assert m["reason"]
    assert kinds == {"played", "ran", "refused", "penalty", "tied"}


@pytest.mark.parametrize("slug", ["aabb-2024", "fenacef-2023"])
def test_export_import_export_round_trip(demo, slug):
    first = export(slug)
    again = tournament_import(data=json.loads(json.dumps(first)))
    assert again.slug != slug
    second = tournament_export(tournament=again)
    first["tournament"].pop("slug")
    second["tournament"].pop("slug")
    assert second == first


def test_demo_files_are_the_builder_output():
    spec = importlib.util.spec_from_file_location("build_demo", DEMO_DIR / "build_demo.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    for name, build in (("aabb-2024.json", builder.build_aabb), ("fenacef-2023.json", builder.build_fenacef)):
        on_disk = json.loads((DEMO_DIR / name).read_text(encoding="utf-8"))
        assert build() == on_disk, f"demo/{name} is stale: run .venv/bin/python demo/build_demo.py"


def test_demo_accounts_organize_and_referee_the_demo_events(client, monkeypatch):
    from django.contrib.auth.models import User

    from tournaments.models import StaffRole

    monkeypatch.setenv("ZAP_DEV", "1")
    out = load_demo("--accounts")
    assert "comissao" in out and "truco-demo" in out
    roles = set(StaffRole.objects.values_list("user__username", "tournament__slug", "role"))
    slugs = set(Tournament.objects.values_list("slug", flat=True))
    assert roles == {(u, s, r) for s in slugs for u, r in (("comissao", "organizer"), ("arbitro", "referee"))}
    assert client.login(username="comissao", password="truco-demo")
    from tournaments.permissions import may_create_tournament

    assert may_create_tournament(user=User.objects.get(username="comissao"))  # a staff account: creates events
    assert not may_create_tournament(user=User.objects.get(username="arbitro"))
    load_demo("--accounts")  # idempotent
    assert User.objects.filter(username__in=["comissao", "arbitro"]).count() == 2
    # each with a person's name, as the desk shows who did what (never the login when there is a name)
    names = dict(User.objects.values_list("username", "first_name"))
    assert names["comissao"] == "Helena Prado" and names["arbitro"] == "Rogério Lima"


def test_demo_accounts_are_refused_outside_development(monkeypatch, settings):
    from django.core.management import CommandError

    monkeypatch.delenv("ZAP_DEV", raising=False)
    settings.DEBUG = False
    with pytest.raises(CommandError, match="só em desenvolvimento"):
        load_demo("--accounts")
