"""A dupla's own page, opened by its private link (128-bit token, ``models.new_private_token``).

It shows what the public pages show, for this dupla only: its jogos and the
tables of its groups, and the súmulas waiting for its answer, which it
confirms or contests right there (docs/regras.md §2 step 6, §8): the link itself
authenticates the dupla (no PIN needed; the PIN is for the API and the mesa).
The address is the secret: the page is never cached by shared caches, never
indexed, and sends no Referer to the pages it links to.
"""

import re

from django.contrib import messages
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.sumula import AWAITING, CONFIRMED
from tournaments.dupla.presenters import dupla_page_present, dupla_page_present_head, self_score_present
from tournaments.models import Appeal
from tournaments.permissions import may_answer_sumula, may_open_private_link, may_self_score
from tournaments.presenters.sumula_pad import posted_id
from tournaments.refusals import Refused
from tournaments.staff.selectors import dupla_by_token, link_replaced
from tournaments.sumula.commands import MaoAdd
from tournaments.sumula.selectors import entered_only_by, jogo_for_sumula, mao_entered_by, mao_in_sumula, sumula_get
from tournaments.sumula.services import Actor, appeal_file, sumula_answer, sumula_mao_add, sumula_mao_undo
from tournaments.web import request_device

CONFIRM, CONTEST_CHOICE = "confirmar", "contestar"
REASON_MAX = 300


def _private(response):
    patch_cache_control(response, private=True, no_cache=True, max_age=0)
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _not_found(request, token: str):
    """No dupla has this link: 410 with a page saying so if it was replaced by a new card, else 404."""
    if link_replaced(token=token):
        return _private(render(request, "privatelink/replaced.html", status=410))
    raise Http404("link não encontrado")


def _opponent(dupla, key: str) -> str:
    """The name of the dupla ``dupla`` plays in jogo ``key``: how its messages name the jogo ("a súmula do jogo
    contra Os Zapeiros"), never by the key; "" when ``key`` is none of its jogos (the write refuses it anyway)."""
    jogo = jogo_for_sumula(tournament=dupla.tournament, key=key)
    if jogo is None or dupla.pk not in (jogo.dupla_a_id, jogo.dupla_b_id):
        return ""
    return (jogo.dupla_b if jogo.dupla_a_id == dupla.pk else jogo.dupla_a).display_name


def _answer_refused(request, opponent: str, error: str) -> None:
    if opponent:
        text = _("Não foi possível responder à súmula do jogo contra %(opponent)s: %(error)s")
    else:
        text = _("Não foi possível responder à súmula: %(error)s")
    messages.error(request, text % {"opponent": opponent, "error": error})


@require_safe
def dupla_page_view(request, token: str):
    dupla = dupla_by_token(token=token)
    if not may_open_private_link(dupla=dupla, token=token):
        return _not_found(request, token)
    page = dupla_page_present(dupla=dupla)
    context = {
        "page": page,
        "event": page["event"],
        "token": token,
        "reason_max": REASON_MAX,
        "appeal_reason_max": Appeal.REASON_MAX,
    }
    return _private(render(request, "privatelink/dupla.html", context))


@csrf_exempt
@require_POST
def dupla_answer_view(request, token: str, key: str):
    """The dupla confirms or contests the súmula of one of its jogos; back to its page with what happened.

    The private link is the dupla's credential: a forged request would need the 128-bit token in its
    address, so no CSRF token is asked. (The page sends ``Referrer-Policy: no-referrer`` to keep the
    token out of other sites' logs; browsers then send ``Origin: null`` with the form, which Django's
    CSRF check refuses: a real phone got 403.) The form carries the
    via it showed: if the súmula was corrected meanwhile, nothing is answered (the dupla reads it first).
    """
    dupla = dupla_by_token(token=token)
    if not may_open_private_link(dupla=dupla, token=token):
        return _not_found(request, token)
    back = reverse("privatelink:dupla", kwargs={"token": token}) + "#confirmar"
    choice = request.POST.get("resposta")
    reason = request.POST.get("motivo", "")
    if choice not in (CONFIRM, CONTEST_CHOICE):
        messages.error(request, _("Escolha confirmar ou contestar a súmula."))
        return _private(redirect(back))
    shown = request.POST.get("via", "")
    opponent = _opponent(dupla, key)
    if not re.fullmatch(r"[0-9]{1,9}", shown):
        _answer_refused(
            request,
            opponent,
            _("falta a via que a página mostrou ('via'); confira a súmula abaixo e responda de novo"),
        )
        return _private(redirect(back))
    try:
        # the via is checked under the jogo's lock: if the súmula was corrected after this page was opened, even
        # while this answer was on its way, nothing is answered (the dupla reads the new via first)
        written = sumula_answer(
            tournament=dupla.tournament,
            key=key,
            dupla=dupla,
            via=int(shown),
            accept=choice == CONFIRM,
            reason=reason,
            actor=Actor(dupla=dupla, method="link", device=request_device(request)),
        )
    except Refused as refused:
        for error in refused.messages:
            _answer_refused(request, opponent, error)
        return _private(redirect(back))
    if choice == CONFIRM:
        text = _("Sua dupla confirmou a súmula do jogo contra %(opponent)s.")
        if written.jogo.status == CONFIRMED:
            text += " " + _("As duas duplas confirmaram: o resultado já conta na classificação.")
    else:
        text = _("Sua dupla contestou a súmula do jogo contra %(opponent)s. O árbitro vai analisar e decidir.")
    messages.success(request, text % {"opponent": opponent})
    return _private(redirect(back))


@csrf_exempt
@require_POST
def dupla_appeal_view(request, token: str, key: str):
    """The dupla appeals the referee's decision on the súmula of one of its jogos to the comissão organizadora
    (AABB Art.6); back to its page with what happened. No CSRF token, for the reasons of ``dupla_answer_view``;
    the form carries the via it showed (a súmula corrected meanwhile is not appealed unread)."""
    dupla = dupla_by_token(token=token)
    if not may_open_private_link(dupla=dupla, token=token):
        return _not_found(request, token)
    back = reverse("privatelink:dupla", kwargs={"token": token}) + "#recursos"
    shown = request.POST.get("via", "")
    try:
        if not re.fullmatch(r"[0-9]{1,9}", shown):
            raise Refused.invalid(_("falta a via que a página mostrou; confira a súmula e recorra de novo"))
        appeal_file(
            tournament=dupla.tournament,
            key=key,
            dupla=dupla,
            via=int(shown),
            reason=request.POST.get("motivo", ""),
            actor=Actor(dupla=dupla, method="link", device=request_device(request)),
        )
    except Refused as refused:
        opponent = _opponent(dupla, key)
        for error in refused.messages:
            if opponent:
                text = _("Não foi possível registrar o recurso do jogo contra %(opponent)s: %(error)s")
            else:
                text = _("Não foi possível registrar o recurso: %(error)s")
            messages.error(request, text % {"opponent": opponent, "error": error})
        return _private(redirect(back))
    messages.success(
        request,
        _(
            "O recurso da sua dupla no jogo contra %(opponent)s foi registrado. A comissão organizadora vai "
            "decidir; a decisão aparece aqui e na súmula do jogo."
        )
        % {"opponent": _opponent(dupla, key)},
    )
    return _private(redirect(back))


# --- table self-scoring (docs/regras.md §8) ------------------------------------------------------------------

SELF_HOW = ("played", "ran", "refused")  # a penalty stays the referee's decision


def _scoring_refused(request, status: int = 403):
    return _private(render(request, "privatelink/score_refused.html", status=status))


def _scored_jogo(dupla, key: str):
    jogo = jogo_for_sumula(tournament=dupla.tournament, key=key)
    if jogo is None:
        raise Http404("jogo não encontrado")
    return jogo


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def dupla_score_view(request, token: str, key: str):
    """The dupla enters its own jogo's mãos (table self-scoring, docs/regras.md §8), when ``may_self_score`` says so:
    the referee's pad, each button a form posting here (no JS needed), and the undo of the last mão.

    The private link is the dupla's credential, as for its answers (``dupla_answer_view``): a forged request would
    need the 128-bit token in its address, so no CSRF token is asked (the page sends ``Referrer-Policy:
    no-referrer``, and browsers then send ``Origin: null`` with its forms, which Django's CSRF check refuses).
    Every write names the dupla in the súmula's log (``Actor`` with method "link"). When the dupla's own mãos
    decide the jogo, its entry is its confirmation (``sumula_answer``); the other dupla confirms as usual.
    """
    dupla = dupla_by_token(token=token)
    if not may_open_private_link(dupla=dupla, token=token):
        return _not_found(request, token)
    jogo = _scored_jogo(dupla, key)
    if request.method == "POST":
        return _score_post(request, dupla, jogo, token)
    if not may_self_score(tournament=dupla.tournament, dupla=dupla, jogo=jogo):
        if may_answer_sumula(dupla=dupla, jogo=jogo) and dupla.tournament.allow_self_scoring:
            # its own jogo, decided meanwhile: back to its page, where it confirms (or sees the result)
            return _private(redirect(reverse("privatelink:dupla", kwargs={"token": token}) + "#confirmar"))
        return _scoring_refused(request)
    data = sumula_get(tournament=dupla.tournament, jogo=jogo)
    assert data is not None  # the current via: always there
    context = self_score_present(dupla=dupla, jogo=jogo, data=data)
    if context["may_undo"] and mao_entered_by(jogo=jogo, mao=context["last_mao"]) != dupla.pk:
        context["may_undo"] = False  # the last mão is the referee's or the other dupla's: not this dupla's to undo
    context |= {"event": dupla_page_present_head(dupla=dupla), "dupla": dupla, "token": token}
    return _private(render(request, "privatelink/score.html", context))


def _score_post(request, dupla, jogo, token: str):
    tournament = dupla.tournament
    here = reverse("privatelink:score", kwargs={"token": token, "key": jogo.key})
    opponent = (jogo.dupla_b if jogo.dupla_a_id == dupla.pk else jogo.dupla_a).display_name
    if not may_self_score(tournament=tournament, dupla=dupla, jogo=jogo):
        if may_answer_sumula(dupla=dupla, jogo=jogo) and tournament.allow_self_scoring:
            messages.error(
                request,
                _("O jogo contra %(opponent)s já foi decidido: a súmula não recebe mais mãos pela página da dupla.")
                % {"opponent": opponent},
            )
            return _private(redirect(reverse("privatelink:dupla", kwargs={"token": token}) + "#confirmar"))
        return _scoring_refused(request)
    actor = Actor(dupla=dupla, method="link", device=request_device(request))
    op = request.POST.get("op", "")
    try:
        if op == "mao":
            how = request.POST.get("how") or "played"
            if how not in SELF_HOW:
                raise Refused.forbidden(_("penalidades e WO são decisões do árbitro: chame o árbitro da mesa"))
            to = request.POST.get("to", "")
            points = request.POST.get("points", "")
            body = {
                "id": posted_id(request.POST.get("id")),
                "to": int(to) if to in ("0", "1") else None,
                "points": int(points) if re.fullmatch(r"[0-9]{1,2}", points) else None,
                "how": how,
            }
            written = sumula_mao_add(tournament=tournament, key=jogo.key, mao=MaoAdd.from_json(body), actor=actor)
            if written.jogo.status == AWAITING and entered_only_by(jogo=written.jogo, dupla=dupla):
                # its own mãos decided the jogo: its entry is its confirmation; the other dupla confirms. A second
                # write: the mão stands whatever happens to it, so a refusal here says so and asks for the answer
                try:
                    sumula_answer(
                        tournament=tournament,
                        key=jogo.key,
                        dupla=dupla,
                        via=written.jogo.via,
                        accept=True,
                        reason="",
                        actor=actor,
                    )
                except Refused as refused:
                    messages.warning(
                        request,
                        _(
                            "A mão foi anotada e o jogo contra %(opponent)s está decidido, mas a confirmação da sua "
                            "dupla não foi registrada (%(error)s). Confira a súmula e responda abaixo."
                        )
                        % {"opponent": opponent, "error": " ".join(refused.messages)},
                    )
                    return _private(redirect(reverse("privatelink:dupla", kwargs={"token": token}) + "#confirmar"))
                messages.success(
                    request,
                    _(
                        "Jogo contra %(opponent)s decidido. Sua dupla anotou as mãos, e isso vale como a confirmação "
                        "dela; falta a dupla adversária confirmar."
                    )
                    % {"opponent": opponent},
                )
                return _private(redirect(reverse("privatelink:dupla", kwargs={"token": token}) + "#confirmar"))
            if written.jogo.status == AWAITING:
                messages.success(
                    request,
                    _("Jogo contra %(opponent)s decidido: falta a confirmação das duplas.") % {"opponent": opponent},
                )
                return _private(redirect(reverse("privatelink:dupla", kwargs={"token": token}) + "#confirmar"))
        elif op == "desfazer":
            undone = request.POST.get("mao", "")
            if mao_entered_by(jogo=jogo, mao=undone) != dupla.pk and mao_in_sumula(jogo=jogo, mao=undone):
                raise Refused.forbidden(
                    _(
                        "pelo link, a dupla desfaz só as mãos que ela anotou; esta foi anotada pelo árbitro ou pela outra dupla"
                    )
                )
            sumula_mao_undo(tournament=tournament, key=jogo.key, mao=undone, actor=actor)
            messages.success(request, _("Última mão desfeita."))
        else:
            return _private(HttpResponseNotAllowed(["GET", "HEAD"]))
    except Refused as refused:
        for error in refused.messages:
            messages.error(request, _("Não foi possível anotar: %(error)s") % {"error": error})
    return _private(redirect(here + "#placar"))
