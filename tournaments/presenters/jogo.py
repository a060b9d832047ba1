"""One jogo as every page shows it: its line (who, where, when), its result as it stands (counted, provisional
or live), its place; built by the thousand on a big event's pages (``jogos``, ``now``, ``bracket``, ``dupla``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.html import escape
from django.utils.safestring import SafeString

from scoring.jogo import WALKOVER_BOTH, JogoResult
from scoring.tournament import KnockoutStageView

from ..models import Jogo
from ..online.event import ALL, event_online
from ..round_times import round_time_of
from ..rows import JogoRow, PartidaRow
from .duplas import DuplaRef, dupla_refs, unknown_dupla
from .labels import (
    DECIDED_CODES,
    Status,
    as_is,
    knockout_round_title,
    page_labels,
    score_text,
    scores_text,
)
from .stages import stage_views
from .types import fast_constructor

if TYPE_CHECKING:
    from ..state import TournamentState

# Frozen and slotted, built by the thousand per request on a big event (a round of 4,096 duplas has 2,048 jogos):
# made through ``types.fast_constructor`` (a frozen dataclass's own ``__init__`` costs five times a dict).


@dataclass(frozen=True, slots=True)
class PartidaLine:
    """A partida's score as a jogo's line shows it: "15 x 12" (``labels.score_text``), with "(perda da partida)"
    when it was lost so."""

    number: int
    a: int
    b: int
    finished: bool
    winner: int | None
    text: str
    penalty: bool


@dataclass(frozen=True, slots=True)
class ResultView:
    """A jogo's status, partidas and live score (``result_view``)."""

    status: Status
    won: tuple[int, int] | None  # partidas won by each side
    winner: int | None  # 0 or 1
    partidas: list[PartidaLine]  # the finished ones
    live: PartidaLine | None  # the partida being played
    walkover: str  # "as duas duplas ausentes", else ""
    walkover_side: int | str | None  # the absent side (0 or 1) of a walkover
    penalty: str  # "perda do jogo: …"
    best_of: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class JogoItem:
    """A jogo's line on /jogos/, the event page's "agora", the TV and a dupla's page: its duplas, its result as
    ``ResultView`` tells it, and what the line's HTML needs already made. ``stage_title`` and ``time``: for a
    jogo shown outside its round (``jogo_item_maker``).

    The jogos page keeps each line's HTML by ``repr`` of its item (``{% valuecache %}``): every field is in it."""

    id: str
    mesa: int | None
    mesa_text: str
    round_title: str
    group: str
    a: DuplaRef
    b: DuplaRef
    third_place: bool
    status: Status
    won: tuple[int, int] | None
    winner: int | None
    partidas: list[PartidaLine]
    live: PartidaLine | None
    walkover: str
    walkover_side: int | str | None
    penalty: str
    best_of: int | None
    sumula_url: str
    cls: str
    a_cls: str
    b_cls: str
    won_a: str
    won_b: str
    absent_a: bool
    absent_b: bool
    score_text: str
    show_partidas: bool
    best_of_label: str
    stage_title: str = ""
    time: str = ""
    online: bool = False  # played on an online table (docs/regras.md §9.7): the "online" badge
    watch_url: str = ""  # that table, for anyone to watch


_partida_line = fast_constructor(PartidaLine)
_result_view = fast_constructor(ResultView)
_jogo_item = fast_constructor(JogoItem)


def jogo_rows_by_slot(state: TournamentState) -> dict[tuple[int, int | None, int | None, bool], JogoRow]:
    """The knockout jogos by their place in the bracket: (stage id, round, position, third place)."""
    out: dict[tuple[int, int | None, int | None, bool], JogoRow] = {}
    for j in state.jogo_rows:
        if j.group_id is None and j.round is not None:
            out[(j.stage_id, j.round, 0 if j.third_place else j.position, j.third_place)] = j
    return out


def status_code(result: JogoResult | None, row: JogoRow | None) -> str:
    """A jogo's status code alone (as ``result_view`` tells it), cheap enough for every jogo of a big event."""
    if result is not None:
        if result.walkover is not None:
            return "wo"
        if result.finished:
            return DECIDED_CODES.get(row.status, "finished") if row is not None else "finished"
        if result.started:
            return "live"
    if row is not None and row.status == Jogo.IN_PROGRESS:
        return "live"
    return "upcoming"


def result_view(
    result: JogoResult | None,
    row: JogoRow | None,
    partida_rows: list[PartidaRow],
    labels: Mapping[str, Any] | None = None,
) -> ResultView:
    """Status, partidas and live score of a jogo (row: the stored jogo, may be None)."""
    labels = labels or page_labels()
    status: Status = labels["to_play"]
    best_of: int | None = None
    if row is not None:
        best_of = row.best_of
        if row.status == Jogo.IN_PROGRESS:
            status = labels["status"]["live"]
    if result is None:
        return _result_view(status, None, None, [], None, "", None, "", best_of)
    best_of = result.best_of
    code = status_code(result, row)
    winner = None
    if result.finished:
        status = labels["status"][code] if code in labels["status"] else labels["wo"]
        winner = result.winner
    elif result.started:
        status = labels["status"]["live"]
    if result.walkover is not None:
        provisional = row is not None and row.status in (Jogo.AWAITING, Jogo.CONTESTED)
        status = labels["status"][DECIDED_CODES[row.status]] if provisional and row else labels["wo"]
        both = result.walkover == WALKOVER_BOTH
        return _result_view(
            status,
            None,
            winner,
            [],
            None,
            labels["both_absent"] if both else "",
            None if both else result.walkover,
            "",
            best_of,
        )
    won = result.partidas_won
    if result.lost_by is not None:
        penalty = labels["lost_jogo"] + (f": {row.penalty_reason}" if row and row.penalty_reason else "")
        return _result_view(status, won, winner, [], None, "", None, penalty, best_of)
    partidas: list[PartidaLine] = []
    live = None
    aligned = len(partida_rows) == len(result.partidas)
    for i, p in enumerate(result.partidas):
        penalty = aligned and partida_rows[i].mode == "penalty"
        text = score_text(p.score[0], p.score[1])
        if penalty:
            text += " (" + labels["lost_partida"] + ")"
        item = _partida_line(i + 1, p.score[0], p.score[1], p.finished, p.winner, text, penalty)
        if p.finished:
            partidas.append(item)
        elif not result.finished:
            live = item
    return _result_view(status, won, winner, partidas, live, "", None, "", best_of)


def jogo_item(
    state: TournamentState,
    row: JogoRow,
    refs: Mapping[str, DuplaRef],
    key_of: Mapping[int, str],
    group_titles: Mapping[int | None, str],
    round_title: str,
    labels: Mapping[str, Any],
    *,
    stage_title: str = "",
    time: str = "",
) -> JogoItem:
    a = key_of.get(row.dupla_a_id)
    b = key_of.get(row.dupla_b_id)
    view = result_view(state.results.get(row.id), row, state.partidas.get(row.id, []), labels)
    won, winner, absent, partidas = view.won, view.winner, view.walkover_side, view.partidas
    online = jogo_online(state, row)
    return _jogo_item(
        id=as_is(row.id),
        mesa=row.mesa,
        mesa_text=as_is(row.mesa or "—"),
        round_title=round_title,
        group=group_titles.get(row.group_id, ""),
        a=refs.get(a) or unknown_dupla(a) if a else unknown_dupla(a),
        b=refs.get(b) or unknown_dupla(b) if b else unknown_dupla(b),
        third_place=row.third_place,
        status=view.status,
        won=won,
        winner=winner,
        partidas=partidas,
        live=view.live,
        walkover=view.walkover,
        walkover_side=absent,
        penalty=view.penalty,
        best_of=view.best_of,
        sumula_url=f"/torneios/{state.tournament.slug}/jogos/{row.key}/",
        cls=as_is("jogo jogo-" + view.status.code),
        a_cls=_SIDE_WINNER if winner == 0 else _SIDE,
        b_cls=_SIDE_WINNER if winner == 1 else _SIDE,
        won_a=as_is(won[0]) if won else "",
        won_b=as_is(won[1]) if won else "",
        absent_a=absent == 0,
        absent_b=absent == 1,
        score_text=scores_text(p.text for p in partidas),
        show_partidas=bool(partidas or view.live),
        best_of_label=_best_of_escaped(view.best_of, labels),
        stage_title=stage_title,
        time=time,
        online=online,
        watch_url=f"/torneios/{state.tournament.slug}/jogos/{row.key}/mesa/" if online else "",
    )


def jogo_online(state: TournamentState, row: JogoRow) -> bool:
    """Whether a jogo is played on an online table: a hybrid event's mesa online, or a jogo of an online event or
    stage (``online.event``: ``Tournament.online`` is "none", "all" or stage keys)."""
    if row.online:
        return True
    setting = event_online(state.tournament)
    if setting == ALL:
        return True
    if isinstance(setting, list):
        return any(model.id == row.stage_id for key, model in state.stage_models.items() if key in setting)
    return False


_SIDE, _SIDE_WINNER = SafeString("jogo-side"), SafeString("jogo-side is-winner")


def _best_of_escaped(n: int | None, labels: Mapping[str, Any]) -> str:
    if not n:
        return ""
    text: str = labels["best_of_escaped"].get(n) or escape(labels["best_of"] % {"n": n})
    return text


def jogo_place(state: TournamentState) -> Callable[[JogoRow | Jogo], tuple[str, str, str]]:
    """A function giving a stored jogo's (stage, group, round) titles: ("Fase de grupos", "Grupo A", "Rodada 2"),
    ("Eliminatória", "", "Semifinais"). It takes the jogo's ``stage_id``, ``group_id``, ``round`` and
    ``third_place`` (a row of ``state.jogo_rows``, or a model)."""
    labels = page_labels()
    stages = {model.id: (view, title) for view, model, title in stage_views(state) if model is not None}
    groups = {gid: g for (_s, g), gid in state.group_names.items()}

    def place(row: JogoRow | Jogo) -> tuple[str, str, str]:
        view, title = stages.get(row.stage_id, (None, ""))
        number = row.round
        if row.group_id is not None:
            group = groups.get(row.group_id, "")
            return (
                title,
                labels["group"] % {"key": group} if group else "",
                (labels["round"] % {"n": number} if number else ""),
            )
        total = len(view.bracket.rounds) if isinstance(view, KnockoutStageView) and view.bracket is not None else None
        return title, "", knockout_round_title(round_number=number, total_rounds=total, third_place=row.third_place)

    return place


def jogo_label(state: TournamentState) -> Callable[[JogoRow | Jogo], str]:
    """A function naming a stored jogo as people know it, never by its key (the key stays in addresses and
    files): a knockout jogo by its round and its place in it, top to bottom as the bracket draws it
    ("Quartas de final · jogo 2"; a round of one jogo by its name alone: "Final", "Disputa de 3º lugar"); a group
    jogo by its group and round ("Grupo A · Rodada 2": where a page shows it, the mesa and the duplas are beside
    it). Takes what ``jogo_place`` takes, and the jogo's ``position`` and ``key`` (the key only when nothing else
    names it: a jogo a file gave with no round)."""
    labels = page_labels()
    place = jogo_place(state)
    rounds = {
        model.id: len(view.bracket.rounds)
        for view, model, _title in stage_views(state)
        if model is not None and isinstance(view, KnockoutStageView) and view.bracket is not None
    }

    def label(row: JogoRow | Jogo) -> str:
        stage, group, round_title = place(row)
        if row.group_id is None:
            if row.third_place or not row.round or not round_title:
                return round_title or stage or row.key
            if row.position and rounds.get(row.stage_id) != row.round:  # the final: one jogo, its name says it
                return labels["jogo_in_round"] % {"round": round_title, "n": row.position}
            return round_title
        return " · ".join(p for p in (group, round_title) if p) or stage or row.key

    return label


def jogo_item_maker(state: TournamentState) -> Callable[[JogoRow], JogoItem]:
    """A function turning a stored jogo (a row of ``state.jogo_rows``) into a ``jogo_item`` that also says its
    stage (``stage_title``) and the time the organizer gave its round (``time``). What every item needs is
    computed once, here, for any number of rows (the event page's "agora", the TV, a dupla's next jogo)."""
    labels = page_labels()
    refs = dupla_refs(state)
    key_of = state.dupla_key_by_id()
    group_titles: dict[int | None, str] = {
        gid: escape(labels["group"] % {"key": g}) for (_s, g), gid in state.group_names.items()
    }
    place = jogo_place(state)
    stage_of = {m.id: m for m in state.stage_models.values()}

    def make(row: JogoRow) -> JogoItem:
        stage_title, _group, round_title = place(row)
        return jogo_item(
            state,
            row,
            refs,
            key_of,
            group_titles,
            round_title,
            labels,
            stage_title=stage_title,
            time=round_time_of(stage_of.get(row.stage_id), row.round),
        )

    return make
