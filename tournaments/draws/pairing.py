"""Writes before the competition draw: the pairing draw (docs/regras.md §2 step 3) and the organizer's dupla edits.

Each function is one transaction, audited, and ends with ``tournament_refresh``
(public pages show the change at once).
"""

from __future__ import annotations

import re
import secrets

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from scoring.draws import pairing_draw
from scoring.text import is_blank

from ..audit import audit_record
from ..models import Draw, Dupla, Jogo, Registration, Stage, Tournament
from ..refusals import Refused
from ..registrations.window import registration_is_open
from ..writes import RESULTS, STRUCTURE, tournament_write

SEED_LIMIT = 2**31
_R_KEY = re.compile(r"^r(\d+)$")

__all__ = ["SEED_LIMIT", "dupla_add", "dupla_disqualify", "dupla_edit", "duplas_swap", "pairing_run"]


def _lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _drawn(tournament: Tournament) -> bool:
    return Stage.objects.filter(tournament=tournament).exists()


def _refuse_if_drawn(tournament: Tournament, what: str) -> None:
    if _drawn(tournament):
        raise Refused.invalid(
            _(
                "%(what)s: o sorteio dos grupos e da chave já foi publicado. Refaça o sorteio "
                "(página Sorteio) para mudar as duplas."
            )
            % {"what": what}
        )


def _next_keys(tournament: Tournament, count: int) -> tuple[list[str], int]:
    """``count`` new dupla keys r<n> after the existing ones, and the next ``order``."""
    keys = set(Dupla.objects.filter(tournament=tournament).values_list("key", flat=True))
    n = max((int(m.group(1)) for k in keys if (m := _R_KEY.match(k))), default=0)
    out: list[str] = []
    while len(out) < count:
        n += 1
        if f"r{n}" not in keys:
            out.append(f"r{n}")
    last = Dupla.objects.filter(tournament=tournament).aggregate(m=Max("order"))["m"]
    return out, (last + 1 if last is not None else 0)


def pairing_run(*, tournament: Tournament, user: User | None, seed: int | None = None) -> Draw:
    """Pair the waiting individual registrations by a recorded draw; pairs registered together stay together.

    Takes the registrations waiting (not withdrawn, not in a dupla, not marked
    absent) in order of arrival, up to the limit of duplas minus the duplas
    already formed; the odd one out and those beyond the limit stay waiting.
    ``seed`` (made with ``secrets`` when None) replays the same duplas.
    """
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    with tournament_write(tournament=tournament, action="draw.pairing", user=user, kind=STRUCTURE):
        tournament = _lock(tournament)
        if registration_is_open(tournament=tournament):
            raise Refused.invalid(
                _(
                    "Sorteio das duplas: as inscrições ainda estão abertas. Encerre as inscrições "
                    "(página Inscrições) antes de sortear."
                )
            )
        _refuse_if_drawn(tournament, _("Sorteio das duplas"))
        regs = list(
            Registration.objects.filter(tournament=tournament, status=Registration.WAITING)
            .exclude(present=False)
            .select_related("player1", "player2")
            .order_by("order", "id")
        )
        singles = sum(1 for r in regs if r.player2_id is None)
        pairs = len(regs) - singles
        if singles < 2 and not pairs:
            raise Refused.invalid(
                _(
                    "Sorteio das duplas: há %(n)d inscrição individual aguardando; são precisas pelo "
                    "menos 2 para formar uma dupla."
                )
                % {"n": singles}
            )
        existing = Dupla.objects.filter(tournament=tournament).count()
        room = None if tournament.max_duplas is None else max(0, tournament.max_duplas - existing)
        if room == 0:
            raise Refused.invalid(
                _(
                    "Sorteio das duplas: o limite de %(max)d duplas já foi atingido; quem aguarda fica "
                    "na lista de espera."
                )
                % {"max": tournament.max_duplas}
            )
        lists = [[p.key for p in r.players()] for r in regs]
        result = pairing_draw(registrations=lists, seed=seed, max_duplas=room)
        if not result.duplas:
            raise Refused.invalid(
                _("Sorteio das duplas: nenhuma dupla pode ser formada com as inscrições que aguardam.")
            )
        player = {p.key: p for r in regs for p in r.players()}
        keys, order = _next_keys(tournament, len(result.duplas))
        duplas = Dupla.objects.bulk_create(
            [
                Dupla(tournament=tournament, key=key, player1=player[a], player2=player[b], order=order + i)
                for i, (key, (a, b)) in enumerate(zip(keys, result.duplas, strict=False))
            ]
        )
        in_dupla = {p for pair in result.duplas for p in pair}
        paired = [r.pk for r in regs if all(p.key in in_dupla for p in r.players())]
        Registration.objects.filter(pk__in=paired).update(status=Registration.PAIRED)
        draw = Draw.objects.create(
            tournament=tournament,
            kind=Draw.PAIRING,
            method="random",
            seed=seed,
            performed_by=_user(user),
            result={
                "duplas": [list(d) for d in result.duplas],
                "waiting_list": list(result.waiting_list),
                "registrations": lists,
                "max_duplas": room,
                "dupla_keys": keys,
            },
        )
        audit_record(
            tournament=tournament,
            user=user,
            action="pairing_draw",
            summary=_("Sorteio das duplas: %(n)d duplas formadas, %(w)d na lista de espera (semente %(seed)d)")
            % {"n": len(duplas), "w": len(result.waiting_list), "seed": seed},
            after={
                "seed": seed,
                "duplas": {k: [player[a].name, player[b].name] for k, (a, b) in zip(keys, result.duplas, strict=False)},
                "waiting_list": [player[p].name for p in result.waiting_list],
            },
        )
    return draw


def _user(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _names(dupla: Dupla) -> list[str]:
    return [dupla.player1.name, dupla.player2.name]


def dupla_edit(*, dupla: Dupla, user: User | None, name: str, seed: int | None) -> Dupla:
    """Rename a dupla and set its seed (cabeça de chave; only before the competition draw)."""
    name = (name or "").strip()
    with tournament_write(tournament=dupla.tournament, action="dupla.edit", user=user, kind=STRUCTURE):
        tournament = _lock(dupla.tournament)
        dupla = Dupla.objects.select_for_update().select_related("player1", "player2").get(pk=dupla.pk)
        if seed != dupla.seed:
            _refuse_if_drawn(tournament, _("Cabeça de chave"))
            if seed is not None:
                other = Dupla.objects.filter(tournament=tournament, seed=seed).exclude(pk=dupla.pk).first()
                if other is not None:
                    raise Refused.invalid(
                        _("Cabeça de chave: o número %(seed)d já é da dupla %(other)s.")
                        % {"seed": seed, "other": other.display_name}
                    )
        before = {"name": dupla.name, "seed": dupla.seed}
        after = {"name": name, "seed": seed}
        if before == after:
            return dupla
        dupla.name, dupla.seed = name, seed
        dupla.save(update_fields=["name", "seed"])
        audit_record(
            tournament=tournament,
            user=user,
            action="dupla_edit",
            summary=_("Dupla %(key)s editada: %(name)s") % {"key": dupla.key, "name": dupla.display_name},
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
        tournament = _lock(tournament)
        _refuse_if_drawn(tournament, _("Troca de atletas"))
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
        before = {first.key: _names(first), second.key: _names(second)}
        a_slot = "player1" if first.player1_id == player_a else "player2"
        b_slot = "player1" if second.player1_id == player_b else "player2"
        pa, pb = getattr(first, a_slot), getattr(second, b_slot)
        setattr(first, a_slot, pb)
        setattr(second, b_slot, pa)
        Dupla.objects.bulk_update([first, second], [a_slot] if a_slot == b_slot else ["player1", "player2"])
        after = {first.key: _names(first), second.key: _names(second)}
        audit_record(
            tournament=tournament,
            user=user,
            action="duplas_swap",
            summary=_("Troca: %(a)s e %(b)s trocaram de dupla (%(da)s, %(db)s). Motivo: %(reason)s")
            % {"a": pa.name, "b": pb.name, "da": first.key, "db": second.key, "reason": reason},
            before=before | {"reason": reason},
            after=after | {"reason": reason},
        )
    return first, second


def dupla_add(*, tournament: Tournament, user: User | None, registrations: list[int]) -> Dupla:
    """A dupla made by hand from waiting registrations: two individuals, or one pair (docs/regras.md §2 step 3)."""
    ids = [r for r in dict.fromkeys(registrations) if r]
    with tournament_write(tournament=tournament, action="dupla.add", user=user, kind=STRUCTURE):
        tournament = _lock(tournament)
        _refuse_if_drawn(tournament, _("Nova dupla"))
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
        (key,), order = _next_keys(tournament, 1)
        dupla = Dupla.objects.create(
            tournament=tournament, key=key, player1=players[0], player2=players[1], order=order
        )
        Registration.objects.filter(pk__in=[r.pk for r in regs]).update(status=Registration.PAIRED)
        audit_record(
            tournament=tournament,
            user=user,
            action="dupla_add",
            summary=_("Dupla %(key)s formada pela comissão: %(a)s / %(b)s")
            % {"key": key, "a": players[0].name, "b": players[1].name},
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
        tournament = _lock(dupla.tournament)
        dupla = Dupla.objects.select_for_update().select_related("player1", "player2").get(pk=dupla.pk)
        if dupla.disqualified:
            raise Refused.conflict(
                _("Desclassificação: a dupla %(d)s já está desclassificada.") % {"d": dupla.display_name}
            )
        dupla.disqualified, dupla.disqualified_reason = True, reason
        dupla.save(update_fields=["disqualified", "disqualified_reason"])
        walkovers = _remaining_walkovers(dupla)
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


def _remaining_walkovers(dupla: Dupla) -> list[int]:
    """Its jogos not begun (no partida, no WO, no penalty) become walkovers against it."""
    jogos = list(
        Jogo.objects.filter(Q(dupla_a=dupla) | Q(dupla_b=dupla), status=Jogo.SCHEDULED, walkover="", lost_by="")
        .exclude(partidas__isnull=False)
        .select_related("dupla_a", "dupla_b")
    )
    for j in jogos:
        side = "a" if j.dupla_a_id == dupla.pk else "b"
        other = j.dupla_b if side == "a" else j.dupla_a
        j.walkover = "both" if other.disqualified else side
        j.status = Jogo.HOMOLOGATED
        j.counted_via = j.via
    Jogo.objects.bulk_update(jogos, ["walkover", "status", "counted_via"])
    return [j.pk for j in jogos]
