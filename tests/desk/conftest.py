"""Fixtures of the desk's registration tests: an event and its organizer, signed in."""

import pytest

from tests.support.registrations import tournament_make, user_make
from tournaments.models import StaffRole


@pytest.fixture
def t(db):
    return tournament_make()


@pytest.fixture
def org(client, t):
    user = user_make("org", tournament=t, role=StaffRole.ORGANIZER)
    client.force_login(user)
    return user
