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
