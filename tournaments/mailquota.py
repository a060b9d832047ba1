"""Hourly limits on the e-mail the site sends on its users' behalf: invitations to a tournament's staff and the
calls' e-mails ("Sua vez"), each counted per account and per event over the last hour (README, "Settings").

A send is counted by its own row (a ``StaffInvitation``, an e-mail ``Call``), read and checked under locks: the
tournament's row (which every write of the event takes first) and the account's row (``account_lock``). Two
requests at once never both take the last free place, as ``sumula.pins`` counts a dupla's wrong PINs under the
dupla's row. A ``Budget`` holds one limit's sends of the last hour; taking from it is pure (a round's call takes
from it jogo after jogo without reading again).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import connections, router
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from . import plainsql
from .models import Tournament

WINDOW = dt.timedelta(hours=1)
ACCOUNT, EVENT = "account", "event"


@dataclass(frozen=True)
class Over:
    """A limit a send would pass: its ``scope`` (``ACCOUNT`` or ``EVENT``), how many were sent in the last hour,
    the limit, and when there is room again for the send (None: never, it alone is larger than the limit)."""

    scope: str
    used: int
    limit: int
    until: dt.datetime | None


@dataclass
class Budget:
    """One limit's sends in the hour before ``now`` (``times``, oldest first) and what may still be taken."""

    scope: str
    limit: int
    now: dt.datetime
    times: list[dt.datetime] = field(default_factory=list)

    def room_at(self, need: int) -> dt.datetime | None:
        """When ``need`` more sends fit under the limit per hour: ``now`` if they fit now, else when enough of the
        earlier ones have left the hour; None when they never fit (``need`` is larger than the limit)."""
        if need > self.limit:
            return None
        excess = len(self.times) + need - self.limit
        if excess <= 0:
            return self.now
        return self.times[excess - 1] + WINDOW

    def over(self, need: int) -> Over | None:
        """Why ``need`` more sends do not fit now, or None."""
        at = self.room_at(need)
        if at is not None and at <= self.now:
            return None
        return Over(scope=self.scope, used=len(self.times), limit=self.limit, until=at)

    def take(self, need: int) -> None:
        self.times.extend([self.now] * need)


def _budget_load(*, scope: str, limit: int, rows: QuerySet[Any], at: str, now: dt.datetime) -> Budget:
    times = list(rows.filter(**{f"{at}__gt": now - WINDOW}).order_by(at).values_list(at, flat=True))
    return Budget(scope=scope, limit=limit, now=now, times=times)


def budgets_load(
    *,
    sends: QuerySet[Any],
    at: str,
    tournament: Tournament,
    event_limit: int,
    account: User | None,
    account_field: str,
    account_limit: int,
) -> list[Budget]:
    """The hour's budgets of a kind of send (``sends``: one row each, stamped by their ``at`` field): the event's
    (its ``tournament``) and, for a send by an ``account``, the account's (``account_field`` names it), across
    its events. The caller's write holds the tournament's row; the account's is locked here, and the clock is
    read once both are held: a send another request committed while this one waited is counted."""
    if account is not None:
        account_lock(account)
    now = timezone.now()
    budgets = [_budget_load(scope=EVENT, limit=event_limit, rows=sends.filter(tournament=tournament), at=at, now=now)]
    if account is not None:
        account_rows = sends.filter(**{account_field: account})
        budgets.append(_budget_load(scope=ACCOUNT, limit=account_limit, rows=account_rows, at=at, now=now))
    return budgets


def budgets_take(budgets: Iterable[Budget], need: int) -> Over | None:
    """Take ``need`` sends from every budget, or from none: then the limit that holds them longest."""
    budgets = list(budgets)
    overs = [over for budget in budgets if (over := budget.over(need)) is not None]
    if overs:
        never = [o for o in overs if o.until is None]
        return never[0] if never else max(overs, key=_until)
    for budget in budgets:
        budget.take(need)
    return None


def _until(over: Over) -> dt.datetime:
    assert over.until is not None
    return over.until


def room_text(over: Over) -> str:
    """When the refused send may go (pt-BR): "às 15:42" (the site's time), or that only a larger limit lets it."""
    if over.until is None:
        return _("só com um limite maior: sozinho, o envio passa dele")
    local = timezone.localtime(over.until)
    minute = local.replace(second=0, microsecond=0)
    if minute < local:  # the minute when there is room, not the one before
        minute += dt.timedelta(minutes=1)
    return _("às %(time)s") % {"time": minute.strftime("%H:%M")}


def account_lock(user: User) -> None:
    """Lock the account's row until the transaction ends, so its sends are counted one request at a time (the
    tournament's row is not enough: an account sends from each of its events). FOR NO KEY UPDATE: a login's
    update of ``last_login`` waits for it, nothing that points to the account does."""
    plainsql.row_lock(User, user.pk, connection=connections[router.db_for_write(User)], no_key=True)
