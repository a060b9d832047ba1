"""The pairing draw (docs/regras.md §2 step 3): previewed, confirmed, undone; the organizer's edits of the duplas
it made are in ``duplas``.

Each function is one transaction, audited, and ends with ``tournament_refresh``
(public pages show the change at once).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.draws import pairing_draw
from scoring.text import is_blank

from ..audit import audit_record
from ..models import Draw, DrawRoll, Dupla, Jogo, Player, Registration, Stage, Tournament
from ..refusals import Refused
from ..registrations.window import registration_is_open
from ..writes import STRUCTURE, tournament_write
from .format import knockout_only
from .rolls import SEED_LIMIT, roll_open_get, roll_show, rolls_close

_R_KEY = re.compile(r"^r(\d+)$")

__all__ = [
    "SEED_LIMIT",
    "PairingChanged",
    "PairingPreview",
    "acting_account",
    "dupla_keys_next",
    "dupla_names",
    "pairing_confirm",
    "pairing_preview",
    "pairing_roll",
    "pairing_run",
    "pairing_undo",
    "pairing_undo_problems",
    "refuse_if_drawn",
    "tournament_lock",
]


def tournament_lock(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _drawn(tournament: Tournament) -> bool:
    return Stage.objects.filter(tournament=tournament).exists()


def refuse_if_drawn(tournament: Tournament, what: str) -> None:
    if _drawn(tournament):
        drawn = (
            _("%(what)s: o sorteio da chave já foi publicado. Refaça o sorteio (página Sorteio) para mudar as duplas.")
            if knockout_only(tournament=tournament)
            else _(
                "%(what)s: o sorteio dos grupos e da chave já foi publicado. Refaça o sorteio "
                "(página Sorteio) para mudar as duplas."
            )
        )
        raise Refused.invalid(drawn % {"what": what})


def dupla_keys_next(tournament: Tournament, count: int) -> tuple[list[str], int]:
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


@dataclass(frozen=True)
class PairingPreview:
    """What a pairing draw with ``seed`` makes of the registrations waiting now: nothing written."""

    seed: int
    duplas: list[tuple[str, str]]  # player keys, in the draw's order
    waiting_list: list[str]  # player keys left waiting
    registrations: list[list[str]]  # the waiting registrations (player keys) the draw took, in order
    room: int | None  # the duplas the limit still allows
    names: dict[str, str]  # player key -> name

    @property
    def shown(self) -> dict[str, Any]:
        """What the preview shows (what a roll records, and what confirming must write)."""
        return {"duplas": [list(d) for d in self.duplas], "waiting_list": list(self.waiting_list)}

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return [(self.names.get(a, a), self.names.get(b, b)) for a, b in self.duplas]

    @property
    def waiting(self) -> list[str]:
        return [self.names.get(p, p) for p in self.waiting_list]


class PairingChanged(Refused):
    """The registrations changed between the preview and the confirmation: nothing written; ``seed`` to show again."""

    def __init__(self, seed: int, *messages: str):
        super().__init__(Refused.CONFLICT, *messages)
        self.seed = seed


def _pairing_compute(tournament: Tournament, seed: int) -> tuple[PairingPreview, list[Registration]]:
    """The pairing draw of ``seed`` over the registrations waiting now, or ``Refused`` with why it cannot run."""
    if registration_is_open(tournament=tournament):
        raise Refused.invalid(
            _(
                "Sorteio das duplas: as inscrições ainda estão abertas. Encerre as inscrições "
                "(página Inscrições) antes de sortear."
            )
        )
    refuse_if_drawn(tournament, _("Sorteio das duplas"))
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
            _("Sorteio das duplas: o limite de %(max)d duplas já foi atingido; quem aguarda fica na lista de espera.")
            % {"max": tournament.max_duplas}
        )
    lists = [[p.key for p in r.players()] for r in regs]
    result = pairing_draw(registrations=lists, seed=seed, max_duplas=room)
    if not result.duplas:
        raise Refused.invalid(_("Sorteio das duplas: nenhuma dupla pode ser formada com as inscrições que aguardam."))
    preview = PairingPreview(
        seed=seed,
        duplas=[(a, b) for a, b in result.duplas],
        waiting_list=list(result.waiting_list),
        registrations=lists,
        room=room,
        names={p.key: p.name for r in regs for p in r.players()},
    )
    return preview, regs


def pairing_preview(*, tournament: Tournament, seed: int) -> PairingPreview:
    """The duplas a pairing draw with ``seed`` would make now, and who would stay waiting; writes nothing.

    Refused, with why, when no pairing draw can run now.
    """
    return _pairing_compute(tournament, seed)[0]


def pairing_roll(
    *, tournament: Tournament, user: User | AnonymousUser | None, token: str, seed: int | None = None
) -> tuple[DrawRoll, PairingPreview]:
    """Show a pairing draw before writing it: the roll of ``token`` again (a reload), or a new one, recorded."""
    roll, preview = roll_show(
        tournament=tournament,
        user=user,
        kind=DrawRoll.PAIRING,
        token=token,
        seed=seed,
        compute=lambda s: (p := pairing_preview(tournament=tournament, seed=s), p.shown),
    )
    assert roll is not None  # a pairing preview always shows something, or is refused
    return roll, preview


def pairing_confirm(*, tournament: Tournament, user: User | None, token: str) -> Draw:
    """Write the pairing draw the organizer was shown (the roll of ``token``): exactly its duplas, its seed.

    Refused when the roll is unknown or already published, and ``PairingChanged``
    (nothing written) when the registrations changed since: the same seed would
    now make other duplas.
    """
    with tournament_write(tournament=tournament, action="draw.pairing", user=user, kind=STRUCTURE):
        tournament = tournament_lock(tournament)
        roll = roll_open_get(tournament=tournament, kind=DrawRoll.PAIRING, token=token)
        if roll is None:
            raise Refused.conflict(
                _("Sorteio das duplas: esta prévia não vale mais (já foi confirmada ou não existe). Sorteie de novo.")
            )
        preview, regs = _pairing_compute(tournament, roll.seed)
        if preview.shown != roll.shown:
            raise PairingChanged(
                roll.seed,
                _(
                    "Sorteio das duplas: as inscrições que aguardam mudaram desde a prévia, e a mesma semente "
                    "agora forma outras duplas. Nada foi gravado: confira a nova prévia e confirme de novo."
                ),
            )
        draw = _pairing_write(tournament, user, preview, regs)
        rolls_close(tournament=tournament, kind=DrawRoll.PAIRING, draw=draw, published=roll)
    return draw


def pairing_run(*, tournament: Tournament, user: User | None, seed: int | None = None) -> Draw:
    """Pair the waiting individual registrations by a recorded draw; pairs registered together stay together.

    Takes the registrations waiting (not withdrawn, not in a dupla, not marked
    absent) in order of arrival, up to the limit of duplas minus the duplas
    already formed; the odd one out and those beyond the limit stay waiting.
    ``seed`` (made with ``secrets`` when None) replays the same duplas. The desk
    shows a preview first (``pairing_roll``) and writes it with ``pairing_confirm``.
    """
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    with tournament_write(tournament=tournament, action="draw.pairing", user=user, kind=STRUCTURE):
        tournament = tournament_lock(tournament)
        preview, regs = _pairing_compute(tournament, seed)
        draw = _pairing_write(tournament, user, preview, regs)
    return draw


def _pairing_write(
    tournament: Tournament, user: User | None, preview: PairingPreview, regs: list[Registration]
) -> Draw:
    """The duplas of ``preview``, its registrations paired, the draw recorded and audited (inside the write)."""
    seed = preview.seed
    player = {p.key: p for r in regs for p in r.players()}
    keys, order = dupla_keys_next(tournament, len(preview.duplas))
    duplas = Dupla.objects.bulk_create(
        [
            Dupla(tournament=tournament, key=key, player1=player[a], player2=player[b], order=order + i)
            for i, (key, (a, b)) in enumerate(zip(keys, preview.duplas, strict=False))
        ]
    )
    in_dupla = {p for pair in preview.duplas for p in pair}
    paired = [r.pk for r in regs if all(p.key in in_dupla for p in r.players())]
    Registration.objects.filter(pk__in=paired).update(status=Registration.PAIRED)
    draw = Draw.objects.create(
        tournament=tournament,
        kind=Draw.PAIRING,
        method="random",
        seed=seed,
        performed_by=acting_account(user),
        result={
            "duplas": [list(d) for d in preview.duplas],
            "waiting_list": list(preview.waiting_list),
            "registrations": preview.registrations,
            "max_duplas": preview.room,
            "dupla_keys": keys,
        },
    )
    audit_record(
        tournament=tournament,
        user=user,
        action="pairing_draw",
        summary=_("Sorteio das duplas: %(n)d duplas formadas, %(w)d na lista de espera (semente %(seed)d)")
        % {"n": len(duplas), "w": len(preview.waiting_list), "seed": seed},
        after={
            "seed": seed,
            "duplas": {k: [player[a].name, player[b].name] for k, (a, b) in zip(keys, preview.duplas, strict=False)},
            "waiting_list": [player[p].name for p in preview.waiting_list],
        },
    )
    return draw


def acting_account(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def dupla_names(dupla: Dupla) -> list[str]:
    return [dupla.player1.name, dupla.player2.name]


def _undo_prefix(text: str) -> str:
    return _("Desfazer o sorteio das duplas: %(why)s") % {"why": text}


def pairing_undo_problems(*, tournament: Tournament, draw: Draw) -> list[str]:
    """Why the pairing ``draw`` may not be undone now (empty: it may): what depends on it, each named."""
    if draw.undone_at is not None:
        return [_undo_prefix(_("este sorteio já foi desfeito."))]
    newer = (
        Draw.objects.filter(tournament=tournament, kind=Draw.PAIRING, undone_at__isnull=True, pk__gt=draw.pk)
        .order_by("pk")
        .first()
    )
    if newer is not None:
        return [
            _undo_prefix(
                _("há um sorteio das duplas mais recente (semente %(seed)s); desfaça aquele primeiro.")
                % {"seed": newer.seed}
            )
        ]
    problems: list[str] = []
    if Stage.objects.filter(tournament=tournament).exists():
        problems.append(
            _undo_prefix(
                _("o sorteio da chave já foi publicado; desfaça-o antes (página Sorteio, Refazer sorteio).")
                if knockout_only(tournament=tournament)
                else _(
                    "o sorteio dos grupos e da chave já foi publicado; desfaça-o antes (página Sorteio, Refazer sorteio)."
                )
            )
        )
    jogos = Jogo.objects.filter(tournament=tournament).count()
    if jogos:
        problems.append(
            _undo_prefix(
                ngettext("o torneio já tem %(n)d jogo.", "o torneio já tem %(n)d jogos.", jogos) % {"n": jogos}
            )
        )
    result = draw.result or {}
    keys: list[str] = list(result.get("dupla_keys") or [])
    pairs: list[list[str]] = list(result.get("duplas") or [])
    if len(keys) != len(pairs):
        return [*problems, _undo_prefix(_("este sorteio não registra as chaves das duplas que formou."))]
    duplas = {
        d.key: d for d in Dupla.objects.filter(tournament=tournament, key__in=keys).select_related("player1", "player2")
    }
    # each dupla named as the desk names it (its name, else its players), never by its key
    players = dict(Player.objects.filter(tournament=tournament).values_list("key", "name"))
    missing, swapped, edited, disqualified, with_pin = [], [], [], [], []
    for key, pair in zip(keys, pairs, strict=False):
        dupla = duplas.get(key)
        if dupla is None:
            missing.append(" / ".join(players.get(p, "?") for p in pair))
            continue
        name = dupla.display_name
        if [dupla.player1.key, dupla.player2.key] != list(pair):
            swapped.append(name)
        if dupla.name or dupla.seed is not None:
            edited.append(name)
        if dupla.disqualified:
            disqualified.append(name)
        if dupla.pin_hash:
            with_pin.append(name)
    for keys_of, text in (
        (missing, _("duplas do sorteio que não existem mais: %(keys)s.")),
        (swapped, _("duplas com atletas trocados depois do sorteio: %(keys)s.")),
        (edited, _("duplas editadas depois do sorteio (nome ou cabeça de chave): %(keys)s.")),
        (disqualified, _("duplas desclassificadas: %(keys)s.")),
        (with_pin, _("duplas que já receberam o PIN (cartões das duplas): %(keys)s.")),
    ):
        if keys_of:
            problems.append(_undo_prefix(text % {"keys": "; ".join(keys_of)}))
    return problems


def pairing_undo(*, tournament: Tournament, user: User | None, draw: int, reason: str) -> Draw:
    """Undo the pairing ``draw`` (an id) while nothing depends on it: its duplas deleted, the registrations it
    paired waiting again exactly as before; the draw is kept, marked undone with the reason, and audited."""
    reason = (reason or "").strip()
    if is_blank(reason):  # invisible characters only: no reason
        raise Refused.invalid(_undo_prefix(_("diga o motivo.")))
    if len(reason) > 300:
        raise Refused.invalid(_undo_prefix(_("o motivo tem %(n)d caracteres; o máximo é 300.") % {"n": len(reason)}))
    with tournament_write(tournament=tournament, action="draw.pairing_undo", user=user, kind=STRUCTURE):
        tournament = tournament_lock(tournament)
        row = Draw.objects.filter(tournament=tournament, kind=Draw.PAIRING, pk=draw).first()
        if row is None:
            raise Refused.not_found(_undo_prefix(_("sorteio não encontrado neste torneio.")))
        problems = pairing_undo_problems(tournament=tournament, draw=row)
        if problems:
            raise Refused.conflict(*problems)
        result = row.result or {}
        keys = list(result.get("dupla_keys") or [])
        players = {p for pair in result.get("duplas") or [] for p in pair}
        duplas = list(
            Dupla.objects.filter(tournament=tournament, key__in=keys)
            .select_related("player1", "player2")
            .order_by("order", "id")
        )
        regs = [
            r
            for r in Registration.objects.filter(tournament=tournament, status=Registration.PAIRED).select_related(
                "player1", "player2"
            )
            if all(p.key in players for p in r.players())
        ]
        Registration.objects.filter(pk__in=[r.pk for r in regs]).update(status=Registration.WAITING)
        before = {"seed": row.seed, "duplas": {d.key: dupla_names(d) for d in duplas}}
        Dupla.objects.filter(pk__in=[d.pk for d in duplas]).delete()
        row.undone_at, row.undone_by, row.undo_reason = timezone.now(), acting_account(user), reason
        row.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        audit_record(
            tournament=tournament,
            user=user,
            action="pairing_undo",
            summary=_(
                "Sorteio das duplas desfeito (semente %(seed)s): %(n)d duplas apagadas, %(r)d inscrições aguardando "
                "de novo. Motivo: %(reason)s"
            )
            % {"seed": row.seed, "n": len(duplas), "r": len(regs), "reason": reason},
            before=before,
            after={"reason": reason, "registrations": sorted(r.order for r in regs)},
        )
    return row
