"""Every bound a tournament file is checked against, in one place.

Two kinds: sizes that a real event never reaches (so a hostile or broken file
is refused at once, before any heavy work), and what each model column can
store (so a value is refused by the reader with the same message on SQLite and
on PostgreSQL, instead of failing in the database). README.md, "Limites do
arquivo de torneio", lists the sizes.
"""

from functools import cache
from typing import Any, cast

from django import forms
from django.core.exceptions import FieldDoesNotExist
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

# --- the file -------------------------------------------------------------------------
FILE_MAX_BYTES = 16 * 1024 * 1024  # a 1,024-dupla file with every mão is about 0.5 MB
JSON_MAX_DEPTH = 64  # a real file nests 9 levels (history > partidas > maos); json.loads recurses near 1,000
JSON_MAX_PROBLEMS = 200  # lines listed for problems found walking the whole file (the rest are counted)

# --- sizes of an event (INTERCHANGE field names) ----------------------------------------
MAX_PLAYERS = 8_192  # players[]
MAX_REGISTRATIONS = 8_192  # registrations[]
MAX_PAIRING_DRAWS = 64  # pairing_draws[] (an event makes one, a few with undone ones)
MAX_DUPLAS = 4_096  # duplas[] plus the duplas formed by the pairing draw; also tournament.max_duplas (file and desk)
MAX_STAGES = 8  # stages[]
MAX_GROUP_DUPLAS = 16  # stages[].groups[].duplas[]
MAX_KNOCKOUT_ROUNDS = (MAX_DUPLAS - 1).bit_length()  # 12: best_of_rounds keys
MAX_BEST_OF = 15  # stages[].best_of, best_of_rounds values, settings.best_of_*
# jogos[], and every jogo an event's stages schedule (round robins + brackets), from a file or the desk's format:
# 4,096 duplas in groups of 6 and their knockout make about 13,000; 256 groups of 16 (30,720) are refused
MAX_JOGOS = 20_000
MAX_MAOS_PER_PARTIDA = 64  # at most 23 mãos score (11 + 11 + 1); the rest room for tied mãos
MAX_MAOS = 400_000  # every mão of the file
MAX_MESAS = 200  # tournament.mesas (the desk's too)
MAX_CLASS_POINTS = 100  # settings.class_points values (the presets use 0 to 3)
REGULATION_MAX_CHARS = 20_000  # tournament.regulation (a text column: no length of its own)

# --- the circuit file (INTERCHANGE.md "Circuits, atletas and rankings") ----------------------------------
CIRCUIT_FILE_MAX_BYTES = 1024 * 1024  # a circuit file names etapas, not results: a megabyte is plenty
CIRCUIT_MAX_ETAPAS = 200  # etapas[] (a season has tens)

# Integer columns: the bounds Django documents for each field type, the same on every database
# (connection.ops may widen them on one backend; a file must get the same answer everywhere).
_INTEGER_RANGES = BaseDatabaseOperations.integer_field_ranges


@cache
def column_max_length(*, model: type[models.Model], field: str) -> int:
    """How many characters the text column ``model.field`` stores."""
    column = model._meta.get_field(field)
    assert isinstance(column, models.Field)  # a column of the model, not a relation's other side
    max_length = column.max_length
    if max_length is None:
        raise ValueError(f"{model.__name__}.{field} has no max_length")
    return max_length


@cache
def column_int_range(*, model: type[models.Model], field: str) -> tuple[int, int]:
    """The smallest and largest integer the column ``model.field`` stores."""
    return _INTEGER_RANGES[model._meta.get_field(field).get_internal_type()]


# --- form fields: every number a form reads is bounded by the column that stores it -----------------------------
# (a value beyond a PostgreSQL smallint answered 500 there while SQLite stored it; the same range everywhere, as for
# the tournament file). tests/site/test_form_bounds.py walks every form of the site and checks each number's field.


def column_bounded(field: forms.IntegerField, column: models.Field) -> forms.IntegerField:
    """``field`` refusing what ``column`` cannot hold: its bounds narrowed to the column's range (its own, when
    narrower, stay), with the form's usual messages and the widget's ``min``/``max``. ``field.column`` names it."""
    low, high = _INTEGER_RANGES[column.get_internal_type()]
    own_min, own_max = (v() if callable(v) else v for v in (field.min_value, field.max_value))
    field.min_value = low if own_min is None else max(low, own_min)
    field.max_value = high if own_max is None else min(high, own_max)
    field.validators = [v for v in field.validators if not isinstance(v, MinValueValidator | MaxValueValidator)] + [
        MinValueValidator(field.min_value),
        MaxValueValidator(field.max_value),
    ]
    field.widget.attrs.update(field.widget_attrs(field.widget))
    cast(Any, field).column = column
    return field


def column_integer(model: type[models.Model], name: str, **kwargs: Any) -> forms.IntegerField:
    """A form's whole number that ``model.name`` stores (or is compared with): ``forms.IntegerField(**kwargs)``
    bounded by that column (``column_bounded``)."""
    column = model._meta.get_field(name)
    assert isinstance(column, models.Field)
    return column_bounded(forms.IntegerField(**kwargs), column)


def unstored_integer(*, min_value: int, max_value: int, **kwargs: Any) -> forms.IntegerField:
    """A form's whole number that no column stores (a duration turned into a date, say): bounded by its own
    ``min_value``/``max_value``, both required, which ``field.bounds_own`` says (the forms' walk checks them)."""
    field = forms.IntegerField(min_value=min_value, max_value=max_value, **kwargs)
    cast(Any, field).bounds_own = True
    return field


class ColumnBoundsForm(forms.ModelForm):
    """A model form whose whole numbers are bounded by their columns (``column_bounded``), the same on every
    database (Django's own bounds follow the database: none on SQLite)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if not isinstance(field, forms.IntegerField):
                continue
            try:
                column = self._meta.model._meta.get_field(name)
            except FieldDoesNotExist:
                continue  # a field of the form's own
            if isinstance(column, models.Field) and column.get_internal_type() in _INTEGER_RANGES:
                column_bounded(field, column)
