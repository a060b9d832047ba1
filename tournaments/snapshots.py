"""A tournament's derived state stored in the database (``StateSnapshot``), for a process that has nothing.

A fresh process (a start, a recycled worker, a deploy of the same release) with Redis empty would otherwise
build the whole state from the tables: about 150 ms at 1,024 duplas and 600 ms at 4,096 on PostgreSQL. It
reads the newest snapshot instead (one row, about 0.3 MB compressed at 1,024 duplas, read and unpickled in
about 35 ms) and replays the engine's log since (``engine.state_advance_to``), exactly as it does with a
state shared through Redis.

The snapshot is never the source. The tables and the engine's log are: a snapshot is read only by the release
that made it, for the tournament it was made for (its id and creation time), at a version the tournament has
reached; a gap in the log, a structural change or too many changes since, and the state is built from the
tables. The newest state is stored at most every ``STORE_SECONDS`` per tournament (a process skips it when
another stored one lately), in the background once the response is sent, and a snapshot only ever moves
forward (or to another release).
"""

from __future__ import annotations

import logging
import pickle
import threading
import time
import zlib
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from .caching import background_run, release, tournament_ident
from .models import StateSnapshot, Tournament
from .state import long_lived

if TYPE_CHECKING:
    from .state import TournamentState

logger = logging.getLogger(__name__)

# the newest state of a tournament is stored at most this often, by one process: pickling it takes about 25 ms
# of CPU at 1,024 duplas and 120 ms at 4,096 (the log replays what happened since: up to engine.REPLAY_MAX)
STORE_SECONDS = 60.0
_stored_at: dict[int, float] = {}
_stored_versions: dict[int, tuple[str, int]] = {}
_LOCK = threading.Lock()


def snapshot_key(tournament: Tournament) -> str:
    """Who may read a snapshot: this release, for this tournament (a new one reusing the id never meets it)."""
    return f"{release()}:{tournament_ident(tournament)}"


def state_stored_get(*, tournament: Tournament) -> TournamentState | None:
    """The newest stored state of ``tournament`` this release made, at a version it has reached; None if there is
    none (or it cannot be read: logged, and the state is built instead)."""
    if not settings.ZAP_STORE_STATES:
        return None
    try:
        row = (
            StateSnapshot.objects.filter(
                tournament=tournament, key=snapshot_key(tournament), version__lte=tournament.results_version
            )
            .values_list("version", "data")
            .first()
        )
    except DatabaseError as exc:  # e.g. the table not there yet during a deploy: build instead
        logger.warning("estado guardado do torneio %s: não foi possível ler (%s)", tournament.pk, exc)
        return None
    if row is None or not row[1]:  # none, or one being stored for the first time
        return None
    version, data = row
    try:
        state = long_lived(lambda: pickle.loads(zlib.decompress(bytes(data))))
    except Exception as exc:
        logger.warning("estado guardado do torneio %s (v%s) ilegível: %r", tournament.pk, version, exc)
        return None
    if getattr(state, "version", None) != version:
        return None
    state.tournament = tournament  # the row as read now (the snapshot's is as it was then)
    with _LOCK:  # this process need not store it again
        _stored_versions[tournament.pk] = (snapshot_key(tournament), version)
        _stored_at[tournament.pk] = time.monotonic()
    return state


def state_store(*, state: TournamentState, force: bool = False) -> None:
    """Store ``state`` for the processes that will start with nothing, in the background: at most every
    ``STORE_SECONDS`` per tournament (``force``: whatever this process did lately), and only a version not
    stored yet."""
    if not settings.ZAP_STORE_STATES:
        return
    tournament = state.tournament
    key = snapshot_key(tournament)
    now = time.monotonic()
    with _LOCK:
        if _stored_versions.get(tournament.pk) == (key, state.version):
            return
        if not force and now - _stored_at.get(tournament.pk, float("-inf")) < STORE_SECONDS:
            return
        _stored_at[tournament.pk] = now
    background_run(_store, tournament.pk, key, state, name="zap-state-store")


def _store(tournament_id: int, key: str, state: TournamentState) -> None:
    try:
        if not _store_claim(tournament_id=tournament_id, key=key, version=state.version):
            return  # another process stored one as new, or lately, or is storing it: pickling costs CPU
        data = zlib.compress(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL), 1)
        state_snapshot_put(tournament_id=tournament_id, key=key, version=state.version, data=data)
        with _LOCK:
            _stored_versions[tournament_id] = (key, state.version)
    except Exception as exc:
        logger.warning("estado do torneio %s (v%s) não guardado: %r", tournament_id, state.version, exc)
    finally:
        if threading.current_thread() is not threading.main_thread():
            connection.close()  # this thread's own connection


def _store_claim(*, tournament_id: int, key: str, version: int) -> bool:
    """Whether this process stores the tournament's state now: the snapshot's row is marked as being stored
    (``saved_at`` now) in one statement, so that two processes never pickle it at the same moment. False when
    one as new is there, or one was stored (or claimed) within ``STORE_SECONDS``."""
    now = timezone.now()
    stale = now - timedelta(seconds=STORE_SECONDS)
    rows = StateSnapshot.objects.filter(tournament_id=tournament_id)
    if rows.filter(key=key, version__lt=version, saved_at__lt=stale).update(saved_at=now):
        return True
    if rows.filter(key=key).exists():
        return False
    if rows.exclude(key=key).update(key=key, version=0, data=b"", saved_at=now):  # another release's
        return True
    try:
        with transaction.atomic():  # none yet: an empty one, which no process reads, holds the claim
            StateSnapshot.objects.create(tournament_id=tournament_id, key=key, version=0, data=b"", saved_at=now)
    except IntegrityError:  # another process claimed it first, or the tournament is gone
        return False
    return True


def state_snapshot_put(*, tournament_id: int, key: str, version: int, data: bytes) -> None:
    """Put a snapshot unless one as new (of this release and tournament) is there already."""
    now = timezone.now()
    moved = (
        StateSnapshot.objects.filter(tournament_id=tournament_id)
        .filter(Q(version__lt=version) | ~Q(key=key))
        .update(key=key, version=version, data=data, saved_at=now)
    )
    if moved:
        return
    try:
        with transaction.atomic():
            StateSnapshot.objects.create(tournament_id=tournament_id, key=key, version=version, data=data, saved_at=now)
    except IntegrityError:  # one as new is there already (another process), or the tournament is gone
        pass


def snapshots_forget() -> None:
    """Forget what this process stored when (tests)."""
    with _LOCK:
        _stored_at.clear()
        _stored_versions.clear()
