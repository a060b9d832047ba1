"""A registration CSV checked against its tournament: every row with its problems and where it would stand.

Used by the desk's upload (the preview), by ``registrations_import_csv`` (the
write) and so by ``manage.py import_registrations``: one code path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from scoring.registration import Placement

from ..models import Tournament
from .checks import Problem, entries_check, size_problem
from .csv_reader import COLUMN_OF, CsvRead, CsvRow, csv_read
from .selectors import placements_after


@dataclass
class PreviewRow:
    row: CsvRow
    placement: Placement | None  # where it would stand once written (None while the file has problems)

    @property
    def line(self) -> int:
        return self.row.line

    @property
    def values(self) -> dict[str, str]:
        return self.row.values

    @property
    def problems(self) -> list[str]:
        return self.row.problems


@dataclass
class CsvPreview:
    rows: list[PreviewRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # every problem, file first, then by line
    file_problems: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    encoding: str = ""
    separator: str = ""

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.rows)

    @property
    def accepted(self) -> int:
        return sum(1 for r in self.rows if r.placement is not None and r.placement.accepted)

    @property
    def waiting(self) -> int:
        return sum(1 for r in self.rows if r.placement is not None and not r.placement.accepted)

    @property
    def has_teams(self) -> bool:
        """The file has the column ``equipe`` (the preview shows it)."""
        return "equipe" in self.columns

    @property
    def has_partner_teams(self) -> bool:
        return "parceiro_equipe" in self.columns


def problem_text(problem: Problem, rows: list[CsvRow]) -> str:
    """One check's problem as a CSV line: ``linha 9: já inscrito na linha 4``, ``linha 7: coluna nascimento: …``."""
    line = rows[problem.entry].line
    if problem.earlier is not None:
        if problem.player == 1:
            return _("linha %(n)d: parceiro já inscrito na linha %(m)d") % {"n": line, "m": rows[problem.earlier].line}
        return _("linha %(n)d: já inscrito na linha %(m)d") % {"n": line, "m": rows[problem.earlier].line}
    column = COLUMN_OF.get((problem.player, problem.field)) if problem.player is not None else None
    if column:
        return _("linha %(n)d: coluna %(c)s: %(msg)s") % {"n": line, "c": column, "msg": problem.message}
    return _("linha %(n)d: %(msg)s") % {"n": line, "msg": problem.message}


def csv_preview(*, tournament: Tournament, content: bytes) -> CsvPreview:
    """Read and check ``content`` against ``tournament``; writes nothing."""
    read: CsvRead = csv_read(content, min_age=tournament.min_age)
    preview = CsvPreview(
        file_problems=list(read.problems),
        notices=list(read.notices),
        columns=read.columns,
        encoding=read.encoding,
        separator=read.separator,
    )
    rows = read.rows
    if rows:
        for problem in entries_check(tournament=tournament, entries=[r.entry for r in rows]):
            rows[problem.entry].problems.append(problem_text(problem, rows))
        too_many = size_problem(tournament=tournament, new_players=sum(len(r.entry.players) for r in rows))
        if too_many:
            preview.file_problems.append(too_many)
    preview.problems = [*preview.file_problems, *(p for r in rows for p in r.problems)]
    placed: Sequence[Placement | None] = [None] * len(rows)
    if rows and not preview.problems:
        placed = placements_after(tournament=tournament, sizes=[len(r.entry.players) for r in rows])
    preview.rows = [PreviewRow(row=r, placement=p) for r, p in zip(rows, placed, strict=False)]
    return preview
