"""The plan a tournament file is read into: checked values, ready for the writer (services)."""

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from scoring.jogo import JogoEntry, JogoResult
from scoring.rules import RuleSettings
from scoring.tournament import DuplaInfo, StageSpec


@dataclass
class PlayerPlan:
    key: str
    name: str
    birth_date: dt.date | None = None
    email: str = ""
    phone: str = ""
    team: str = ""  # their equipe or club (public)


@dataclass
class RegistrationPlan:
    players: tuple[str, ...]
    waiting: bool  # still on the waiting list (not in a dupla)
    present: bool | None = None  # the check-in: None not checked yet


@dataclass
class SetupPlan:
    """What the desk set up besides the rules (``setup_reader``); the defaults are what an import always made."""

    mesas: int | None = None
    competition_format: dict[str, Any] = field(default_factory=dict)
    registration_closed: bool = True
    public_signup: bool = False
    registration_opens: dt.datetime | None = None
    registration_closes: dt.datetime | None = None
    allow_self_scoring: bool = False


@dataclass
class PairingDrawPlan:
    """A pairing draw the event has already made (the file's ``pairing_draws``): recorded again, not drawn."""

    seed: int | None
    result: dict[str, Any]  # as ``Draw.result`` holds it: duplas, waiting_list, registrations, dupla_keys…


@dataclass
class JogoPlan:
    stage: str
    group: str | None
    duplas: tuple[str, str]
    entry: JogoEntry | None  # None: scheduled, no result yet
    result: JogoResult | None
    round: int | None = None
    position: int | None = None
    third_place: bool = False
    mesa: int | None = None
    entry_order: int | None = None  # place in the file (results are replayed in this order)
    key: str | None = None  # as the file gives it; None: the import makes one
    referee: str | None = None  # username
    sumula: Any = None  # sumula_reader.SumulaPlan: status, confirmations, via, history, the result that counts
    online: bool = False  # a mesa online ("online": true or {"table": ID}, docs/contrato.md "Online play")


@dataclass
class TournamentPlan:
    name: str
    slug: str
    date: dt.date | None
    start_time: dt.time | None
    venue: str
    category: str
    min_age: int | None
    max_duplas: int | None
    preset: str
    overrides: dict
    settings: RuleSettings
    regulation: str = ""
    city: str = ""
    round_times: dict[str, dict[str, str]] = field(default_factory=dict)  # stage key -> {"1": "14:00"}
    setup: SetupPlan = field(default_factory=SetupPlan)  # mesas, competition format, registration window
    online: Any = "none"  # settings.online: "none", "all" or stage keys (checked against the stages)
    wo_tolerance_minutes: int = 15  # settings.wo_tolerance_minutes
    players: list[PlayerPlan] = field(default_factory=list)
    registrations: list[RegistrationPlan] = field(default_factory=list)
    pairing_seed: int | None = None
    pairing_result: dict | None = None
    pairing_draws: list[PairingDrawPlan] = field(default_factory=list)  # made before: recorded again
    duplas: list[DuplaInfo] = field(default_factory=list)
    stages: list[StageSpec] = field(default_factory=list)
    stage_orders: dict[str, list[str | None]] = field(default_factory=dict)  # knockout draws made
    jogos: list[JogoPlan] = field(default_factory=list)
