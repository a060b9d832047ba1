"""/organizar/<slug>/imprimir/…: the desk's printing page and its sheets.

Súmulas (blank, pre-filled) for the referees and organizers; the medal list and
the certificates for the organizers. A batch is read in a fixed number of
queries and drawn outside any transaction or lock, so printing a whole round
holds nothing that a referee's write would wait for.
"""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournaments.permissions import ORGANIZE, REFEREE_DESK, desk_view, may_organize
from tournaments.printing.contents import batch_choices, ceremony_get, sumula_batch_get
from tournaments.printing.medals import certificates_pdf, medals_pdf
from tournaments.printing.page import Footer
from tournaments.printing.sumula import sumulas_pdf
from tournaments.refusals import Refused
from tournaments.web import pdf_filename, pdf_response, print_error, refusal_status


@desk_view(need=ORGANIZE)
@require_safe
def print_page(request, tournament):
    """The organizers' printing page; a referee finds the súmulas' batches on the referee's list (INTERCHANGE: a
    referee prints the blank súmulas, every other desk page is organizer-only)."""
    stages, total = sumula_batches(tournament=tournament)
    return render(request, "printing/desk.html", {"desk_tab": "print", "stages": stages, "total": total})


def sumula_batches(*, tournament) -> tuple[list[dict], int]:
    """The blank súmulas one may print now, by stage with its rounds (``imprimir/sumulas.pdf?stage=&round=``), and
    how many in all: the organizers' printing page and the referee's list show them."""
    choices = batch_choices(tournament=tournament)
    stages: dict[str, dict] = {}
    for choice in choices:
        stage = stages.setdefault(
            choice.stage, {"key": choice.stage, "title": choice.stage_title, "count": 0, "rounds": []}
        )
        stage["count"] += choice.count
        stage["rounds"].append(choice)
    return list(stages.values()), sum(c.count for c in choices)


def _round_param(value: str | None) -> int | None:
    if value is None or value == "":
        return None
    if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= 10_000:
        raise Refused.bad_request(_("round: “%(value)s” não é um número de rodada (use 1, 2, 3…)") % {"value": value})
    return int(value)


@desk_view(need=REFEREE_DESK)
@require_safe
def sumulas(request, tournament):
    """Blank súmulas, pre-filled, of the scheduled jogos, in mesa order; ``?stage=KEY&round=N`` narrows them."""
    stage = request.GET.get("stage") or None
    try:
        round_number = _round_param(request.GET.get("round"))
        sheets = sumula_batch_get(tournament=tournament, stage=stage, round_number=round_number)
    except Refused as exc:  # a stage or a round that names nothing here
        return print_error(
            request,
            str(exc),
            back_url=reverse(
                "printing:desk" if may_organize(user=request.user, tournament=tournament) else "referee:list",
                kwargs={"slug": tournament.slug},
            ),
            status=refusal_status(exc),
        )
    body = sumulas_pdf(
        sheets=sheets, footer=Footer.now(tournament.name), title=_("Súmulas · %(name)s") % {"name": tournament.name}
    )
    parts = [tournament.slug, "sumulas", stage or "", f"rodada-{round_number}" if round_number else ""]
    return pdf_response(body, filename=pdf_filename(*parts))


def _ceremony_sheet(tournament, draw, title: str, name: str):
    event, placed, finished = ceremony_get(tournament=tournament)
    body = draw(
        event=event,
        placed=placed,
        finished=finished,
        footer=Footer.now(tournament.name),
        title=title % {"name": tournament.name},
    )
    return pdf_response(body, filename=pdf_filename(tournament.slug, name))


@desk_view(need=ORGANIZE)
@require_safe
def medals(request, tournament):
    return _ceremony_sheet(tournament, medals_pdf, _("Medalhas · %(name)s"), "medalhas")


@desk_view(need=ORGANIZE)
@require_safe
def certificates(request, tournament):
    return _ceremony_sheet(tournament, certificates_pdf, _("Certificados · %(name)s"), "certificados")
