"""/organizar/<slug>/pins/: make new dupla PINs and print the dupla cards (PIN, private link, QR code).

The cards come as a page (printed by the browser) or, with ``formato=pdf``, as
the A4 PDF of ``dupla_pins --pdf`` (eight cards a sheet, with cut lines).

Only hashes are stored, so the cards exist only in the response to the POST
that made the PINs: never cached (``no-store``), never shown again. The form
carries a one-time batch code kept in the session, so a browser that resends
the POST (reload, back button) does not silently replace the PINs just printed.
"""

import secrets

from django.shortcuts import render
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..printing.cards import cards_pdf
from ..printing.http import pdf_filename, pdf_response
from ..printing.qr import qr_svg
from ..staff.pins import pins_reset
from ..staff.selectors import dupla_cards
from ..permissions import desk_view
from .staff_forms import PinsResetForm

USED_KEY = "zap_pin_batches_used"  # the batch codes already used in this session (the last 20)


def _no_store(response):
    add_never_cache_headers(response)
    patch_cache_control(response, no_store=True, private=True)
    return response


def _batch_new() -> str:
    return secrets.token_urlsafe(12)


def _form_page(request, tournament, form=None, *, notice: str = ""):
    duplas = tournament.duplas.count()
    with_pin = tournament.duplas.exclude(pin_hash="").count()
    if form is None:
        form = PinsResetForm(initial={"batch": _batch_new()})
    return _no_store(render(request, "desk/staff/pins.html", {
        "desk_tab": "duplas", "form": form, "duplas": duplas, "with_pin": with_pin, "notice": notice,
    }))


@require_http_methods(["GET", "HEAD", "POST"])
@desk_view()
def pins(request, tournament):
    """GET: what PINs are and the button. POST (confirmed): new PINs, and the printable cards in this response."""
    if request.method != "POST":
        return _form_page(request, tournament)
    form = PinsResetForm(request.POST)
    if not form.is_valid():
        return _form_page(request, tournament, form)
    batch = form.cleaned_data["batch"]
    used = list(request.session.get(USED_KEY, []))
    if batch and batch in used:
        return _form_page(request, tournament, notice=_(
            "Esses PINs já foram feitos e mostrados (o navegador reenviou o formulário). Eles continuam valendo; "
            "para fazer outros, use o botão abaixo."))
    if not tournament.duplas.exists():
        return _form_page(request, tournament)
    codes = pins_reset(tournament=tournament, by=request.user)
    if batch:
        request.session[USED_KEY] = (used + [batch])[-20:]
    cards = dupla_cards(tournament=tournament, pins=codes)
    if request.POST.get("formato") == "pdf":  # the same cards, as the A4 sheet with cut lines
        return _no_store(pdf_response(cards_pdf(tournament_name=tournament.name, cards=cards),
                                      filename=pdf_filename(tournament.slug, "cartoes")))
    for card in cards:
        card["qr"] = qr_svg(card["link"], label=_("Link privado da dupla %(name)s") % {"name": card["name"]})
    return _no_store(render(request, "desk/staff/pin_cards.html", {"desk_tab": "duplas", "cards": cards}))
