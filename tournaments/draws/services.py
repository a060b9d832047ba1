"""Writes of the draws at the desk, one transaction each, audited, ending with ``tournament_refresh``.

The functions live in one module per subject; import them from here.
"""

from .competition import PlanChanged, competition_publish, competition_roll, competition_undo
from .duplas import dupla_add, dupla_disqualify, dupla_edit, duplas_swap
from .pairing import (
    PairingChanged,
    pairing_confirm,
    pairing_roll,
    pairing_run,
    pairing_undo,
)
from .tables import jogo_referee_set, mesas_save, round_time_set
from .tiebreak import tiebreak_run

__all__ = [
    "PairingChanged",
    "PlanChanged",
    "competition_publish",
    "competition_roll",
    "competition_undo",
    "dupla_add",
    "dupla_disqualify",
    "dupla_edit",
    "duplas_swap",
    "jogo_referee_set",
    "mesas_save",
    "pairing_confirm",
    "pairing_roll",
    "pairing_run",
    "pairing_undo",
    "round_time_set",
    "tiebreak_run",
]
