"""The registration list as a workbook for the organizer (``/organizar/<slug>/inscricoes/inscricoes.xlsx``), beside
the CSV (``registrations.csv_export``): the same columns with the same names (``nome`` … ``parceiro_equipe``, then
order, situation, waiting position, origin, presence, when registered and withdrawn), in the same order, so a
sheet saved as CSV imports into another tournament.

It holds birth dates and contacts, as the CSV does: it is the organizer's own list, served behind the desk's door
(``permissions.desk_view``) and never kept by a cache. Never a PIN. Birth dates are dates and the moments are
dates and times (local time); the order and the waiting position are numbers; phones stay text as typed (a
"+55 …" is written as text, not taken for a formula).
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Tournament
from ..registrations.csv_export import EXTRA, PRESENCE, SITUATION
from ..registrations.csv_reader import COLUMNS
from ..registrations.selectors import registration_rows
from .xlsx import Column, Sheet, Value, workbook_bytes


def _when(value: dt.datetime | None) -> dt.datetime | None:
    return timezone.localtime(value).replace(tzinfo=None) if value else None


def registrations_xlsx(*, tournament: Tournament) -> bytes:
    rows: list[list[Value]] = []
    for row in registration_rows(tournament=tournament):
        reg = row.registration
        cells: list[Value] = []
        for person in (reg.player1, reg.player2):
            if person is None:
                cells += [None, None, None, None]
            else:
                cells += [person.name, person.birth_date, person.email or None, person.phone or None]
        p2 = reg.player2
        cells += [reg.player1.team or None, (p2.team or None) if p2 is not None else None]
        cells += [
            reg.order,
            SITUATION[row.situation],
            row.waiting_position,
            reg.get_source_display(),
            PRESENCE[reg.present] or None,
            _when(reg.created_at),
            _when(reg.withdrawn_at),
        ]
        rows.append(cells)
    sheet = Sheet(title=_("Inscrições"), columns=[Column(name) for name in COLUMNS + EXTRA], rows=rows)
    return workbook_bytes(sheets=[sheet], title=_("Inscrições · %(name)s") % {"name": tournament.name})
