"""Every jogo has a key (docs/contrato.md): kept from the file, else made; unique in its tournament; stable on
round trip. The export lists every jogo, scheduled ones too, with its status, mesa and (private) referee."""

import copy

import pytest
from django.contrib.auth import get_user_model

from tests.support.desk import add_duplas, make_tournament
from tests.support.files import base_file, import_errors, nothing_written
from tournaments.draws import services as draw_services
from tournaments.interchange.writer import tournament_export
from tournaments.jogo_keys import jogo_keys_new
from tournaments.models import Jogo, Partida, StaffRole
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

GROUPS_OF_4 = {
    "key": "grupos",
    "kind": "groups",
    "best_of": 3,
    "groups": [{"key": "A", "duplas": ["d1", "d2", "d3", "d4"]}],
    "qualify": {"per_group": 2, "best_others": 0},
}


def _keys(tournament) -> list[str]:
    return list(Jogo.objects.filter(tournament=tournament).values_list("key", flat=True))


def _round_trip(exported: dict, *, include_private: bool = False) -> dict:
    again = tournament_export(
        tournament=tournament_import(data=copy.deepcopy(exported)), include_private=include_private
    )
    again["tournament"]["slug"] = exported["tournament"]["slug"]
    return again


def test_new_keys_skip_those_taken():
    fresh = jogo_keys_new(taken={"j1", "j3", "final"})
    assert [next(fresh) for _ in range(4)] == ["j2", "j4", "j5", "j6"]


def test_every_jogo_gets_a_unique_key_and_the_export_lists_the_scheduled_ones_with_their_status():
    data = base_file()
    data["stages"][0] = GROUPS_OF_4
    data["stages"] = data["stages"][:1]
    data["jogos"] = [
        {"stage": "grupos", "group": "A", "duplas": ["d1", "d2"], "partidas": [[12, 7], [12, 3]]},
        {"stage": "grupos", "group": "A", "duplas": ["d3", "d4"], "partidas": [{"maos": [{"to": 0, "points": 3}]}]},
    ]
    t = tournament_import(data=data)
    keys = _keys(t)
    assert len(keys) == 6 and len(set(keys)) == 6 and all(keys)
    exported = tournament_export(tournament=t)
    assert len(exported["jogos"]) == 6
    status = {frozenset(j["duplas"]): j["status"] for j in exported["jogos"]}
    assert status[frozenset(("d1", "d2"))] == "homologated"
    assert status[frozenset(("d3", "d4"))] == "in_progress"
    assert sorted(status.values()).count("scheduled") == 4
    assert all(j["key"] and j["mesa"] for j in exported["jogos"])
    assert _round_trip(exported) == exported


def test_keys_from_the_file_are_kept_and_made_ones_do_not_collide_with_them():
    data = base_file()
    data["jogos"][0]["key"] = "j2"
    data["jogos"][1]["key"] = "grupo-B.1"
    t = tournament_import(data=data)
    by_pair = {
        frozenset((j.dupla_a.key, j.dupla_b.key)): j.key
        for j in Jogo.objects.filter(tournament=t).select_related("dupla_a", "dupla_b")
    }
    assert by_pair[frozenset(("d1", "d2"))] == "j2" and by_pair[frozenset(("d3", "d4"))] == "grupo-B.1"
    assert sorted(by_pair.values()) == ["grupo-B.1", "j1", "j2", "j3"]  # the knockout's two jogos
    exported = tournament_export(tournament=t)
    assert _round_trip(exported) == exported


def test_the_next_knockout_round_gets_keys_as_results_arrive():
    data = base_file()
    data["jogos"] += [
        {"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 5], [12, 6]]},
        {"stage": "mata", "duplas": ["d3", "d2"], "partidas": [[12, 5], [12, 6]]},
    ]
    t = tournament_import(data=data)
    final = Jogo.objects.get(tournament=t, round=2, third_place=False)
    assert final.key and final.key not in _keys(t)[:4]
    exported = tournament_export(tournament=t)
    assert [j["status"] for j in exported["jogos"]][-1] == "scheduled"
    assert _round_trip(exported) == exported


@pytest.mark.parametrize(
    "key, message",
    [
        ("a/b", "use só letras, números"),
        ("com espaço", "use só letras, números"),
        (7, "deve ser um texto"),
        ("x" * 61, "texto longo demais"),
    ],
)
def test_a_bad_key_is_refused_with_its_place_and_nothing_is_written(key, message):
    data = base_file()
    data["jogos"][1]["key"] = key
    errors = import_errors(data)
    assert len(errors) == 1 and errors[0].startswith("jogos[1].key: ") and message in errors[0], errors
    assert nothing_written()


def test_a_repeated_key_names_the_jogo_that_has_it():
    data = base_file()
    data["jogos"][0]["key"] = data["jogos"][1]["key"] = "mesa-1"
    assert import_errors(data) == ["jogos[1].key: chave 'mesa-1' repetida: já é a de jogos[0]"]
    assert nothing_written()


def test_an_unknown_status_is_refused():
    data = base_file()
    data["jogos"][0]["status"] = "terminado"
    errors = import_errors(data)
    assert len(errors) == 1 and errors[0].startswith("jogos[0].status: situação 'terminado' desconhecida")


def test_referee_is_an_account_that_gets_the_role_and_is_exported_privately_only():
    User = get_user_model()
    juiz = User.objects.create_user("juiz")
    data = base_file()
    data["jogos"][0]["referee"] = "juiz"
    data["jogos"][1]["referee"] = "juiz"
    t = tournament_import(data=data)
    assert set(Jogo.objects.filter(tournament=t, referee=juiz).values_list("group__key", flat=True)) == {"A", "B"}
    assert StaffRole.objects.get(tournament=t, user=juiz).role == StaffRole.REFEREE
    private = tournament_export(tournament=t, include_private=True)
    assert [j.get("referee") for j in private["jogos"][:2]] == ["juiz", "juiz"]
    assert all("referee" not in j for j in tournament_export(tournament=t)["jogos"])
    assert _round_trip(private, include_private=True) == private


def test_an_unknown_referee_is_refused_once_with_the_first_place_naming_it():
    data = base_file()
    data["jogos"][0]["referee"] = data["jogos"][1]["referee"] = "fantasma"
    errors = import_errors(data)
    assert len(errors) == 1 and errors[0].startswith("jogos[0].referee: árbitro 'fantasma' não tem conta")
    assert nothing_written()


def test_the_desk_draw_gives_keys_to_the_group_jogos():
    t = make_tournament(
        "chaves",
        fmt={"kind": "groups_knockout", "group_size": 4, "per_group": 2, "best_others": 0, "bracket_method": "seeded"},
    )
    add_duplas(t, 8)
    draw_services.competition_publish(tournament=t, user=None, seed=5)
    keys = _keys(t)
    assert len(keys) == 12 and len(set(keys)) == 12 and set(keys) == {f"j{n}" for n in range(1, 13)}
    assert not Partida.objects.filter(jogo__tournament=t).exists()


def test_a_jogo_added_in_the_admin_gets_a_fresh_key():
    from django.contrib.admin.sites import site

    t = tournament_import(data=base_file())
    model_admin = site._registry[Jogo]
    template = Jogo.objects.filter(tournament=t).first()
    added = Jogo(
        tournament=t,
        stage=template.stage,
        group=template.group,
        dupla_a=template.dupla_a,
        dupla_b=template.dupla_b,
        best_of=3,
    )
    from tournaments.writes import tournament_write

    with tournament_write(tournament=t, action="admin.jogo"):  # as the admin's views do (GuardedAdmin._written)
        model_admin.save_model(request=None, obj=added, form=None, change=False)
    assert added.key == "j5" and len(set(_keys(t))) == 5


def test_a_referee_name_longer_than_any_username_is_refused_with_the_limit():
    data = base_file()
    data["jogos"][0]["referee"] = "x" * 151
    errors = import_errors(data)
    assert errors == ["jogos[0].referee: texto longo demais: 151 caracteres (máximo 150)"]
