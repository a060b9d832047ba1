"""Schedule and results, by stage, round and mesa, with live scores."""

from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote

from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring.jogo import WALKOVER_BOTH
from scoring.tournament import GroupStageView, KnockoutStageView

from ..models import Jogo
from ..round_times import round_time_of
from ..rows import JogoRow, PartidaRow
from .duplas import dupla_refs, unknown_dupla
from .labels import (
    DECIDED_CODES,
    as_is,
    page_labels,
    plain_param,
    positive_int,
    round_name,
)
from .stages import stage_views

JOGOS_PAGED_OVER = 100  # more jogos than this: /jogos/ shows one round at a time

# --- jogos: results and live scores --------------------------------------------------


def jogo_rows_by_slot(state) -> dict[tuple, JogoRow]:
    out = {}
    for j in state.jogo_rows:
        if j.group_id is None and j.round is not None:
            out[(j.stage_id, j.round, 0 if j.third_place else j.position, j.third_place)] = j
    return out


def status_code(result, row: JogoRow | None) -> str:
    """A jogo's status code alone (as ``result_view`` tells it), cheap enough for every jogo of a big event."""
    if result is not None:
        if result.walkover is not None:
            return "wo"
        if result.finished:
            return DECIDED_CODES.get(row.status, "finished") if row is not None else "finished"
        if result.started:
            return "live"
    if row is not None and row.status == Jogo.IN_PROGRESS:
        return "live"
    return "upcoming"


def result_view(
    result, row: JogoRow | None, partida_rows: list[PartidaRow], labels: Mapping[str, Any] | None = None
) -> dict:
    """Status, partidas and live score of a jogo (row: the stored jogo, may be None)."""
    labels = labels or page_labels()
    out = {
        "status": labels["to_play"],
        "won": None,
        "winner": None,
        "partidas": [],
        "live": None,
        "walkover": "",
        "walkover_side": None,
        "penalty": "",
        "best_of": None,
    }
    if row is not None:
        out["best_of"] = row.best_of
        if row.status == Jogo.IN_PROGRESS:
            out["status"] = labels["status"]["live"]
    if result is None:
        return out
    out["best_of"] = result.best_of
    code = status_code(result, row)
    if result.finished:
        out["status"] = labels["status"][code] if code in labels["status"] else labels["wo"]
        out["winner"] = result.winner
    elif result.started:
        out["status"] = labels["status"]["live"]
    if result.walkover is not None:
        provisional = row is not None and row.status in (Jogo.AWAITING, Jogo.CONTESTED)
        out["status"] = labels["status"][DECIDED_CODES[row.status]] if provisional and row else labels["wo"]
        out["walkover"] = labels["both_absent"] if result.walkover == WALKOVER_BOTH else ""
        out["walkover_side"] = None if result.walkover == WALKOVER_BOTH else result.walkover
        return out
    out["won"] = result.partidas_won
    if result.lost_by is not None:
        out["penalty"] = labels["lost_jogo"] + (f": {row.penalty_reason}" if row and row.penalty_reason else "")
        out["partidas"] = []
        return out
    aligned = len(partida_rows) == len(result.partidas)
    for i, p in enumerate(result.partidas):
        penalty = aligned and partida_rows[i].mode == "penalty"
        text = f"{p.score[0]}x{p.score[1]}"
        if penalty:
            text += " (" + labels["lost_partida"] + ")"
        item = {
            "number": i + 1,
            "a": p.score[0],
            "b": p.score[1],
            "finished": p.finished,
            "winner": p.winner,
            "text": text,
            "penalty": penalty,
        }
        if p.finished:
            out["partidas"].append(item)
        elif not result.finished:
            out["live"] = item
    return out


def jogo_item(
    state, row: JogoRow, refs: dict, key_of: dict, group_titles: dict, round_title: str, labels: Mapping[str, Any]
) -> dict:
    a = key_of.get(row.dupla_a_id)
    b = key_of.get(row.dupla_b_id)
    view = result_view(state.results.get(row.id), row, state.partidas.get(row.id, []), labels)
    won, winner, absent = view["won"], view["winner"], view["walkover_side"]
    item = {
        "id": as_is(row.id),
        "mesa": row.mesa,
        "mesa_text": as_is(row.mesa or "—"),
        "round_title": round_title,
        "group": group_titles.get(row.group_id, ""),
        "a": refs.get(a) or unknown_dupla(a),
        "b": refs.get(b) or unknown_dupla(b),
        "third_place": row.third_place,
        **view,
        "sumula_url": f"/torneios/{state.tournament.slug}/jogos/{row.key}/",
    }
    item["cls"] = as_is("jogo jogo-" + view["status"].code)
    item["a_cls"] = _SIDE_WINNER if winner == 0 else _SIDE
    item["b_cls"] = _SIDE_WINNER if winner == 1 else _SIDE
    item["won_a"] = as_is(won[0]) if won else ""
    item["won_b"] = as_is(won[1]) if won else ""
    item["absent_a"], item["absent_b"] = absent == 0, absent == 1
    item["score_text"] = ", ".join(p["text"] for p in view["partidas"])
    item["show_partidas"] = bool(view["partidas"] or view["live"])
    item["best_of_label"] = _best_of_escaped(view["best_of"], labels)
    return item


_SIDE, _SIDE_WINNER = SafeString("jogo-side"), SafeString("jogo-side is-winner")


def _best_of_escaped(n: int | None, labels: Mapping[str, Any]) -> str:
    if not n:
        return ""
    return labels["best_of_escaped"].get(n) or escape(labels["best_of"] % {"n": n})


def jogos_present(state, *, dupla: str | None = None, rodada=None) -> dict:
    """Schedule and results: stage → round (Rodada 1…, Semifinal…) → jogos by mesa.

    With ``dupla``, every jogo of that dupla. Else every round, or, for an
    event of more than ``JOGOS_PAGED_OVER`` jogos, one round (``rodada``, a
    number in the order of the navigation; by default the first round with a
    jogo still to finish, else the last) with links to the others.
    """
    labels = page_labels()
    refs = dupla_refs(state)
    key_of = state.dupla_key_by_id()
    group_key = {gid: g for (_s, g), gid in state.group_names.items()}
    group_titles = {gid: escape(labels["group"] % {"key": g}) for gid, g in group_key.items()}
    selected = dupla if dupla in refs else None
    paged = selected is None and len(state.jogo_rows) > JOGOS_PAGED_OVER
    rows_by_stage: dict[int, list[JogoRow]] = defaultdict(list)
    for row in state.jogo_rows:
        rows_by_stage[row.stage_id].append(row)

    # every round of every stage, with its rows and the state of its jogos (no jogo built yet)
    stages: list[dict] = []
    blocks: list[dict] = []
    for view, model, title in stage_views(state):
        is_groups = isinstance(view, GroupStageView)
        rows = rows_by_stage.get(model.id, []) if model else []
        total = len(view.bracket.rounds) if isinstance(view, KnockoutStageView) and view.bracket else None
        by_sort: dict[tuple, dict] = {}
        for row in rows:
            number = row.round
            sort = (number or 0, 0 if row.third_place and not is_groups else 1)
            block = by_sort.get(sort)
            if block is None:
                if is_groups:
                    name = labels["round"] % {"n": number} if number else labels["jogos"]
                elif row.third_place:
                    name = labels["third"]
                else:
                    name = (
                        round_name(round_number=number, total_rounds=total)
                        if total and number
                        else labels["round"] % {"n": number or "?"}
                    )
                block = by_sort[sort] = {"title": name, "round": number, "rows": []}
            if selected and selected not in (key_of.get(row.dupla_a_id), key_of.get(row.dupla_b_id)):
                continue
            block["rows"].append(row)
        waiting = ""
        if isinstance(view, KnockoutStageView) and view.bracket is None:
            waiting = _(view.waiting_for) if view.waiting_for else labels["not_drawn"]
        stage: dict[str, Any] = {
            "key": view.stage.key,
            "title": title,
            "kind": "groups" if is_groups else "knockout",
            "waiting": waiting,
            "view": view,
            "blocks": [],
        }
        for sort in sorted(by_sort):
            block = by_sort[sort]
            if not block["rows"]:
                continue
            codes = [status_code(state.results.get(r.id), r) for r in block["rows"]]
            block["live"] = codes.count("live")
            block["done"] = all(c in ("finished", "wo", "confirmed") for c in codes)
            block["stage"] = stage
            block["number"] = len(blocks) + 1
            blocks.append(block)
            stage["blocks"].append(block)
        stages.append(stage)

    wanted = positive_int(rodada)
    valid_round = paged and wanted is not None and wanted <= len(blocks)
    canonical = (dupla is None or selected is not None) and (
        rodada is None or (valid_round and plain_param(rodada, wanted))
    )
    current = None
    if paged:
        current = blocks[wanted - 1] if valid_round else next((b for b in blocks if not b["done"]), blocks[-1])

    def build(block: dict) -> dict:
        stage = block["stage"]
        jogos = [jogo_item(state, row, refs, key_of, group_titles, block["title"], labels) for row in block["rows"]]
        jogos.sort(key=lambda j: (j["mesa"] is None, j["mesa"] or 0, j["id"]))
        rest = []
        if stage["kind"] == "groups" and not selected and block["round"] is not None:
            rest = _rests(stage["view"], block["rows"], refs, key_of, group_key, labels)
        return {
            "title": block["title"],
            "number": block["number"],
            "jogos": jogos,
            "rest": rest,
            "live": block["live"],
            "done": block["done"],
        }

    sections = []
    for stage in stages:
        shown = [b for b in stage["blocks"] if current is None or b is current]
        if current is not None and not shown:
            continue
        sections.append(
            {
                "key": stage["key"],
                "title": stage["title"],
                "kind": stage["kind"],
                "waiting": "" if current is not None else stage["waiting"],
                "rounds": [build(b) for b in shown],
            }
        )

    nav, previous, following = [], None, None
    if current is not None:
        for stage in stages:
            nav.append(
                {
                    "title": stage["title"],
                    "waiting": stage["waiting"],
                    "rounds": [
                        {
                            "number": b["number"],
                            "title": b["title"],
                            "url": f"?rodada={b['number']}",
                            "current": b is current,
                            "live": b["live"],
                            "done": b["done"],
                        }
                        for b in stage["blocks"]
                    ],
                }
            )
        links = [r for s in nav for r in s["rounds"]]
        previous = links[current["number"] - 2] if current["number"] > 1 else None
        following = links[current["number"]] if current["number"] < len(links) else None

    choices = sorted(refs.values(), key=lambda r: r.name.casefold())
    if selected:
        query = "?dupla=" + quote(selected, safe="")
    else:
        query = f"?rodada={wanted}" if valid_round else ""
    return {
        "sections": sections,
        "live_count": sum(b["live"] for b in blocks),
        "duplas": choices,
        "options": [(r.key, r.name, r.key == selected) for r in choices],
        "selected": refs.get(selected) if selected else None,
        "selected_key": selected or "",
        "has_jogos": bool(blocks),
        "paged": current is not None,
        "nav": nav,
        "current": {"number": current["number"], "title": current["title"], "stage": current["stage"]["title"]}
        if current is not None
        else None,
        "previous": previous,
        "next": following,
        "canonical": canonical,
        "query": query,
    }


def _rests(
    view, rows: list[JogoRow], refs: dict, key_of: dict, group_key: dict, labels: Mapping[str, Any]
) -> list[dict]:
    """Duplas of a group with no jogo in a round (odd groups): shown as 'folga'."""
    playing: set = set()
    groups: set = set()
    for row in rows:
        playing.update((key_of.get(row.dupla_a_id), key_of.get(row.dupla_b_id)))
        groups.add(group_key.get(row.group_id))
    out = []
    for t in view.tables:
        if t.key not in groups:
            continue
        for d in t.duplas:
            if d not in playing:
                out.append({"dupla": refs.get(d) or unknown_dupla(d), "group": labels["group"] % {"key": t.key}})
    return out


def jogo_place(state) -> Callable[[JogoRow | Jogo], tuple[str, str, str]]:
    """A function giving a stored jogo's (stage, group, round) titles: ("Fase de grupos", "Grupo A", "Rodada 2"),
    ("Eliminatória", "", "Semifinal"). It takes the jogo's ``stage_id``, ``group_id``, ``round`` and
    ``third_place`` (a row of ``state.jogo_rows``, or a model)."""
    labels = page_labels()
    stages = {model.id: (view, title) for view, model, title in stage_views(state) if model is not None}
    groups = {gid: g for (_s, g), gid in state.group_names.items()}

    def place(row: JogoRow | Jogo) -> tuple[str, str, str]:
        view, title = stages.get(row.stage_id, (None, ""))
        number = row.round
        if row.group_id is not None:
            group = groups.get(row.group_id, "")
            return (
                title,
                labels["group"] % {"key": group} if group else "",
                (labels["round"] % {"n": number} if number else ""),
            )
        if row.third_place:
            return title, "", labels["third"]
        if number is None:
            return title, "", ""
        if isinstance(view, KnockoutStageView) and view.bracket is not None:
            return title, "", round_name(round_number=number, total_rounds=len(view.bracket.rounds))
        return title, "", labels["nth_round"] % {"n": number}

    return place


def jogo_item_maker(state) -> Callable[[JogoRow], dict]:
    """A function turning a stored jogo (a row of ``state.jogo_rows``) into a ``jogo_item`` that also says its
    stage (``stage_title``) and the time the organizer gave its round (``time``). What every item needs is
    computed once, here, for any number of rows (the event page's "agora", the TV, a dupla's next jogo)."""
    labels = page_labels()
    refs = dupla_refs(state)
    key_of = state.dupla_key_by_id()
    group_titles = {gid: escape(labels["group"] % {"key": g}) for (_s, g), gid in state.group_names.items()}
    place = jogo_place(state)
    stage_of = {m.id: m for m in state.stage_models.values()}

    def make(row: JogoRow) -> dict:
        stage_title, _group, round_title = place(row)
        item = jogo_item(state, row, refs, key_of, group_titles, round_title, labels)
        item["stage_title"] = stage_title
        item["time"] = round_time_of(stage_of.get(row.stage_id), row.round)
        return item

    return make
