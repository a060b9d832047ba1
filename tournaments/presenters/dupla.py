"""One dupla's page: its next jogo and mesa first, its jogos, its group table, its path in the bracket.

The public page (/torneios/<slug>/duplas/<key>/) and the dupla's private page
(its private link, which adds the súmulas to confirm) show the same thing,
built here once. Public data only.
"""

from dataclasses import replace

from django.utils.translation import gettext as _

from scoring.registration import name_key
from scoring.tournament import GroupStageView, KnockoutStageView

from .bracket import bracket_jogo
from .duplas import dupla_refs, unknown_dupla
from .jogos import jogo_item_maker, jogo_rows_by_slot, jogos_present, status_code
from .labels import page_labels, round_name
from .stages import stage_views
from .standings import GROUPS_PER_PAGE, GroupTable, classification_present, standings_present


def from_my_side(j: dict, key: str) -> None:
    """Add to a jogo item (``jogos.jogo_item``) the opponent and the scores seen by dupla ``key``."""
    mine = j["a"].key == key
    j["side"] = "a" if mine else "b"
    j["opponent"] = j["b"] if mine else j["a"]

    def me_first(a, b):
        return (a, b) if mine else (b, a)

    j["mine_won"], j["their_won"] = me_first(j["won_a"], j["won_b"])
    j["absent_me"], j["absent_them"] = me_first(j["absent_a"], j["absent_b"])
    parts = []
    for p in j["partidas"]:
        a, b = me_first(p["a"], p["b"])
        parts.append(f"{a}x{b}" + (p["text"][len(f"{p['a']}x{p['b']}") :] if p["penalty"] else ""))
    j["my_partidas"] = ", ".join(parts)
    j["my_live"] = me_first(j["live"]["a"], j["live"]["b"]) if j["live"] else None
    winner = j["winner"]
    j["outcome"] = "" if winner is None else ("won" if (winner == 0) == mine else "lost")


def _next_jogo(state, key: str) -> dict | None:
    """The dupla's jogo at a mesa now, else its next one to play (earliest stage and round, then mesa)."""
    dupla = state.duplas.get(key)
    if dupla is None:
        return None
    mine = [r for r in state.jogo_rows if dupla.id in (r.dupla_a_id, r.dupla_b_id)]
    codes = {r.id: status_code(state.results.get(r.id), r) for r in mine}
    order = {m.id: m.order for m in state.stage_models.values()}
    playing = [r for r in mine if codes[r.id] == "live"]
    to_play = sorted(
        (r for r in mine if codes[r.id] == "upcoming"),
        key=lambda r: (order.get(r.stage_id, 0), r.round or 0, r.mesa or 0, r.id),
    )
    row = (playing or to_play or [None])[0]
    if row is None:
        return None
    item = jogo_item_maker(state)(row)
    from_my_side(item, key)
    item["playing"] = bool(playing)
    return item


def group_tables(state, key: str) -> list[GroupTable]:
    """The standings tables (as ``standings_present`` makes them) of the groups ``key`` plays in, its row marked."""
    tables = [(view, t) for view in state.view.stages if isinstance(view, GroupStageView) for t in view.tables]
    mine = [i for i, (_v, t) in enumerate(tables) if key in t.duplas]
    if not mine:
        return []
    pages = sorted({i // GROUPS_PER_PAGE + 1 for i in mine}) if len(tables) > GROUPS_PER_PAGE else [None]
    out = []
    for number in pages:
        page = standings_present(state, pagina=number)
        for stage in page.stages:
            for table in stage.tables:
                if any(row.dupla.key == key for row in table.rows):
                    rows = [
                        replace(row, cls=(row.cls + " is-me").strip()) if row.dupla.key == key else row
                        for row in table.rows
                    ]
                    out.append(replace(table, rows=rows, stage_title=stage.title, show_stage=len(page.stages) > 1))
    return out


def bracket_path(state, key: str) -> list[dict]:
    """Per knockout stage, the dupla's jogos in the bracket, round by round, from its side."""
    refs = dupla_refs(state)
    labels = page_labels()
    rows_by_slot = jogo_rows_by_slot(state)
    out = []
    for view, model, title in stage_views(state):
        if not isinstance(view, KnockoutStageView) or view.bracket is None:
            continue
        total = len(view.bracket.rounds)
        steps = []
        for jogo in view.bracket.jogos():
            if key not in jogo.duplas:
                continue
            shown = bracket_jogo(state, jogo, refs, rows_by_slot, model.id if model else None, total, labels)
            me = jogo.duplas.index(key)
            other = shown["slots"][1 - me]
            mine_score, their_score = shown["slots"][me]["score"], other["score"]
            outcome = ""
            if jogo.decided and not jogo.bye:
                outcome = "won" if jogo.winner == key else "lost"
            steps.append(
                {
                    **shown,
                    "opponent": other["dupla"],
                    "opponent_label": other["label"],
                    "mine_score": mine_score,
                    "their_score": their_score,
                    "outcome": outcome,
                    "sort": (1, jogo.round) if jogo.third_place else (0, jogo.round),
                }
            )
        if not steps:
            continue
        steps.sort(key=lambda s: s["sort"])
        final = view.bracket.final
        champion = final.decided and final.winner == key
        out_of_it = any(s["outcome"] == "lost" and not s["third_place"] for s in steps)
        out.append(
            {
                "title": title,
                "steps": steps,
                "champion": champion,
                "eliminated": out_of_it and not champion,
                "round_names": [round_name(round_number=r, total_rounds=total) for r in range(1, total + 1)],
            }
        )
    return out


def dupla_present(state, key: str) -> dict:
    """Everything the dupla's page shows, or ``{"found": False}`` for a key not in the tournament."""
    refs = dupla_refs(state)
    me = refs.get(key)
    if me is None:
        return {"found": False, "dupla": unknown_dupla(key)}
    jogos = jogos_present(state, dupla=key)
    for section in jogos["sections"]:
        for block in section["rounds"]:
            for j in block["jogos"]:
                from_my_side(j, key)
    place = None
    if state.view.finished:
        place = next((row for row in classification_present(state, refs=refs) if row.dupla.key == key), None)
    return {
        "found": True,
        "dupla": me,
        "next": _next_jogo(state, key),
        "jogos": jogos,
        "tables": group_tables(state, key),
        "path": bracket_path(state, key),
        "place": place,
        "finished": state.view.finished,
        "canonical": True,
        "title": _("Dupla %(name)s") % {"name": me.name},
    }


def duplas_find(state, *, q: str | None) -> dict:
    """The duplas whose name or players' names contain ``q`` (case and accents ignored), by name."""
    refs = dupla_refs(state)
    query = (q or "").strip()[:80]
    wanted = name_key(query) if query else ""
    rows = sorted(refs.values(), key=lambda r: r.name.casefold())
    if wanted:
        rows = [r for r in rows if wanted in name_key(" ".join((r.name, *r.player_names)))]
    return {"query": query, "rows": rows, "total": len(refs), "canonical": not query}
