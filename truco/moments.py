"""Times as the engine keeps them (whole milliseconds since the epoch, UTC) and as the log writes them (ISO)."""

from datetime import UTC, datetime, timedelta
from time import gmtime
from typing import Final

EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MS: Final = timedelta(milliseconds=1)


def iso(ms: int) -> str:
    """``2026-12-06T20:01:02.120Z``: exact to the millisecond."""
    seconds, millis = divmod(ms, 1000)
    t = gmtime(seconds)
    return f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}T{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}.{millis:03d}Z"


def from_iso(text: str) -> int:
    """The milliseconds of an ISO time with its offset (``Z`` or ``+00:00``); ValueError when it is not one."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(text)
    return (moment - EPOCH) // _MS


def from_datetime(moment: datetime) -> int:
    """An aware datetime in milliseconds (truncated): what callers with a clock give the engine."""
    return (moment - EPOCH) // _MS
