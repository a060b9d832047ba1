"""What an import costs the database (issue 41: a 4,096-dupla file took 9-16 s): a fixed number of statements
whatever the size of the event, each row written once. Players are linked to their atletas before they are
written (``atletas_link_new``), the rows go in as plain multi-row INSERTs (``plainsql.rows_insert``), and the
Nível of thousands of atletas is kept in a few statements, not one per atleta. The times themselves are in
``make bench`` (``manage.py bench``: the import of 4,096 duplas against its 5 s target)."""

import json
import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import Atleta, AtletaNivel, Jogo, Mao, Player
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament

pytestmark = pytest.mark.django_db


def statements(duplas: int, *, seed: int, on_commit) -> tuple[int, Counter]:
    """The statements of importing a whole synthetic event (groups with every result, a jogo in three mão by mão,
    the knockout to the final), by verb and table, with what runs once it commits (the atletas' Nível)."""
    data = json.loads(json.dumps(synthetic_tournament(duplas=duplas, seed=seed, maos_every=3)))
    with CaptureQueriesContext(connection) as ctx, on_commit(execute=True):
        tournament_import(data=data)
    kinds: Counter = Counter()
    for query in ctx.captured_queries:
        verb = query["sql"].split(None, 1)[0].upper()
        table = re.search(r'(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', query["sql"])
        kinds[(verb, table.group(1) if table else "")] += 1
    return len(ctx.captured_queries), kinds


def test_the_statements_of_an_import_do_not_grow_with_the_event(django_capture_on_commit_callbacks):
    small, _ = statements(32, seed=1, on_commit=django_capture_on_commit_callbacks)
    large, kinds = statements(512, seed=2, on_commit=django_capture_on_commit_callbacks)
    assert Player.objects.count() == 2 * (32 + 512) and Jogo.objects.count() > 1000 and Mao.objects.exists()
    # a few more for the largest batches (the Nível kept 1,000 atletas a statement), never one per row
    assert large - small <= 6, kinds
    assert large <= 60, kinds
    # each player written once, with its atleta: no UPDATE of players; the new atletas' keys in one UPDATE; the Nível
    # of the 1,024 atletas (every one changes: they all played) in an upsert or two
    assert kinds[("UPDATE", Player._meta.db_table)] == 0
    assert kinds[("UPDATE", Atleta._meta.db_table)] <= 1
    assert kinds[("UPDATE", AtletaNivel._meta.db_table)] == 0 and kinds[("INSERT", AtletaNivel._meta.db_table)] <= 4
