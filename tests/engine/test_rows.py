"""The typed read models (``tournaments/rows.py``): they and the models agree, column for column."""

import dataclasses
import pickle

import pytest
from django.utils import timezone

from tests.support.sumula import cup_setup, jogo_between
from tournaments.models import Jogo, Mao, Partida
from tournaments.rows import (
    JOGO_FIELDS,
    MAO_VALUES,
    PARTIDA_FIELDS,
    JogoRow,
    PartidaRow,
    jogo_rows_read,
    jogos_reread,
    partida_rows_read,
)
from tournaments.selectors import tournament_live_get, tournament_state_get
from tournaments.state import tournament_state_load
from tournaments.sumula.commands import ResultSet
from tournaments.sumula.services import Actor, sumula_answer, sumula_result_set
from tournaments.synthetic import synthetic_tournament


def _attnames(model) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields]


@pytest.mark.parametrize(("row", "model"), [(JogoRow, Jogo), (PartidaRow, Partida)])
def test_a_row_has_one_field_per_column_of_its_model_in_its_order(row, model):
    assert [f.name for f in dataclasses.fields(row)] == _attnames(model)
    assert "__slots__" in vars(row) and row.__dataclass_params__.frozen


def _as_model_has_it(state) -> None:
    """Every row of ``state`` is a row of its type with the values the database has."""
    jogos = {j.pk: j for j in Jogo.objects.filter(tournament=state.tournament)}
    assert {j.id for j in state.jogo_rows} == set(jogos)
    for row in state.jogo_rows:
        assert type(row) is JogoRow
        assert dataclasses.astuple(row) == tuple(getattr(jogos[row.id], name) for name in JOGO_FIELDS)
    partidas = {p.pk: p for p in Partida.objects.filter(jogo__tournament=state.tournament)}
    rows = [p for ps in state.partidas.values() for p in ps]
    assert sorted(p.id for p in rows) == sorted(partidas)
    for jogo_id, ps in state.partidas.items():
        assert [p.number for p in ps] == sorted(p.number for p in ps)
        for row in ps:
            assert type(row) is PartidaRow and row.jogo_id == jogo_id
            assert dataclasses.astuple(row) == tuple(getattr(partidas[row.id], name) for name in PARTIDA_FIELDS)


@pytest.mark.django_db
def test_the_state_of_a_tournament_holds_rows_with_the_models_values(load_file):
    tournament = load_file(synthetic_tournament(duplas=12, seed=3, maos_every=3))
    state = tournament_state_load(tournament=tournament)
    assert len(state.jogo_rows) == Jogo.objects.filter(tournament=tournament).count() > 0
    assert sum(len(ps) for ps in state.partidas.values()) == Partida.objects.filter(jogo__tournament=tournament).count()
    _as_model_has_it(state)
    # pickled (snapshots.py, caching.py) and back: the same rows
    again = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert again.jogo_rows == state.jogo_rows and again.partidas == state.partidas
    assert all(type(j) is JogoRow for j in again.jogo_rows)


@pytest.mark.django_db
def test_the_engine_and_the_live_merge_replace_rows_with_rows(load_file):
    cup = cup_setup(load_file)
    tournament_state_get(tournament=cup)
    key = jogo_between(cup, "d1", "d2")
    sumula_result_set(
        tournament=cup,
        key=key,
        data=ResultSet.from_json({"partidas": [[12, 0], [12, 0]]}),
        actor=Actor(method="command"),
    )
    _as_model_has_it(tournament_live_get(tournament=cup))  # the live merge: the jogo awaits its confirmations
    jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=cup, key=key)
    for dupla in (jogo.dupla_a, jogo.dupla_b):
        sumula_answer(
            tournament=cup,
            key=key,
            dupla=dupla,
            via=jogo.via,
            accept=True,
            reason=None,
            actor=Actor(dupla=dupla, method="pin"),
        )
    cup.refresh_from_db()
    state = tournament_state_get(tournament=cup)  # advanced by the engine, not built again
    _as_model_has_it(state)
    assert next(j for j in state.jogo_rows if j.key == key).status == Jogo.CONFIRMED


@pytest.mark.django_db
def test_a_counted_result_rereads_its_jogos_as_the_orm_reads_them(load_file):
    """``rows.jogos_reread`` (plain statements): the same rows, partidas and mãos, of the same types (booleans,
    aware datetimes, JSON as Python values on either database) as ``values_list`` and ``values`` read them."""
    tournament = load_file(synthetic_tournament(duplas=12, seed=5, maos_every=2))
    jogos = list(Jogo.objects.filter(tournament=tournament).order_by("id"))
    Jogo.objects.filter(pk=jogos[0].pk).update(third_place=True, signed_at=timezone.now(), signed_reason="x")
    ids = [j.pk for j in jogos[:6]] + [jogos[-1].pk]
    rows, partidas, maos = jogos_reread(tournament_id=tournament.pk, ids=ids)
    expected = jogo_rows_read(Jogo.objects.filter(id__in=ids).order_by("id"))
    assert rows == expected and len(rows) == len(ids)
    for got, want in zip(rows, expected, strict=True):
        assert [type(v) for v in dataclasses.astuple(got)] == [type(v) for v in dataclasses.astuple(want)]
    assert type(rows[0].third_place) is bool and rows[0].signed_at.tzinfo is not None
    assert isinstance(rows[0].confirmations, dict | type(None))
    assert partidas == partida_rows_read(Partida.objects.filter(jogo_id__in=ids).order_by("jogo_id", "number"))
    by_maos = Mao.objects.filter(partida__jogo_id__in=ids).order_by("partida_id", "order")
    assert maos == list(by_maos.values(*MAO_VALUES)) and maos  # seeded with mãos: some are read
    other = load_file({**synthetic_tournament(duplas=4, seed=1), "slug": "outro-torneio"})
    assert jogos_reread(tournament_id=other.pk, ids=ids)[0] == []  # another tournament's jogos are not read
    assert jogos_reread(tournament_id=tournament.pk, ids=[]) == ([], [], [])


# --- a counted result puts its jogos' rows back in place (engine._rows_replaced) ---------------------------


def _row(id: int, *, stage: int = 1, round: int | None = 1, mesa: int | None = None, status: str = "scheduled"):
    from dataclasses import fields

    from tournaments.rows import JogoRow

    values = {f.name: None for f in fields(JogoRow)}
    values |= {"id": id, "tournament_id": 1, "key": f"j{id}", "stage_id": stage, "round": round, "mesa": mesa}
    values |= {"third_place": False, "best_of": 3, "status": status, "via": 1, "via_reason": "", "confirmations": {}}
    values |= {"signed_reason": "", "version": 1, "walkover": "", "lost_by": "", "penalty_reason": "", "dupla_a_id": 1}
    return JogoRow(**values | {"dupla_b_id": 2, "group_id": None})


def test_the_rows_of_a_write_replace_theirs_in_place_and_new_ones_come_in_order():
    from dataclasses import replace

    from tournaments.engine import _rows_replaced
    from tournaments.state import jogo_order

    stages = {1: 0, 2: 1}
    rows = sorted([_row(i, round=1 + i % 3, mesa=i) for i in range(1, 40)], key=lambda j: jogo_order(j, stages))
    done = replace(rows[17], status="confirmed")
    assert _rows_replaced(rows, [done], stages) == rows[:17] + [done] + rows[18:]
    # a jogo whose mesa moved stays where it was, as before (its place is found by walking the rows)
    moved = replace(rows[5], mesa=99, status="in_progress")
    assert _rows_replaced(rows, [moved, done], stages) == rows[:5] + [moved] + rows[6:17] + [done] + rows[18:]
    # the next knockout jogos, new to the state: after every group jogo, in their order
    final, semi = _row(90, stage=2, round=2), _row(91, stage=2, round=1)
    assert _rows_replaced(rows, [final, done, semi], stages) == rows[:17] + [done] + rows[18:] + [semi, final]
    assert rows == sorted(rows, key=lambda j: jogo_order(j, stages))  # the state's own list is left alone
