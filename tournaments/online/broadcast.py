"""Telling the live connections, once a write has committed, that a table or a sala changed.

A table's group (``mesa-<id>``) gets ``{"type": "mesa.changed", "seq": N, "since": M, "events": [...],
"state": {...}}``: the events after ``M`` up to ``N`` as the log writes them and the partida as stored
(``truco.store.partida_dump``), hidden cards included. They travel only between the server's processes (the
channel layer: memory, or Redis): each connection turns them into its own seat's view before anything leaves
the server (``tournaments.play.consumers``), and a connection that missed some reads them from the database.
With them the table's ``status`` and ``partida_n``. ``"seats": true`` says the seats changed (who sits, robots, presence, the host, the status). A sala's group
(``sala-<slug>``) gets ``{"type": "sala.changed"}``; chat and reactions go as they are (``mesa.chat``,
``mesa.reaction``, ``sala.chat``): nothing in them is hidden from anyone at the table.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"mesa-{table_id}"


def sala_group(slug: str) -> str:
    return f"sala-{slug}"


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - settings always name one
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a layer that fails (Redis down) loses a notice, never the write: a reconnect catches up
        logger.exception("online broadcast to %s failed", group)


def after_commit(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: _send(group, message))


def table_changed(
    *,
    table_id: int,
    seq: int,
    since: int,
    events: list[dict[str, Any]],
    state: dict[str, Any] | None,
    status: str,
    partida_n: int,
    seats: bool = False,
) -> dict[str, Any]:
    """Send the change once the write commits; returns the message (the acting connection uses it itself)."""
    message = {
        "type": "mesa.changed",
        "seq": seq,
        "since": since,
        "events": events,
        "state": state,
        "status": status,
        "partida_n": partida_n,
        "seats": seats,
    }
    after_commit(table_group(table_id), message)
    return message


def seats_changed(*, table_id: int, seq: int) -> None:
    """The seats (or the status) changed, not the partida."""
    after_commit(
        table_group(table_id),
        {"type": "mesa.changed", "seq": seq, "since": seq, "events": [], "state": None, "seats": True},  # no state
    )


def sala_changed(*, slug: str) -> None:
    after_commit(sala_group(slug), {"type": "sala.changed"})


def table_chat(*, table_id: int, message: dict[str, Any]) -> None:
    after_commit(table_group(table_id), {"type": "mesa.chat", "message": message})


def table_reaction(*, table_id: int, reaction: dict[str, Any]) -> None:
    after_commit(table_group(table_id), {"type": "mesa.reaction", "reaction": reaction})


def sala_chat(*, slug: str, message: dict[str, Any]) -> None:
    after_commit(sala_group(slug), {"type": "sala.chat", "message": message})
