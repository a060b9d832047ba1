"""The tables' clock in an ASGI process: every 200 ms, ``services.table_tick`` with the time now (DOMAIN §9.2).

It starts with the process's first live connection (``ensure_started``) and runs as long as the event loop does.
Every server runs one; an expiry still fires once, because ``table_tick`` claims each due table with ``SKIP
LOCKED``. Its beats also tell a clock that every server was down, so each table gets its time back
(``RESUME_AFTER``). ``ZAP_ONLINE_CLOCK=0`` keeps it off (the tests tick with the time they choose).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Final

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from ..online.services import table_tick

logger = logging.getLogger(__name__)

INTERVAL: Final = 0.2  # seconds between ticks
BATCH: Final = 50  # tables claimed per tick; a full batch ticks again at once
RESUME_AFTER: Final = timedelta(seconds=5)  # no beat for this long: no clock ran anywhere

_tasks: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def _tick() -> int:
    return len(table_tick(now=timezone.now(), limit=BATCH, resume_after=RESUME_AFTER))


async def _run() -> None:
    tick = database_sync_to_async(_tick)
    while True:
        try:
            moved = await tick()
        except asyncio.CancelledError:
            raise
        except Exception:  # a database that does not answer: log, and try again at the next tick
            logger.exception("online clock tick failed")
            moved = 0
        if moved < BATCH:
            await asyncio.sleep(INTERVAL)


def ensure_started() -> None:
    """Start this event loop's clock if it is not running (and the setting lets it)."""
    if not getattr(settings, "ZAP_ONLINE_CLOCK", True):
        return
    loop = asyncio.get_running_loop()
    task = _tasks.get(loop)
    if task is None or task.done():
        _tasks[loop] = loop.create_task(_run(), name="zap-online-clock")
