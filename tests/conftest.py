import json
from pathlib import Path

import pytest

DEMO_DIR = Path(__file__).resolve().parent.parent / "demo"


@pytest.fixture
def load_file():
    """Import a tournament file (dict) and return the tournament."""
    from tournaments.services import tournament_import

    def _load(data):
        return tournament_import(data=json.loads(json.dumps(data)))

    return _load


@pytest.fixture(autouse=True)
def _fresh_state_cache():
    """Each test starts with no derived view cached in the process."""
    from tournaments.selectors import tournament_state_cache_clear

    tournament_state_cache_clear()
    yield
    tournament_state_cache_clear()
