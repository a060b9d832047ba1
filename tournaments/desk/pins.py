"""/organizar/<slug>/pins/: make new dupla PINs and print the dupla cards (PIN, private link, QR code).

One action makes a batch of PINs and gives its cards both ways: as a page (printed by
the browser) and, from that page, the A4 PDF of ``dupla_pins --pdf`` (eight cards a
sheet, with cut lines) to download. One dupla's PIN can be made again alone (a lost card).

Only hashes are stored, so the cards exist only in the response to the POST
that made the PINs: never cached (``no-store``), never shown again. The form
carries a one-time batch code kept in the session, so a browser that resends
the POST (reload, back button) does not silently replace the PINs just printed.
"""

import base64
import secrets

from django.shortcuts import render
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ..models import Dupla
from ..permissions import desk_view
from ..printing.cards import cards_pdf
from ..printing.qr import qr_svg
from ..staff.pins import pin_reset, pins_reset
from ..staff.selectors import dupla_cards
from ..sumula.pins import pin_locked_duplas
from ..web import pdf_filename, pdf_response
from .staff_forms import PinResetOneForm, PinsResetForm

USED_KEY = "zap_pin_batches_used"  # the batch codes already used in this session (the last 20)


def _no_store(response):
    add_never_cache_headers(response)
    patch_cache_control(response, no_store=True, private=True)
    return response


def _batch_new() -> str:
    return secrets.token_urlsafe(12)


def _duplas(tournament):
    return list(
        Dupla.objects.filter(tournament=tournament).select_related("player1", "player2").order_by("order", "id")
    )


def _form_page(request, tournament, form=None, *, notice: str = "", one_form=None):
    duplas = tournament.duplas.count()
    with_pin = tournament.duplas.exclude(pin_hash="").count()
    if form is None:
        form = PinsResetForm(initial={"batch": _batch_new()}, first=not with_pin)
    if one_form is None:
        one_form = PinResetOneForm(initial={"batch": _batch_new()}, duplas=_duplas(tournament))
    return _no_store(
        render(
            request,
            "desk/staff/pins.html",
            {
                "desk_tab": "duplas",
                "form": form,
                "duplas": duplas,
                "with_pin": with_pin,
                "notice": notice,
                "one_form": one_form,
                "locked": pin_locked_duplas(tournament=tournament),
            },
        )
    )


def _batch_used(request, batch: str) -> bool:
    return bool(batch) and batch in request.session.get(USED_KEY, [])


def _batch_mark(request, batch: str) -> None:
    if batch:
        request.session[USED_KEY] = (list(request.session.get(USED_KEY, [])) + [batch])[-20:]


def _cards(request, tournament, codes):
    """The cards of this batch, both ways at once: on the page (printed by the browser) with the A4 PDF of the
    same cards to download from it (a ``data:`` link: the PINs are never kept to be served again), or, with
    ``formato=pdf``, the PDF alone, downloaded."""
    cards = dupla_cards(tournament=tournament, pins=codes)
    pdf = cards_pdf(tournament_name=tournament.name, cards=cards)
    filename = pdf_filename(tournament.slug, "cartoes")
    if request.POST.get("formato") == "pdf":
        return _no_store(pdf_response(pdf, filename=filename, attachment=True))
    for card in cards:
        card["qr"] = qr_svg(card["link"], label=_("Link privado da dupla %(name)s") % {"name": card["name"]})
    context = {
        "desk_tab": "duplas",
        "cards": cards,
        "pdf_href": "data:application/pdf;base64," + base64.b64encode(pdf).decode("ascii"),
        "pdf_name": filename,
        "pdf_kib": max(1, round(len(pdf) / 1024)),
    }
    return _no_store(render(request, "desk/staff/pin_cards.html", context))


def _reset_one(request, tournament):
    """A lost card: a new PIN and a new private link for one dupla, and its card in this response."""
    duplas = _duplas(tournament)
    form = PinResetOneForm(request.POST, duplas=duplas)
    if not form.is_valid():
        return _form_page(request, tournament, one_form=form)
    batch = form.cleaned_data["batch"]
    if _batch_used(request, batch):
        return _form_page(
            request,
            tournament,
            notice=_(
                "Esse PIN já foi refeito e mostrado (o navegador reenviou o formulário). Ele continua valendo; "
                "para fazer outro, use o formulário abaixo."
            ),
        )
    dupla = next(d for d in duplas if d.key == form.cleaned_data["dupla"])
    pin = pin_reset(tournament=tournament, dupla=dupla, by=request.user)
    _batch_mark(request, batch)
    return _cards(request, tournament, {dupla.key: pin})


@desk_view()
@require_http_methods(["GET", "HEAD", "POST"])
def pins(request, tournament):
    """GET: what PINs are and the buttons. POST (confirmed, unless no dupla has a PIN yet): new PINs (all, or one dupla's: ``dupla``), and the
    printable cards in this response. New PINs come with new private links: the old links answer 410."""
    if request.method != "POST":
        return _form_page(request, tournament)
    if "dupla" in request.POST:
        return _reset_one(request, tournament)
    # the first time (no dupla has a PIN) nothing stops working: no confirmation asked
    form = PinsResetForm(request.POST, first=not tournament.duplas.exclude(pin_hash="").exists())
    if not form.is_valid():
        return _form_page(request, tournament, form)
    batch = form.cleaned_data["batch"]
    if _batch_used(request, batch):
        return _form_page(
            request,
            tournament,
            notice=_(
                "Esses PINs já foram feitos e mostrados (o navegador reenviou o formulário). Eles continuam valendo; "
                "para fazer outros, use o botão abaixo."
            ),
        )
    if not tournament.duplas.exists():
        return _form_page(request, tournament)
    codes = pins_reset(tournament=tournament, by=request.user)
    _batch_mark(request, batch)
    return _cards(request, tournament, codes)
