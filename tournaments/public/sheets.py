"""The public sheets: /torneios/<slug>/chave.pdf, classificacao.pdf and jogos/<key>/sumula.pdf.

Public data only, as on the pages they print: names, scores, who confirmed by
dupla and who signed by role; no PINs, contacts, birth dates or account names.
The bracket and the standings are kept, like the pages, for as long as the
tournament's results do not change (``caching``).
"""

from __future__ import annotations

from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments import presenters
from tournaments.caching import page_get, page_key, page_put
from tournaments.models import Tournament
from tournaments.printing.bracket import bracket_pdf
from tournaments.printing.contents import sumula_sheet_get, when_where
from tournaments.printing.page import Footer
from tournaments.printing.standings import standings_pdf
from tournaments.printing.sumula import sumulas_pdf
from tournaments.public.sumula import sumula_jogo_or_404, via_param
from tournaments.public.visibility import event_for
from tournaments.selectors import tournament_state_get
from tournaments.web import pdf_filename, pdf_response, read_only


def _cached_pdf(tournament: Tournament, name: str, build) -> bytes:
    """The sheet ``name`` of the tournament's current results, built once per results version (and language)."""
    key = page_key(tournament=tournament, name=name, language=translation.get_language())
    body = page_get(key)
    if body is None:
        body = build(tournament_state_get(tournament=tournament))
        page_put(key, body)
    return body


@read_only
def bracket_sheet(request, slug: str):
    tournament = event_for(request, Tournament.objects.filter(slug=slug).first())
    body = _cached_pdf(
        tournament,
        "chave.pdf",
        lambda state: bracket_pdf(
            bracket=presenters.bracket_present(state, whole=True, provisional=False),  # what counts only
            footer=Footer.now(tournament.name),
            title=_("Chave · %(name)s") % {"name": tournament.name},
        ),
    )
    return pdf_response(body, filename=pdf_filename(tournament.slug, "chave"))


@read_only
def standings_sheet(request, slug: str):
    tournament = event_for(request, Tournament.objects.filter(slug=slug).first())
    body = _cached_pdf(
        tournament,
        "classificacao.pdf",
        lambda state: standings_pdf(
            standings=presenters.standings_present(state, whole=True),
            tournament=tournament.name,
            when_where=when_where(tournament),
            footer=Footer.now(tournament.name),
            title=_("Classificação · %(name)s") % {"name": tournament.name},
        ),
    )
    return pdf_response(body, filename=pdf_filename(tournament.slug, "classificacao"))


@read_only
def sumula_sheet(request, slug: str, key: str):
    """The filled súmula of one jogo as it stands (``?via=N``: an earlier via of a corrected súmula)."""
    tournament, jogo = sumula_jogo_or_404(request, slug=slug, key=key)
    via = via_param(request.GET.get("via"))
    sheet = sumula_sheet_get(tournament=tournament, jogo=jogo, via=via)
    if sheet is None:
        raise Http404("via inexistente")
    body = sumulas_pdf(
        sheets=[sheet],
        footer=Footer.now(tournament.name),
        title=_("Súmula · %(jogo)s · %(name)s") % {"jogo": sheet.group_round, "name": tournament.name},
    )
    name = pdf_filename(tournament.slug, "sumula", jogo.key, f"via-{via}" if via else "")
    return pdf_response(body, filename=name)
