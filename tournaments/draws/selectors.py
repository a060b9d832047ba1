"""Reads for the draw pages of the desk; each one a fixed number of queries, whatever the size of the event."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Draw, Dupla, Player, Registration, Stage, Tournament
from ..registrations.window import registration_is_open
from ..state import TournamentState
from .pairing import pairing_undo_problems
from .seeding import seeding_text


@dataclass
class PairingOverview:
    is_open: bool
    drawn: bool  # the competition draw is published: no more pairing
    singles: int  # individual registrations waiting (present or not checked)
    pairs: int  # pair registrations waiting
    absent: int  # waiting registrations marked absent (left out)
    duplas: int
    max_duplas: int | None
    draws: list[Draw]  # pairing draws, newest first (the undone ones too)
    last: Draw | None = None  # the newest pairing draw not undone
    undo_problems: list[str] = field(default_factory=list)  # why ``last`` may not be undone (empty: it may)
    last_duplas: list[tuple[str, str, str]] = field(default_factory=list)  # (key, player, player) of the newest
    last_waiting: list[str] = field(default_factory=list)

    @property
    def room(self) -> int | None:
        return None if self.max_duplas is None else max(0, self.max_duplas - self.duplas)

    @property
    def may_draw(self) -> bool:
        return not self.is_open and not self.drawn and (self.singles >= 2 or self.pairs > 0) and self.room != 0


def pairing_overview(*, tournament: Tournament) -> PairingOverview:
    counts = Registration.objects.filter(tournament=tournament, status=Registration.WAITING).aggregate(
        singles=Count("id", filter=Q(player2__isnull=True) & ~Q(present=False)),
        pairs=Count("id", filter=Q(player2__isnull=False) & ~Q(present=False)),
        absent=Count("id", filter=Q(present=False)),
    )
    draws = list(
        Draw.objects.filter(tournament=tournament, kind=Draw.PAIRING)
        .select_related("performed_by", "undone_by")
        .order_by("-performed_at", "-id")[:20]
    )
    out = PairingOverview(
        is_open=registration_is_open(tournament=tournament),
        drawn=Stage.objects.filter(tournament=tournament).exists(),
        singles=counts["singles"],
        pairs=counts["pairs"],
        absent=counts["absent"],
        duplas=Dupla.objects.filter(tournament=tournament).count(),
        max_duplas=tournament.max_duplas,
        draws=draws,
    )
    out.last = next((d for d in draws if d.undone_at is None), None)
    if out.last is not None:
        out.undo_problems = pairing_undo_problems(tournament=tournament, draw=out.last)
        result = out.last.result or {}
        pairs: list[list[str]] = [p for p in result.get("duplas", []) if isinstance(p, list) and len(p) == 2]
        keys = result.get("dupla_keys") or [""] * len(pairs)
        wanted = {k for p in pairs for k in p} | set(result.get("waiting_list", []))
        names = dict(Player.objects.filter(tournament=tournament, key__in=wanted).values_list("key", "name"))
        out.last_duplas = [(k, names.get(a, a), names.get(b, b)) for k, (a, b) in zip(keys, pairs, strict=False)]
        out.last_waiting = [names.get(p, p) for p in result.get("waiting_list", [])]
    return out


@dataclass
class DuplasListing:
    duplas: list[Dupla]
    waiting: list[Registration]  # registrations waiting for a dupla, in order of arrival
    drawn: bool

    @property
    def players(self) -> list[tuple[int, str]]:
        """(player id, "name (dupla)") of everyone in a dupla, for the swap: the dupla by its name, or by the
        partner's ("Ana Souza (com Bruno Lima)"), never by its key."""
        out = []
        for d in self.duplas:
            for p, partner in ((d.player1, d.player2), (d.player2, d.player1)):
                dupla = d.name or _("com %(name)s") % {"name": partner.name}
                out.append((p.pk, f"{p.name} ({dupla})"))
        return out


def duplas_listing(*, tournament: Tournament) -> DuplasListing:
    duplas = list(
        Dupla.objects.filter(tournament=tournament).select_related("player1", "player2").order_by("order", "id")
    )
    waiting = list(
        Registration.objects.filter(tournament=tournament, status=Registration.WAITING)
        .select_related("player1", "player2")
        .order_by("order", "id")
    )
    return DuplasListing(duplas=duplas, waiting=waiting, drawn=Stage.objects.filter(tournament=tournament).exists())


def draws_public(*, tournament: Tournament, state: TournamentState | None = None) -> list[dict[str, object]]:
    """Every recorded draw of the event, for anyone to check (docs/regras.md §2 steps 3–4): what was drawn, when, by
    whom (the person's full name, never a username), the seed that replays it and its result in names.

    Names come from ``state`` (the tournament's derived state) when given; one query for the draws, and
    one more only when a draw names a player in no dupla (the pairing draw's waiting list) or no state is given.
    """
    draws = list(
        Draw.objects.filter(tournament=tournament)
        .select_related("performed_by", "stage", "group")
        .annotate(rolls_shown=Count("rolls"), roll_published=Max("rolls__number", filter=Q(rolls__published=True)))
        .order_by("performed_at", "id")
    )
    if not draws:
        return []
    if state is not None:
        duplas = {k: d.display_name for k, d in state.duplas.items()}
        players = {p.key: p.name for d in state.duplas.values() for p in (d.player1, d.player2)}
    else:
        duplas = {
            d.key: d.display_name
            for d in Dupla.objects.filter(tournament=tournament).select_related("player1", "player2")
        }
        players = {}
    named = {
        p
        for d in draws
        if d.kind == Draw.PAIRING
        for p in [
            *(k for pair in (d.result or {}).get("duplas", []) for k in pair),
            *(d.result or {}).get("waiting_list", []),
        ]
    }
    if named - set(players):
        players.update(
            Player.objects.filter(tournament=tournament, key__in=named - set(players)).values_list("key", "name")
        )

    def dupla(key: str | None) -> str:
        return duplas.get(key, key) if key is not None else _("folga")

    methods = {
        "random": _("aleatório"),
        "seeded": _("com cabeças de chave"),
        "fixed": _("ordem dada"),
        "standard": _("posições padrão"),
    }
    out: list[dict[str, object]] = []
    for d in draws:
        r = d.result or {}
        lines: list[str] = []
        if d.kind == Draw.PAIRING:
            lines = [
                _("%(a)s e %(b)s") % {"a": players.get(pair[0], pair[0]), "b": players.get(pair[1], pair[1])}
                if len(pair) == 2
                else ", ".join(players.get(p, p) for p in pair)
                for pair in r.get("duplas", [])
            ]
            waiting = [players.get(p, p) for p in r.get("waiting_list", [])]
            if waiting:
                lines.append(_("lista de espera: %(names)s") % {"names": ", ".join(waiting)})
        elif d.kind == Draw.GROUPS:
            lines = [
                _("Grupo %(g)s: %(duplas)s")
                % {"g": g.get("key"), "duplas": ", ".join(dupla(k) for k in g.get("duplas", []))}
                for g in r.get("groups", [])
            ]
        elif d.kind == Draw.BRACKET:
            order = r.get("order") or []
            lines = [
                f"{dupla(order[i])} x {dupla(order[i + 1]) if i + 1 < len(order) else '—'}"
                for i in range(0, len(order), 2)
            ]
        else:  # tiebreak: the tied duplas, best first
            lines = [f"{n}º {dupla(k)}" for n, k in enumerate(r.get("order", []), start=1)]
        who = d.performed_by.get_full_name().strip() if d.performed_by else ""
        where = d.stage.name or d.stage.key if d.stage else ""
        if d.group:
            where += " · " + _("Grupo %(g)s") % {"g": d.group.key}
        out.append(
            {
                "kind": d.get_kind_display(),
                "where": where,
                "when": timezone.localtime(d.performed_at).strftime("%d/%m/%Y %H:%M"),
                "who": who,
                "seed": d.seed,
                "method": methods.get(d.method, d.method),
                "note": d.note,
                "lines": lines,
                "imported": not d.performed_by and bool(d.note),
                "rolls": _rolls_text(d.rolls_shown, d.roll_published),
                "seeding": seeding_text(r.get("seeding")) if d.kind in (Draw.GROUPS, Draw.BRACKET) else "",
                "undone": _("sorteio das duplas desfeito: %(reason)s") % {"reason": d.undo_reason}
                if d.undone_at is not None
                else "",
            }
        )
    return out


def _rolls_text(shown: int, published: int | None) -> str:
    """ "3 sorteios exibidos; publicado o 3º": how many previews the organizer saw before publishing this draw."""
    if not shown:
        return ""  # drawn without a recorded preview (a file import, a tiebreak, a draw made before rolls were kept)
    text = ngettext("%(n)d sorteio exibido", "%(n)d sorteios exibidos", shown) % {"n": shown}
    if published:
        text = _("%(shown)s; publicado o %(k)dº") % {"shown": text, "k": published}
    return text
