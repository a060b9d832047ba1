"""The event as a whole: its status, its stages with their titles, its rules in words, its head."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.bracket_draw import bracket_size
from scoring.rules import RuleSettings
from scoring.tournament import (
    GroupStageView,
    KnockoutStageView,
    StageSpec,
    group_best_of,
    knockout_best_of,
)

from ..draws.format import STAGE_GROUPS, STAGE_KNOCKOUT, format_effective
from ..models import Jogo, Stage
from .labels import (
    Status,
    best_of_label,
    date_br,
    knockout_round_title,
    page_labels,
    preset_label,
    stage_title,
    time_br,
)

if TYPE_CHECKING:
    from ..state import TournamentState

type StageView = GroupStageView | KnockoutStageView


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """A knockout round as planned: its name and how many partidas it is played to (None: not told)."""

    name: str
    best_of: int | None


@dataclass(frozen=True, slots=True)
class RoundRule:
    """A knockout round in the rules: its name and "melhor de N" (or "")."""

    name: str
    best_of: str


@dataclass(frozen=True, slots=True)
class StageRules:
    """A stage in the rules: groups (how many, how many qualify) or knockout (its rounds)."""

    title: str
    kind: str  # "groups" or "knockout"
    groups: int  # how many groups; 0 before the draw (then ``group_size``)
    best_of: str
    qualify: str
    rounds: list[RoundRule]
    group_size: int = 0  # before the draw: the groups' size the organizer chose


@dataclass(frozen=True, slots=True)
class RuleLine:
    label: str
    value: str


@dataclass(frozen=True, slots=True)
class Rules:
    """The event's rules in words (the event page): the preset, the stages, the rules that vary by preset."""

    preset: str
    stages: list[StageRules]
    rules: list[RuleLine]


@dataclass(frozen=True, slots=True)
class EventHead:
    """What every event page shows on top: name, date, venue, status."""

    name: str
    slug: str
    date: str
    start_time: str
    venue: str
    city: str
    status: Status
    has_groups: bool
    has_knockout: bool


# --- status ------------------------------------------------------------------------


def status_of(code: str) -> Status:
    status: Status = page_labels()["status"][code]
    return status


def tournament_status(state: TournamentState) -> Status:
    if state.view.finished:
        return status_of("finished")
    started = any(r is not None and (r.started or r.finished) for r in state.results.values())
    started = started or any(j.status != Jogo.SCHEDULED for j in state.jogo_rows)
    return status_of("live" if started else "upcoming")


# --- the event ---------------------------------------------------------------------


def stage_views(state: TournamentState) -> list[tuple[StageView, Stage | None, str]]:
    """(view, model, title) for every stage, in order."""
    views = list(state.view.stages)
    out: list[tuple[StageView, Stage | None, str]] = []
    for _i, view in enumerate(views):
        kind = Stage.GROUPS if isinstance(view, GroupStageView) else Stage.KNOCKOUT
        same_kind = [v for v in views if isinstance(v, type(view))]
        position = next(k for k, v in enumerate(same_kind) if v is view)
        model = state.stage_models.get(view.stage.key)
        out.append((view, model, stage_title(model, kind, position, len(same_kind))))
    return out


def _knockout_size_guess(state: TournamentState, index: int) -> int | None:
    """Number of duplas a not-yet-drawn knockout will take, when it can be told."""
    views = state.view.stages
    spec = views[index].stage
    if not isinstance(spec.entrants, str):
        return len(spec.entrants)
    if index == 0:
        return None
    prev = views[index - 1]
    if isinstance(prev, GroupStageView):
        sizes = [len(g.duplas) for g in prev.stage.groups]
        n = sum(min(prev.stage.per_group, s) for s in sizes) + prev.stage.best_others
        return n or None
    return 1  # a knockout after a knockout takes its champion


def _round_plan(state: TournamentState, index: int) -> list[RoundPlan]:
    """Best-of of each round of a knockout stage (drawn or not)."""
    view = state.view.stages[index]
    assert isinstance(view, KnockoutStageView)
    if view.bracket is not None:
        total = len(view.bracket.rounds)
        return [
            RoundPlan(
                name=knockout_round_title(round_number=r + 1, total_rounds=total),
                best_of=rnd[0].best_of if rnd else None,
            )
            for r, rnd in enumerate(view.bracket.rounds)
        ]
    n = _knockout_size_guess(state, index)
    if not n or n < 2:
        return []
    total = bracket_size(n).bit_length() - 1
    return [
        RoundPlan(
            name=knockout_round_title(round_number=r, total_rounds=total),
            best_of=knockout_best_of(stage=view.stage, round_number=r, settings=state.settings),
        )
        for r in range(1, total + 1)
    ]


def rule_texts(s: RuleSettings) -> dict[str, str]:
    """The preset's rules in words (the event page and the printed súmula's reminders say them alike): a table of
    texts by rule, read by name."""
    return {
        "onze_tie": _("a outra dupla ganha 3 pontos") if s.mao_de_onze_tie == "opponent" else _("ninguém pontua"),
        "ferro": ngettext("%(n)s ponto", "%(n)s pontos", s.mao_de_ferro_value) % {"n": s.mao_de_ferro_value},
        "third": {
            "match": _("decidido em jogo, com o mesmo número de partidas da final"),
            "average": _("pelo average (sem jogo de 3º lugar)"),
            "shared": _("bronze para as duas duplas eliminadas nas semifinais"),
        }.get(s.third_place, s.third_place),
        "manilha": _("fixa (velha): 4♣ 7♥ A♠ 7♦") if s.manilha == "fixed" else _("variável (vira)"),
        "deck": _("sujo (40 cartas)") if s.deck == "sujo" else s.deck,
    }


def _qualify_text(per: int, others: int) -> str:
    qualify = ngettext("%(n)s classificada por grupo", "%(n)s classificadas por grupo", per) % {"n": per}
    if others:
        qualify += " + " + ngettext(
            "%(n)s melhor entre os demais colocados", "%(n)s melhores entre os demais colocados", others
        ) % {"n": others}
    return qualify if per or others else ""


def planned_stages(state: TournamentState) -> list[StageRules]:
    """Before the draw: the stages the format chosen at the desk will make (``draws.format.format_effective``: the
    stored format over the preset's), named as the draw names them, best-of resolved as it will be."""
    fmt = format_effective(tournament=state.tournament)
    settings = state.settings
    kind = fmt["kind"]
    out: list[StageRules] = []
    if kind in ("groups_knockout", "round_robin"):
        spec = StageSpec(key=STAGE_GROUPS[0], kind=Stage.GROUPS, best_of=fmt.get("best_of_groups"))
        single = kind == "round_robin"
        out.append(
            StageRules(
                title=STAGE_GROUPS[1],
                kind="groups",
                groups=1 if single else 0,
                best_of=best_of_label(group_best_of(stage=spec, settings=settings)),
                qualify="" if single else _qualify_text(fmt.get("per_group") or 0, fmt.get("best_others") or 0),
                rounds=[],
                group_size=0 if single else fmt.get("group_size") or 0,
            )
        )
    if kind in ("groups_knockout", "knockout"):
        raw = fmt.get("best_of_rounds")
        rounds = {int(k): v for k, v in (raw if isinstance(raw, dict) else {}).items() if str(k).isdigit()}
        spec = StageSpec(
            key=STAGE_KNOCKOUT[0], kind=Stage.KNOCKOUT, best_of=fmt.get("best_of_knockout"), best_of_rounds=rounds
        )
        first = knockout_best_of(stage=spec, round_number=1, settings=settings)
        later = spec.best_of if spec.best_of is not None else settings.best_of_later_knockout
        parts = [
            best_of_label(first)
            if first == later
            else _("melhor de %(a)s na 1ª rodada e de %(b)s nas seguintes") % {"a": first, "b": later}
        ]
        parts += [_("melhor de %(n)s na %(k)sª rodada") % {"n": v, "k": k} for k, v in sorted(rounds.items()) if k > 1]
        out.append(
            StageRules(
                title=STAGE_KNOCKOUT[1], kind="knockout", groups=0, best_of=", ".join(parts), qualify="", rounds=[]
            )
        )
    return out


def rules_present(state: TournamentState) -> Rules:
    s = state.settings
    cp = s.class_points
    stages: list[StageRules] = []
    for i, (view, _model, title) in enumerate(stage_views(state)):
        if isinstance(view, GroupStageView):
            stages.append(
                StageRules(
                    title=title,
                    kind="groups",
                    groups=len(view.tables),
                    best_of=best_of_label(group_best_of(stage=view.stage, settings=s)),
                    qualify=_qualify_text(view.stage.per_group, view.stage.best_others),
                    rounds=[],
                )
            )
        else:
            rounds = _round_plan(state, i)
            stages.append(
                StageRules(
                    title=title,
                    kind="knockout",
                    groups=0,
                    qualify="",
                    best_of=""
                    if rounds
                    else best_of_label(knockout_best_of(stage=view.stage, round_number=1, settings=s)),
                    rounds=[RoundRule(name=r.name, best_of=best_of_label(r.best_of)) for r in rounds],
                )
            )
    if not stages:  # not drawn yet: the format as the organizer set it
        stages = planned_stages(state)
    texts = rule_texts(s)
    onze, ferro, third, manilha = texts["onze_tie"], texts["ferro"], texts["third"], texts["manilha"]
    rules = [
        RuleLine(label=_("Manilha"), value=manilha),
        RuleLine(label=_("Baralho"), value=texts["deck"]),
        RuleLine(label=_("Mão de onze com as três rodadas empatadas"), value=onze),
        RuleLine(
            label=_("Mão de ferro (11 x 11)"),
            value=_("vale %(pontos)s; quem vence a mão vence a partida") % {"pontos": ferro},
        ),
        RuleLine(label=_("3º lugar"), value=third),
    ]
    if any(st.kind == "groups" for st in stages):
        rules.append(
            RuleLine(
                label=_("Pontos classificatórios"),
                value=_(
                    "vitória sem perder partida %(a)s x %(b)s; vitória perdendo partida %(c)s x %(d)s; WO %(e)s x %(f)s"
                )
                % {
                    "a": cp.clean_win,
                    "b": cp.clean_loss,
                    "c": cp.close_win,
                    "d": cp.close_loss,
                    "e": cp.walkover_win,
                    "f": cp.walkover_loss,
                },
            )
        )
        rules.append(
            RuleLine(
                label=_("Desempate nos grupos"),
                value=_("partidas vencidas, confronto direto, saldo de pontos-partida, sorteio"),
            )
        )
    return Rules(preset=preset_label(state.tournament.preset), stages=stages, rules=rules)


def event_head(state: TournamentState) -> EventHead:
    """What every event page shows on top: name, date, venue, status."""
    t = state.tournament
    return EventHead(
        name=t.name,
        slug=t.slug,
        date=date_br(t.date),
        start_time=time_br(t.start_time),
        venue=t.venue,
        city=t.city,
        status=tournament_status(state),
        has_groups=any(isinstance(v, GroupStageView) for v in state.view.stages),
        has_knockout=any(isinstance(v, KnockoutStageView) for v in state.view.stages),
    )
