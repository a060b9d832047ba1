"""/organizar/circuitos/atletas/: joining and splitting atletas (DOMAIN §7.1, §8), for a circuit's organizer and the site's
admins. The likely matches (same name; a birth date missing or different) with "é a mesma pessoa", a search by
name, an atleta's registrations with "separar", and the history of joins and splits. Thin: the reads are in
``atletas.matches``, the writes in ``atletas.joins``, who may in ``permissions``."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ..atletas.joins import AtletaRefused, atleta_name_choose, atleta_split, atletas_distinct, atletas_join
from ..atletas.matches import (
    atleta_desk,
    atletas_audit_list,
    atletas_desk_search,
    atletas_likely_matches,
    atletas_pair,
)
from ..models import Atleta, Player
from ..permissions import atletas_desk_open

REASON_MAX = 300


def _refused(request):
    return render(
        request,
        "desk/atletas/not_allowed.html",
        {
            "reason": _(
                "Juntar e separar atletas é tarefa de quem organiza um circuito (ou de um administrador do site)."
            )
        },
        status=403,
    )


@login_required
@require_safe
def atletas(request):
    """The likely matches (narrowed by ``?q=``), the atletas found by that name, and the latest joins and splits."""
    if not atletas_desk_open(user=request.user):
        return _refused(request)
    q = " ".join((request.GET.get("q") or "").split())[:80]
    return render(
        request,
        "desk/atletas/list.html",
        {
            "q": q,
            "matches": atletas_likely_matches(user=request.user, q=q),
            "found": atletas_desk_search(user=request.user, q=q),
            "history": atletas_audit_list(user=request.user),
        },
    )


def _pair_decide(request, decide):
    """The two atletas of a likely match (``keep``, ``other`` from the form) handed to ``decide``, back to the list
    (with its search) with the outcome; ``decide`` returns the success message or raises ``AtletaRefused``."""
    keys = [(request.POST.get(name) or "").strip()[:20] for name in ("keep", "other")]
    found = {a.key: a for a in Atleta.objects.filter(key__in=[k for k in keys if k])}
    back = request.POST.get("q") or ""
    url = reverse("desk:atletas")
    target = redirect(f"{url}?{urlencode({'q': back[:80]})}" if back else url)
    if keys[0] not in found or keys[1] not in found:
        messages.error(
            request, _("Um destes atletas não existe mais (talvez já tenha sido juntado). Veja a lista de novo.")
        )
        return target
    try:
        done = decide(found[keys[0]], found[keys[1]], request.POST.get("reason") or "")
    except AtletaRefused as refusal:
        messages.error(request, refusal.message)
        return target
    messages.success(request, done)
    return target


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def atletas_join_view(request):
    """GET: two atletas picked from the search (``?atletas=K1&atletas=K2``, any two, whatever the likely matches
    say), side by side, with the name the atleta will show to choose; POST ("é a mesma pessoa", here or on a
    likely match): the atleta ``other`` joins ``keep`` (keys from the form), showing the ``name`` chosen."""
    if not atletas_desk_open(user=request.user):
        return _refused(request)
    if request.method != "POST":
        return _pair_page(request)

    def join(keep: Atleta, other: Atleta, reason: str) -> str:
        other_key = other.key
        name = (request.POST.get("name") or "")[:200]
        kept = atletas_join(user=request.user, keep=keep, other=other, reason=reason, name=name)
        return _("Atletas juntados: %(b)s (%(kb)s) agora é %(a)s (%(ka)s). Os rankings já mostram um só atleta.") % {
            "a": kept.name,
            "ka": kept.key,
            "b": other.name,
            "kb": other_key,
        }

    return _pair_decide(request, join)


def _pair_page(request):
    """The two atletas picked from the search, to join: back to the list with a message when they are not two
    atletas ``request.user`` may join."""
    keys = list(dict.fromkeys(k.strip()[:20] for k in request.GET.getlist("atletas") if k.strip()))[:3]
    q = " ".join((request.GET.get("q") or "").split())[:80]
    url = reverse("desk:atletas")
    back = redirect(f"{url}?{urlencode({'q': q})}" if q else url)
    if len(keys) != 2:
        messages.error(
            request,
            ngettext(
                "Marque dois atletas para juntar (você marcou %(n)d).",
                "Marque dois atletas para juntar (você marcou %(n)d).",
                len(keys),
            )
            % {"n": len(keys)},
        )
        return back
    pair = atletas_pair(user=request.user, keys=keys)
    if pair is None:
        messages.error(
            request,
            _(
                "Estes atletas não existem mais ou não são dos seus circuitos: só dá para juntar atletas que "
                "jogaram um circuito seu. Busque de novo."
            ),
        )
        return back
    return render(request, "desk/atletas/pair.html", {"pair": pair, "q": q})


@login_required
@require_POST
def atleta_name_view(request, key: str):
    """The name an atleta shows: one of its registrations' names, or "" (the most recent registration's)."""
    if not atletas_desk_open(user=request.user):
        return _refused(request)
    desk = atleta_desk(user=request.user, key=key)
    if desk is None:
        raise Http404("atleta")
    try:
        atleta = atleta_name_choose(
            user=request.user,
            atleta=desk.atleta,
            name=(request.POST.get("name") or "")[:200],
            reason=request.POST.get("reason") or "",
        )
    except AtletaRefused as refusal:
        messages.error(request, refusal.message)
        return redirect("desk:atleta", key=key)
    messages.success(
        request, _("Nome mostrado: %(n)s. O ranking e as páginas do atleta já mostram assim.") % {"n": atleta.name}
    )
    return redirect("desk:atleta", key=key)


@login_required
@require_POST
def atletas_distinct_view(request):
    """The "não é a mesma pessoa" button: the pair leaves the likely matches (recorded; nothing else changes)."""
    if not atletas_desk_open(user=request.user):
        return _refused(request)

    def distinct(one: Atleta, other: Atleta, reason: str) -> str:
        atletas_distinct(user=request.user, one=one, other=other, reason=reason)
        return _("Anotado: %(a)s (%(ka)s) e %(b)s (%(kb)s) são pessoas diferentes e saem da lista de prováveis.") % {
            "a": one.name,
            "ka": one.key,
            "b": other.name,
            "kb": other.key,
        }

    return _pair_decide(request, distinct)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def atleta(request, key: str):
    """GET: an atleta's registrations with a "separar" box each, and the joins and splits that named it. POST: the
    marked registrations are another person (a new atleta)."""
    if not atletas_desk_open(user=request.user):
        return _refused(request)
    desk = atleta_desk(user=request.user, key=key)
    if desk is None:
        raise Http404("atleta")
    if request.method == "POST":
        ids = [int(v) for v in request.POST.getlist("players") if v.isdigit() and len(v) < 12]
        players = list(Player.objects.filter(pk__in=ids))
        if len(players) != len(set(ids)):
            messages.error(request, _("Algum registro marcado não existe mais. Recarregue a página."))
            return redirect("desk:atleta", key=key)
        try:
            new = atleta_split(
                user=request.user, atleta=desk.atleta, players=players, reason=request.POST.get("reason") or ""
            )
        except AtletaRefused as refusal:
            messages.error(request, refusal.message)
            return redirect("desk:atleta", key=key)
        messages.success(
            request,
            _("Separado: os registros marcados agora são de %(b)s (%(kb)s), outro atleta. Os rankings já acompanham.")
            % {"b": new.name, "kb": new.key},
        )
        return redirect("desk:atleta", key=key)
    return render(request, "desk/atletas/atleta.html", {"desk": desk, "side": desk.side, "history": desk.history})
