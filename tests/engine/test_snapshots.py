"""The derived state stored in the database (tournaments/snapshots.py): a process that starts with nothing
cached anywhere reads it and replays the engine's log since, and never reads one it should not."""

import logging
import pickle
import zlib

import pytest

from tests.support.sumula import cup_setup, jogo_between, result_counted
from tournaments import selectors, snapshots
from tournaments.engine import parts_of
from tournaments.models import StateSnapshot
from tournaments.selectors import tournament_state_cache_clear, tournament_state_get


@pytest.fixture
def storing(settings, monkeypatch):
    """States stored at once, in the test's own transaction (the site stores them from a background thread)."""
    settings.ZAP_STORE_STATES = True
    settings.ZAP_SHARE_STATES = False  # nothing shared through a cache: the database only
    monkeypatch.setattr(snapshots, "background_run", lambda target, *args, name: target(*args))


def _no_build(monkeypatch):
    def no_build(*, tournament):
        raise AssertionError("built from the tables although a stored state was there")

    monkeypatch.setattr(selectors, "tournament_state_load", no_build)


def _count(cup, pair=("d1", "d2")):
    """A result recorded and confirmed by both duplas: it counts, a new version in the engine's log."""
    result_counted(cup, jogo_between(cup, *pair))


@pytest.mark.django_db
def test_a_process_that_starts_with_nothing_reads_the_stored_state_and_replays_the_log(load_file, storing, monkeypatch):
    cup = cup_setup(load_file, slug="copa-guardada")
    built = tournament_state_get(tournament=cup)  # built from the tables, and stored
    stored = StateSnapshot.objects.get(tournament=cup)
    assert stored.version == built.version == cup.results_version
    _count(cup)
    assert cup.results_version > stored.version
    tournament_state_cache_clear()  # a process started now, Redis empty: nothing of its own

    _no_build(monkeypatch)
    replayed = tournament_state_get(tournament=cup)
    monkeypatch.undo()
    assert replayed.version == cup.results_version
    assert replayed.tournament is cup  # the row as read now, not as pickled
    full = selectors.tournament_state_load(tournament=cup)
    assert parts_of(replayed.view) == parts_of(full.view) and replayed.records == full.records
    assert replayed.part_versions == full.part_versions


@pytest.mark.django_db
def test_the_stored_state_moves_forward_only(load_file, storing):
    cup = cup_setup(load_file, slug="copa-adiante")
    key = snapshots.snapshot_key(cup)
    snapshots.state_snapshot_put(tournament_id=cup.pk, key=key, version=5, data=b"v5")
    snapshots.state_snapshot_put(tournament_id=cup.pk, key=key, version=3, data=b"v3")  # an older one, late
    assert StateSnapshot.objects.get(tournament=cup).version == 5
    snapshots.state_snapshot_put(tournament_id=cup.pk, key=key, version=6, data=b"v6")
    assert bytes(StateSnapshot.objects.get(tournament=cup).data) == b"v6"
    snapshots.state_snapshot_put(tournament_id=cup.pk, key="another-release:" + key, version=1, data=b"new")
    row = StateSnapshot.objects.get(tournament=cup)  # a new release starts its own, whatever the version
    assert (row.key, row.version) == ("another-release:" + key, 1)


@pytest.mark.django_db
@pytest.mark.parametrize("case", ["another release", "a version not reached", "damaged"])
def test_a_stored_state_that_does_not_fit_is_not_read(load_file, storing, monkeypatch, caplog, case):
    cup = cup_setup(load_file, slug="copa-nao-serve")
    state = tournament_state_get(tournament=cup)
    good = zlib.compress(pickle.dumps(state), 1)
    key, version, data = snapshots.snapshot_key(cup), state.version, good
    if case == "another release":
        key = "a0b1c2d3e4f5:" + key.split(":", 1)[1]
    elif case == "a version not reached":  # e.g. written before a write that rolled back
        version = cup.results_version + 1
    else:
        data = good[: len(good) // 2]
    StateSnapshot.objects.filter(tournament=cup).update(key=key, version=version, data=data)
    tournament_state_cache_clear()
    _no_build(monkeypatch)
    with caplog.at_level(logging.WARNING, "tournaments.snapshots"), pytest.raises(AssertionError, match="built from"):
        tournament_state_get(tournament=cup)
    if case == "damaged":
        assert any("ilegível" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db
def test_a_process_stores_at_most_every_so_often_and_never_the_same_version_twice(load_file, storing, monkeypatch):
    cup = cup_setup(load_file, slug="copa-de-vez-em-quando")
    stored = []
    monkeypatch.setattr(snapshots, "state_snapshot_put", lambda **kw: stored.append(kw["version"]))
    state = tournament_state_get(tournament=cup)
    assert stored == [state.version]
    _count(cup)
    newer = tournament_state_get(tournament=cup)
    assert newer.version > state.version and stored == [state.version]  # within STORE_SECONDS: not yet
    snapshots.state_store(state=newer, force=True)  # this process may; the row says it was stored lately
    assert stored == [state.version]
    _a_minute_later(cup)
    snapshots.state_store(state=newer, force=True)
    snapshots.state_store(state=newer, force=True)
    assert stored == [state.version, newer.version]


def _a_minute_later(cup):
    from datetime import timedelta

    from django.utils import timezone

    StateSnapshot.objects.filter(tournament=cup).update(
        saved_at=timezone.now() - timedelta(seconds=snapshots.STORE_SECONDS + 1)
    )


@pytest.mark.django_db
def test_two_processes_never_store_at_the_same_moment(load_file, storing):
    """The first to claim the row stores; the other, finding it claimed, does not pickle at all."""
    cup = cup_setup(load_file, slug="copa-reivindicada")
    key = snapshots.snapshot_key(cup)
    assert snapshots._store_claim(tournament_id=cup.pk, key=key, version=3)  # none yet: claimed (empty row)
    assert snapshots.state_stored_get(tournament=cup) is None  # an empty claim is never read
    assert not snapshots._store_claim(tournament_id=cup.pk, key=key, version=3)  # the other process
    _a_minute_later(cup)  # the first never finished (a worker stopped): the claim expires
    assert snapshots._store_claim(tournament_id=cup.pk, key=key, version=3)
    snapshots.state_snapshot_put(tournament_id=cup.pk, key=key, version=3, data=b"x")
    _a_minute_later(cup)
    assert not snapshots._store_claim(tournament_id=cup.pk, key=key, version=3)  # one as new is there
    assert snapshots._store_claim(tournament_id=cup.pk, key="other-release:" + key, version=1)


@pytest.mark.django_db
def test_without_the_setting_nothing_is_stored_or_read(load_file, settings):
    settings.ZAP_STORE_STATES = False
    cup = cup_setup(load_file, slug="copa-sem-guardar")
    tournament_state_get(tournament=cup)
    assert not StateSnapshot.objects.filter(tournament=cup).exists()
    assert snapshots.state_stored_get(tournament=cup) is None


@pytest.mark.django_db
def test_a_process_does_not_store_what_another_stored_lately(load_file, storing):
    """Pickling a large state costs the CPU a page needs: one process in STORE_SECONDS stores it."""
    cup = cup_setup(load_file, slug="copa-outro-guardou")
    state = tournament_state_get(tournament=cup)  # stored by "another process"
    _count(cup)
    tournament_state_cache_clear()  # this process: nothing of its own, nothing stored by it
    newer = tournament_state_get(tournament=cup)  # read from the snapshot, replayed; due to be stored here
    snapshots.state_store(state=newer, force=True)
    assert StateSnapshot.objects.get(tournament=cup).version == state.version  # stored lately: left as it is
    _a_minute_later(cup)
    snapshots.state_store(state=newer, force=True)
    assert StateSnapshot.objects.get(tournament=cup).version == newer.version


def _in_sight(value) -> bool:
    """Whether the cyclic collector would walk ``value`` (tracked in one of its generations, not frozen)."""
    import gc

    return any(o is value for o in gc.get_objects())


@pytest.mark.django_db
def test_a_state_built_shared_or_stored_is_out_of_the_collectors_sight(load_file, storing, monkeypatch, settings):
    """A whole state lives until a newer one replaces it; left in the collector's sight, every full collection
    walks it again (a pause of hundreds of ms at 4,096 duplas, every few counted results)."""
    import gc

    from tournaments import caching

    cup = cup_setup(load_file, slug="copa-fora-de-vista")
    gc.unfreeze()  # what earlier tests froze: only what this test reads is looked for
    built = selectors.tournament_state_load(tournament=cup)
    assert not _in_sight(built.duplas) and not _in_sight(built.records)

    gc.unfreeze()
    data = pickle.dumps(built, protocol=pickle.HIGHEST_PROTOCOL)
    with monkeypatch.context() as shared_cache:  # another process shared it through Redis
        shared_cache.setattr(caching, "_tolerant", lambda action, key, call: data)
        settings.ZAP_SHARE_STATES = True
        shared = caching.state_shared_get("any")
        settings.ZAP_SHARE_STATES = False
    assert shared is not None and shared.records == built.records
    assert not _in_sight(shared.duplas) and not _in_sight(shared.records)

    gc.unfreeze()
    tournament_state_get(tournament=cup)  # stored
    tournament_state_cache_clear()
    stored = snapshots.state_stored_get(tournament=cup)
    assert stored is not None and stored.records == built.records
    assert not _in_sight(stored.duplas) and not _in_sight(stored.records)

    gc.unfreeze()
    assert _in_sight(stored.duplas)  # the check itself sees a state that is not frozen
