import pytest

from tests.support.sumula import staff_user
from tournaments.models import StaffRole


@pytest.fixture
def referee(cup):
    """The cup's referee (an account with the referee's role)."""
    return staff_user(cup, "arbitro", StaffRole.REFEREE)
