"""``ranking.xlsx``: a circuit's season ranking as a workbook, from ``circuits.selectors.circuit_standing`` (no query).

Sheets, in order:

- "Ranking": each atleta's position, name, key, equipe, points, etapas played, 1st/2nd/3rd places, the points of
  each etapa counted (a number; one that best-N leaves out is struck through, still a number; "DQ" for a
  disqualification; empty when not played), the movement since the previous etapa and the qualification for the
  final (classificado, suplente, empatado na linha);
- "Equipes": the equipe ranking (DOMAIN §7.3: the counted points of each equipe's best 4 atletas), with them;
- "Pontos por etapa": one row per atleta and etapa played: place, points, whether they count;
- "Etapas": the etapas in calendar order with their date, weight, whether final and finished.

Public data only: names, keys, places, points and equipes.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.circuit import TEAM_BEST

from ..circuits.selectors import CircuitStanding, EtapaColumn, StandingRow
from .xlsx import Column, Sheet, Struck, Value, workbook_bytes

QUALIFY_WORDS = {"qualified": "classificado", "alternate": "suplente", "tied": "empatado na linha: aguarda sorteio"}


def _yes(flag: bool) -> str:
    return _("sim") if flag else _("não")


def _etapa_value(row: StandingRow, etapa: EtapaColumn) -> Value | Struck:
    result = row.results.get(etapa.key)
    if result is None:
        return None
    if result.place is None:
        return "DQ"
    return result.points if result.counted else Struck(result.points)


def _movement(standing: CircuitStanding, row: StandingRow) -> Value:
    if standing.previous is None:
        return None
    return _("novo") if row.movement is None else row.movement


def _ranking_sheet(standing: CircuitStanding, counted: list[EtapaColumn]) -> Sheet:
    columns = [
        Column(_("Posição")),
        Column(_("Atleta")),
        Column(_("Código")),
        Column(_("Equipe")),
        Column(_("Pontos")),
        Column(_("Etapas")),
        Column("1º"),
        Column("2º"),
        Column("3º"),
        *[Column(e.name) for e in counted],
        Column(_("Movimento")),
        Column(_("Classificação para a final")),
    ]
    rows: list[list[Value | Struck]] = [
        [
            row.rank,
            row.name,
            row.key,
            row.team or None,
            row.points,
            row.etapas,
            *row.places,
            *[_etapa_value(row, e) for e in counted],
            _movement(standing, row),
            _(QUALIFY_WORDS[row.qualify]) if row.qualify in QUALIFY_WORDS else None,
        ]
        for row in standing.rows
    ]
    notes = []
    if standing.count_best:
        notes.append(
            _("Contam os %(n)s melhores resultados de cada atleta: os riscados não contam. DQ: desclassificado.")
            % {"n": standing.count_best}
        )
    if standing.previous is not None:
        notes.append(_("Movimento: posições ganhas (negativo: perdidas) desde a etapa anterior."))
    if not standing.rows:
        notes.append(_("Nenhuma etapa terminada ainda."))
    return Sheet(title=_("Ranking"), columns=columns, rows=rows, notes=notes)


def _teams_sheet(standing: CircuitStanding) -> Sheet:
    names = {r.key: r.name for r in standing.rows}
    points = {r.key: r.points for r in standing.rows}
    columns = [Column(_("Posição")), Column(_("Equipe")), Column(_("Pontos"))]
    for n in range(1, TEAM_BEST + 1):
        columns += [Column(_("Atleta %(n)s") % {"n": n}), Column(_("Pontos do atleta %(n)s") % {"n": n})]
    rows: list[list[Value | Struck]] = []
    for team in standing.teams:
        cells: list[Value | Struck] = [team.rank, team.team, team.points]
        for n in range(TEAM_BEST):
            key = team.atletas[n] if n < len(team.atletas) else None
            cells += [names.get(key, key), points.get(key)] if key else [None, None]
        rows.append(cells)
    notes = [_("Soma dos pontos que contam dos %(n)s melhores atletas de cada equipe.") % {"n": TEAM_BEST}]
    if not standing.teams:
        notes.append(_("Nenhuma equipe informada nas etapas."))
    return Sheet(title=_("Equipes"), columns=columns, rows=rows, notes=notes)


def _points_sheet(standing: CircuitStanding) -> Sheet:
    etapas = {e.key: e for e in standing.etapas}
    order = {e.key: i for i, e in enumerate(standing.etapas)}
    columns = [
        Column(_("Atleta")),
        Column(_("Código")),
        Column(_("Etapa")),
        Column(_("Data")),
        Column(_("Peso")),
        Column(_("Colocação")),
        Column(_("Pontos")),
        Column(_("Conta")),
    ]
    rows: list[list[Value | Struck]] = []
    for row in standing.rows:
        for result in sorted(row.results.values(), key=lambda r: order.get(r.etapa, 0)):
            etapa = etapas.get(result.etapa)
            rows.append(
                [
                    row.name,
                    row.key,
                    etapa.name if etapa else result.etapa,
                    etapa.date if etapa else None,
                    etapa.weight if etapa else None,
                    result.place if result.place is not None else "DQ",
                    result.points,
                    _yes(result.counted),
                ]
            )
    return Sheet(title=_("Pontos por etapa"), columns=columns, rows=rows)


def _etapas_sheet(standing: CircuitStanding) -> Sheet:
    counted = set(standing.counted)
    columns = [
        Column(_("Nº")),
        Column(_("Etapa")),
        Column(_("Código")),
        Column(_("Data")),
        Column(_("Peso")),
        Column(_("Final")),
        Column(_("Terminada")),
        Column(_("No ranking")),
    ]
    rows: list[list[Value | Struck]] = [
        [n, e.name, e.key, e.date, e.weight, _yes(e.final), _yes(e.finished), _yes(e.key in counted)]
        for n, e in enumerate(standing.etapas, start=1)
    ]
    return Sheet(title=_("Etapas"), columns=columns, rows=rows)


def ranking_xlsx(*, standing: CircuitStanding) -> bytes:
    """The circuit's workbook (module docstring): the ranking as it stands, or as it stood after an etapa."""
    counted_keys = set(standing.counted)
    counted = [e for e in standing.etapas if e.key in counted_keys]
    sheets = [_ranking_sheet(standing, counted), _teams_sheet(standing), _points_sheet(standing)]
    sheets.append(_etapas_sheet(standing))
    return workbook_bytes(sheets=sheets, title=standing.circuit_name)
