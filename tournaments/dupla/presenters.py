"""What a dupla's private page shows (``/d/<token>/``): the dupla's public page, and the súmulas waiting for its
answer, each summed up from the dupla's side. Public data only: the page is private because its address is the
dupla's secret, not because of what it shows."""

from __future__ import annotations

from dataclasses import fields

from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.sumula import ACCEPTED, AWAITING, CONTEST, CONTESTED
from tournaments import presenters
from tournaments.models import Dupla, Jogo
from tournaments.presenters.sumula import status_view, via_name
from tournaments.selectors import tournament_live_get
from tournaments.sumula.selectors import SUMULA_RELATED, sumula_get


def dupla_page_present(*, dupla: Dupla) -> dict:
    """What a dupla's private page shows: the dupla's public page (``presenters.dupla_present``: next jogo,
    jogos, group tables, bracket path, final place), from the súmulas as they stand.

    Public data only (the same as the public pages show); the page is private
    because its address is the dupla's secret, not because of what it shows.
    """
    state = tournament_live_get(tournament=dupla.tournament)
    page = presenters.dupla_present(state, dupla.key)
    return {
        "event": presenters.event_head(state),
        **{f.name: getattr(page, f.name) for f in fields(page)},
        "disqualified": dupla.disqualified,
        "disqualified_reason": dupla.disqualified_reason,
        "to_confirm": _to_answer(dupla),
    }


def _to_answer(dupla: Dupla) -> list[dict]:
    """This dupla's decided jogos still waiting for its answer: not yet answered, or contested by it.

    Read from the súmulas as they stand (not from the cached derived views), with a compact summary
    from the dupla's side: the opponent, the partidas, the status, the via.
    """
    jogos = (
        Jogo.objects.filter(tournament_id=dupla.tournament_id, status__in=(AWAITING, CONTESTED))
        .filter(Q(dupla_a=dupla) | Q(dupla_b=dupla))
        .select_related(*SUMULA_RELATED)
        .order_by("entry_order", "id")
    )
    out = []
    for jogo in jogos:
        mine, theirs = ("a", "b") if jogo.dupla_a_id == dupla.pk else ("b", "a")
        my_answer = jogo.confirmations.get(mine) or {}
        if my_answer.get("answer") == ACCEPTED:
            continue
        data = sumula_get(tournament=dupla.tournament, jogo=jogo)
        assert data is not None  # the current via: always there
        me = 0 if mine == "a" else 1
        opponent = jogo.dupla_b if mine == "a" else jogo.dupla_a
        partidas = []
        for p in data.partidas:
            a, b = p.score[me], p.score[1 - me]
            partidas.append(f"{a}x{b}" + (" (" + _("perda da partida") + ")" if p.penalty else ""))
        note = ""
        if data.walkover == "both":
            note = _("WO duplo: as duas duplas ausentes")
        elif data.walkover:
            note = _("WO: sua dupla ausente") if data.walkover == dupla.key else _("WO: a dupla adversária ausente")
        elif data.penalty:
            who = _("sua dupla") if data.penalty.lost_by == dupla.key else _("a dupla adversária")
            note = _("perda do jogo (%(who)s): %(reason)s") % {"who": who, "reason": data.penalty.reason}
        their_answer = (jogo.confirmations.get(theirs) or {}).get("answer")
        won = data.score[me], data.score[1 - me]
        out.append(
            {
                "key": jogo.key,
                "via": jogo.via,
                "via_name": via_name(jogo.via),
                "via_reason": jogo.via_reason,
                "status": status_view(jogo.status),
                "mesa": jogo.mesa,
                "group": jogo.group.key if jogo.group is not None else "",
                "round": jogo.round,
                "opponent": opponent.display_name,
                "partidas": ", ".join(partidas),
                "won": won,
                "outcome": "won" if data.winner == dupla.key else "lost" if data.winner else "",
                "note": note,
                "contested": my_answer.get("answer") == CONTEST,
                "my_reason": my_answer.get("reason", ""),
                "their_answer": their_answer or "",
                "sumula_url": reverse("tournaments:sumula", kwargs={"slug": dupla.tournament.slug, "key": jogo.key}),
                "answer_url": reverse("privatelink:answer", kwargs={"token": dupla.token, "key": jogo.key}),
            }
        )
    return out
