"""What the pages and the desk read of the calls. The public pages and the dupla's page get jogos and times
only; the players' phones and addresses are read for the organizers' calls page alone (``calls_desk``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db.models import Max, Q

from ..models import Call, Dupla, Jogo, Player, Stage, Tournament
from ..roles import display_name
from .phones import phone_is_mobile, phone_normalize


def calls_on_pages(*, tournament: Tournament) -> dict[int, dt.datetime]:
    """The jogos still to play that were called, each with the time of its latest call (the pages show "Sua
    vez" for them until they begin; the page checks the jogo's status as it stands)."""
    rows = (
        Call.objects.filter(tournament=tournament, channel=Call.PAGES, jogo__status=Jogo.SCHEDULED)
        .values("jogo_id")
        .annotate(last=Max("at"))
        .order_by()
    )
    return {row["jogo_id"]: row["last"] for row in rows}


@dataclass(frozen=True)
class DuplaCall:
    """The jogo a dupla is called to (its private page: "Sua vez! Mesa N contra …")."""

    jogo_id: int
    jogo_key: str
    mesa: int | None
    opponent: str
    at: dt.datetime


def dupla_called(*, dupla: Dupla) -> DuplaCall | None:
    """The latest called jogo of ``dupla`` still to play, if any."""
    call = (
        Call.objects.filter(channel=Call.PAGES, jogo__status=Jogo.SCHEDULED)
        .filter(Q(jogo__dupla_a=dupla) | Q(jogo__dupla_b=dupla))
        .select_related(
            "jogo__dupla_a__player1", "jogo__dupla_a__player2", "jogo__dupla_b__player1", "jogo__dupla_b__player2"
        )
        .order_by("-at", "-id")
        .first()
    )
    if call is None:
        return None
    jogo = call.jogo
    opponent = jogo.dupla_b if jogo.dupla_a_id == dupla.pk else jogo.dupla_a
    return DuplaCall(jogo_id=jogo.pk, jogo_key=jogo.key, mesa=jogo.mesa, opponent=opponent.display_name, at=call.at)


# --- the organizers' calls page --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerContact:
    """A player as the calls page offers it: the WhatsApp digits (None: no usable phone, ``problem`` says why)
    and whether an e-mail goes to them. Organizers only."""

    id: int
    name: str
    phone: str  # as typed
    whatsapp: str | None  # a mobile's digits (the WhatsApp button)
    problem: str  # "" | "none" (no phone) | "invalid" | "landline" (a fixed phone: no WhatsApp, a tel: link)
    dial: str | None  # a landline's digits, for its tel: link
    email: bool


@dataclass(frozen=True)
class CallRecord:
    channel: str
    channel_label: str
    at: dt.datetime
    by: str
    dupla_id: int | None
    player: str
    status: str
    status_label: str
    error: str


@dataclass
class DeskJogo:
    id: int
    key: str
    label: str  # the jogo as people know it ("Quartas de final · jogo 2"): a page never shows its key
    mesa: int | None
    status: str
    status_label: str
    duplas: list[tuple[Dupla, list[PlayerContact]]]
    calls: list[CallRecord] = field(default_factory=list)

    @property
    def called(self) -> bool:
        return any(c.channel == Call.PAGES for c in self.calls)


@dataclass
class DeskRound:
    stage: Stage
    round: int | None
    jogos: list[DeskJogo]

    @property
    def to_call(self) -> int:
        return sum(1 for j in self.jogos if j.status == Jogo.SCHEDULED and j.mesa is not None and not j.called)


def _contact(player: Player) -> PlayerContact:
    digits = phone_normalize(player.phone)
    mobile = digits is not None and phone_is_mobile(digits)
    if digits is None:
        problem = "invalid" if player.phone.strip() else "none"
    else:
        problem = "" if mobile else "landline"
    return PlayerContact(
        id=player.pk,
        name=player.name,
        phone=player.phone,
        whatsapp=digits if mobile else None,
        problem=problem,
        dial=None if mobile else digits,
        email=bool(player.email),
    )


def _who(user: User | None) -> str:
    return display_name(user)


def calls_desk(*, tournament: Tournament, label: Callable[[Jogo], str]) -> list[DeskRound]:
    """The rounds that still have jogos to play (in the stages' and rounds' order), each jogo with its mesa, its
    name (``label``: the page's way of naming a jogo), its duplas and their players' contacts, and every call made
    of it. Private: for the organizers' page."""
    open_rounds = set(
        Jogo.objects.filter(tournament=tournament, status=Jogo.SCHEDULED).values_list("stage_id", "round").distinct()
    )
    if not open_rounds:
        return []
    jogos = list(
        Jogo.objects.filter(tournament=tournament)
        .filter(Q(status=Jogo.SCHEDULED) | Q(calls__isnull=False))
        .select_related("stage", "dupla_a__player1", "dupla_a__player2", "dupla_b__player1", "dupla_b__player2")
        .distinct()
        .order_by("stage__order", "round", "third_place", "position", "id")
    )
    jogos = [j for j in jogos if (j.stage_id, j.round) in open_rounds]
    calls: dict[int, list[CallRecord]] = {}
    for c in Call.objects.filter(jogo__in=jogos).select_related("by", "player").order_by("at", "id"):
        calls.setdefault(c.jogo_id, []).append(
            CallRecord(
                channel=c.channel,
                channel_label=str(c.get_channel_display()),
                at=c.at,
                by=_who(c.by),
                dupla_id=c.dupla_id,
                player=c.player.name if c.player else "",
                status=c.status,
                status_label=str(c.get_status_display()) if c.status else "",
                error=c.error,
            )
        )
    rounds: dict[tuple[int, int | None], DeskRound] = {}
    for j in jogos:
        block = rounds.setdefault((j.stage_id, j.round), DeskRound(stage=j.stage, round=j.round, jogos=[]))
        block.jogos.append(
            DeskJogo(
                id=j.pk,
                key=j.key,
                label=label(j),
                mesa=j.mesa,
                status=j.status,
                status_label=str(j.get_status_display()),
                duplas=[(d, [_contact(d.player1), _contact(d.player2)]) for d in (j.dupla_a, j.dupla_b)],
                calls=calls.get(j.pk, []),
            )
        )
    return list(rounds.values())


def calls_by_jogo(*, tournament: Tournament) -> dict[int, list[tuple[str, dt.datetime]]]:
    """Each called jogo's calls as (channel, time), for the programação's rows (no contacts)."""
    out: dict[int, list[tuple[str, dt.datetime]]] = {}
    for jogo_id, channel, at in (
        Call.objects.filter(tournament=tournament).order_by("at", "id").values_list("jogo_id", "channel", "at")
    ):
        out.setdefault(jogo_id, []).append((channel, at))
    return out
