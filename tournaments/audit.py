"""The audit trail of organizer actions: who, when, what, the data before and after."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.serializers.json import DjangoJSONEncoder

from .models import AuditEntry, Tournament
from .writes import write_required


def _plain(value: Any) -> Any:
    """JSON-safe copy (dates, times and decimals as text)."""
    if value is None:
        return None
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder, ensure_ascii=False))


def audit_record(
    *,
    tournament: Tournament,
    user: User | AnonymousUser | None,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Record one organizer action, inside the action's write (``writes.tournament_write``): both land or neither."""
    write_required(what="audit_record")
    return AuditEntry.objects.create(
        tournament=tournament,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        summary=summary[:300],
        before=_plain(before),
        after=_plain(after),
    )
