"""One dupla's page: its next jogo and mesa first, its jogos, its group table, its path in the bracket.

The public page (/torneios/<slug>/duplas/<key>/) and the dupla's private page
(its private link, which adds the súmulas to confirm) show the same thing,
built here once. Public data only.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.atleta import name_sort_key
from scoring.registration import name_key
from scoring.tournament import GroupStageView, KnockoutStageView

from .bracket import BracketJogo, bracket_jogo
from .duplas import DuplaRef, dupla_refs, unknown_dupla
from .jogo import JogoItem, jogo_item_maker, jogo_rows_by_slot, status_code
from .jogos import JogosPage, jogos_present
from .labels import knockout_round_title, ordinal, page_labels, score_text, scores_text
from .stages import stage_views
from .standings import GROUPS_PER_PAGE, ClassificationRow, GroupTable, classification_present, standings_present

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from ..state import TournamentState


@dataclass(frozen=True, slots=True, kw_only=True)
class MyJogo(JogoItem):
    """A jogo item (``jogos.JogoItem``) seen from one dupla's side: its opponent, its scores first."""

    side: str  # "a" or "b"
    opponent: DuplaRef
    mine_won: str
    their_won: str
    absent_me: bool
    absent_them: bool
    my_partidas: str  # "15 x 12, 9 x 15": this dupla's points first
    my_live: str  # the partida being played, this dupla's points first: "3 x 4"; "" when none
    outcome: str  # "won", "lost" or ""
    playing: bool = False  # at a mesa now (the next jogo)


@dataclass(frozen=True, slots=True, kw_only=True)
class PathStep(BracketJogo):
    """A jogo of the dupla's path in the bracket, from its side."""

    opponent: DuplaRef | None
    opponent_label: str
    mine_score: int | None
    their_score: int | None
    outcome: str  # "won", "lost" or ""
    sort: tuple[int, int]


@dataclass(frozen=True, slots=True)
class BracketPath:
    """A knockout stage as the dupla went through it."""

    title: str
    steps: list[PathStep]
    champion: bool
    eliminated: bool
    round_names: list[str]


@dataclass(frozen=True, slots=True)
class DuplaPage:
    """The dupla's page; ``found`` False (and nothing else) for a key not in the tournament."""

    found: bool
    dupla: DuplaRef
    next: MyJogo | None = None
    jogos: JogosPage | None = None
    tables: list[GroupTable] | None = None
    path: list[BracketPath] | None = None
    place: ClassificationRow | None = None
    finished: bool = False
    canonical: bool = True
    title: str = ""
    out: str = ""  # where it was eliminated and by whom ("Eliminada nas quartas de final por …"), else ""
    # the players' (name, atleta key or "", equipe or ""), on the public page: linked to their atleta page
    atletas: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class DuplasFound:
    """/duplas/: the duplas whose names contain the query, by name."""

    query: str
    rows: list[DuplaRef]
    total: int
    canonical: bool


def _values(item: DataclassInstance) -> dict[str, Any]:
    """A dataclass's fields by name, one level deep (``dataclasses.asdict`` would copy every value inside)."""
    return {f.name: getattr(item, f.name) for f in fields(item)}


def from_my_side(j: JogoItem, key: str, *, playing: bool = False) -> MyJogo:
    """A jogo item (``jogos.jogo_item``) with the opponent and the scores seen by dupla ``key``."""
    mine = j.a.key == key

    def me_first[T](a: T, b: T) -> tuple[T, T]:
        return (a, b) if mine else (b, a)

    mine_won, their_won = me_first(j.won_a, j.won_b)
    absent_me, absent_them = me_first(j.absent_a, j.absent_b)
    parts = []
    for p in j.partidas:
        a, b = me_first(p.a, p.b)
        parts.append(score_text(a, b) + (p.text[len(score_text(p.a, p.b)) :] if p.penalty else ""))
    winner = j.winner
    return MyJogo(
        **_values(j),
        side="a" if mine else "b",
        opponent=j.b if mine else j.a,
        mine_won=mine_won,
        their_won=their_won,
        absent_me=absent_me,
        absent_them=absent_them,
        my_partidas=scores_text(parts),
        my_live=score_text(*me_first(j.live.a, j.live.b)) if j.live else "",
        outcome="" if winner is None else ("won" if (winner == 0) == mine else "lost"),
        playing=playing,
    )


def _next_jogo(state: TournamentState, key: str) -> MyJogo | None:
    """The dupla's jogo at a mesa now, else its next one to play (earliest stage and round, then mesa)."""
    dupla = state.duplas.get(key)
    if dupla is None:
        return None
    mine = [r for r in state.jogo_rows if dupla.id in (r.dupla_a_id, r.dupla_b_id)]
    codes = {r.id: status_code(state.results.get(r.id), r) for r in mine}
    order = {m.id: m.order for m in state.stage_models.values()}
    playing = [r for r in mine if codes[r.id] == "live"]
    to_play = sorted(
        (r for r in mine if codes[r.id] == "upcoming"),
        key=lambda r: (order.get(r.stage_id, 0), r.round or 0, r.mesa or 0, r.id),
    )
    if not playing and not to_play:
        return None
    row = (playing or to_play)[0]
    return from_my_side(jogo_item_maker(state)(row), key, playing=bool(playing))


def group_tables(state: TournamentState, key: str) -> list[GroupTable]:
    """The standings tables (as ``standings_present`` makes them) of the groups ``key`` plays in, its row marked."""
    tables = [(view, t) for view in state.view.stages if isinstance(view, GroupStageView) for t in view.tables]
    mine = [i for i, (_v, t) in enumerate(tables) if key in t.duplas]
    if not mine:
        return []
    pages: list[int | None] = [None]
    if len(tables) > GROUPS_PER_PAGE:
        pages = [*sorted({i // GROUPS_PER_PAGE + 1 for i in mine})]
    out = []
    for number in pages:
        page = standings_present(state, pagina=number)
        for stage in page.stages:
            for table in stage.tables:
                if any(row.dupla.key == key for row in table.rows):
                    rows = [
                        replace(row, cls=(row.cls + " is-me").strip()) if row.dupla.key == key else row
                        for row in table.rows
                    ]
                    out.append(replace(table, rows=rows, stage_title=stage.title, show_stage=len(page.stages) > 1))
    return out


def bracket_path(state: TournamentState, key: str) -> list[BracketPath]:
    """Per knockout stage, the dupla's jogos in the bracket, round by round, from its side."""
    refs = dupla_refs(state)
    labels = page_labels()
    rows_by_slot = jogo_rows_by_slot(state)
    out = []
    for view, model, title in stage_views(state):
        if not isinstance(view, KnockoutStageView) or view.bracket is None:
            continue
        total = len(view.bracket.rounds)
        steps = []
        for jogo in view.bracket.jogos():
            if key not in jogo.duplas:
                continue
            shown = bracket_jogo(state, jogo, refs, rows_by_slot, model.id if model else None, total, labels)
            me = jogo.duplas.index(key)
            other = shown.slots[1 - me]
            outcome = ""
            if jogo.decided and not jogo.bye:
                outcome = "won" if jogo.winner == key else "lost"
            steps.append(
                PathStep(
                    **_values(shown),
                    opponent=other.dupla,
                    opponent_label=other.label,
                    mine_score=shown.slots[me].score,
                    their_score=other.score,
                    outcome=outcome,
                    sort=(1, jogo.round) if jogo.third_place else (0, jogo.round),
                )
            )
        if not steps:
            continue
        steps.sort(key=lambda s: s.sort)
        final = view.bracket.final
        champion = final.decided and final.winner == key
        out_of_it = any(s.outcome == "lost" and not s.third_place for s in steps)
        out.append(
            BracketPath(
                title=title,
                steps=steps,
                champion=champion,
                eliminated=out_of_it and not champion,
                round_names=[knockout_round_title(round_number=r, total_rounds=total) for r in range(1, total + 1)],
            )
        )
    return out


# where a dupla was knocked out, by the round's place from the end (1: the final); earlier rounds by number
ELIMINATED_WHERE = {
    2: gettext_noop("na semifinal"),
    3: gettext_noop("nas quartas de final"),
    4: gettext_noop("nas oitavas de final"),
    5: gettext_noop("nos 16-avos de final"),
}


def _with_name(text: str, *, dupla: str, **values: str) -> str:
    """``text`` (translated) filled with ``values`` and the name ``dupla``, each escaped, the name isolated (bdi)."""
    filled = {k: escape(v) for k, v in values.items()} | {"dupla": format_html("<bdi>{}</bdi>", dupla)}
    return SafeString(escape(text) % filled)


def eliminated_text(state: TournamentState, key: str, path: list[BracketPath]) -> str:
    """Where the dupla left the competition, from counted results only: the knockout round it lost and to whom
    ("Eliminada nas quartas de final por …"; the final: "Vice-campeã …"), or the group it did not qualify from and
    its place there ("Não se classificou no grupo B: 3º lugar."). "" while it is still in (or nothing tells)."""
    for stage in reversed(path):
        lost = next((s for s in stage.steps if s.outcome == "lost" and not s.third_place), None)
        if lost is None or not stage.eliminated:
            continue
        from_end = len(stage.round_names) - lost.round + 1
        winner = next((slot.dupla for slot in lost.slots if slot.winner and slot.dupla is not None), None)
        if from_end == 1 and winner is not None:
            return _with_name(_("Vice-campeã: perdeu a final para %(dupla)s."), dupla=winner.name)
        if from_end == 1:
            where = _("na final")
        elif from_end in ELIMINATED_WHERE:
            where = _(ELIMINATED_WHERE[from_end])
        else:
            where = _("na %(n)sª rodada") % {"n": lost.round}
        if winner is None:  # nobody won (both absent)
            return _("Eliminada %(where)s.") % {"where": where}
        return _with_name(_("Eliminada %(where)s por %(dupla)s."), where=where, dupla=winner.name)
    views = state.view.stages
    for i, view in enumerate(views):
        # a group stage that sends duplas on to a knockout, once its qualifiers are known
        if not isinstance(view, GroupStageView) or not view.decided:
            continue
        if not any(isinstance(v, KnockoutStageView) for v in views[i + 1 :]):
            continue
        if any(d == key for d, _g in view.qualifiers):
            continue
        for table in view.tables:
            row = next((r for r in table.rows if r.dupla == key), None)
            if row is not None:
                return _("Não se classificou no grupo %(group)s: %(place)s lugar.") % {
                    "group": table.key,
                    "place": ordinal(row.rank),
                }
    return ""


def dupla_present(state: TournamentState, key: str) -> DuplaPage:
    """Everything the dupla's page shows, or ``found`` False for a key not in the tournament."""
    refs = dupla_refs(state)
    me = refs.get(key)
    if me is None:
        return DuplaPage(found=False, dupla=unknown_dupla(key))
    jogos = jogos_present(state, dupla=key)
    jogos = replace(
        jogos,
        sections=[
            replace(
                section,
                rounds=[replace(block, jogos=[from_my_side(j, key) for j in block.jogos]) for block in section.rounds],
            )
            for section in jogos.sections
        ],
    )
    place = None
    if state.view.finished:
        place = next((row for row in classification_present(state, refs=refs) if row.dupla.key == key), None)
    path = bracket_path(state, key)
    return DuplaPage(
        found=True,
        dupla=me,
        next=_next_jogo(state, key),
        jogos=jogos,
        tables=group_tables(state, key),
        path=path,
        place=place,
        finished=state.view.finished,
        canonical=True,
        title=_("Dupla %(name)s") % {"name": me.name},
        out=eliminated_text(state, key, path),
    )


def duplas_find(state: TournamentState, *, q: str | None) -> DuplasFound:
    """The duplas whose name or players' names contain ``q`` (case and accents ignored), by name."""
    refs = dupla_refs(state)
    query = (q or "").strip()[:80]
    wanted = name_key(query) if query else ""
    rows = sorted(refs.values(), key=lambda r: name_sort_key(r.name))
    if wanted:
        rows = [r for r in rows if wanted in name_key(" ".join((r.name, *r.player_names)))]
    return DuplasFound(query=query, rows=rows, total=len(refs), canonical=not query)
