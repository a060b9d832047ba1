"""Sessions in the database, as Django's ``db`` engine keeps them, read with one plain query.

Every signed-in request reads its session first; Django's engine compiles a queryset for it each time, which
cost more than the query (about 0.5 ms of a mão POST's CPU, against 0.1 ms this way). Writing, deleting and
expiring are the engine's own; the rows and their encoding are the same, so switching engines logs nobody out.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router
from django.utils import timezone


class SessionStore(DatabaseSessionStore):
    def load(self) -> dict[str, Any]:
        key = self.session_key  # None when the cookie's key is malformed (the base class checks it)
        if key is None:
            return {}
        model = self.model
        connection = connections[router.db_for_read(model)]
        q = connection.ops.quote_name
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {q('session_data')} FROM {q(model._meta.db_table)} "
                f"WHERE {q('session_key')} = %s AND {q('expire_date')} > %s",
                [key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:  # gone or expired: a new key will be made if the session is saved
            self._session_key = None
            return {}
        return self.decode(row[0])
