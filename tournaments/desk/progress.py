"""Where an event stands on its way (docs/regras.md §2) and the one next thing the organizer should do."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.db.models import Count, Exists, OuterRef, Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ..draws.format import knockout_only
from ..models import Draw, Jogo, Registration, Stage, Tournament
from ..permissions import may_organize, roles_prefetch
from ..registrations.window import registration_is_open
from ..sumula.pins import pin_locked_count
from ..sumula.selectors import appeals_pending_count, sumula_pending_get

# state code → label shown on the desk (the public pages have their own wording)
STATES = {
    "draft": _("rascunho: só a equipe vê"),
    "registration_open": _("inscrições abertas"),
    "registration_closed": _("inscrições encerradas"),
    "duplas_formed": _("duplas formadas"),
    "drawn": _("sorteio feito"),
    "in_progress": _("em andamento"),
    "finished": _("encerrado"),
}


@dataclass(frozen=True)
class NextStep:
    label: str
    url: str


@dataclass(frozen=True)
class Pending:
    """One thing that waits for the staff now: how many, and the page where it is handled."""

    code: str
    label: str
    count: int
    url: str


@dataclass(frozen=True)
class Summary:
    tournament: Tournament
    state: str
    state_label: str
    may_organize: bool  # else the user referees it (``permissions.may_organize``)
    registrations: int  # active (not withdrawn) registrations
    waiting: int  # active registrations not yet in a dupla
    duplas: int
    jogos: int  # jogos made so far: a knockout's next jogos are made as its duplas go through
    played: int  # jogos with a result (or being played)
    next_step: NextStep | None
    knockout_grows: bool = False  # a knockout still to make jogos may follow (not finished, a knockout stage)
    # the pairing draw ran (or the competition was drawn): ``waiting`` were left without a dupla, not awaiting one
    pairing_done: bool = False
    # what waits for the staff now (the Resumo only; the dashboard's rows leave it empty), None before the draw
    pending: tuple[Pending, ...] | None = None


def _counts(tournament_ids: list[int]) -> dict[int, dict[str, int]]:
    """Per tournament: registrations, waiting, duplas, stages, knockout stages, whether the pairing draw ran, jogos,
    played. Three queries for any number."""
    out = {
        pk: {
            "registrations": 0,
            "waiting": 0,
            "duplas": 0,
            "stages": 0,
            "knockouts": 0,
            "paired": 0,
            "jogos": 0,
            "played": 0,
        }
        for pk in tournament_ids
    }
    if not tournament_ids:
        return out
    for row in (
        Registration.objects.filter(tournament_id__in=tournament_ids)
        .exclude(status=Registration.WITHDRAWN)
        .values("tournament_id")
        .annotate(n=Count("id"), w=Count("id", filter=Q(status=Registration.WAITING)))
    ):
        out[row["tournament_id"]].update(registrations=row["n"], waiting=row["w"])
    for row in (
        Tournament.objects.filter(pk__in=tournament_ids)
        .annotate(
            nd=Count("duplas", distinct=True),
            ns=Count("stages", distinct=True),
            nk=Count("stages", filter=Q(stages__kind=Stage.KNOCKOUT), distinct=True),
            paired=Exists(Draw.objects.filter(tournament=OuterRef("pk"), kind=Draw.PAIRING, undone_at__isnull=True)),
        )
        .values("pk", "nd", "ns", "nk", "paired")
    ):
        out[row["pk"]].update(duplas=row["nd"], stages=row["ns"], knockouts=row["nk"], paired=int(row["paired"]))
    for row in (
        Jogo.objects.filter(tournament_id__in=tournament_ids)
        .values("tournament_id")
        .annotate(n=Count("id"), p=Count("id", filter=~Q(status=Jogo.SCHEDULED)))
    ):
        out[row["tournament_id"]].update(jogos=row["n"], played=row["p"])
    return out


def _state(tournament: Tournament, c: dict[str, int]) -> str:
    if not tournament.published:
        return "draft"
    if tournament.finished and c["jogos"]:
        return "finished"
    if c["played"]:
        return "in_progress"
    if c["stages"]:
        return "drawn"
    if c["duplas"]:
        return "duplas_formed"
    if registration_is_open(tournament=tournament):
        return "registration_open"
    return "registration_closed"


def _next_step(tournament: Tournament, state: str, c: dict[str, int], organizer: bool) -> NextStep | None:
    slug = tournament.slug
    if not organizer:
        if state in ("drawn", "in_progress"):
            return NextStep(str(_("Anotar as súmulas")), reverse("referee:list", args=[slug]))
        return None
    if state == "draft":
        return NextStep(str(_("Conferir os dados e publicar o evento")), reverse("desk:publish", args=[slug]))
    if state == "registration_open":
        if c["registrations"] == 0:
            return NextStep(str(_("Receber inscrições")), reverse("desk:registrations", args=[slug]))
        return NextStep(str(_("Ver inscrições e encerrar")), reverse("desk:registrations", args=[slug]))
    if state == "registration_closed":
        if c["waiting"] >= 2:
            return NextStep(str(_("Sortear as duplas")), reverse("desk:pairing", args=[slug]))
        return NextStep(str(_("Receber inscrições")), reverse("desk:registrations", args=[slug]))
    if state == "duplas_formed":
        if c["waiting"] >= 2:
            return NextStep(str(_("Sortear as duplas")), reverse("desk:pairing", args=[slug]))
        what = _("Sortear a chave") if knockout_only(tournament=tournament) else _("Sortear grupos e chave")
        return NextStep(str(what), reverse("desk:competition", args=[slug]))
    if state == "drawn":
        if not tournament.mesas:
            return NextStep(str(_("Distribuir as mesas")), reverse("desk:mesas", args=[slug]))
        return NextStep(str(_("Ver a programação")), reverse("desk:schedule", args=[slug]))
    if state == "in_progress":
        return NextStep(str(_("Acompanhar as súmulas")), reverse("referee:list", args=[slug]))
    return NextStep(str(_("Ver a classificação final")), reverse("tournaments:standings", args=[slug]))


def _summary(tournament: Tournament, c: dict[str, int], organizer: bool) -> Summary:
    state = _state(tournament, c)
    return Summary(
        tournament=tournament,
        state=state,
        state_label=str(STATES[state]),
        may_organize=organizer,
        registrations=c["registrations"],
        waiting=c["waiting"],
        duplas=c["duplas"],
        jogos=c["jogos"],
        played=c["played"],
        next_step=_next_step(tournament, state, c, organizer),
        knockout_grows=bool(c["knockouts"]) and state != "finished",
        pairing_done=bool(c["paired"] or c["stages"]),
    )


def dashboard_rows(*, user, tournaments: list[Tournament]) -> list[Summary]:
    counts = _counts([t.pk for t in tournaments])
    roles_prefetch(user=user, tournaments=tournaments)
    return [_summary(t, counts[t.pk], may_organize(user=user, tournament=t)) for t in tournaments]


def _pending(tournament: Tournament, organizer: bool) -> tuple[Pending, ...]:
    """The súmulas that wait (for the referee or the organizer), and for the organizer also the appeals to decide,
    the locked PINs and the jogos of the round called now without a mesa; only those with a count, each with its page."""
    counts = sumula_pending_get(tournament=tournament)
    sumulas = reverse("referee:list", args=[tournament.slug]) + "?todos=1&situacao="
    rows = [
        Pending("in_progress", str(_("Na mesa (em andamento)")), counts.in_progress, sumulas + Jogo.IN_PROGRESS),
        Pending("awaiting", str(_("Súmulas aguardando confirmação")), counts.awaiting, sumulas + Jogo.AWAITING),
        Pending("contested", str(_("Súmulas contestadas")), counts.contested, sumulas + Jogo.CONTESTED),
        Pending("unsigned", str(_("Súmulas a homologar")), counts.unsigned, sumulas + Jogo.CONFIRMED),
    ]
    if organizer:
        rows += [
            Pending(
                "appeals",
                str(_("Recursos a decidir")),
                appeals_pending_count(tournament=tournament),
                reverse("desk:appeals", args=[tournament.slug]),
            ),
            Pending(
                "pins",
                str(_("PINs bloqueados")),
                pin_locked_count(tournament=tournament),
                reverse("desk:pins", args=[tournament.slug]) + "#pins-bloqueados",
            ),
            Pending(
                "without_mesa",
                str(_("Jogos da rodada sem mesa")),
                counts.without_mesa,
                reverse("desk:mesas", args=[tournament.slug]),
            ),
        ]
    return tuple(row for row in rows if row.count)


def tournament_summary(*, tournament: Tournament, user) -> Summary:
    """The Resumo: the counts and the next step, and what waits for this user now once there are jogos. Right after
    the draw, with nothing waiting, there is no "Agora" (its "nothing waits" would sit beside the next step)."""
    organizer = may_organize(user=user, tournament=tournament)
    summary = _summary(tournament, _counts([tournament.pk])[tournament.pk], organizer)
    if not summary.jogos:
        return summary
    pending = _pending(tournament, organizer)
    if not pending and summary.state == "drawn":
        return summary
    return replace(summary, pending=pending)


__all__ = ["STATES", "NextStep", "Pending", "Summary", "dashboard_rows", "tournament_summary"]
