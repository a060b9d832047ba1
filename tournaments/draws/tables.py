"""Writes of the mesas (tables) and referees: how many mesas, who looks after each, who referees a jogo.

Saving the mesas spreads again the jogos not yet begun of each round
(``scoring.mesas``): a group round takes turns over the mesas in its order,
a knockout round over its real jogos by position (a bye takes no mesa); jogos under way keep their mesa.
"""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from scoring.mesas import knockout_mesas, mesas_spread

from .. import limits
from ..audit import audit_record
from ..models import Draw, Jogo, Mesa, Stage, Tournament
from ..permissions import may_be_named_referee
from ..refusals import Refused
from ..roles import display_name
from ..round_times import round_times_check
from ..rows import JogoRow, jogo_rows_read
from ..writes import STRUCTURE, tournament_write, write_required
from .competition import jogos_with_result

__all__ = ["MESAS_MAX", "jogo_referee_set", "jogos_respread", "mesas_save", "round_time_set", "staff_users"]

MESAS_MAX = limits.MAX_MESAS


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def staff_users(*, tournament: Tournament) -> QuerySet[User]:
    """The people who may referee a mesa or a jogo of this tournament: its organizers and referees."""
    return (
        get_user_model()
        .objects.filter(staff_roles__tournament=tournament, is_active=True)
        .order_by("username")
        .distinct()
    )


def _referee_names(tournament: Tournament) -> dict[int, str | None]:
    return {
        m.number: (m.referee.get_username() if m.referee else None)
        for m in Mesa.objects.filter(tournament=tournament).select_related("referee")
    }


def mesas_save(*, tournament: Tournament, user: User | None, count: int | None, referees: dict[int, int | None]) -> int:
    """Set the number of mesas (None: no fixed number) and each mesa's referee; re-spread the jogos not begun.

    Returns how many jogos changed mesa.
    """
    if count is not None and not 1 <= count <= MESAS_MAX:
        raise Refused.invalid(_("Mesas: use de 1 a %(max)d mesas (ou deixe vazio).") % {"max": MESAS_MAX})
    with tournament_write(tournament=tournament, action="mesas.save", user=user, kind=STRUCTURE):
        tournament = _lock(tournament)
        allowed = set(staff_users(tournament=tournament).values_list("pk", flat=True))
        for number, uid in referees.items():
            if uid is not None and uid not in allowed:
                raise Refused.invalid(_("Mesa %(n)d: o árbitro escolhido não tem papel neste torneio.") % {"n": number})
            if count is None or not 1 <= number <= count:
                if uid is not None:
                    raise Refused.invalid(_("Mesa %(n)d: não existe com %(c)s mesas.") % {"n": number, "c": count or 0})
        before = {"mesas": tournament.mesas, "referees": _referee_names(tournament)}
        tournament.mesas = count
        tournament.save(update_fields=["mesas", "updated_at"])
        Mesa.objects.filter(tournament=tournament).exclude(number__lte=count or 0).delete()
        existing = {m.number: m for m in Mesa.objects.filter(tournament=tournament)}
        for number in range(1, (count or 0) + 1):
            uid = referees.get(number)
            row = existing.get(number)
            if row is None:
                Mesa.objects.create(tournament=tournament, number=number, referee_id=uid)
            elif row.referee_id != uid:
                row.referee_id = uid
                row.save(update_fields=["referee"])
        moved = jogos_respread(tournament=tournament)
        after = {"mesas": count, "referees": _referee_names(tournament), "jogos_moved": moved}
        if before != {k: after[k] for k in ("mesas", "referees")} or moved:
            audit_record(
                tournament=tournament,
                user=user,
                action="mesas_save",
                summary=_("Mesas: %(n)s; %(m)d jogos redistribuídos")
                % {"n": count if count else _("sem número fixo"), "m": moved},
                before=before,
                after=after,
            )
    return moved


def jogos_respread(*, tournament: Tournament) -> int:
    """Give the jogos not yet begun of each round a mesa over ``tournament.mesas``; returns how many changed."""
    write_required(what="jogos_respread")
    begun = set(jogos_with_result(tournament=tournament).values_list("pk", flat=True))
    rounds: dict[tuple, list[JogoRow]] = defaultdict(list)
    for j in jogo_rows_read(
        Jogo.objects.filter(tournament=tournament).order_by("stage__order", "round", "third_place", "position", "id")
    ):
        rounds[(j.stage_id, j.round, j.group_id is None)].append(j)
    orders = {
        d["stage_id"]: d["result"]["order"]
        for d in Draw.objects.filter(tournament=tournament, kind=Draw.BRACKET)
        .order_by("performed_at", "id")
        .values("stage_id", "result")
    }  # each knockout stage's draw, the latest as the state reads it
    brackets = {stage: knockout_mesas(order=order, mesas=tournament.mesas) for stage, order in orders.items()}
    changed: list[Jogo] = []
    for (stage_id, _round, knockout), jogos in rounds.items():
        waiting = [j for j in jogos if j.id not in begun]
        if knockout:
            by_slot = brackets.get(stage_id, {})
            new = [by_slot.get((j.round or 1, j.position or 0), j.mesa) for j in waiting]
        else:
            busy = {j.mesa for j in jogos if j.id in begun and j.status in Jogo.AT_TABLE and j.mesa}
            slots = mesas_spread(
                jogos=[(j.dupla_a_id, j.dupla_b_id) for j in waiting], mesas=tournament.mesas, busy=busy
            )
            new = [s.mesa for s in slots]
        changed += [Jogo(pk=j.id, mesa=m) for j, m in zip(waiting, new, strict=False) if j.mesa != m]
    Jogo.objects.bulk_update(changed, ["mesa"], batch_size=500)
    return len(changed)


def jogo_referee_set(*, tournament: Tournament, user: User | None, jogo_id: int, referee_id: int | None) -> Jogo:
    """The referee of one jogo (None: the referee of its mesa)."""
    with tournament_write(tournament=tournament, action="jogo.referee", user=user, kind=STRUCTURE):
        tournament = _lock(tournament)
        jogo = (
            Jogo.objects.select_for_update(of=("self",))
            .select_related("dupla_a", "dupla_b", "referee")
            .filter(tournament=tournament, pk=jogo_id)
            .first()
        )
        if jogo is None:
            raise Refused.not_found(_("Árbitro do jogo: jogo não encontrado neste torneio."))
        if referee_id is not None and not may_be_named_referee(tournament=tournament, user_id=referee_id):
            raise Refused.invalid(_("Árbitro do jogo: a pessoa escolhida não tem papel neste torneio."))
        if jogo.referee_id == referee_id:
            return jogo
        before = jogo.referee.get_username() if jogo.referee else None
        jogo.referee_id = referee_id
        jogo.save(update_fields=["referee"])
        jogo.refresh_from_db(fields=["referee"])
        after = jogo.referee.get_username() if jogo.referee else None
        audit_record(
            tournament=tournament,
            user=user,
            action="jogo_referee",
            summary=_("Árbitro do jogo %(a)s x %(b)s: %(who)s")
            % {
                "a": jogo.dupla_a.display_name,
                "b": jogo.dupla_b.display_name,
                "who": display_name(jogo.referee) or _("o da mesa"),
            },
            before={"referee": before},
            after={"referee": after},
        )
    return jogo


def round_time_set(*, tournament: Tournament, user: User | None, stage_key: str, round_number: int, time: str) -> Stage:
    """The time a round of a stage is called ("14:30"; "" clears it), shown next to its jogos on the public pages."""
    times, problems = round_times_check({str(round_number): time})
    if problems:
        raise Refused.invalid(*[_("Horário da rodada: %(p)s") % {"p": message} for _where, message in problems])
    with tournament_write(tournament=tournament, action="round.time", user=user, kind=STRUCTURE):
        tournament = _lock(tournament)
        stage = Stage.objects.select_for_update().filter(tournament=tournament, key=stage_key).first()
        if stage is None:
            raise Refused.invalid(_("Horário da rodada: fase %(s)r não existe neste torneio.") % {"s": stage_key})
        before = dict(stage.round_times or {})
        after = {k: v for k, v in before.items() if k != str(round_number)} | times
        after = dict(sorted(after.items(), key=lambda kv: int(kv[0])))
        if after == before:
            return stage
        stage.round_times = after
        stage.save(update_fields=["round_times"])
        from ..online.tournament import tables_times_refresh  # the online tables of the round open at its time

        tables_times_refresh(tournament=tournament)
        audit_record(
            tournament=tournament,
            user=user,
            action="round_time",
            summary=_("Horário da rodada %(n)d (%(stage)s): %(time)s")
            % {
                "n": round_number,
                "stage": stage.name or stage.key,
                "time": times.get(str(round_number)) or _("sem horário"),
            },
            before={"round_times": before},
            after={"round_times": after},
        )
    return stage
