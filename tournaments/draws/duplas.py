"""The organizer's edits of the duplas before the competition draw: rename and seed, swap players, a dupla made by
hand from waiting registrations, and a disqualification (which also holds after the draw).

Each function is one transaction, audited, and ends with ``tournament_refresh`` (public pages show the change at
once).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils.translation import gettext as _

from scoring.text import is_blank

from ..audit import audit_record
from ..circuits.services import circuits_follow_players
from ..limits import column_max_length
from ..models import Dupla, Jogo, Registration, Tournament
from ..refusals import Refused
from ..registrations.checks import CONTROL_CHARS, TEAM_MAX
from ..writes import RESULTS, STRUCTURE, tournament_write
from .pairing import dupla_keys_next, dupla_names, refuse_if_drawn, tournament_lock

__all__ = ["dupla_add", "dupla_disqualify", "dupla_edit", "duplas_swap"]


def _teams_checked(dupla: Dupla, teams: tuple[str, str]) -> tuple[str, str]:
    """The two players' equipes as typed, spaces collapsed; ``Refused`` naming the player when one is too long or
    holds control characters (the checks of a registration's equipe)."""
    cleaned = tuple(" ".join((team or "").split()) for team in teams)
    problems = []
    for player, team in zip((dupla.player1, dupla.player2), cleaned, strict=True):
        if len(team) > TEAM_MAX:
            problems.append(
                _("Equipe de %(name)s: longa demais (%(n)d caracteres; o máximo é %(max)d).")
                % {"name": player.name, "n": len(team), "max": TEAM_MAX}
            )
        elif CONTROL_CHARS.search(team):
            problems.append(_("Equipe de %(name)s: tem caracteres de controle.") % {"name": player.name})
    if problems:
        raise Refused.invalid(*problems)
    return cleaned[0], cleaned[1]


def dupla_edit(
    *, dupla: Dupla, user: User | None, name: str, seed: int | None, teams: tuple[str, str] | None = None
) -> Dupla:
    """Rename a dupla and set its seed (cabeça de chave; only before the competition draw); ``teams``: its two
    players' equipes (also after the draw: a circuit the tournament is an etapa of ranks them at once)."""
    name = (name or "").strip()
    with tournament_write(tournament=dupla.tournament, action="dupla.edit", user=user, kind=STRUCTURE):
        tournament = tournament_lock(dupla.tournament)
        dupla = Dupla.objects.select_for_update().select_related("player1", "player2").get(pk=dupla.pk)
        if seed != dupla.seed:
            refuse_if_drawn(tournament, _("Cabeça de chave"))
            if seed is not None:
                other = Dupla.objects.filter(tournament=tournament, seed=seed).exclude(pk=dupla.pk).first()
                if other is not None:
                    raise Refused.invalid(
                        _("Cabeça de chave: o número %(seed)d já é da dupla %(other)s.")
                        % {"seed": seed, "other": other.display_name}
                    )
        players = (dupla.player1, dupla.player2)
        was = (players[0].team, players[1].team)
        wanted = was if teams is None else _teams_checked(dupla, teams)
        before = {"name": dupla.name, "seed": dupla.seed, **({"teams": list(was)} if teams is not None else {})}
        after = {"name": name, "seed": seed, **({"teams": list(wanted)} if teams is not None else {})}
        if before == after:
            return dupla
        dupla.name, dupla.seed = name, seed
        dupla.save(update_fields=["name", "seed"])
        changed = [p for p, team in zip(players, wanted, strict=True) if p.team != team]
        for player, team in zip(players, wanted, strict=True):
            player.team = team
        for player in changed:
            player.save(update_fields=["team"])
        if changed:  # an etapa's circuit ranks equipes from its players' teams, read at ranking time
            circuits_follow_players(player_ids=[p.pk for p in changed])
        audit_record(
            tournament=tournament,
            user=user,
            action="dupla_edit",
            summary=_("Dupla editada: %(name)s") % {"name": dupla.display_name},
            before=before,
            after=after,
        )
    return dupla


def duplas_swap(
    *, tournament: Tournament, user: User | None, player_a: int, player_b: int, reason: str
) -> tuple[Dupla, Dupla]:
    """Swap two players between their duplas (before the competition draw), with a reason."""
    reason = (reason or "").strip()
    if is_blank(reason):  # invisible characters only: no reason
        raise Refused.invalid(_("Troca de atletas: diga o motivo da troca."))
    with tournament_write(tournament=tournament, action="duplas.swap", user=user, kind=STRUCTURE):
        tournament = tournament_lock(tournament)
        refuse_if_drawn(tournament, _("Troca de atletas"))
        found = {}
        for pid in (player_a, player_b):
            dupla = (
                Dupla.objects.select_for_update()
                .select_related("player1", "player2")
                .filter(tournament=tournament)
                .filter(Q(player1_id=pid) | Q(player2_id=pid))
                .first()
            )
            if dupla is None:
                raise Refused.invalid(
                    _("Troca de atletas: o atleta escolhido não está em nenhuma dupla deste torneio.")
                )
            found[pid] = dupla
        first, second = found[player_a], found[player_b]
        if first.pk == second.pk:
            raise Refused.invalid(
                _(
                    "Troca de atletas: os dois atletas estão na mesma dupla (%(dupla)s); escolha atletas "
                    "de duplas diferentes."
                )
                % {"dupla": first.display_name}
            )
        before = {first.key: dupla_names(first), second.key: dupla_names(second)}
        a_slot = "player1" if first.player1_id == player_a else "player2"
        b_slot = "player1" if second.player1_id == player_b else "player2"
        pa, pb = getattr(first, a_slot), getattr(second, b_slot)
        setattr(first, a_slot, pb)
        setattr(second, b_slot, pa)
        Dupla.objects.bulk_update([first, second], [a_slot] if a_slot == b_slot else ["player1", "player2"])
        after = {first.key: dupla_names(first), second.key: dupla_names(second)}
        audit_record(
            tournament=tournament,
            user=user,
            action="duplas_swap",
            summary=_("Troca: %(a)s e %(b)s trocaram de dupla. Motivo: %(reason)s")
            % {"a": pa.name, "b": pb.name, "reason": reason},
            before=before | {"reason": reason},
            after=after | {"reason": reason},
        )
    return first, second


def dupla_add(*, tournament: Tournament, user: User | None, registrations: list[int]) -> Dupla:
    """A dupla made by hand from waiting registrations: two individuals, or one pair (docs/regras.md §2 step 3)."""
    ids = [r for r in dict.fromkeys(registrations) if r]
    with tournament_write(tournament=tournament, action="dupla.add", user=user, kind=STRUCTURE):
        tournament = tournament_lock(tournament)
        refuse_if_drawn(tournament, _("Nova dupla"))
        regs = list(
            Registration.objects.filter(tournament=tournament, pk__in=ids)
            .select_related("player1", "player2")
            .order_by("order")
        )
        if len(regs) != len(ids):
            raise Refused.not_found(_("Nova dupla: inscrição não encontrada neste torneio."))
        for r in regs:
            if r.status != Registration.WAITING:
                raise Refused.conflict(
                    _("Nova dupla: %(who)s não está aguardando dupla (%(status)s).")
                    % {"who": r, "status": r.get_status_display()}
                )
            if r.present is False:
                raise Refused.invalid(_("Nova dupla: %(who)s está marcado como ausente.") % {"who": r})
        players = [p for r in regs for p in r.players()]
        if len(players) != 2:
            raise Refused.invalid(
                _(
                    "Nova dupla: escolha duas inscrições individuais, ou uma inscrição em dupla "
                    "(foram escolhidos %(n)d atletas)."
                )
                % {"n": len(players)}
            )
        existing = Dupla.objects.filter(tournament=tournament).count()
        if tournament.max_duplas is not None and existing >= tournament.max_duplas:
            raise Refused.invalid(
                _(
                    "Nova dupla: o limite de %(max)d duplas já foi atingido; aumente o limite "
                    "(página Torneio) para formar mais uma."
                )
                % {"max": tournament.max_duplas}
            )
        (key,), order = dupla_keys_next(tournament, 1)
        dupla = Dupla.objects.create(
            tournament=tournament, key=key, player1=players[0], player2=players[1], order=order
        )
        Registration.objects.filter(pk__in=[r.pk for r in regs]).update(status=Registration.PAIRED)
        audit_record(
            tournament=tournament,
            user=user,
            action="dupla_add",
            summary=_("Dupla formada pela comissão: %(a)s / %(b)s") % {"a": players[0].name, "b": players[1].name},
            after={"key": key, "players": [p.name for p in players], "registrations": [r.order for r in regs]},
        )
    return dupla


def dupla_disqualify(*, dupla: Dupla, user: User | None, reason: str) -> Dupla:
    """Disqualify a dupla (docs/regras.md §5.4): it keeps its results, takes no place; its jogos not begun are WO."""
    reason = (reason or "").strip()
    if is_blank(reason):  # invisible characters only: no reason
        raise Refused.invalid(_("Desclassificação: diga o motivo."))
    if len(reason) > 300:
        raise Refused.invalid(
            _("Desclassificação: o motivo tem %(n)d caracteres; o máximo é 300.") % {"n": len(reason)}
        )
    with tournament_write(tournament=dupla.tournament, action="dupla.disqualify", user=user, kind=RESULTS) as write:
        tournament = tournament_lock(dupla.tournament)
        dupla = Dupla.objects.select_for_update().select_related("player1", "player2").get(pk=dupla.pk)
        if dupla.disqualified:
            raise Refused.conflict(
                _("Desclassificação: a dupla %(d)s já está desclassificada.") % {"d": dupla.display_name}
            )
        dupla.disqualified, dupla.disqualified_reason = True, reason
        dupla.save(update_fields=["disqualified", "disqualified_reason"])
        walkovers = _remaining_walkovers(dupla, reason=reason)
        write.duplas_touched([dupla.pk])  # it takes no place; its jogos not begun are WO
        write.jogos_touched(walkovers)
        audit_record(
            tournament=tournament,
            user=user,
            action="dupla_disqualify",
            summary=_("Dupla %(d)s desclassificada. Motivo: %(reason)s") % {"d": dupla.display_name, "reason": reason},
            before={"disqualified": False},
            after={"disqualified": True, "reason": reason, "walkovers": walkovers},
        )
    return dupla


def _remaining_walkovers(dupla: Dupla, *, reason: str) -> list[int]:
    """Its jogos not begun (no partida, no WO, no penalty) become walkovers against it, the disqualification
    their reason."""
    why = (_("Dupla desclassificada: %(reason)s") % {"reason": reason})[
        : column_max_length(model=Jogo, field="penalty_reason")
    ]
    jogos = list(
        Jogo.objects.filter(Q(dupla_a=dupla) | Q(dupla_b=dupla), status=Jogo.SCHEDULED, walkover="", lost_by="")
        .exclude(partidas__isnull=False)
        .select_related("dupla_a", "dupla_b")
    )
    for j in jogos:
        side = "a" if j.dupla_a_id == dupla.pk else "b"
        other = j.dupla_b if side == "a" else j.dupla_a
        j.walkover = "both" if other.disqualified else side
        j.penalty_reason = why
        j.status = Jogo.HOMOLOGATED
        j.counted_via = j.via
    Jogo.objects.bulk_update(jogos, ["walkover", "penalty_reason", "status", "counted_via"])
    return [j.pk for j in jogos]
