"""What the circuit's ranking page and its CSV show, from a ``CircuitStanding``: the etapas, the rows of one page
(search by name, 50 a page), each atleta's movement and points per etapa, and where the qualification lines
fall. Pure: no query here."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from scoring.circuit import TEAM_BEST
from tournaments.circuits.selectors import CircuitPage, CircuitStanding, EtapaColumn, StandingRow
from tournaments.public.paging import page_link
from tournaments.registrations.csv_export import csv_cell

PER_PAGE = 50  # rows of a page: with a column per etapa, a season of 20 etapas is a thousand cells


@dataclass(frozen=True, slots=True)
class Cell:
    """One atleta's result in one etapa: ``played`` False shows a dash; ``dq`` a disqualification (0 points)."""

    played: bool
    points: int = 0
    counted: bool = True
    dq: bool = False
    place: int | None = None


@dataclass(frozen=True, slots=True)
class Movement:
    kind: str  # "up", "down", "same", "new" or "" (no etapa before to compare with)
    steps: int = 0


@dataclass(frozen=True, slots=True)
class RowView:
    row: StandingRow
    movement: Movement
    cells: tuple[Cell, ...]
    line_after: str  # "qualified" / "alternate": the qualification line falls after this row; "" otherwise
    apart: str = ""  # what tells this atleta from a namesake (``atletas.selectors.atletas_apart``)


@dataclass(frozen=True, slots=True)
class EtapaHead:
    number: int  # 1… in calendar order: "E1" heads its column
    etapa: EtapaColumn
    finished: bool  # over the whole season (an ``apos`` page still shows later etapas as played)
    counted: bool  # in this ranking


@dataclass(frozen=True, slots=True)
class TeamView:
    rank: int
    team: str
    points: int
    atletas: tuple[tuple[str, str], ...]  # (key, name)


@dataclass(frozen=True, slots=True)
class RankingPage:
    etapas: tuple[EtapaHead, ...]
    columns: tuple[EtapaHead, ...]  # the etapas of this ranking, one column each
    after_options: tuple[EtapaColumn, ...]  # the finished etapas: "Ranking depois de"
    rows: tuple[RowView, ...]
    query: str
    after: str  # ``?apos=``, "" for the ranking as it stands
    count: int  # rows found (all of them without a search)
    total: int  # rows in the ranking
    number: int
    pages: int
    teams: tuple[TeamView, ...]
    has_lines: bool

    @property
    def colspan(self) -> int:
        return 5 + len(self.columns)

    @property
    def prev_link(self) -> str:
        return self._link(pagina=self.number - 1)

    @property
    def next_link(self) -> str:
        return self._link(pagina=self.number + 1)

    def _link(self, *, pagina: int) -> str:
        return page_link(pagina=pagina, apos=self.after, q=self.query)


def _movement(previous: str | None, row: StandingRow) -> Movement:
    if previous is None:
        return Movement("")
    if row.movement is None:
        return Movement("new")
    if row.movement > 0:
        return Movement("up", row.movement)
    if row.movement < 0:
        return Movement("down", -row.movement)
    return Movement("same")


def _cells(row: StandingRow, columns: tuple[EtapaColumn, ...]) -> tuple[Cell, ...]:
    out = []
    for etapa in columns:
        result = row.results.get(etapa.key)
        if result is None:
            out.append(Cell(played=False))
        else:
            out.append(
                Cell(
                    played=True,
                    points=result.points,
                    counted=result.counted,
                    dq=result.place is None,
                    place=result.place,
                )
            )
    return tuple(out)


def ranking_page_of(
    *, page: CircuitPage, finished: frozenset[str] | None = None, apart: dict[str, str] | None = None
) -> RankingPage:
    """The page as ``circuits.selectors.circuit_page`` read it (one page of rows, their positions in the whole
    ranking and where its qualification lines fall). ``finished``: the etapas finished over the whole season,
    for a ranking ``apos`` an etapa (by default those this page counts); ``apart``: what tells an atleta from a
    namesake, by key."""
    counted = set(page.counted)
    done = finished if finished is not None else frozenset(counted)
    heads = tuple(
        EtapaHead(number=n, etapa=e, finished=e.key in done, counted=e.key in counted)
        for n, e in enumerate(page.etapas, start=1)
    )
    columns = tuple(h for h in heads if h.counted)
    return RankingPage(
        etapas=heads,
        columns=columns,
        after_options=tuple(e for e in page.etapas if e.key in done),
        rows=tuple(
            RowView(
                row=row,
                movement=_movement(page.previous, row),
                cells=_cells(row, tuple(h.etapa for h in columns)),
                line_after=page.lines.get(pos, ""),
                apart=(apart or {}).get(row.key, ""),
            )
            for pos, row in zip(page.positions, page.rows, strict=True)
        ),
        query=page.query,
        after=page.after or "",
        count=page.count,
        total=page.total,
        number=page.number,
        pages=page.pages,
        teams=tuple(
            TeamView(
                rank=t.rank, team=t.team, points=t.points, atletas=tuple((k, page.names.get(k, k)) for k in t.atletas)
            )
            for t in page.teams
        ),
        has_lines=bool(page.lines),
    )


UNCOUNTED = "%(n)s (não conta)"  # text to a spreadsheet: left out of a sum
QUALIFY_WORDS = {"qualified": "classificado", "alternate": "suplente", "tied": "empatado"}


def ranking_csv(*, standing: CircuitStanding) -> str:
    """The ranking for a Brazilian spreadsheet: BOM, ``;``, a header in Portuguese, one column per etapa counted
    (a disqualification "DQ"); no cell starts a formula. Only the points that count are numbers, so a sum of the
    etapas' columns gives "Pontos": a result best N leaves out is text ("50 (não conta)"; "(50)" was read as -50).
    When the etapas name equipes, the equipe ranking follows after an empty line, with its own header ("Ranking de
    equipes"; position, equipe, points and the atletas whose points count, best first)."""
    counted = set(standing.counted)
    columns = [e for e in standing.etapas if e.key in counted]
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(
        ["Posição", "Atleta", "Código", "Pontos", "Etapas", "1º", "2º", "3º"]
        + [csv_cell(e.name) for e in columns]
        + ["Classificação"]
    )
    for row in standing.rows:
        cells = []
        for cell in _cells(row, tuple(columns)):
            if not cell.played:
                cells.append("")
            elif cell.dq:
                cells.append("DQ")
            else:
                cells.append(str(cell.points) if cell.counted else UNCOUNTED % {"n": cell.points})
        writer.writerow(
            [str(row.rank), csv_cell(row.name), row.key, str(row.points), str(row.etapas)]
            + [str(n) for n in row.places]
            + cells
            + [QUALIFY_WORDS.get(row.qualify, "")]
        )
    if standing.teams:
        # the equipe ranking below the atletas', after an empty line, with its own header
        names = {row.key: row.name for row in standing.rows}
        writer.writerow([])
        writer.writerow(["Ranking de equipes"])
        writer.writerow(["Posição", "Equipe", "Pontos"] + [f"Atleta {n}" for n in range(1, TEAM_BEST + 1)])
        for team in standing.teams:
            members = [csv_cell(names.get(k, k)) for k in team.atletas]
            writer.writerow(
                [str(team.rank), csv_cell(team.team), str(team.points)] + members + [""] * (TEAM_BEST - len(members))
            )
    return out.getvalue()
