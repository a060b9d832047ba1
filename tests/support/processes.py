"""Other processes on the test's database: the environment they run with (``process_env``) and the database URL they
reach (the ``shared_db_url`` fixture, tests/conftest.py: on PostgreSQL the test database itself, on SQLite a migrated
temporary file, since the in-memory test database is private to this process)."""

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def process_env(database_url: str, **extra: str) -> dict[str, str]:
    """This process's environment for a child that runs Django on ``database_url`` (``extra``: more variables)."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "ZAP_DEV": "1",
        **extra,
    }


def manage(database_url: str, *args: str, timeout: int = 300) -> None:
    """``manage.py ARGS`` in a child process on ``database_url``."""
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=process_env(database_url), check=True, timeout=timeout
    )


def database_url_of(settings_dict: dict) -> str:
    """The URL of a PostgreSQL connection's database (``connection.settings_dict``)."""
    s = settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or 'localhost'}:{s['PORT'] or 5432}/{s['NAME']}"
