"""``classificacao.xlsx``: an event's results as a federation's spreadsheet, from its derived state (no query).

Sheets, in order:

- "Classificação geral": the final places (FENACEF Art.7) with each dupla's figures over the whole event; until
  the event finishes, the sheet says so and lists nothing;
- a sheet per group ("Grupo A"…) with its table and the tiebreak columns (points, partidas won and lost,
  pontos-partida for and against, saldo, average, who qualified, which criterion decided the place, a tie
  awaiting the sorteio); past ``GROUP_SHEETS_MAX`` groups, one "Grupos" sheet with a "Grupo" column instead (a
  workbook of 256 tabs is one nobody can browse); the comparison between groups when a stage has one;
- "Chave": the bracket round by round (each jogo's duplas, partidas won, winner, status, mesa);
- "Jogos": every jogo with its stage, group, round, mesa, time, duplas, partidas won, each partida's score,
  winner and status (counted or provisional, as the pages say).

Public data only: duplas' and players' names, keys, scores. Numbers are numbers; the average is a number with
3 places ("∞" where nothing was conceded, empty for 0 ÷ 0: what the pages show).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.bracket import BracketJogo as ScoredJogo
from scoring.jogo import WALKOVER_BOTH, JogoResult
from scoring.standings import DuplaStats
from scoring.standings import StandingRow as ScoredRow
from scoring.tournament import GroupStageView, KnockoutStageView

from ..presenters.jogo import jogo_place, jogo_rows_by_slot, status_code
from ..presenters.labels import STATUS_LABELS, criterion_note, knockout_round_title
from ..presenters.stages import stage_views
from .xlsx import Column, Sheet, Value, workbook_bytes

if TYPE_CHECKING:
    from ..rows import JogoRow
    from ..state import DuplaRef, TournamentState

GROUP_SHEETS_MAX = 32  # more groups than this in the event: one "Grupos" sheet per stage instead of a sheet each
MEDALS = {"gold": "ouro", "silver": "prata", "bronze": "bronze"}


def _medal(code: str | None) -> str:
    return _(MEDALS[code]) if code in MEDALS else ""


def _average(stats: DuplaStats | None) -> float | str | None:
    """The average as a number; "∞" (nothing conceded) as text, 0 ÷ 0 empty."""
    value = stats.average if stats is not None else None
    if value is None:
        return None
    return "∞" if math.isinf(value) else value


def _stat_columns() -> list[Column]:
    return [
        Column(_("Jogos")),
        Column(_("Vitórias")),
        Column(_("Derrotas")),
        Column(_("Partidas vencidas")),
        Column(_("Partidas perdidas")),
        Column(_("Pontos-partida pró")),
        Column(_("Pontos-partida contra")),
        Column(_("Saldo")),
        Column(_("Average"), decimal=True),
    ]


def _stats(s: DuplaStats | None) -> list[Value]:
    if s is None:
        return [None] * 9
    return [s.jogos, s.won, s.lost, s.partidas_won, s.partidas_lost, s.points_for, s.points_against, s.saldo] + [
        _average(s)
    ]


def _yes(flag: bool) -> str:
    return _("sim") if flag else ""


class _Names:
    """The duplas' public names and their players' names, by key."""

    def __init__(self, state: TournamentState) -> None:
        self.duplas: dict[str, DuplaRef] = state.duplas

    def name(self, key: str | None) -> str:
        ref = self.duplas.get(key) if key else None
        return ref.display_name if ref is not None else (key or "")

    def players(self, key: str | None) -> tuple[str, str]:
        ref = self.duplas.get(key) if key else None
        return (ref.player1.name, ref.player2.name) if ref is not None else ("", "")


def _classification_sheet(state: TournamentState, names: _Names) -> Sheet:
    columns = [
        Column(_("Posição")),
        Column(_("Medalha")),
        Column(_("Dupla")),
        Column(_("Jogador 1")),
        Column(_("Jogador 2")),
        Column(_("Código da dupla")),
        *_stat_columns(),
    ]
    rows: list[list[Value]] = []
    notes: list[str] = []
    if state.view.finished:
        for c in state.view.classification:
            p1, p2 = names.players(c.dupla)
            rows.append(
                [c.place, _medal(c.medal), names.name(c.dupla), p1, p2, c.dupla, *_stats(state.view.stats.get(c.dupla))]
            )
    else:
        notes.append(_("O torneio ainda não terminou: a classificação geral aparece aqui quando ele terminar."))
    return Sheet(title=_("Classificação geral"), columns=columns, rows=rows, notes=notes)


def _group_columns(*, with_group: bool) -> list[Column]:
    return [
        *([Column(_("Grupo"))] if with_group else []),
        Column(_("Posição")),
        Column(_("Dupla")),
        Column(_("Código da dupla")),
        Column(_("Pontos")),
        *_stat_columns(),
        Column(_("Classificada")),
        Column(_("Desempate")),
        Column(_("Aguarda sorteio")),
    ]


def _group_row(row: ScoredRow, names: _Names, *, ranked: bool, group: str | None) -> list[Value]:
    s = row.stats
    note = criterion_note(row.decided_by, row.decided_after) if ranked else ""
    return [
        *([group] if group is not None else []),
        row.rank if ranked else None,
        names.name(row.dupla),
        row.dupla,
        s.points,
        *_stats(s),
        _yes(row.qualified),
        note,
        _yes(row.tied and ranked),
    ]


def _unplayed_order(rows: Sequence[ScoredRow], drawn: Sequence[str]) -> list[ScoredRow]:
    by_dupla = {r.dupla: r for r in rows}
    return [by_dupla[d] for d in drawn if d in by_dupla] + [r for r in rows if r.dupla not in drawn]


def _group_sheets(state: TournamentState, names: _Names) -> list[Sheet]:
    stages = [(v, title) for v, _m, title in stage_views(state) if isinstance(v, GroupStageView)]
    count = sum(len(v.tables) for v, _t in stages)
    several = len(stages) > 1
    sheets: list[Sheet] = []
    for view, title in stages:
        prefix = f"{title} · " if several else ""
        group_label = _("Grupo %(key)s")
        if count <= GROUP_SHEETS_MAX:
            for t in view.tables:
                played = bool(t.jogos_done)
                rows = t.rows if played else _unplayed_order(t.rows, t.duplas)
                sheets.append(
                    Sheet(
                        title=prefix + group_label % {"key": t.key},
                        columns=_group_columns(with_group=False),
                        rows=[_group_row(r, names, ranked=played, group=None) for r in rows],
                    )
                )
        else:
            rows_all: list[list[Value]] = []
            for t in view.tables:
                played = bool(t.jogos_done)
                rows = t.rows if played else _unplayed_order(t.rows, t.duplas)
                rows_all += [_group_row(r, names, ranked=played, group=t.key) for r in rows]
            sheets.append(Sheet(title=prefix + _("Grupos"), columns=_group_columns(with_group=True), rows=rows_all))
        if view.others:
            group_of = {d: t.key for t in view.tables for d in t.duplas}
            played = any(t.jogos_done for t in view.tables)
            sheets.append(
                Sheet(
                    title=prefix + _("Entre grupos"),
                    columns=_group_columns(with_group=True),
                    rows=[_group_row(r, names, ranked=played, group=group_of.get(r.dupla, "")) for r in view.others],
                    notes=[
                        ngettext(
                            "Comparação entre os grupos: a melhor dupla além das %(per)s primeiras de cada grupo "
                            "se classifica.",
                            "Comparação entre os grupos: as %(n)s melhores duplas além das %(per)s primeiras de cada "
                            "grupo se classificam.",
                            view.stage.best_others,
                        )
                        % {"n": view.stage.best_others, "per": view.stage.per_group}
                    ],
                )
            )
    return sheets


def _status_word(code: str) -> str:
    if code == "wo":
        return "WO"
    return _(STATUS_LABELS.get(code, "")) if code in STATUS_LABELS else ""


def _bracket_sheets(state: TournamentState, names: _Names) -> list[Sheet]:
    knockouts = [(v, m, title) for v, m, title in stage_views(state) if isinstance(v, KnockoutStageView)]
    by_slot = jogo_rows_by_slot(state)
    columns = [
        Column(_("Rodada")),
        Column(_("Jogo")),
        Column(_("Dupla A")),
        Column(_("Dupla B")),
        Column(_("Partidas A")),
        Column(_("Partidas B")),
        Column(_("Vencedora")),
        Column(_("Situação")),
        Column(_("Mesa")),
        Column(_("Melhor de")),
        Column(_("Código do jogo")),
    ]
    sheets = []
    for view, model, title in knockouts:
        rows: list[list[Value]] = []
        notes: list[str] = []
        bracket = view.bracket
        if bracket is None:
            notes.append(view.waiting_for or _("A chave ainda não foi sorteada."))
        else:
            total = len(bracket.rounds)
            jogos: list[ScoredJogo] = [j for r in bracket.rounds for j in r]
            if bracket.third_place is not None:
                jogos.append(bracket.third_place)
            for j in jogos:
                row = (
                    by_slot.get((model.id, j.round, 0 if j.third_place else j.position, j.third_place))
                    if model is not None
                    else None
                )
                rows.append(_bracket_row(j, row, names, total))
        sheets.append(
            Sheet(
                title=_("Chave") if len(knockouts) == 1 else f"{_('Chave')} · {title}",
                columns=columns,
                rows=rows,
                notes=notes,
            )
        )
    return sheets


def _bracket_row(j: ScoredJogo, row: JogoRow | None, names: _Names, total: int) -> list[Value]:
    a, b = j.duplas
    result = j.result
    won: tuple[int, int] | None = None
    status = ""
    if j.bye:
        status = _("folga")
    elif a is None or b is None:
        status = _("a definir")
    else:
        status = _status_word(status_code(result, row))
        if result is not None and result.walkover is None and result.started:
            won = result.partidas_won
    return [
        knockout_round_title(round_number=j.round, total_rounds=total, third_place=j.third_place),
        None if j.third_place else j.position,
        names.name(a) if a else "",
        names.name(b) if b else "",
        won[0] if won else None,
        won[1] if won else None,
        names.name(j.winner) if j.winner and j.decided else "",
        status,
        row.mesa if row is not None else None,
        j.best_of,
        row.key if row is not None else "",
    ]


def _when(date: dt.date | None, time: str) -> dt.datetime | str:
    """A round's time on the event's date, as a date and time; the text as given when it is not HH:MM."""
    if date is not None:
        try:
            hour, minute = (int(p) for p in time.split(":"))
            return dt.datetime.combine(date, dt.time(hour, minute))
        except ValueError:
            pass
    return time


def _partidas_text(result: JogoResult | None) -> str:
    if result is None or result.walkover is not None or result.lost_by is not None:
        return ""
    playing = _("em andamento")
    return " · ".join(f"{p.score[0]} x {p.score[1]}" + ("" if p.finished else f" ({playing})") for p in result.partidas)


def _jogos_sheet(state: TournamentState, names: _Names) -> Sheet:
    place = jogo_place(state)
    stage_order = {m.id: i for i, m in enumerate(state.stage_models.values())}
    stage_of = {m.id: m for m in state.stage_models.values()}
    key_of = state.dupla_key_by_id()
    most = 0
    for row in state.jogo_rows:
        result = state.results.get(row.id)
        if result is not None and result.walkover is None:
            most = max(most, len(result.partidas))
    columns = [
        Column(_("Fase")),
        Column(_("Grupo")),
        Column(_("Rodada")),
        Column(_("Horário")),
        Column(_("Mesa")),
        Column(_("Dupla A")),
        Column(_("Dupla B")),
        Column(_("Partidas A")),
        Column(_("Partidas B")),
        Column(_("Placar das partidas")),
        *[c for n in range(1, most + 1) for c in (Column(f"P{n} A"), Column(f"P{n} B"))],
        Column(_("Vencedora")),
        Column(_("Situação")),
        Column(_("Observação")),
        Column(_("Código do jogo")),
    ]
    date = state.tournament.date
    ordered = sorted(
        state.jogo_rows,
        key=lambda r: (
            stage_order.get(r.stage_id, 0),
            r.round or 0,
            r.third_place,
            r.mesa if r.mesa is not None else 1 << 30,
            r.position or 0,
            r.id,
        ),
    )
    rows: list[list[Value]] = []
    for row in ordered:
        stage, group, round_title = place(row)
        result = state.results.get(row.id)
        a, b = key_of.get(row.dupla_a_id), key_of.get(row.dupla_b_id)
        won = result.partidas_won if result is not None and result.started and result.walkover is None else None
        scores: list[Value] = []
        partidas = result.partidas if result is not None and result.walkover is None else []
        for n in range(most):
            if n < len(partidas):
                scores += [partidas[n].score[0], partidas[n].score[1]]
            else:
                scores += [None, None]
        winner = ""
        if result is not None and result.finished and result.winner is not None:
            winner = names.name((a, b)[result.winner])
        note = ""
        if result is not None and result.walkover is not None:
            if result.walkover == WALKOVER_BOTH:
                note = _("WO: as duas duplas ausentes")
            else:
                absent = (a, b)[int(result.walkover)]
                note = _("WO: %(dupla)s ausente") % {"dupla": names.name(absent)}
        elif result is not None and result.lost_by is not None:
            note = _("perda do jogo") + (f": {row.penalty_reason}" if row.penalty_reason else "")
        time = ""
        stage_model = stage_of.get(row.stage_id)
        if stage_model is not None and row.round:
            time = (stage_model.round_times or {}).get(str(row.round), "")
        rows.append(
            [
                stage,
                group,
                round_title,
                _when(date, time) if time else None,
                row.mesa,
                names.name(a),
                names.name(b),
                won[0] if won else None,
                won[1] if won else None,
                _partidas_text(result),
                *scores,
                winner,
                _status_word(status_code(result, row)),
                note,
                row.key,
            ]
        )
    return Sheet(title=_("Jogos"), columns=columns, rows=rows)


def classificacao_xlsx(*, state: TournamentState) -> bytes:
    """The event's workbook (module docstring), from its derived state as the pages read it."""
    names = _Names(state)
    sheets = [
        _classification_sheet(state, names),
        *_group_sheets(state, names),
        *_bracket_sheets(state, names),
        _jogos_sheet(state, names),
    ]
    return workbook_bytes(sheets=sheets, title=state.tournament.name)


__all__ = ["GROUP_SHEETS_MAX", "classificacao_xlsx"]
