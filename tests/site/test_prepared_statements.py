"""PostgreSQL: the queries a connection runs again and again become prepared statements (ZAP_DB_PREPARE_AFTER), so
a mão POST no longer has PostgreSQL parse and plan each of its queries anew."""

import json

import pytest
from django.db import connection
from django.test import Client

from tests.support.production import settings_run
from tests.support.sumula import api, cup_setup, jogo_between, post, staff_user

READ = "import json, config.settings as s; print(json.dumps(s.DATABASES['default'].get('OPTIONS', {})))"
POSTGRES = "postgres://postgres@127.0.0.1:5432/zap_settings_only"  # read, never connected to


def options(**env: str) -> dict:
    run = settings_run(READ, ZAP_DEV="1", **env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_postgresql_prepares_after_five_runs_by_default():
    assert options(DATABASE_URL=POSTGRES) == {"server_side_binding": True, "prepare_threshold": 5}
    assert options(DATABASE_URL=POSTGRES, ZAP_DB_PREPARE_AFTER="2")["prepare_threshold"] == 2


def test_zero_keeps_djangos_client_side_parameters_for_a_pooler_in_transaction_mode(tmp_path):
    assert options(DATABASE_URL=POSTGRES, ZAP_DB_PREPARE_AFTER="0") == {}
    sqlite = options(DATABASE_URL=f"sqlite:///{tmp_path / 'zap.sqlite3'}")
    assert "server_side_binding" not in sqlite and "prepare_threshold" not in sqlite


def test_a_malformed_value_is_refused_with_its_name():
    run = settings_run(READ, ZAP_DEV="1", DATABASE_URL=POSTGRES, ZAP_DB_PREPARE_AFTER="cinco")
    assert run.returncode != 0 and "ZAP_DB_PREPARE_AFTER='cinco': esperado um número inteiro" in run.stderr


@pytest.mark.django_db
def test_the_mao_posts_queries_are_prepared_on_postgresql(load_file):
    if connection.vendor != "postgresql":
        pytest.skip(f"prepared statements are PostgreSQL's; this run uses {connection.vendor}")
    tournament = cup_setup(load_file)
    client, key = Client(), jogo_between(tournament, "d1", "d2")
    client.force_login(staff_user(tournament, "arbitro"))
    for n in range(8):
        response = post(client, api(tournament.slug, key, "maos"), {"id": f"m{n}", "to": n % 2, "points": 1})
        assert response.status_code == 201, response.content
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    # the jogo's lock, its record and the mão's insert: each parsed and planned once, then only executed
    assert any("FOR UPDATE" in s and "tournaments_jogo" in s for s in prepared), prepared
    assert any(s.startswith('INSERT INTO "tournaments_mao"') for s in prepared), prepared
