"""Every bound a tournament file is checked against, in one place.

Two kinds: sizes that a real event never reaches (so a hostile or broken file
is refused at once, before any heavy work), and what each model column can
store (so a value is refused by the reader with the same message on SQLite and
on PostgreSQL, instead of failing in the database). README.md, "Limites do
arquivo de torneio", lists the sizes.
"""

from functools import cache

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

# --- the file -------------------------------------------------------------------------
FILE_MAX_BYTES = 16 * 1024 * 1024  # a 1,024-dupla file with every mão is about 0.5 MB
JSON_MAX_DEPTH = 64  # a real file nests 9 levels (history > partidas > maos); json.loads recurses near 1,000
JSON_MAX_PROBLEMS = 200  # lines listed for problems found walking the whole file (the rest are counted)

# --- sizes of an event (INTERCHANGE field names) ----------------------------------------
MAX_PLAYERS = 8_192  # players[]
MAX_REGISTRATIONS = 8_192  # registrations[]
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
MAX_CLASS_POINTS = 100  # settings.class_points values (the presets use 0 to 3)
REGULATION_MAX_CHARS = 20_000  # tournament.regulation (a text column: no length of its own)

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
