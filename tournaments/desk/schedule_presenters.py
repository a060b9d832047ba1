"""The programação as the desk shows it: blocks by stage and round (titled "Rodada 1", "Semifinais"…), each jogo
with its mesa, turn, duplas, status and referee."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from scoring.tournament import KnockoutStageView

from ..calls.selectors import calls_by_jogo
from ..draws.tables import staff_users
from ..models import Call, Jogo, Stage, Tournament
from ..online.event import stage_online
from ..presenters import knockout_round_title, time_br
from ..roles import staff_choices
from ..round_times import round_time_of
from ..selectors import jogo_referee, mesa_referees, tournament_state_get


@dataclass
class ScheduleRow:
    id: int
    mesa: int | None
    turn: int
    dupla_a: str
    dupla_b: str
    group: str | None
    status: str  # scheduled | in_progress | finished
    status_label: str
    referee_id: int | None  # the jogo's own referee
    referee: str  # whoever referees it: the jogo's, else the mesa's ("" when nobody)
    called: str = ""  # the time of the jogo's latest call to its mesa ("14:05"), or ""
    online: bool = False  # played on an online table (docs/regras.md §9.7): marked, or by the event's setting
    online_marked: bool = False  # marked one by one (a hybrid event's mesa online): the desk may unmark it


@dataclass
class ScheduleBlock:
    stage: str
    title: str
    rows: list[ScheduleRow]
    stage_key: str = ""
    round: int | None = None
    time: str = ""  # the time the organizer gave the round ("14:30"), or ""


@dataclass
class Schedule:
    blocks: list[ScheduleBlock]
    staff: list[tuple[int, str]]  # (user id, display name) who may referee
    mesas: int | None
    waiting: list[str]  # stages not drawn yet, with why


STATUS_LABELS = dict(Jogo.STATUS_CHOICES)


def schedule_present(*, tournament: Tournament) -> Schedule:
    """Jogos by stage and round, each with its mesa, turn on that mesa, duplas, status and referee."""
    state = tournament_state_get(tournament=tournament)
    staff = staff_choices(staff_users(tournament=tournament))
    usernames = dict(staff)
    mesa_referee = mesa_referees(tournament=tournament)
    named = {j.referee_id for j in state.jogo_rows} | set(mesa_referee.values())
    others = {i for i in named if i is not None} - set(usernames)
    if others:  # a referee whose role was taken away since: still named on the schedule
        usernames.update(staff_choices(get_user_model().objects.filter(pk__in=others)))
    names = {d.id: d.display_name for d in state.duplas.values()}
    group_key: dict[int | None, str] = {gid: g for (_s, g), gid in state.group_names.items()}
    totals: dict[str, int] = {}
    waiting: list[str] = []
    for view in state.view.stages:
        if isinstance(view, KnockoutStageView):
            if view.bracket is not None:
                totals[view.stage.key] = len(view.bracket.rounds)
            else:
                waiting.append(f"{view.stage.name or view.stage.key}: {_(view.waiting_for)}")
    stage_of = {s.id: s for s in state.stage_models.values()}
    called = {
        jogo_id: time_br(max(at for channel, at in calls if channel == Call.PAGES))
        for jogo_id, calls in calls_by_jogo(tournament=tournament).items()
        if any(channel == Call.PAGES for channel, _at in calls)
    }
    turns: dict[tuple, int] = defaultdict(int)
    blocks: dict[tuple, ScheduleBlock] = {}
    rows = sorted(
        state.jogo_rows,
        key=lambda j: (stage_of[j.stage_id].order, j.round or 0, j.third_place, j.position or 0, j.id),
    )
    for j in rows:
        stage = stage_of[j.stage_id]
        knockout = stage.kind == Stage.KNOCKOUT
        if knockout and (j.third_place or (stage.key in totals and j.round)):
            title = knockout_round_title(
                round_number=j.round, total_rounds=totals.get(stage.key), third_place=j.third_place
            )
        else:
            title = _("Rodada %(n)s") % {"n": j.round or "?"}
        block_key = (stage.order, j.round or 0, bool(knockout and j.third_place))
        block = blocks.get(block_key)
        if block is None:
            block = blocks[block_key] = ScheduleBlock(
                stage=stage.name or stage.key,
                title=title,
                rows=[],
                stage_key=stage.key,
                round=j.round,
                time=round_time_of(stage, j.round),
            )
        turn_key = (stage.id, j.round, j.mesa)
        turns[turn_key] += 1
        referee_id = jogo_referee(j, mesa_referee)
        block.rows.append(
            ScheduleRow(
                id=j.id,
                mesa=j.mesa,
                turn=turns[turn_key],
                dupla_a=names.get(j.dupla_a_id, "?"),
                dupla_b=names.get(j.dupla_b_id, "?"),
                group=group_key.get(j.group_id),
                status=j.status,
                status_label=str(STATUS_LABELS.get(j.status, j.status)),
                referee_id=j.referee_id,
                referee=usernames.get(referee_id, "") if referee_id else "",
                called=called.get(j.id, ""),
                online=j.online or stage_online(tournament, stage.key),
                online_marked=j.online,
            )
        )
    ordered = [blocks[k] for k in sorted(blocks)]
    for block in ordered:
        block.rows.sort(key=lambda r: (r.turn, r.mesa or 0, r.id))
    return Schedule(blocks=ordered, staff=staff, mesas=tournament.mesas, waiting=waiting)
