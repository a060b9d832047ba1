"""What is happening now: the jogos at the mesas, the next jogos called, the latest results.

The event page opens with it on event day, and the TV mode cycles through it.
Built from the live state (the súmulas at the table read again), like /jogos/.
Long lists are cut (a 1,024-dupla event has 512 jogos in a round): the page
links to /jogos/ for the rest.
"""

from django.utils.html import escape

from .duplas import dupla_refs
from .jogos import jogo_item, jogo_place, status_code
from .labels import page_labels, round_time

IN_PLAY_SHOWN = 24  # jogos at the mesas shown on the event page (the TV shows them all, page by page)
NEXT_SHOWN = 16
LATEST_SHOWN = 8
DECIDED = ("finished", "wo", "confirmed", "awaiting", "contested")


def _items(state, rows: list[dict]) -> list[dict]:
    labels = page_labels()
    refs = dupla_refs(state)
    key_of = state.dupla_key_by_id()
    group_titles = {gid: escape(labels["group"] % {"key": g}) for (_s, g), gid in state.group_names.items()}
    place = jogo_place(state)
    stage_key = {m.id: key for key, m in state.stage_models.items()}
    out = []
    for row in rows:
        stage_title, _group, round_title = place(row)
        item = jogo_item(state, row, refs, key_of, group_titles, round_title, labels)
        item["stage_title"] = stage_title
        item["time"] = round_time(state, stage_key.get(row["stage_id"]), row["round"])
        out.append(item)
    return out


def _mesa_order(row: dict) -> tuple:
    return row["mesa"] is None, row["mesa"] or 0, row["id"]


def now_present(state, *, in_play_limit: int | None = IN_PLAY_SHOWN, next_limit: int | None = NEXT_SHOWN,
                latest_limit: int = LATEST_SHOWN) -> dict:
    """The jogos at the mesas (by mesa), the next ones called (the earliest round with jogos still to play,
    by mesa), and the latest results (the last súmulas entered). ``None`` limits: every one."""
    codes = {row["id"]: status_code(state.results.get(row["id"]), row) for row in state.jogo_rows}
    at_table = sorted((r for r in state.jogo_rows if codes[r["id"]] == "live"), key=_mesa_order)
    stage_order = {m.id: m.order for m in state.stage_models.values()}
    to_play = [r for r in state.jogo_rows if codes[r["id"]] == "upcoming"]
    called: list[dict] = []
    if to_play:
        first = min((stage_order.get(r["stage_id"], 0), r["round"] or 0) for r in to_play)
        called = sorted((r for r in to_play if (stage_order.get(r["stage_id"], 0), r["round"] or 0) == first),
                        key=_mesa_order)
    decided = [r for r in state.jogo_rows if codes[r["id"]] in DECIDED and r["entry_order"] is not None]
    decided.sort(key=lambda r: r["entry_order"], reverse=True)
    in_play_shown = at_table if in_play_limit is None else at_table[:in_play_limit]
    next_shown = called if next_limit is None else called[:next_limit]
    return {
        "in_play": _items(state, in_play_shown), "in_play_total": len(at_table),
        "next": _items(state, next_shown), "next_total": len(called),
        "next_title": jogo_place(state)(called[0])[2] if called else "",
        "latest": _items(state, decided[:latest_limit]),
        "any": bool(at_table or called or decided),
    }
