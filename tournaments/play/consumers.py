"""The live connection (INTERCHANGE.md "Live connection"): ``/ws/mesas/<id>/`` for a table, ``/ws/salas/<slug>/``
for a sala's list and chat.

A table's connection knows who it is from the session cookie (``identity``; the origin is checked before, in
config/asgi.py) and which seat that profile holds (None: a spectator). On connect it sends ``{"type": "state",
"seq": N, "state": {…}}`` and ``{"type": "seats", …}``; then, whenever the table changes (``broadcast``), the
events it has not sent, each ``{"type": "event", "seq", "event", "state"}`` as its own seat may see them
(``truco.views``, through the selectors): the events of one change come with the state after that change.
A client's ``hello`` with its ``seq`` gets the events after it, or a new state when too many were missed.
Actions (``play``, ``bet``, ``answer``, ``onze``, ``vote``) go to ``services.table_act``; a refusal comes back
as ``{"type": "refused", "id", "reason"}`` and changes nothing. ``chat`` and ``reaction`` go to the chat's
services and reach the table's seats as ``{"type": "chat", "message"}`` / ``{"type": "reaction", …}``.

Limits: a message of at most 2 KB, at most 10 a second; a message too large, malformed or too frequent is
answered with ``{"type": "error", "reason"}`` (or ``refused``), and after 20 of them in a minute the connection
is closed (code 4008). Nothing a client sends ends in a crash.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from datetime import datetime
from typing import Any, Final

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import OnlineProfile, OnlineTable
from ..online import broadcast, chat, selectors, services
from ..refusals import Refused
from . import clockloop
from .dbcall import db
from .identity import profile_from_session

logger = logging.getLogger(__name__)

MESSAGE_MAX: Final = 2048  # bytes
PER_SECOND: Final = 10
ABUSE_MAX: Final = 20  # malformed, too large or too frequent messages in ABUSE_WINDOW: the connection closes
ABUSE_WINDOW: Final = 60.0
CLOSE_ABUSE: Final = 4008
CLOSE_NOT_FOUND: Final = 4004
ACTIONS: Final = frozenset({"play", "bet", "answer", "onze", "vote"})

# Connections of one profile to one table in this process: present while at least one is open.
_open: dict[tuple[int, int], int] = {}


class _Limited(AsyncWebsocketConsumer):
    """Size, rate and abuse limits for every live connection."""

    def _limits_start(self) -> None:
        self._recent: deque[float] = deque()
        self._abuse: deque[float] = deque()

    async def _send(self, frame: dict[str, Any]) -> None:
        await self.send(text_data=_json(frame))

    async def _abused(self, reason: str, *, client_id: Any = None, refused: bool = False) -> None:
        now = time.monotonic()
        self._abuse.append(now)
        while self._abuse and now - self._abuse[0] > ABUSE_WINDOW:
            self._abuse.popleft()
        if refused:
            await self._send({"type": "refused", "id": _id(client_id), "reason": reason})
        else:
            await self._send({"type": "error", "reason": reason})
        if len(self._abuse) >= ABUSE_MAX:
            await self.close(code=CLOSE_ABUSE)

    profile: OnlineProfile | None

    def _chat_post(self, text: str) -> dict[str, Any]:
        raise NotImplementedError

    async def _chat_relay(self, message: dict[str, Any], *, nameless: str, group: str, kind: str) -> None:
        """A chat line written through the chat's services (its limits, its refusals in Portuguese), then sent to
        ``group`` as ``kind``; ``nameless`` is the refusal for a connection with no profile."""
        text = message.get("text")
        if self.profile is None or not isinstance(text, str):
            await self._send({"type": "refused", "id": _id(message.get("id")), "reason": nameless})
            return
        try:
            line = await db(self._chat_post)(text)
        except Refused as refused:
            await self._send({"type": "refused", "id": _id(message.get("id")), "reason": " ".join(refused.messages)})
            return
        await self.channel_layer.group_send(group, {"type": kind, "message": line})

    async def _message(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any] | None:
        """The client's message as a JSON object, or None once it was answered as abuse."""
        if text_data is None:
            await self._abused(_("Mande mensagens de texto (JSON)."))
            return None
        if len(text_data) > MESSAGE_MAX or len(text_data.encode()) > MESSAGE_MAX:
            await self._abused(_("Mensagem grande demais (máximo de 2 KB)."))
            return None
        now = time.monotonic()
        self._recent.append(now)
        while self._recent and now - self._recent[0] > 1.0:
            self._recent.popleft()
        try:
            message = json.loads(text_data)
        except ValueError:
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self._abused(_("Mensagem inválida: mande um objeto JSON com 'type'."))
            return None
        if len(self._recent) > PER_SECOND:
            await self._abused(
                _("Mensagens demais: no máximo %(n)d por segundo.") % {"n": PER_SECOND},
                client_id=message.get("id"),
                refused=True,
            )
            return None
        return message


def now() -> datetime:
    """The time an action, a presence or a message happens at (the tests set their own clock here)."""
    return timezone.now()


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _id(value: Any) -> str | None:
    return value[:64] if isinstance(value, str) else None


class TableConsumer(_Limited):
    """One browser at one table: a seat's player, or a spectator."""

    table_id: int
    profile: OnlineProfile | None
    seat: int | None
    sent_seq: int
    counted: bool

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.profile, self.seat, self.sent_seq, self.counted = None, None, -1, False
        self._limits_start()
        if not await db(self._open)():
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self.channel_layer.group_add(broadcast.table_group(self.table_id), self.channel_name)
        state, seats = await db(self._first_frames)()
        await self._send(state)
        await self._send(seats)
        await self._presence()
        clockloop.ensure_started()

    def _open(self) -> bool:
        table = selectors.table_get(table_id=self.table_id)
        if table is None or table.status == OnlineTable.CLOSED:
            return False
        try:
            self.profile = profile_from_session(self.scope.get("session"), self.scope.get("user"))
        except Refused:
            self.profile = None
        if table.status == OnlineTable.DRAFT and (self.profile is None or table.host_id != self.profile.pk):
            return False
        return True

    def _first_frames(self) -> tuple[dict[str, Any], dict[str, Any]]:
        table = selectors.table_get(table_id=self.table_id)
        assert table is not None
        self.seat = selectors.seat_of(table=table, profile=self.profile)
        self.sent_seq = table.seq
        return self._state_frame(table), self._seats_frame(table)

    def _state_frame(self, table: OnlineTable) -> dict[str, Any]:
        return {"type": "state", "seq": table.seq, "state": selectors.seat_state(table=table, seat=self.seat)}

    def _seats_frame(self, table: OnlineTable) -> dict[str, Any]:
        seats = selectors.seats_info(table=table)
        return {
            "type": "seats",
            "seats": [None if s is None else s.as_json() for s in seats],
            "status": table.status,
            "host": self.profile is not None and table.host_id == self.profile.pk,
            "seat": self.seat,
            "partida_n": table.partida_n,
        }

    async def _presence(self) -> None:
        """Count this connection for its profile's seat (present while one is open), or stop counting it."""
        profile = self.profile
        if profile is None:
            return
        key = (self.table_id, profile.pk)
        if self.seat is not None and not self.counted:
            self.counted = True
            _open[key] = _open.get(key, 0) + 1
            if _open[key] == 1:
                await self._set_present(True)
        elif self.seat is None and self.counted:
            await self._uncount()

    async def _uncount(self) -> None:
        profile = self.profile
        if profile is None or not self.counted:
            return
        self.counted = False
        key = (self.table_id, profile.pk)
        left = _open.get(key, 1) - 1
        if left <= 0:
            _open.pop(key, None)
            await self._set_present(False)
        else:
            _open[key] = left

    async def _set_present(self, present: bool) -> None:
        profile = self.profile
        if profile is None:
            return
        try:
            await db(services.presence_set)(table_id=self.table_id, profile=profile, present=present, now=now())
        except Exception:  # presence is a courtesy: never a reason to drop the connection
            logger.exception("presence of table %s", self.table_id)

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.table_group(self.table_id), self.channel_name)
        await self._uncount()

    # from the client -----------------------------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = await self._message(text_data, bytes_data)
        if message is None:
            return
        kind = message["type"]
        try:
            if kind in ACTIONS:
                await self._act(message)
            elif kind == "hello":
                await self._hello(message)
            elif kind == "chat":
                await self._chat(message)
            elif kind == "reaction":
                await self._reaction(message)
            else:
                await self._abused(_("Tipo de mensagem desconhecido: %(t)s") % {"t": kind[:30]})
        except Exception:
            logger.exception("live message %s at table %s", kind, self.table_id)
            await self._send({"type": "error", "reason": _("Algo deu errado do nosso lado; tente de novo.")})

    async def _act(self, message: dict[str, Any]) -> None:
        profile = self.profile
        if profile is None or self.seat is None:
            await self._send(
                {"type": "refused", "id": _id(message.get("id")), "reason": _("Só quem está sentado à mesa joga.")}
            )
            return
        result = await db(services.table_act)(table_id=self.table_id, profile=profile, message=message, now=now())
        if result.refusal is not None:
            await self._send({"type": "refused", "id": _id(message.get("id")), "reason": result.refusal})
        elif result.change is not None and result.change["since"] <= self.sent_seq < result.seq:
            # this socket's own frames from the change it made (the broadcast of it comes after, seen as sent)
            for text in self._change_frames(result.change):
                await self.send(text_data=text)
        elif result.seq > self.sent_seq:
            # acted (or had acted under that id): make sure this socket has what followed even if the
            # broadcast is slow or was lost
            await self._catch_up(self.sent_seq)

    async def _hello(self, message: dict[str, Any]) -> None:
        seq = message.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            await self._abused(_("'hello' precisa do 'seq' do último estado recebido."))
            return
        await self._catch_up(seq)

    async def _catch_up(self, seq: int) -> None:
        for frame in await db(self._frames_since)(seq):
            await self._send(frame)

    def _frames_since(self, seq: int) -> list[dict[str, Any]]:
        table = selectors.table_get(table_id=self.table_id)
        if table is None:
            return []
        events = selectors.events_since(table=table, seq=seq, seat=self.seat)
        self.sent_seq = table.seq
        if events is None:
            return [self._state_frame(table)]
        if not events:
            return []
        state = selectors.seat_state(table=table, seat=self.seat)
        return [{"type": "event", "seq": e["seq"], "event": e, "state": state} for e in events]

    async def _chat(self, message: dict[str, Any]) -> None:
        await self._chat_relay(
            message,
            nameless=_("Só quem está sentado à mesa escreve no chat dela."),
            group=broadcast.table_group(self.table_id),
            kind="mesa.chat",
        )

    def _chat_post(self, text: str) -> dict[str, Any]:
        table = selectors.table_get(table_id=self.table_id)
        assert table is not None and self.profile is not None
        posted = chat.chat_post(profile=self.profile, text=text, table=table, now=now())
        return chat.chat_line(posted, seat=self.seat).data()

    async def _reaction(self, message: dict[str, Any]) -> None:
        name = message.get("name")
        if self.profile is None:
            await self._send(
                {"type": "refused", "id": _id(message.get("id")), "reason": _("Só quem está sentado à mesa reage.")}
            )
            return
        try:
            reaction = await db(self._reaction_send)(name)
        except Refused as refused:
            await self._send({"type": "refused", "id": _id(message.get("id")), "reason": " ".join(refused.messages)})
            return
        await self.channel_layer.group_send(
            broadcast.table_group(self.table_id), {"type": "mesa.reaction", "reaction": reaction}
        )

    def _reaction_send(self, name: Any) -> dict[str, Any]:
        table = selectors.table_get(table_id=self.table_id)
        assert table is not None and self.profile is not None
        return chat.reaction_send(profile=self.profile, table=table, name=name, now=now())

    # from the table's group ----------------------------------------------------------------------------------

    async def mesa_changed(self, message: dict[str, Any]) -> None:
        if message.get("seats"):
            frames = await db(self._seats_refresh)()
            for frame in frames:
                await self._send(frame)
        seq = message["seq"]
        if seq <= self.sent_seq:
            return
        if message.get("state") is None or message["since"] > self.sent_seq:
            await self._catch_up(self.sent_seq)  # missed a change: read what followed from the database
            return
        for text in self._change_frames(message):
            await self.send(text_data=text)

    def _change_frames(self, message: dict[str, Any]) -> list[str]:
        """The event frames of a table's change (``broadcast.table_changed``: events and partida after them, hidden
        cards included) as this socket's seat may see them, for the events it has not sent (no database read:
        the partida is taken up once per process and change, ``selectors.partida_from``). The seat's state is
        encoded once for all the change's events."""
        state = _json(
            selectors.state_for(
                table_id=self.table_id,
                seq=message["seq"],
                state=message["state"],
                status=message["status"],
                partida_n=message["partida_n"],
                seat=self.seat,
            )
        )
        frames = [
            f'{{"type":"event","seq":{data["seq"]:d},"event":{_json(selectors.event_for(data, self.seat))},'
            f'"state":{state}}}'
            for data in message["events"]
            if data["seq"] > self.sent_seq
        ]
        self.sent_seq = message["seq"]
        return frames

    def _seats_refresh(self) -> list[dict[str, Any]]:
        table = selectors.table_get(table_id=self.table_id)
        if table is None:
            return []
        seat = selectors.seat_of(table=table, profile=self.profile)
        frames = []
        if seat != self.seat:  # sat down, moved or left: this socket now sees another seat's cards
            self.seat = seat
            self.sent_seq = table.seq
            frames.append(self._state_frame(table))
        frames.append(self._seats_frame(table))
        return frames

    async def mesa_chat(self, message: dict[str, Any]) -> None:
        if self.seat is not None:  # a table's chat is its players' (004)
            await self._send({"type": "chat", "message": message["message"]})

    async def mesa_reaction(self, message: dict[str, Any]) -> None:
        await self._send({"type": "reaction", **message["reaction"]})


class SalaConsumer(_Limited):
    """A sala's page: told when its tables change, and its chat."""

    slug: str
    profile: OnlineProfile | None

    async def connect(self) -> None:
        self.slug = str(self.scope["url_route"]["kwargs"]["slug"])
        self._limits_start()
        if not await db(self._open)():
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.accept()
        await self.channel_layer.group_add(broadcast.sala_group(self.slug), self.channel_name)
        clockloop.ensure_started()

    def _open(self) -> bool:
        if selectors.sala_get(slug=self.slug) is None:
            return False
        try:
            self.profile = profile_from_session(self.scope.get("session"), self.scope.get("user"))
        except Refused:
            self.profile = None
        return True

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.sala_group(self.slug), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message = await self._message(text_data, bytes_data)
        if message is None:
            return
        if message["type"] != "chat":
            await self._abused(_("Tipo de mensagem desconhecido: %(t)s") % {"t": message["type"][:30]})
            return
        await self._chat_relay(
            message,
            nameless=_("Escolha um nome para conversar no salão."),
            group=broadcast.sala_group(self.slug),
            kind="sala.chat",
        )

    def _chat_post(self, text: str) -> dict[str, Any]:
        sala = selectors.sala_get(slug=self.slug)
        assert sala is not None and self.profile is not None
        return chat.chat_line(chat.chat_post(profile=self.profile, text=text, sala=sala, now=now())).data()

    async def sala_changed(self, message: dict[str, Any]) -> None:
        await self._send({"type": "changed"})

    async def sala_chat(self, message: dict[str, Any]) -> None:
        await self._send({"type": "chat", "message": message["message"]})
