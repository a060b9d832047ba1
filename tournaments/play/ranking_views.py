"""The online ranking's pages (DOMAIN §9.5; INTERCHANGE "Online play", URLs): ``/jogar/ranking/`` (the accounts by
score, with search and pages) and ``/jogar/jogadores/<username>/`` (an account's level, score, statistics, the
chart of its score over time and its last partidas; its atleta when linked). Staff and circuit organizers link an
account to an atleta there (``POST /jogar/jogadores/<username>/atleta/``).

Public data only: a display name, an avatar, the level and the counts; never an e-mail (a username that is one is
replaced by the profile's number in the address, ``ranking.player_slug``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from ..online import ranking
from ..refusals import Refused
from ..web import read_only, refusal_messages
from .chart import NARROW, score_chart

PAGE_DIGITS_MAX = 6


class _SeeOther(HttpResponseRedirect):
    status_code = 303


def _page_number(value: str | None) -> int:
    text = (value or "").strip()
    return int(text) if text.isdigit() and len(text) <= PAGE_DIGITS_MAX and int(text) > 0 else 1


def _page_link(*, pagina: int, q: str) -> str:
    from urllib.parse import urlencode

    return "?" + urlencode({**({"q": q} if q else {}), "pagina": pagina})


@read_only
def ranking_list(request: HttpRequest) -> HttpResponse:
    page = ranking.ranking_page(q=request.GET.get("q") or "", page=_page_number(request.GET.get("pagina")))
    return render(
        request,
        "play/ranking.html",
        {
            "page": page,
            "prev_link": _page_link(pagina=page.number - 1, q=page.query),
            "next_link": _page_link(pagina=page.number + 1, q=page.query),
            # once per page, not per row (50 rows)
            "player_base": reverse("play:player", args=["-"])[:-2],
            "avatar_base": static("img/online/avatars/"),
            "level_base": static("img/online/levels/"),
        },
    )


@require_safe
def player(request: HttpRequest, slug: str) -> HttpResponse:
    page = ranking.player_get(slug=slug)
    if page is None:
        raise Http404(_("Não há jogador com este endereço."))
    if page.slug != slug:  # one address per player
        return HttpResponseRedirect(reverse("play:player", args=[page.slug]))
    stats = page.stats
    context = {
        "p": page,
        "chart": score_chart(points=page.points, name=page.name),
        "chart_narrow": score_chart(points=page.points, name=page.name, width=NARROW),
        "win_rate": round(100 * page.won / page.played) if page.played else None,
        "truco_rate": round(100 * stats["truco_maos_won"] / stats["truco_maos"]) if stats.get("truco_maos") else None,
        "may_link": ranking.may_link_account(user=request.user),
    }
    return render(request, "play/player.html", context)


@require_POST
def player_atleta(request: HttpRequest, slug: str) -> HttpResponse:
    """Link the account to an atleta (``acao=ligar``, ``atleta`` = its code, ``motivo``) or unlink it
    (``acao=desligar``): staff or a circuit organizer."""
    page = ranking.player_get(slug=slug)
    if page is None:
        raise Http404(_("Não há jogador com este endereço."))
    action = request.POST.get("acao")
    try:
        if action == "ligar":
            link = ranking.account_link(
                by=request.user,
                user_id=page.user_id,
                atleta_key=request.POST.get("atleta") or "",
                reason=request.POST.get("motivo") or "",
            )
            messages.success(request, _("Conta ligada ao atleta %(name)s.") % {"name": link.atleta.name})
        elif action == "desligar":
            ranking.account_unlink(by=request.user, user_id=page.user_id)
            messages.success(request, _("A conta não está mais ligada ao atleta."))
        else:
            raise Refused.invalid(_("Escolha ligar ou desligar."))
    except Refused as refused:
        refusal_messages(request, refused)
    return _SeeOther(reverse("play:player", args=[page.slug]) + "#atleta")
