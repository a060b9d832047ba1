"""``sumula.sheet.sheet_json``: the súmula as the API writes it, each dataclass's fields listed once per class;
the same JSON values as walking every value with ``dataclasses.fields``."""

from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from tournaments.models import Jogo
from tournaments.sumula.selectors import sumula_get
from tournaments.sumula.sheet import OMIT_NONE, sheet_json
from tournaments.synthetic import synthetic_tournament


def _walked(value: Any) -> Any:
    """Every value walked with ``dataclasses.fields`` (the reference the plan per class must agree with)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: _walked(getattr(value, f.name))
            for f in fields(value)
            if not (getattr(value, f.name) is None and f.metadata.get("omit_none"))
        }
    if isinstance(value, (list, tuple)):
        return [_walked(v) for v in value]
    if isinstance(value, dict):
        return {k: _walked(v) for k, v in value.items()}
    return value


@pytest.mark.django_db
def test_every_sumula_of_an_event_writes_as_walking_its_values(load_file):
    tournament = load_file(synthetic_tournament(duplas=12, seed=7, maos_every=2))
    jogos = list(Jogo.objects.filter(tournament=tournament).select_related("dupla_a", "dupla_b", "stage", "group"))
    written = [sheet_json(sumula_get(tournament=tournament, jogo=j)) for j in jogos]
    assert written == [_walked(sumula_get(tournament=tournament, jogo=j)) for j in jogos]
    assert any(w["partidas"] and w["partidas"][0]["maos"] for w in written)  # mãos among them
    assert all(isinstance(w["duplas"], list) for w in written)  # tuples as lists


def test_omit_none_fields_are_left_out_and_others_written_as_null():
    from dataclasses import dataclass, field

    @dataclass(frozen=True)
    class Part:
        kept: int | None
        dropped: str | None = field(default=None, metadata=OMIT_NONE)
        pair: tuple[int, int] = (1, 2)

    assert sheet_json(Part(kept=None)) == {"kept": None, "pair": [1, 2]}
    assert sheet_json([Part(kept=3, dropped="x")]) == [{"kept": 3, "dropped": "x", "pair": [1, 2]}]
    assert sheet_json({"a": Part(kept=1)}) == {"a": {"kept": 1, "pair": [1, 2]}}
