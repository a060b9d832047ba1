"""The chats and reactions of online play (DOMAIN §9.4; 004 "Chats disponíveis antes do jogo", "Comunicação
em mesa").

Each sala has a chat open to everyone in it; each table a chat of its seated players, before and during the
partida, whose history lives while the table does and is deleted when the partida ends (``table_chat_clear``:
"não são armazenadas pelo sistema após o término da partida"). Reactions are a fixed set of gestures sent to
the table, limited per player per interval; they are never stored.

Every message is text only: control and format characters (bidi overrides, zero-width characters, line
breaks) are taken out, white space is one space, and nothing is ever markup (pages and the table's script
escape it). Limits per profile, across salas and tables: ``TEXT_MAX`` characters, one message per
``POST_GAP``, ``WINDOW_POSTS`` per ``WINDOW``; the same text twice in a row within ``REPEAT_GAP`` is refused.
They are counted from the stored messages under the profile's row lock, so two servers at once cannot both
let a burst through. A muted, suspended or banned profile cannot chat nor react (``conduct.may_chat``).
"""

from __future__ import annotations

import datetime as dt
import math
import threading
from dataclasses import dataclass
from typing import Any

from django.core.cache import caches
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.text import is_blank

from ..models import ChatMessage, OnlineProfile, OnlineTable, Sala, TableSeat
from ..refusals import Refused
from . import conduct
from .people import profile_level, text_clean

chat_text_clean = text_clean  # a message as it is kept and shown (people.text_clean)

__all__ = [
    "HISTORY_MAX",
    "POST_GAP",
    "REACTIONS",
    "REACTION_GAP",
    "REACTION_LABELS",
    "REACTION_SYMBOLS",
    "REPEAT_GAP",
    "SALA_KEEP",
    "TEXT_MAX",
    "WINDOW",
    "WINDOW_POSTS",
    "ChatLine",
    "chat_history",
    "chat_line",
    "chat_post",
    "chat_text_clean",
    "may_read_table_chat",
    "reaction_send",
    "table_chat_clear",
]

TEXT_MAX = 300
POST_GAP = dt.timedelta(seconds=1)
WINDOW, WINDOW_POSTS = dt.timedelta(seconds=30), 10
REPEAT_GAP = dt.timedelta(seconds=10)
REACTION_GAP = dt.timedelta(seconds=3)
SALA_KEEP = dt.timedelta(hours=24)  # a sala's messages older than this are deleted as new ones arrive
HISTORY_MAX = 200

# The reactions (004: "animações predefinidas"), by key; the table shows each with its label and symbol.
REACTIONS: tuple[str, ...] = (
    "joinha",
    "aplauso",
    "risada",
    "pensando",
    "susto",
    "choro",
    "coracao",
    "fogo",
    "cafe",
    "tchau",
    "marreco",
)
REACTION_LABELS = {
    "joinha": gettext_lazy("Joinha"),
    "aplauso": gettext_lazy("Aplausos"),
    "risada": gettext_lazy("Risada"),
    "pensando": gettext_lazy("Pensando"),
    "susto": gettext_lazy("Susto"),
    "choro": gettext_lazy("Choro"),
    "coracao": gettext_lazy("Coração"),
    "fogo": gettext_lazy("Pegando fogo"),
    "cafe": gettext_lazy("Um cafezinho"),
    "tchau": gettext_lazy("Tchau"),
    "marreco": gettext_lazy("Quá-quá"),
}
REACTION_SYMBOLS = {
    "joinha": "👍",
    "aplauso": "👏",
    "risada": "😂",
    "pensando": "🤔",
    "susto": "😱",
    "choro": "😢",
    "coracao": "❤️",
    "fogo": "🔥",
    "cafe": "☕",
    "tchau": "👋",
    "marreco": "🦆",
}


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One message as a chat shows it (pages and the live connection): plain text, to be escaped."""

    id: int
    profile: int
    name: str
    avatar: str
    level: str
    text: str
    at: dt.datetime
    seat: int | None  # at a table: the writer's seat (None once they left it); in a sala: None

    def data(self) -> dict[str, Any]:
        """JSON-ready, as the live connection sends it (``{"type": "chat", "message": line.data()}``)."""
        return {
            "id": self.id,
            "profile": self.profile,
            "name": self.name,
            "avatar": self.avatar,
            "level": self.level,
            "text": self.text,
            "at": self.at.isoformat(),
            "seat": self.seat,
        }


def chat_line(message: ChatMessage, *, seat: int | None = None) -> ChatLine:
    """``message`` as a chat shows it (its profile read from ``message.profile``)."""
    profile = message.profile
    return ChatLine(
        id=message.pk,
        profile=profile.pk,
        name=profile.display_name,
        avatar=profile.avatar,
        level=profile_level(profile),
        text=message.text,
        at=message.at,
        seat=seat,
    )


def _seat_of(*, table: OnlineTable, profile: OnlineProfile) -> int | None:
    return TableSeat.objects.filter(table=table, profile=profile).values_list("seat", flat=True).first()


def may_read_table_chat(*, table: OnlineTable, profile: OnlineProfile | None) -> bool:
    """A table's chat is its seated players' (004: "restrito aos jogadores que já ingressaram na mesa"; "público
    para os quatro participantes da mesa"): spectators do not read it."""
    return profile is not None and _seat_of(table=table, profile=profile) is not None


def _wait_seconds(until: dt.datetime, now: dt.datetime) -> int:
    return max(1, math.ceil((until - now).total_seconds()))


def _place_check(*, profile: OnlineProfile, table: OnlineTable | None) -> int | None:
    """At a table: the seat of ``profile`` (refused when not seated, or when the table is closed)."""
    if table is None:
        return None
    if table.status == OnlineTable.CLOSED:
        raise Refused.conflict(_("Esta mesa já fechou: o chat dela acabou."))
    seat = _seat_of(table=table, profile=profile)
    if seat is None:
        raise Refused.forbidden(_("Só quem está sentado à mesa escreve no chat dela."))
    return seat


def chat_post(
    *, profile: OnlineProfile, text: str, table: OnlineTable | None = None, sala: Sala | None = None, now: dt.datetime
) -> ChatMessage:
    """A message from ``profile`` to a sala's chat or a table's (exactly one of them), stored and returned; the
    caller broadcasts ``chat_line(message, seat=...)``. Refused (``Refused``, in Portuguese, nothing stored):
    an empty or too long text, a profile muted, suspended or banned, a table where it is not seated, too many
    messages too fast (``Refused.LOCKED``), the same message again."""
    if (table is None) == (sala is None):
        raise Refused.bad_request(_("A mensagem vai para o chat de um salão ou de uma mesa."))
    clean = chat_text_clean(text)
    if is_blank(clean):
        raise Refused.invalid(_("Escreva a mensagem antes de enviar."))
    if len(clean) > TEXT_MAX:
        raise Refused.invalid(
            _("A mensagem tem %(n)d caracteres; o máximo é %(max)d.") % {"n": len(clean), "max": TEXT_MAX}
        )
    with transaction.atomic():
        # one profile's messages one at a time, on any server: the counts below are then exact
        list(OnlineProfile.objects.select_for_update().filter(pk=profile.pk).values_list("pk", flat=True))
        refusal = conduct.may_chat(profile, now=now)
        if refusal is not None:
            raise refusal
        _place_check(profile=profile, table=table)
        recent = list(
            ChatMessage.objects.filter(profile=profile, at__gt=now - WINDOW, at__lte=now)
            .order_by("-at", "-id")
            .values_list("at", "text", "sala_id", "table_id")[:WINDOW_POSTS]
        )
        if recent and now - recent[0][0] < POST_GAP:
            raise Refused.locked(_("Calma: espere um segundo entre uma mensagem e outra."))
        if len(recent) >= WINDOW_POSTS:
            wait = _wait_seconds(recent[-1][0] + WINDOW, now)
            raise Refused.locked(_("Muitas mensagens seguidas: espere %(s)d s para escrever de novo.") % {"s": wait})
        place = (sala.pk if sala else None, table.pk if table else None)
        if recent and recent[0][1] == clean and recent[0][2:] == place and now - recent[0][0] < REPEAT_GAP:
            raise Refused.conflict(_("Você acabou de mandar esta mesma mensagem."))
        message = ChatMessage.objects.create(profile=profile, sala=sala, table=table, text=clean, at=now)
        if sala is not None:
            ChatMessage.objects.filter(sala=sala, at__lt=now - SALA_KEEP).delete()
    message.profile = profile
    return message


def chat_history(*, table: OnlineTable | None = None, sala: Sala | None = None, limit: int = 50) -> list[ChatLine]:
    """The last ``limit`` (at most ``HISTORY_MAX``) messages of a table's chat or a sala's, oldest first, without
    those staff hid. A table's: only for its seated players (``may_read_table_chat``)."""
    if (table is None) == (sala is None):
        raise Refused.bad_request(_("O chat é de um salão ou de uma mesa."))
    limit = max(0, min(int(limit), HISTORY_MAX))
    rows = (
        ChatMessage.objects.filter(hidden=False, **({"table": table} if table is not None else {"sala": sala}))
        .select_related("profile")
        .order_by("-at", "-id")[:limit]
    )
    seats: dict[int, int] = {}
    if table is not None:
        seats = dict(TableSeat.objects.filter(table=table, profile__isnull=False).values_list("profile_id", "seat"))
    return [chat_line(m, seat=seats.get(m.profile_id)) for m in reversed(list(rows))]


def table_chat_clear(*, table: OnlineTable) -> int:
    """Delete a table's chat (its partida ended: 004, "não são armazenadas após o término da partida"); reports
    keep their copy of the text they name. Returns how many messages were deleted."""
    deleted, _by_model = ChatMessage.objects.filter(table=table).delete()
    return deleted


# --- reactions -----------------------------------------------------------------------------------------------

_local_lock = threading.Lock()
_local_last: dict[str, float] = {}  # when the shared cache does not answer: this process's own count


def _reaction_take(*, key: str, now: dt.datetime) -> float | None:
    """Take ``key``'s turn to react at ``now``: None when taken, else the seconds left to wait. Kept in the
    shared cache (Redis in production: every server sees it), in this process's memory when it does not
    answer."""
    stamp, gap = now.timestamp(), REACTION_GAP.total_seconds()
    timeout = math.ceil(gap) + 1
    try:
        cache = caches["default"]
        if cache.add(key, stamp, timeout):
            return None
        last = cache.get(key)
        if isinstance(last, (int, float)) and 0 <= stamp - last < gap:
            return gap - (stamp - last)
        cache.set(key, stamp, timeout)
        return None
    except Exception:  # the cache is down: count in this process
        with _local_lock:
            last = _local_last.get(key)
            if last is not None and 0 <= stamp - last < gap:
                return gap - (stamp - last)
            if len(_local_last) > 10_000:
                _local_last.clear()
            _local_last[key] = stamp
        return None


def reaction_send(*, profile: OnlineProfile, table: OnlineTable, name: str, now: dt.datetime) -> dict[str, Any]:
    """A reaction of ``REACTIONS`` from a seated player to its table, at most one per ``REACTION_GAP``: the
    message to broadcast (``{"name", "label", "symbol", "seat", "profile", "at"}``; never stored). Refused like
    a chat message: an unknown name, a profile muted, suspended or banned, a table where it is not seated, too
    soon after its last one (``Refused.LOCKED``)."""
    if not isinstance(name, str) or name not in REACTIONS:
        raise Refused.invalid(_("Essa reação não existe. Escolha uma da lista."))
    refusal = conduct.may_chat(profile, now=now)
    if refusal is not None:
        raise refusal
    seat = _place_check(profile=profile, table=table)
    created = profile.created_at.timestamp() if profile.created_at else 0  # (a reused id is another profile)
    wait = _reaction_take(key=f"online:reaction:{profile.pk}:{created:.0f}", now=now)
    if wait is not None:
        raise Refused.locked(
            _("Uma reação de cada vez: espere %(s)d s para mandar outra.") % {"s": max(1, math.ceil(wait))}
        )
    return {
        "name": name,
        "label": str(REACTION_LABELS[name]),
        "symbol": REACTION_SYMBOLS[name],
        "seat": seat,
        "profile": profile.pk,
        "at": now.isoformat(),
    }
