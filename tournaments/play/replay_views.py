"""``/jogar/mesas/<id>/partidas/<n>/``: a finished partida replayed step by step (DOMAIN §9.3; INTERCHANGE "Online
play", URLs), around its ``registro.json``: every step in words, every hand revealed, each deal checked against
its commitment. ``?passo=K`` shows the table after step K (links to the previous and next steps; no script).

Public once the partida ends; a tournament jogo's once its result counts, and before that to the event's
organizers and referees (answered as staff-only: never cached for the public)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import OnlineTable
from ..online.replay import replay_get
from ..permissions import may_referee
from ..web import read_only, staff_only

STEP_DIGITS_MAX = 5
SEATS_AROUND = (("sul", 0), ("leste", 1), ("norte", 2), ("oeste", 3))  # seat 0 at the bottom, partners opposite


def _staff(request: HttpRequest, table_id: int) -> bool:
    """The event's organizers and referees see a tournament jogo's partidas before they are public."""
    if not request.user.is_authenticated:
        return False
    table = OnlineTable.objects.filter(pk=table_id, jogo__isnull=False).select_related("jogo__tournament").first()
    return (
        table is not None
        and table.jogo is not None
        and may_referee(user=request.user, tournament=table.jogo.tournament)
    )


@read_only
def replay(request: HttpRequest, table_id: int, n: int) -> HttpResponse:
    found = replay_get(table_id=table_id, n=n)
    if found is None and _staff(request, table_id):
        found = replay_get(table_id=table_id, n=n, staff=True)
        if found is not None:
            staff_only(request)
    if found is None:
        return render(request, "play/replay.html", {"missing": True, "table_id": table_id, "n": n}, status=404)
    steps = found.steps
    text = (request.GET.get("passo") or "").strip()
    current = int(text) if text.isdigit() and len(text) <= STEP_DIGITS_MAX else len(steps)
    current = min(max(current, 1), len(steps)) if steps else 0
    step = steps[current - 1] if steps else None
    seats = []
    if step is not None:
        for position, seat in SEATS_AROUND:
            seats.append(
                {
                    "pos": position,
                    "seat": seat,
                    "dupla": seat % 2,
                    "name": found.names[seat],
                    "hand": step.hands[seat],
                    "acted": step.seat == seat,
                }
            )
    mao = next((m for m in found.maos if step is not None and m.n == step.mao), None)
    return render(
        request,
        "play/replay.html",
        {
            "r": found,
            "steps_total": len(steps),
            "current": current,
            "step": step,
            "mao": mao,
            "seats": seats,
            "card_path": f"img/online/cards/{found.face}/",
        },
    )
