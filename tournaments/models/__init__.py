"""Zap's data: a tournament, its people, duplas, stages, jogos and súmulas, a module each by what it holds.

Results are stored once, as mãos or as final scores; standings, brackets and
the classification are derived by ``scoring`` (see ``selectors.py``).
"""

from . import lookups  # noqa: F401 (registers the columns' lookups)
from .atletas import Atleta, AtletaAlias, AtletaAudit, AtletaJogos, AtletaNivel
from .calls import Call
from .circuits import (
    Circuit,
    CircuitAtleta,
    CircuitAudit,
    CircuitEquipe,
    CircuitEtapa,
    CircuitExclusion,
    CircuitSnapshot,
    CircuitSorteio,
    EtapaPlace,
)
from .engine import AuditEntry, ResultPart, StateSnapshot, TournamentChange
from .event import PRESET_CHOICES, Tournament
from .online import (
    ChatMessage,
    ClientAction,
    ClockBeat,
    ConductReport,
    OnlineProfile,
    OnlineTable,
    PartidaLog,
    Sala,
    Sanction,
    TableEvent,
    TableSeat,
)
from .people import Dupla, Player, Registration, ReplacedLink, new_pin, new_private_token
from .ranking import AccountAtleta, OnlineRating, OnlineRatingPoint
from .results import Appeal, Jogo, Mao, Partida, PinFailure, SumulaEvent, SumulaVia
from .staff import StaffInvitation, StaffRole
from .stages import Draw, DrawRoll, Group, GroupEntry, Mesa, Stage

__all__ = [
    "PRESET_CHOICES",
    "AccountAtleta",
    "Appeal",
    "Atleta",
    "AtletaAlias",
    "AtletaAudit",
    "AtletaJogos",
    "AtletaNivel",
    "AuditEntry",
    "Call",
    "ChatMessage",
    "Circuit",
    "CircuitAtleta",
    "CircuitAudit",
    "CircuitEquipe",
    "CircuitEtapa",
    "CircuitExclusion",
    "CircuitSnapshot",
    "CircuitSorteio",
    "ClientAction",
    "ClockBeat",
    "ConductReport",
    "Draw",
    "DrawRoll",
    "Dupla",
    "EtapaPlace",
    "Group",
    "GroupEntry",
    "Jogo",
    "Mao",
    "Mesa",
    "OnlineProfile",
    "OnlineRating",
    "OnlineRatingPoint",
    "OnlineTable",
    "Partida",
    "PartidaLog",
    "PinFailure",
    "Player",
    "Registration",
    "ReplacedLink",
    "ResultPart",
    "Sala",
    "Sanction",
    "StaffInvitation",
    "StaffRole",
    "Stage",
    "StateSnapshot",
    "SumulaEvent",
    "SumulaVia",
    "TableEvent",
    "TableSeat",
    "Tournament",
    "TournamentChange",
    "new_pin",
    "new_private_token",
]
