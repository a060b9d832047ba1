import json
import os
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# No per-example deadline: a loaded 2-core machine must not turn a slow example into a failure.
# Under CI the examples are derandomized, so a run is reproducible; locally each run explores anew.
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.load_profile("ci" if os.environ.get("CI") else "dev")

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


@pytest.fixture
def fast_passwords(settings):
    """Accounts made in a test need no real key stretching (PBKDF2 stays known, for the PINs' hashes)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher",
                                 "django.contrib.auth.hashers.PBKDF2PasswordHasher"]
