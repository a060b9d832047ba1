"""Writes of the competition draw (docs/regras.md §2 step 4): publish the plan, or undo it before any result.

Publishing writes the stages ("grupos" and/or "mata"), the groups with their
round-robin jogos (rounds and mesas), the knockout stage and the Draw records;
``tournament_refresh`` then creates the bracket's first-round jogos from the
recorded order.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scoring.mesas import mesas_spread
from scoring.text import is_blank
from scoring.tournament import StageSpec, group_best_of

from ..audit import audit_record
from ..jogo_keys import jogo_keys_new
from ..models import Draw, DrawRoll, Dupla, Group, GroupEntry, Jogo, Partida, Stage, Tournament
from ..refusals import Refused
from ..selectors import tournament_settings
from ..writes import STRUCTURE, tournament_write
from .format import STAGE_GROUPS, STAGE_KNOCKOUT, knockout_only
from .plan import CompetitionPlan, competition_plan
from .rolls import roll_open_get, roll_show, rolls_close

__all__ = ["competition_publish", "competition_roll", "competition_undo", "jogos_with_result"]


class PlanChanged(Refused):
    """The duplas or the format changed between the preview and the publish (a conflict: preview again)."""

    def __init__(self, *messages: str):
        super().__init__(Refused.CONFLICT, *messages)


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _user(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _plan_shown(plan: CompetitionPlan) -> dict | None:
    """What a competition preview shows (what its roll records); None when the plan cannot be drawn."""
    if plan.problems or plan.seed is None:
        return None
    return {"check": plan.check, "groups": {g.key: list(g.duplas) for g in plan.groups}, "order": plan.order}


def competition_roll(
    *,
    tournament: Tournament,
    user: User | AnonymousUser | None,
    token: str,
    seed: int | None = None,
    seeding: dict[str, Any] | None = None,
) -> tuple[DrawRoll | None, CompetitionPlan]:
    """Show a competition draw before publishing it: the roll of ``token`` again (a reload), or a new one,
    recorded (docs/regras.md §2 step 4). A plan with problems is shown and records nothing (None).

    ``seeding``: how the seeds were chosen (``seeding.seeding_apply``), kept with the roll; the draw published
    from this roll carries it to its public record."""

    def compute(s: int) -> tuple[CompetitionPlan, dict[str, Any] | None]:
        plan = competition_plan(tournament=tournament, seed=s)
        shown = _plan_shown(plan)
        if shown is not None and seeding is not None:
            shown["seeding"] = seeding
        return plan, shown

    return roll_show(
        tournament=tournament, user=user, kind=DrawRoll.COMPETITION, token=token, seed=seed, compute=compute
    )


def competition_publish(
    *,
    tournament: Tournament,
    user: User | None,
    seed: int,
    fixed_order: list[str | None] | None = None,
    check: str | None = None,
    roll: str | None = None,
) -> CompetitionPlan:
    """Compute the plan from ``seed`` (and a fixed bracket order) again and write it; refused with every problem.

    ``check``: the preview's fingerprint; when the duplas or the format changed
    since, ``PlanChanged`` is raised and nothing is written. ``roll``: the token
    of the preview shown (``competition_roll``); its seed must be ``seed``, and
    the rolls shown since the last publish are attached to the draw made.
    """
    with tournament_write(tournament=tournament, action="competition.publish", user=user, kind=STRUCTURE):
        tournament = _lock(tournament)
        plan = competition_plan(tournament=tournament, seed=seed, fixed_order=fixed_order)
        if plan.problems:
            raise Refused.invalid(*plan.problems)
        if check is not None and check != plan.check:
            raise PlanChanged(
                _("As duplas ou o formato mudaram desde a prévia: confira a nova prévia e publique de novo.")
            )
        shown = None
        if roll is not None:
            shown = roll_open_get(tournament=tournament, kind=DrawRoll.COMPETITION, token=roll)
            if shown is None or shown.seed != seed:
                raise Refused.conflict(
                    _("Sorteio: esta prévia não vale mais (já foi publicada ou não existe). Sorteie de novo.")
                )
        if plan.order_problems:
            raise Refused.invalid(*[_("Chave: %(p)s") % {"p": p} for p in plan.order_problems])
        dupla_ids = dict(Dupla.objects.filter(tournament=tournament).values_list("key", "id"))
        performer = _user(user)  # the draw and the audit name an account (None: none)
        if plan.kind == "knockout":
            stage = _knockout_stage(tournament, plan, order=0, entrants=list(plan.entrants))
            Draw.objects.create(
                tournament=tournament,
                kind=Draw.BRACKET,
                stage=stage,
                method=plan.method,
                seed=None if plan.method == "fixed" else seed,
                result={"order": plan.order},
                performed_by=performer,
            )
            summary = _("Chave sorteada e publicada: %(n)d duplas") % {"n": len(plan.entrants)}
            after = {"seed": seed, "method": plan.method, "order": plan.order}
        else:
            groups_stage = _groups_stage(tournament, plan, dupla_ids, performer)
            if plan.kind == "groups_knockout":
                _knockout_stage(tournament, plan, order=1, entrants="previous")
            summary = _("Grupos sorteados e publicados: %(g)d grupos, %(n)d duplas") % {
                "g": len(plan.groups),
                "n": len(plan.entrants),
            }
            after = {"seed": seed, "groups": {g.key: g.duplas for g in plan.groups}, "stage": groups_stage.key}
        made = Draw.objects.filter(tournament=tournament, kind__in=[Draw.GROUPS, Draw.BRACKET]).order_by("-pk").first()
        if shown is not None and made is not None:
            rolls_close(tournament=tournament, kind=DrawRoll.COMPETITION, draw=made, published=shown)
            seeding = shown.shown.get("seeding") if isinstance(shown.shown, dict) else None
            if seeding is not None:  # how the cabeças de chave were chosen, for the draw's public record
                made.result = {**made.result, "seeding": seeding}
                made.save(update_fields=["result"])
                after["seeding"] = seeding
        audit_record(
            tournament=tournament,
            user=performer,
            action="competition_publish",
            summary=summary,
            after=after | {"format": plan.fmt},
        )
    return plan


def _knockout_stage(tournament: Tournament, plan: CompetitionPlan, *, order: int, entrants: list[str] | str) -> Stage:
    method = plan.method if plan.kind == "knockout" else ("random" if plan.method == "random" else "seeded")
    rounds = {str(k): v for k, v in (plan.fmt.get("best_of_rounds") or {}).items()}
    return Stage.objects.create(
        tournament=tournament,
        key=STAGE_KNOCKOUT[0],
        name=STAGE_KNOCKOUT[1],
        order=order,
        kind=Stage.KNOCKOUT,
        best_of=plan.fmt.get("best_of_knockout"),
        best_of_rounds=rounds,
        entrants=entrants,
        draw_method=method,
        draw_seed=None if method == "fixed" or (plan.kind != "knockout" and method == "seeded") else plan.seed,
    )


def _groups_stage(tournament: Tournament, plan: CompetitionPlan, dupla_ids: dict[str, int], user: User | None) -> Stage:
    knockout_follows = plan.kind == "groups_knockout"
    stage = Stage.objects.create(
        tournament=tournament,
        key=STAGE_GROUPS[0],
        name=STAGE_GROUPS[1],
        order=0,
        kind=Stage.GROUPS,
        best_of=plan.fmt.get("best_of_groups"),
        qualify_per_group=plan.fmt.get("per_group", 0) if knockout_follows else 0,
        qualify_best_others=plan.fmt.get("best_others", 0) if knockout_follows else 0,
    )
    groups = Group.objects.bulk_create([Group(stage=stage, key=g.key, order=i) for i, g in enumerate(plan.groups)])
    GroupEntry.objects.bulk_create(
        [
            GroupEntry(group=row, dupla_id=dupla_ids[d], order=i)
            for row, g in zip(groups, plan.groups, strict=False)
            for i, d in enumerate(g.duplas)
        ],
        batch_size=1000,
    )
    best_of = group_best_of(
        stage=StageSpec(key=stage.key, kind="groups", best_of=stage.best_of),
        settings=tournament_settings(tournament=tournament),
    )
    jogos: list[Jogo] = []
    rounds = max((len(g.rounds) for g in plan.groups), default=0)
    for r in range(rounds):
        pairs = [
            (row, pair)
            for row, g in zip(groups, plan.groups, strict=False)
            if r < len(g.rounds)
            for pair in g.rounds[r]
        ]
        slots = mesas_spread(jogos=[pair for _row, pair in pairs], mesas=tournament.mesas)
        jogos += [
            Jogo(
                tournament=tournament,
                stage=stage,
                group=row,
                dupla_a_id=dupla_ids[a],
                dupla_b_id=dupla_ids[b],
                round=r + 1,
                mesa=slot.mesa,
                best_of=best_of,
            )
            for (row, (a, b)), slot in zip(pairs, slots, strict=False)
        ]
    taken = Jogo.objects.filter(tournament=tournament).values_list("key", flat=True)
    for jogo, key in zip(jogos, jogo_keys_new(taken=taken), strict=False):
        jogo.key = key
    Jogo.objects.bulk_create(jogos, batch_size=500)
    Draw.objects.create(
        tournament=tournament,
        kind=Draw.GROUPS,
        stage=stage,
        method="seeded" if plan.seeded else "random",
        seed=plan.seed,
        performed_by=user,
        result={"groups": [{"key": g.key, "duplas": g.duplas} for g in plan.groups], "seeded": plan.seeded},
    )
    return stage


def jogos_with_result(*, tournament: Tournament) -> QuerySet[Jogo]:
    """Jogos that have anything recorded (a partida, a WO, a penalty, or begun)."""
    from django.db.models import Q

    started = Partida.objects.filter(jogo__tournament=tournament).values("jogo_id")
    return Jogo.objects.filter(tournament=tournament).filter(
        ~Q(status=Jogo.SCHEDULED) | ~Q(walkover="") | ~Q(lost_by="") | Q(pk__in=started)
    )


def competition_undo(*, tournament: Tournament, user: User | None, reason: str) -> None:
    """Delete the drawn stages, groups, jogos and their draws while no jogo has a result; audited with the reason."""
    reason = (reason or "").strip()
    if is_blank(reason):  # invisible characters only: no reason
        raise Refused.invalid(_("Refazer sorteio: diga o motivo."))
    with tournament_write(tournament=tournament, action="competition.undo", user=user, kind=STRUCTURE):
        tournament = _lock(tournament)
        stages = list(Stage.objects.filter(tournament=tournament).order_by("order"))
        if not stages:
            raise Refused.conflict(_("Refazer sorteio: ainda não há sorteio publicado."))
        played = jogos_with_result(tournament=tournament).select_related("dupla_a", "dupla_b").first()
        if played is not None:
            raise Refused.conflict(
                _("Refazer sorteio: o jogo %(jogo)s já tem resultado; o sorteio não pode mais ser refeito.")
                % {"jogo": f"{played.dupla_a.display_name} x {played.dupla_b.display_name}"}
            )
        before = {
            "stages": [s.key for s in stages],
            "draws": list(
                Draw.objects.filter(tournament=tournament, kind__in=[Draw.GROUPS, Draw.BRACKET, Draw.TIEBREAK]).values(
                    "kind", "method", "seed", "result"
                )
            ),
            "jogos": Jogo.objects.filter(tournament=tournament).count(),
        }
        Draw.objects.filter(tournament=tournament, kind__in=[Draw.GROUPS, Draw.BRACKET, Draw.TIEBREAK]).delete()
        Jogo.objects.filter(tournament=tournament).delete()
        Stage.objects.filter(tournament=tournament).delete()
        audit_record(
            tournament=tournament,
            user=user,
            action="competition_undo",
            summary=(
                _("Sorteio da chave desfeito. Motivo: %(reason)s")
                if knockout_only(tournament=tournament)
                else _("Sorteio de grupos e chave desfeito. Motivo: %(reason)s")
            )
            % {"reason": reason},
            before=before,
            after={"reason": reason},
        )
