"""The registration list as CSV for the organizer (UTF-8 with BOM, ``;``): it holds birth dates and contacts.

The columns of the import come first with the same names (``nome`` …
``parceiro_equipe``), so an exported list can be edited in a spreadsheet
and imported into another tournament; the other columns are ignored there.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime

from django.utils import timezone

from ..models import Tournament
from .csv_reader import COLUMNS
from .selectors import registration_rows

EXTRA = ["ordem", "situacao", "lista_de_espera", "origem", "presenca", "inscrita_em", "retirada_em"]
SITUATION = {"accepted": "aceita", "waiting": "lista de espera", "paired": "em dupla", "withdrawn": "retirada"}
PRESENCE = {True: "presente", False: "ausente", None: ""}
_HARMLESS = re.compile(r"^\+?[\d\s().\-/]+$")


def csv_cell(value: str) -> str:
    """A spreadsheet must not run a cell as a formula (=, +, -, @ at the start), a phone number stays as it is."""
    if value and value[0] in "=+-@\t\r" and not _HARMLESS.match(value):
        return "'" + value
    return value


_cell = csv_cell


def _date(value: date | None) -> str:
    return value.strftime("%d/%m/%Y") if value else ""


def _when(value: datetime | None) -> str:
    return timezone.localtime(value).strftime("%d/%m/%Y %H:%M") if value else ""


def registrations_csv(*, tournament: Tournament) -> str:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(COLUMNS + EXTRA)
    for row in registration_rows(tournament=tournament):
        reg = row.registration
        cells: list[str] = []
        for person in (reg.player1, reg.player2):
            if person is None:
                cells += ["", "", "", ""]
            else:
                cells += [_cell(person.name), _date(person.birth_date), _cell(person.email), _cell(person.phone)]
        p2 = reg.player2
        cells += [_cell(reg.player1.team), _cell(p2.team) if p2 is not None else ""]
        cells += [
            str(reg.order),
            SITUATION[row.situation],
            str(row.waiting_position or ""),
            reg.get_source_display(),
            PRESENCE[reg.present],
            _when(reg.created_at),
            _when(reg.withdrawn_at),
        ]
        writer.writerow(cells)
    return out.getvalue()
