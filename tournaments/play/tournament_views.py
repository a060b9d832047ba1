"""The online table of a tournament jogo (docs/regras.md §9.7; INTERCHANGE.md "Online play", URLs):
``/torneios/<slug>/jogos/<key>/mesa/``.

Everyone may watch (the table screen of ``views``, as a spectator); the duplas' players sit through their dupla's
private page, whose form posts here (``sentar/``) with the dupla's link as its credential and which of the two is
sitting; once the jogo is decided, each dupla confirms or contests at the table (``resposta/``). The writes are
``tournaments.online.tournament``'s.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from scoring.sumula import AWAITING, CONTESTED, IN_PROGRESS, SCHEDULED

from ..models import Jogo, OnlineTable, PartidaLog, Tournament
from ..online import people
from ..online import tournament as online
from ..permissions import may_open_private_link
from ..refusals import Refused
from ..staff.selectors import dupla_by_token
from ..web import refusal_messages
from . import views
from .identity import GUEST_SESSION_KEY

REASON_MAX = 300


def _jogo_or_404(slug: str, key: str) -> tuple[Tournament, Jogo]:
    jogo = (
        Jogo.objects.select_related("tournament", "stage", "dupla_a", "dupla_b")
        .filter(tournament__slug=slug, key=key)
        .first()
    )
    if jogo is None or not jogo.tournament.published:
        raise Http404(_("Jogo não encontrado."))
    return jogo.tournament, jogo


def _page_url(tournament: Tournament, jogo: Jogo) -> str:
    return reverse("jogo_table", kwargs={"slug": tournament.slug, "key": jogo.key})


def _partidas(jogo: Jogo, table: OnlineTable) -> list[dict[str, Any]]:
    """The jogo's partidas at this table: their score (dupla A first), how each ended, and the replay."""
    out = []
    for log in PartidaLog.objects.filter(table=table).order_by("n").only("n", "data", "winner", "ended_by"):
        score = log.data.get("score") or [0, 0]
        out.append(
            {
                "n": log.n,
                "a": score[0],
                "b": score[1],
                "winner": (jogo.dupla_a, jogo.dupla_b)[log.winner].display_name if log.winner in (0, 1) else "",
                "abandono": log.ended_by == "abandonment",
                "replay": reverse("play:table", args=[table.pk]) + f"partidas/{log.n}/",
                "registro": reverse("play:registro", args=[table.pk, log.n]),
            }
        )
    return out


@require_safe
def jogo_table(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """The jogo's table: the players seated by their links play; everyone else watches."""
    tournament, jogo = _jogo_or_404(slug, key)
    table = online.table_of(jogo=jogo)
    if table is None:
        raise Http404(_("Este jogo não é jogado numa mesa online."))
    profile = views._profile(request)
    context = views._table_context(request, table, profile)
    mine = context["my_seat"]
    side = mine % 2 if mine is not None else None
    answered = (jogo.confirmations.get("ab"[side]) or {}).get("answer") if side is not None else None
    context |= {
        "tournament": tournament,
        "jogo": jogo,
        "dupla_a": jogo.dupla_a.display_name,
        "dupla_b": jogo.dupla_b.display_name,
        "my_dupla": (jogo.dupla_a, jogo.dupla_b)[side].display_name if side is not None else "",
        "partidas": _partidas(jogo, table),
        "jogo_status": jogo.get_status_display(),
        "decided": jogo.status not in (SCHEDULED, IN_PROGRESS),
        "may_answer": side is not None and jogo.status in (AWAITING, CONTESTED) and not answered,
        "answered": answered,
        "answer_deadline": table.deadline if jogo.status in (AWAITING, CONTESTED) else None,
        "reason_max": REASON_MAX,
        "sumula_url": reverse("tournaments:sumula", kwargs={"slug": tournament.slug, "key": jogo.key}),
        "opens_at": table.opens_at,
        "tolerance": tournament.wo_tolerance_minutes,
        "closed": table.status == OnlineTable.CLOSED,
        # a tournament table has no host and no seat forms: the private links seat its players
        "is_host": False,
        "can_seat": False,
    }
    context["mesa"]["host"] = False
    response = render(request, "play/tournament_table.html", context)
    response["Cache-Control"] = "no-store"
    return response


def _guest_for(request: HttpRequest, name: str) -> Any:
    """The browser's profile (an account's, or its guest's), else a guest named after the player."""
    profile = views._profile(request)
    if profile is not None:
        return profile
    shown = re.sub(r"\s+", " ", name).strip()[:30] or _("Jogador")
    try:
        profile = people.profile_for_guest(guest_key=None, display_name=shown, avatar=views.DEFAULT_AVATAR)
    except Refused:
        profile = people.profile_for_guest(guest_key=None, display_name=_("Jogador"), avatar=views.DEFAULT_AVATAR)
    request.session[GUEST_SESSION_KEY] = profile.guest_key
    return profile


@csrf_exempt
@require_POST
def jogo_table_seat(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """``POST …/mesa/sentar/`` from the dupla's private page: ``token`` (the dupla's link: its credential, as for
    its answers, hence no CSRF token: the private page sends no Referer) and ``jogador`` (1 or 2: which of the two
    sits in this browser). 303 to the table; refused, back to the dupla's page with why."""
    tournament, jogo = _jogo_or_404(slug, key)
    token = request.POST.get("token", "")
    dupla = dupla_by_token(token=token) if isinstance(token, str) and len(token) <= 64 else None
    if dupla is None or not may_open_private_link(dupla=dupla, token=token) or dupla.tournament_id != tournament.pk:
        raise Http404(_("Link de dupla não encontrado."))
    back = reverse("privatelink:dupla", kwargs={"token": token}) + "#mesa-online"
    choice = request.POST.get("jogador", "")
    if choice not in ("1", "2"):
        messages.error(request, _("Diga quem vai se sentar neste aparelho: um dos dois jogadores da dupla."))
        return views._see_other(back)
    player = dupla.player1 if choice == "1" else dupla.player2
    try:
        profile = _guest_for(request, player.name)
        online.seat_take_by_link(jogo=jogo, dupla=dupla, player=player, profile=profile)
    except Refused as refused:
        refusal_messages(request, refused)
        return views._see_other(back)
    response = views._see_other(_page_url(tournament, jogo))
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_POST
def jogo_table_answer(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    """``POST …/mesa/resposta/``: a player seated at the table confirms (``resposta=confirmar``) or contests
    (``contestar``, with ``motivo``) the súmula for the dupla, on the via the page showed (``via``)."""
    tournament, jogo = _jogo_or_404(slug, key)
    page = _page_url(tournament, jogo)
    profile = views._profile(request)
    choice = request.POST.get("resposta")
    via = request.POST.get("via", "")
    try:
        if profile is None:
            raise Refused.forbidden(_("Só quem jogou sentado a esta mesa responde pela dupla aqui."))
        if choice not in ("confirmar", "contestar"):
            raise Refused.invalid(_("Escolha confirmar ou contestar a súmula."))
        if not re.fullmatch(r"[0-9]{1,9}", via):
            raise Refused.invalid(_("Falta a via que a página mostrou: recarregue a página e responda de novo."))
        reason = request.POST.get("motivo", "")[:REASON_MAX]
        dupla = online.table_answer(
            jogo=jogo, profile=profile, accept=choice == "confirmar", reason=reason, via=int(via)
        )
    except Refused as refused:
        refusal_messages(request, refused)
        return views._see_other(page)
    if choice == "confirmar":
        messages.success(request, _("%(dupla)s confirmou a súmula.") % {"dupla": dupla.display_name})
    else:
        messages.success(request, _("%(dupla)s contestou a súmula: o árbitro decide.") % {"dupla": dupla.display_name})
    return views._see_other(page)
