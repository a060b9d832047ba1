"""Group tables with their tiebreak notes, and the final classification."""

import functools
from collections.abc import Mapping
from typing import Any

from django.utils.text import slugify

from scoring.tournament import GroupStageView

from .duplas import dupla_refs, player_names, unknown_dupla
from .labels import (
    MEDAL_EMOJI,
    as_is,
    average_br,
    criterion_note,
    ordinal,
    page_labels,
    plain_param,
    positive_int,
    signed,
)
from .stages import stage_views

GROUPS_PER_PAGE = 16  # more groups than this: /classificacao/ shows them this many a page
CLASSIFICATION_WHOLE_UP_TO = 16  # a longer general classification: the top places on /classificacao/, all on ?ver=geral
CLASSIFICATION_TOP_PLACES = 8

# --- standings ---------------------------------------------------------------------


def _standing_row(row, refs: dict, labels: Mapping[str, Any], *, group: str = "", ranked: bool = True) -> dict:
    """One line of a table. ``ranked`` False (nothing played yet): no rank, no tie flag, no tiebreak note,
    since every dupla would otherwise be "1º" and "tied" on zeros."""
    s = row.stats
    decided_by = row.decided_by if ranked else None
    note = criterion_note(decided_by, row.decided_after, labels) if ranked else ""
    tied = row.tied and ranked
    dupla = refs.get(row.dupla) or unknown_dupla(row.dupla)
    return {
        "rank": row.rank if ranked else None,
        "rank_label": ordinal(row.rank) if ranked else "",
        "dupla": dupla,
        "group": labels["group"] % {"key": group} if group else "",
        "points": as_is(s.points),
        "jogos": as_is(s.jogos),
        "won": as_is(s.won),
        "lost": as_is(s.lost),
        "partidas_won": as_is(s.partidas_won),
        "partidas_lost": as_is(s.partidas_lost),
        "points_for": as_is(s.points_for),
        "points_against": as_is(s.points_against),
        "saldo": signed(s.saldo),
        "average": average_br(s.average),
        "note": note,
        "decided_by": decided_by or "",
        "decided_after": (row.decided_after or "") if ranked else "",
        "tied": tied,
        "qualified": row.qualified,
        "cls": ("is-qualified" if row.qualified else "") + (" is-tied" if tied else ""),
        "tags": bool(row.qualified or tied or note or dupla.disqualified),
    }


def _unplayed_rows(table) -> list:
    """A group with nothing played: its rows in the draw's order (the group as drawn), not in a made-up rank."""
    by_dupla = {r.dupla: r for r in table.rows}
    return [by_dupla[d] for d in table.duplas if d in by_dupla] + [r for r in table.rows if r.dupla not in table.duplas]


@functools.lru_cache(maxsize=8192)  # slugify is slow (two regexes, unicode normalisation); keys repeat
def _group_anchor(stage_key: str, group_key: str) -> str:
    return f"grupo-{slugify(stage_key)}-{slugify(group_key)}"


def part_ref(state, key: str) -> dict | None:
    """What ``{% partcache %}`` needs to keep a part's fragment: the tournament, the part and its version."""
    version = state.part_versions.get(key)
    return None if version is None else {"tournament": state.tournament, "key": key, "version": version}


def standings_present(state, *, pagina=None, ver=None, whole: bool = False) -> dict:
    """Group tables (all of them, or ``GROUPS_PER_PAGE`` a page when there are more) and the final classification.

    ``whole``: every group on one page, whatever their number (the printed classificação).
    ``ver="geral"``: the complete general classification alone (its own page); the first page of the
    groups shows only its top places when it is longer than ``CLASSIFICATION_WHOLE_UP_TO``.

    On a paged event the final classification (one complete list) is on the
    first page only, and each stage's comparison between groups comes after
    its last group.
    """
    labels = page_labels()
    refs = dupla_refs(state)
    if ver is not None:
        return _general_page(state, refs, canonical=ver == "geral" and pagina is None)
    group_stages = [(view, title) for view, _model, title in stage_views(state) if isinstance(view, GroupStageView)]
    everything = [(si, t) for si, (view, _title) in enumerate(group_stages) for t in view.tables]
    paged = len(everything) > GROUPS_PER_PAGE and not whole
    page_count = -(-len(everything) // GROUPS_PER_PAGE) if paged else 1
    wanted = positive_int(pagina)
    valid = paged and wanted is not None and wanted <= page_count
    canonical = pagina is None or (valid and plain_param(pagina, wanted))
    current = wanted if valid else 1
    first = (current - 1) * GROUPS_PER_PAGE
    shown = everything[first : first + GROUPS_PER_PAGE] if paged else everything
    shown_ids = {id(t) for _si, t in shown}

    stages = []
    for _si, (view, title) in enumerate(group_stages):
        tables_here = [t for t in view.tables if id(t) in shown_ids]
        last_here = not paged or (view.tables and id(view.tables[-1]) in shown_ids)
        if paged and not tables_here and not (not view.tables and current == 1):
            continue
        group_of = {d: t.key for t in view.tables for d in t.duplas}
        tables = []
        for t in tables_here:
            tables.append(
                {
                    "part": part_ref(state, f"g:{view.stage.key}:{t.key}"),
                    "key": t.key,
                    "title": labels["group"] % {"key": t.key},
                    "anchor": _group_anchor(view.stage.key, t.key),
                    "complete": t.complete,
                    "jogos_done": t.jogos_done,
                    "jogos_total": t.jogos_total,
                    "progress": labels["progress"] % {"done": t.jogos_done, "total": t.jogos_total},
                    "state": "finished" if t.complete else ("live" if t.jogos_done else "upcoming"),
                    "rows": (
                        [_standing_row(r, refs, labels) for r in t.rows]
                        if t.jogos_done
                        else [_standing_row(r, refs, labels, ranked=False) for r in _unplayed_rows(t)]
                    ),
                    "awaiting_draw": bool(t.jogos_done) and any(r.tied for r in t.rows),
                }
            )
        played = any(t.jogos_done for t in view.tables)
        others = (
            [_standing_row(r, refs, labels, group=group_of.get(r.dupla, ""), ranked=played) for r in view.others]
            if last_here
            else []
        )
        stages.append(
            {
                "key": view.stage.key,
                "slug": slugify(view.stage.key),
                "title": title,
                "tables": tables,
                "others": others,
                "per_group": view.stage.per_group,
                "best_others": view.stage.best_others,
                "complete": view.complete,
                "decided": view.decided,
            }
        )

    classification_shown = bool(state.view.finished and state.view.classification)  # on page 1
    classification = classification_present(state, refs=refs) if current == 1 else []
    total_rows = len(classification)
    cut = not whole and total_rows > CLASSIFICATION_WHOLE_UP_TO
    if cut:
        classification = [r for r in classification if r["place"] and r["place"] <= CLASSIFICATION_TOP_PLACES]
    out = {
        "stages": stages,
        "classification": classification,
        "finished": state.view.finished,
        "general": False,
        "classification_cut": cut,
        "classification_total": total_rows,
        "has_stages": bool(group_stages),
        "show_stage_titles": len(group_stages) > 1 or classification_shown,
        "paged": paged,
        "canonical": canonical,
        "query": f"?pagina={current}" if valid else "",
        "pages": [],
        "jump": [],
        "previous": None,
        "next": None,
        "page_number": current,
        "page_count": page_count,
    }
    if paged:
        for n in range(1, page_count + 1):
            part = everything[(n - 1) * GROUPS_PER_PAGE : n * GROUPS_PER_PAGE]
            keys = [t.key for _si, t in part]
            url = f"?pagina={n}"
            if n == 1 and classification_shown:  # past the complete classification, to the groups
                url += f"#{_group_anchor(group_stages[part[0][0]][0].stage.key, part[0][1].key)}"
            out["pages"].append(
                {
                    "number": n,
                    "url": url,
                    "current": n == current,
                    "label": keys[0] if len(keys) == 1 else f"{keys[0]}–{keys[-1]}",
                }
            )
        out["previous"] = out["pages"][current - 2] if current > 1 else None
        out["next"] = out["pages"][current] if current < page_count else None
        position = 0
        for view, title in group_stages:
            groups = []
            for t in view.tables:
                n = position // GROUPS_PER_PAGE + 1
                anchor = _group_anchor(view.stage.key, t.key)
                groups.append(
                    {
                        "key": t.key,
                        "url": f"#{anchor}" if n == current else f"?pagina={n}#{anchor}",
                        "complete": t.complete,
                    }
                )
                position += 1
            others_url = ""
            if view.others:
                n = max(position - 1, 0) // GROUPS_PER_PAGE + 1
                anchor = f"demais-{slugify(view.stage.key)}"
                others_url = f"#{anchor}" if n == current else f"?pagina={n}#{anchor}"
            out["jump"].append({"title": title, "groups": groups, "others_url": others_url})
    return out


def _general_page(state, refs: dict, *, canonical: bool) -> dict:
    """``?ver=geral``: the whole general classification, nothing else (a big event's list is long)."""
    rows = classification_present(state, refs=refs)
    return {
        "stages": [],
        "classification": rows,
        "finished": state.view.finished,
        "general": True,
        "classification_cut": False,
        "classification_total": len(rows),
        "has_stages": False,
        "show_stage_titles": False,
        "paged": False,
        "canonical": canonical,
        "query": "?ver=geral",
        "pages": [],
        "jump": [],
        "previous": None,
        "next": None,
        "page_number": 1,
        "page_count": 1,
    }


def classification_present(state, *, refs: dict | None = None, medals_only: bool = False) -> list[dict]:
    if not state.view.finished:
        return []
    labels = page_labels()
    refs = refs if refs is not None else dupla_refs(state)
    players = player_names(state)
    rows = []
    for c in state.view.classification:
        if medals_only and not c.medal:
            continue
        names = [players.get(p, p) for p in c.players]
        dupla = refs.get(c.dupla) or unknown_dupla(c.dupla)
        rows.append(
            {
                "place": c.place,
                "place_label": ordinal(c.place),
                "dupla": dupla,
                "players": names,
                "players_text": (
                    labels["players"] % {"a": names[0], "b": names[1]} if len(names) == 2 else ", ".join(names)
                ),
                # a dupla without its own name is called by its players already: do not print them twice
                "show_players": bool(dupla.has_name or tuple(names) != tuple(dupla.player_names)),
                "medal": c.medal or "",
                "medal_emoji": MEDAL_EMOJI.get(c.medal or "", ""),
                "medal_label": labels["medal"].get(c.medal or "", ""),
            }
        )
    return rows
