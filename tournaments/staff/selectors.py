"""Reads for the staff page, the dupla cards and a dupla's private page."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from .. import presenters
from ..models import Dupla, StaffRole, Tournament
from ..selectors import tournament_live_get
from .services import ORGANIZER, REFEREE, person_label, role_label


def staff_list(*, tournament: Tournament) -> list[dict]:
    """The tournament's people: organizers first, then referees, each by username (one query)."""
    rows = (StaffRole.objects.filter(tournament=tournament).select_related("user", "added_by")
            .order_by("user__username"))
    out = []
    for r in rows:
        user = r.user
        out.append({
            "id": user.pk, "name": person_label(user), "username": user.get_username(), "email": user.email,
            "role": r.role, "role_label": role_label(r.role),
            "other_role": REFEREE if r.role == ORGANIZER else ORGANIZER,
            "other_role_label": role_label(REFEREE if r.role == ORGANIZER else ORGANIZER),
            "active": user.is_active, "password_set": user.has_usable_password(),
            "added_by": person_label(r.added_by) if r.added_by else "", "since": r.created_at,
        })
    out.sort(key=lambda row: (row["role"] != ORGANIZER, row["username"].casefold()))
    return out


def private_link(*, dupla: Dupla) -> str:
    """The dupla's private page as an absolute link (``SITE_URL``), for cards and QR codes."""
    return settings.SITE_URL + reverse("privatelink:dupla", kwargs={"token": dupla.token})


def dupla_cards(*, tournament: Tournament, pins: dict[str, str]) -> list[dict]:
    """One card per dupla that has a PIN in ``pins``, in the duplas' order: names, PIN, private link."""
    duplas = (Dupla.objects.filter(tournament=tournament, key__in=list(pins)).select_related("player1", "player2")
              .order_by("order", "id"))
    return [{
        "key": d.key, "name": d.display_name, "players": (d.player1.name, d.player2.name), "has_name": bool(d.name),
        "pin": pins[d.key], "pin_spaced": f"{pins[d.key][:3]} {pins[d.key][3:]}", "link": private_link(dupla=d),
    } for d in duplas]


def dupla_by_token(*, token: str) -> Dupla | None:
    return (Dupla.objects.filter(token=token).select_related("tournament", "player1", "player2").first()
            if token else None)


def _group_tables(state, key: str) -> list[dict]:
    """The standings tables (as ``presenters.standings_present`` makes them) of the groups ``key`` plays in."""
    tables = [(view, t) for view in state.view.stages if hasattr(view, "tables") for t in view.tables]
    mine = [i for i, (_v, t) in enumerate(tables) if key in t.duplas]
    if not mine:
        return []
    per_page = presenters.GROUPS_PER_PAGE
    pages = sorted({i // per_page + 1 for i in mine}) if len(tables) > per_page else [None]
    out = []
    for number in pages:
        page = presenters.standings_present(state, pagina=number)
        for stage in page["stages"]:
            for table in stage["tables"]:
                if any(row["dupla"]["key"] == key for row in table["rows"]):
                    rows = [{**row, "cls": (row["cls"] + " is-me").strip()} if row["dupla"]["key"] == key else row
                            for row in table["rows"]]
                    out.append({**table, "rows": rows, "stage_title": stage["title"],
                                "show_stage": len(page["stages"]) > 1})
    return out


def _from_my_side(j: dict, key: str) -> None:
    """Add to a jogo item (``presenters.jogos_present``) the opponent and the scores seen by dupla ``key``."""
    mine = j["a"]["key"] == key
    j["side"] = "a" if mine else "b"
    j["opponent"] = j["b"] if mine else j["a"]

    def me_first(a, b):
        return (a, b) if mine else (b, a)

    j["mine_won"], j["their_won"] = me_first(j["won_a"], j["won_b"])
    j["absent_me"], j["absent_them"] = me_first(j["absent_a"], j["absent_b"])
    parts = []
    for p in j["partidas"]:
        a, b = me_first(p["a"], p["b"])
        parts.append(f"{a}x{b}" + (p["text"][len(f"{p['a']}x{p['b']}"):] if p["penalty"] else ""))
    j["my_partidas"] = ", ".join(parts)
    j["my_live"] = me_first(j["live"]["a"], j["live"]["b"]) if j["live"] else None
    winner = j["winner"]
    j["outcome"] = "" if winner is None else ("won" if (winner == 0) == mine else "lost")


def dupla_page(*, dupla: Dupla) -> dict:
    """What a dupla's private page shows: its names, its jogos, its group tables, its final place.

    Public data only (the same as the public pages show); the page is private
    because its address is the dupla's secret, not because of what it shows.
    """
    state = tournament_live_get(tournament=dupla.tournament)
    key = dupla.key
    refs = presenters.dupla_refs(state)
    me = refs.get(key) or presenters.unknown_dupla(key)
    jogos = presenters.jogos_present(state, dupla=key)
    for section in jogos["sections"]:
        for block in section["rounds"]:
            for j in block["jogos"]:
                _from_my_side(j, key)
    place = None
    if state.view.finished:
        place = next((row for row in presenters.classification_present(state, refs=refs)
                      if row["dupla"]["key"] == key), None)
    return {
        "event": presenters.event_head(state), "dupla": me, "jogos": jogos, "tables": _group_tables(state, key),
        "place": place, "disqualified": dupla.disqualified, "disqualified_reason": dupla.disqualified_reason,
    }
