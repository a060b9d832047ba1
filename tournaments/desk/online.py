"""/organizar/<slug>/mesas-online/: the event's online tables for its referees and organizers (docs/regras.md
§9.7): each table with its jogo, who is seated (present or absent), a vote or a suspension running, the partida's
score; a link to watch it (the table's page, as a spectator) and to its súmula; a table suspended for a technical
problem (with the reason) and resumed (``online.referee``, audited).

The list refreshes itself (htmx, every 10 s); suspending asks for the reason on a page of its own, so nothing typed
is lost to a refresh. Works without JS: every button is a form that POSTs and redirects back (PRG).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tournaments.desk.referee_presenters import PILL, STATUS_LABELS, dupla_names
from tournaments.online.referee import (
    REASON_MAX,
    DeskTable,
    event_tables,
    jogo_partidas,
    table_resume_by_referee,
    table_suspend_by_referee,
)
from tournaments.online.replay import replay_get
from tournaments.permissions import REFEREE_DESK, desk_view
from tournaments.presenters.jogo import jogo_label
from tournaments.refusals import Refused
from tournaments.selectors import tournament_live_get
from tournaments.web import refusal_messages

POLL_SECONDS = 10
STATUS_OF = {Refused.INVALID: 400, Refused.CONFLICT: 409, Refused.FORBIDDEN: 403, Refused.NOT_FOUND: 404}


class SuspendForm(forms.Form):
    motivo = forms.CharField(
        label=gettext_lazy("Motivo (vai para o registro da mesa e o histórico do evento)"),
        max_length=REASON_MAX,
        error_messages={
            "required": gettext_lazy("Diga o motivo da suspensão."),
            "max_length": gettext_lazy("O motivo tem no máximo %(limit_value)d caracteres."),
        },
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


def table_watch_url(*, slug: str, key: str) -> str:
    """The jogo's online table as everyone but its players sees it (INTERCHANGE "Online play", URLs)."""
    return f"/torneios/{slug}/jogos/{key}/mesa/"


def _rows(tournament) -> list[dict[str, Any]]:
    tables = event_tables(tournament=tournament)
    if not tables:
        return []
    state = tournament_live_get(tournament=tournament)
    label = jogo_label(state)
    duplas = {d.id: d for d in state.duplas.values()}
    rows = []
    for j in state.jogo_rows:
        table = tables.get(j.id)
        if table is None:
            continue
        result = state.results.get(j.id)
        started = result is not None and result.started
        sides = []
        for i, dupla_id in enumerate((j.dupla_a_id, j.dupla_b_id)):
            seats = table.sides()[i]
            sides.append(
                {
                    "dupla": dupla_names(duplas[dupla_id]),
                    "won": result.partidas_won[i] if started else None,
                    "points": table.score[i] if table.score is not None else None,
                    "seats": seats,
                }
            )
        rows.append(
            {
                "key": j.key,
                "mesa": j.mesa,
                "title": label(j),
                "status": j.status,
                "status_label": STATUS_LABELS.get(j.status, j.status),
                "pill": PILL.get(j.status, "upcoming"),
                "table": table,
                "sides": sides,
                "watch_url": table_watch_url(slug=tournament.slug, key=j.key),
                "sumula_url": reverse("referee:jogo", args=[tournament.slug, j.key]),
                "suspend_url": reverse("referee_online:suspend", args=[tournament.slug, table.id]),
                "resume_url": reverse("referee_online:resume", args=[tournament.slug, table.id]),
                "order": (j.mesa or 10_000, j.id),
            }
        )
    # what needs the referee first: suspended, voting, someone absent; then by mesa
    urgency = {"suspended": 0, "vote": 1}
    rows.sort(key=lambda r: (urgency.get(r["table"].phase, 2 if r["table"].absent else 3), r["order"]))
    return rows


def _counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    tables: list[DeskTable] = [r["table"] for r in rows]
    return {
        "total": len(tables),
        "playing": sum(1 for t in tables if t.phase in ("playing", "vote", "suspended")),
        "suspended": sum(1 for t in tables if t.phase == "suspended"),
        "vote": sum(1 for t in tables if t.phase == "vote"),
        "absent": sum(len(t.absent) for t in tables),
    }


@desk_view(need=REFEREE_DESK)
@require_safe
def online_tables(request, tournament):
    rows = _rows(tournament)
    context = {
        "desk_tab": "referee",
        "rows": rows,
        "counts": _counts(rows),
        "poll_seconds": POLL_SECONDS,
    }
    if request.htmx and request.htmx.target == "mesas-online":
        return render(request, "desk/online_tables.html#mesas-online", context)
    return render(request, "desk/online_tables.html", context)


def _row_of(tournament, table_id: int) -> dict[str, Any] | None:
    return next((r for r in _rows(tournament) if r["table"].id == table_id), None)


@desk_view(need=REFEREE_DESK)
@require_http_methods(["GET", "HEAD", "POST"])
def online_suspend(request, tournament, table_id: int):
    row = _row_of(tournament, table_id)
    if row is None:
        messages.error(request, _("Esta mesa online não é deste evento."))
        return redirect("referee_online:tables", tournament.slug)
    status = 200
    form = SuspendForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            try:
                table_suspend_by_referee(
                    tournament=tournament,
                    table_id=table_id,
                    user=request.user,
                    reason=form.cleaned_data["motivo"],
                    now=timezone.now(),
                )
            except Refused as refused:
                refusal_messages(request, refused)
                status = STATUS_OF.get(refused.kind, 400)
            else:
                messages.success(
                    request,
                    _("Mesa suspensa (%(title)s): os relógios pararam com o tempo que tinham.")
                    % {"title": row["title"]},
                )
                return redirect("referee_online:tables", tournament.slug)
        else:
            status = 400
    return render(
        request,
        "desk/online_suspend.html",
        {"desk_tab": "referee", "row": row, "form": form, "reason_max": REASON_MAX},
        status=status,
    )


@desk_view(need=REFEREE_DESK)
@require_POST
def online_resume(request, tournament, table_id: int):
    try:
        table_resume_by_referee(tournament=tournament, table_id=table_id, user=request.user, now=timezone.now())
    except Refused as refused:
        refusal_messages(request, refused)
    else:
        messages.success(request, _("Mesa retomada: cada relógio voltou com o tempo que tinha."))
    return redirect("referee_online:tables", tournament.slug)


def replay_beside(*, jogo, wanted: str | None) -> dict[str, Any] | None:
    """The replay of an online jogo's partidas, for the referee's súmula screen (``referee.referee_jogo``): the
    finished partidas (links), the one asked for (``?partida=N``, else the last) replayed step by step with each
    deal's check, before the result counts (the referee sees it at once). None: not an online jogo, or nothing
    finished yet."""
    found = jogo_partidas(jogo_id=jogo.pk)
    if found is None:
        return None
    table_id, partidas = found
    if not partidas:
        return {"table_id": table_id, "partidas": [], "replay": None, "selected": None}
    numbers = [p.n for p in partidas]
    selected = int(wanted) if wanted and wanted.isascii() and wanted.isdigit() and int(wanted) in numbers else None
    selected = selected or numbers[-1]
    replay = replay_get(table_id=table_id, n=selected, staff=True)
    return {
        "table_id": table_id,
        "partidas": partidas,
        "selected": selected,
        "replay": replay,
        "url": f"/jogar/mesas/{table_id}/partidas/{selected}/",
    }
