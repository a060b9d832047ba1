"""The súmula records a process keeps for the jogos it wrote lately (tournaments/sumula/records.py): whatever the
referee and the duplas do, a kept record is the stored one, a mão after another reads no record, and nothing a
transaction rolled back is kept."""

import itertools

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import given

from tests.sumula.test_sumula_roundtrip import ALLOWED, JOGOS, SCRIPTS, _apply, _Rollback, scripts
from tests.support.sumula import api, jogo_between, post
from tournaments.models import Jogo
from tournaments.sumula import records
from tournaments.sumula.commands import MaoAdd
from tournaments.sumula.locked import Actor
from tournaments.sumula.records import jogo_lock, jogo_record_load, jogo_record_locked, jogo_records_forget
from tournaments.sumula.services import sumula_mao_add


def _stored(record) -> tuple:
    """What a record says: its entry, its partidas' columns, its mãos' columns in order."""
    entry, partidas, maos = record

    def columns(instance):
        return tuple(getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields)

    return entry, [columns(p) for p in partidas], [[columns(m) for m in maos.get(p.pk, [])] for p in partidas]


def _kept_is_stored(cup, key: str) -> None:
    """Under the jogo's lock (as a write reads it): the record this process would use is the one stored."""
    with transaction.atomic():
        jogo = jogo_lock(tournament=cup, key=key)
        assert jogo is not None
        assert _stored(jogo_record_locked(jogo=jogo)) == _stored(jogo_record_load(jogo=jogo)), key
        transaction.set_rollback(True)  # a read: nothing to keep from here


def _mao(client, cup, key: str, mao_id: str, to: int = 0, points: int = 1):
    return post(client, api(cup.slug, key, "maos"), {"id": mao_id, "to": to, "points": points})


@pytest.fixture
def signed_in(cup, referee) -> tuple[str, Client]:
    """A jogo of the cup and its referee's client, signed in."""
    ref = Client()
    ref.force_login(referee)
    return jogo_between(cup, "d1", "d4"), ref


@SCRIPTS
@given(script=scripts)
@pytest.mark.django_db
def test_whatever_the_sumula_calls_a_kept_record_is_the_stored_one(
    cup, referee, django_capture_on_commit_callbacks, script
):
    """Each call runs its commit hooks, as a committed request would (the records are kept then); the example is
    rolled back at its end and the kept records forgotten with it."""
    keys = [jogo_between(cup, a, b) for a, b in JOGOS]
    jogo_records_forget()
    try:
        with transaction.atomic():
            ref, anon = Client(), Client()
            ref.force_login(referee)
            counter = itertools.count(1)
            sent: list = []
            for op in script:
                with django_capture_on_commit_callbacks(execute=True):
                    status = _apply(op, cup, ref, anon, keys, sent, counter)
                assert status in ALLOWED, (op, status)
                for key in keys:
                    _kept_is_stored(cup, key)
            raise _Rollback
    except _Rollback:
        pass
    finally:
        jogo_records_forget()


@pytest.mark.django_db(transaction=True)
def test_a_mao_after_another_reads_no_record_and_answers_every_mao(cup, signed_in):
    key, ref = signed_in
    assert _mao(ref, cup, key, "k0").status_code == 201
    with CaptureQueriesContext(connection) as first:
        assert _mao(ref, cup, key, "k1", to=1).status_code == 201
    with CaptureQueriesContext(connection) as second:
        r = _mao(ref, cup, key, "k2")
    assert r.status_code == 201
    assert [m["id"] for m in r.json()["partidas"][0]["maos"]] == ["k0", "k1", "k2"]
    reads = [q["sql"] for q in second.captured_queries if '"tournaments_mao"' in q["sql"] and "SELECT" in q["sql"]]
    assert reads == [] and len(second) == len(first), "\n".join(q["sql"] for q in second.captured_queries)
    # the undo of the last mão, then another: the record follows
    assert ref.delete(api(cup.slug, key, "maos") + "k2/").status_code == 200
    r = _mao(ref, cup, key, "k3", to=1, points=3)
    assert [m["id"] for m in r.json()["partidas"][0]["maos"]] == ["k0", "k1", "k3"]
    _kept_is_stored(cup, key)


@pytest.mark.django_db(transaction=True)
def test_a_write_rolled_back_leaves_no_record_kept(cup, referee, signed_in):
    key, ref = signed_in
    assert _mao(ref, cup, key, "r0").status_code == 201
    with transaction.atomic():  # a mão written, then the transaction around it rolled back
        sumula_mao_add(tournament=cup, key=key, mao=MaoAdd(id="lost", to=1, points=3), actor=Actor(user=referee))
        transaction.set_rollback(True)
    version = Jogo.objects.get(tournament=cup, key=key).version
    assert not [k for k in records._kept if k[1] > version]  # nothing kept beyond what was committed
    r = _mao(ref, cup, key, "r1")
    assert [m["id"] for m in r.json()["partidas"][0]["maos"]] == ["r0", "r1"]
    _kept_is_stored(cup, key)
