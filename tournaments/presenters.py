"""What the public pages show, as plain values: names instead of keys, pt-BR labels and number formats.

Templates stay dumb: they loop over the dicts and lists built here. Nothing
here touches private data (birth dates, contacts, PINs), and nothing here
queries the database except ``tournament_list_rows`` (a fixed number of
aggregate queries, whatever the number of events).
"""

import datetime as dt
import math
from collections import defaultdict
from typing import Any, Iterable

from django.db.models import Count, Exists, OuterRef, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.bracket import round_name
from scoring.jogo import WALKOVER_BOTH
from scoring.rules import PRESET_LABELS
from scoring.standings import CRITERION_LABELS
from scoring.tournament import GroupStageView, KnockoutStageView, group_best_of, knockout_best_of

from .models import Dupla, Jogo, Stage, Tournament

# --- small formats -----------------------------------------------------------------

WEEKDAYS = ("segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado", "domingo")
MEDAL_EMOJI = {"gold": "🥇", "silver": "🥈", "bronze": "🥉"}


def date_br(value: dt.date | None) -> str:
    return value.strftime("%d/%m/%Y") if value else ""


def weekday_br(value: dt.date | None) -> str:
    return _(WEEKDAYS[value.weekday()]) if value else ""


def time_br(value: dt.time | None) -> str:
    return value.strftime("%Hh%M") if value else ""


def average_br(value: float | None) -> str:
    """3 decimals with a comma; ∞ when nothing was conceded; — for 0 ÷ 0."""
    if value is None:
        return "—"
    if math.isinf(value):
        return "∞"
    return f"{value:.3f}".replace(".", ",")


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


def ordinal(value: int | None) -> str:
    return f"{value}º" if value else "—"


def medal_label(medal: str | None) -> str:
    return {"gold": _("ouro"), "silver": _("prata"), "bronze": _("bronze")}.get(medal or "", "")


def criterion_note(code: str | None) -> str:
    """'decidido por confronto direto'… for a place decided by a tiebreaker; '' otherwise."""
    notes = {
        "partidas_won": _("decidido por partidas vencidas"),
        "head_to_head": _("decidido por confronto direto"),
        "saldo": _("decidido por saldo de pontos-partida"),
        "average": _("decidido por average"),
        "draw": _("decidido por sorteio"),
    }
    if not code or code == "points":
        return ""
    return notes.get(code) or _("decidido por %(criterion)s") % {"criterion": CRITERION_LABELS.get(code, code)}


def preset_label(preset: str) -> str:
    return PRESET_LABELS.get(preset, preset or "—")


def group_title(key: str) -> str:
    return _("Grupo %(key)s") % {"key": key}


def stage_title(stage: Stage | None, kind: str, index: int, count: int) -> str:
    if stage is not None and stage.name:
        return stage.name
    if kind == Stage.GROUPS:
        return _("Fase de grupos") if count == 1 or index == 0 else _("Fase de grupos %(n)s") % {"n": index + 1}
    return _("Eliminatória") if count == 1 or index == 0 else _("Eliminatória %(n)s") % {"n": index + 1}


# --- duplas ------------------------------------------------------------------------

def dupla_refs(state) -> dict[str, dict]:
    """Public face of every dupla: name, players' names, seed, disqualified."""
    refs = {}
    for key, d in state.dupla_models.items():
        p1, p2 = d.player1.name, d.player2.name
        refs[key] = {
            "key": key,
            "name": d.display_name,
            "players": _("%(a)s e %(b)s") % {"a": p1, "b": p2},
            "player_names": (p1, p2),
            "has_name": bool(d.name),
            "seed": d.seed,
            "disqualified": d.disqualified,
        }
    return refs


def _player_names(state) -> dict[str, str]:
    out = {}
    for d in state.dupla_models.values():
        out[d.player1.key] = d.player1.name
        out[d.player2.key] = d.player2.name
    return out


def unknown_dupla(key: str | None) -> dict:
    return {"key": key or "", "name": key or "—", "players": "", "player_names": (), "has_name": False,
            "seed": None, "disqualified": False}


# --- status ------------------------------------------------------------------------

STATUS_LABELS = {"finished": "encerrado", "live": "em andamento", "upcoming": "a começar"}


def status_of(code: str) -> dict:
    return {"code": code, "label": _(STATUS_LABELS[code])}


def tournament_status(state) -> dict:
    if state.view.finished:
        return status_of("finished")
    started = any(r is not None and (r.started or r.finished) for r in state.results.values())
    started = started or any(j["status"] != Jogo.SCHEDULED for j in state.jogo_rows)
    return status_of("live" if started else "upcoming")


def tournament_list_rows(tournaments: Iterable[Tournament]) -> list[dict]:
    """The events with their status, in 3 queries whatever their number.

    Status from the stored jogos: 'encerrado' when there are jogos, all finished,
    and every stage has its jogos; 'em andamento' when something was played;
    else 'a começar'. (The event page computes it exactly from the results.)
    """
    tournaments = list(tournaments)
    ids = [t.id for t in tournaments]
    counts: dict[int, dict] = defaultdict(dict)
    if ids:
        for row in (Jogo.objects.filter(tournament_id__in=ids).values("tournament_id")
                    .annotate(total=Count("id"), done=Count("id", filter=Q(status=Jogo.FINISHED)),
                              started=Count("id", filter=~Q(status=Jogo.SCHEDULED)))):
            counts[row["tournament_id"]].update(row)
        for row in (Stage.objects.filter(tournament_id__in=ids)
                    .annotate(has_jogos=Exists(Jogo.objects.filter(stage=OuterRef("pk"))))
                    .values("tournament_id", "has_jogos")):
            if not row["has_jogos"]:
                counts[row["tournament_id"]]["empty_stage"] = True
        for row in Dupla.objects.filter(tournament_id__in=ids).values("tournament_id").annotate(n=Count("id")):
            counts[row["tournament_id"]]["duplas"] = row["n"]
    rows = []
    for t in tournaments:
        c = counts.get(t.id, {})
        total, done, started = c.get("total", 0), c.get("done", 0), c.get("started", 0)
        if total and done == total and not c.get("empty_stage"):
            status = status_of("finished")
        elif started:
            status = status_of("live")
        else:
            status = status_of("upcoming")
        rows.append({"tournament": t, "name": t.name, "slug": t.slug, "url": t.get_absolute_url(),
                     "date": date_br(t.date), "date_iso": t.date.isoformat() if t.date else "",
                     "venue": t.venue, "category": t.category, "status": status, "duplas": c.get("duplas", 0)})
    return rows


# --- the event ---------------------------------------------------------------------

def _stage_views(state) -> list[tuple[Any, Stage | None, str]]:
    """(view, model, title) for every stage, in order."""
    views = list(state.view.stages)
    out = []
    for i, view in enumerate(views):
        kind = Stage.GROUPS if isinstance(view, GroupStageView) else Stage.KNOCKOUT
        same_kind = [v for v in views if isinstance(v, type(view))]
        position = next(k for k, v in enumerate(same_kind) if v is view)
        model = state.stage_models.get(view.stage.key)
        out.append((view, model, stage_title(model, kind, position, len(same_kind))))
    return out


def _knockout_size_guess(state, index: int) -> int | None:
    """Number of duplas a not-yet-drawn knockout will take, when it can be told."""
    views = state.view.stages
    spec = views[index].stage
    if not isinstance(spec.entrants, str):
        return len(spec.entrants)
    if index == 0:
        return None
    prev = views[index - 1]
    if isinstance(prev, GroupStageView):
        sizes = [len(g.duplas) for g in prev.stage.groups]
        n = sum(min(prev.stage.per_group, s) for s in sizes) + prev.stage.best_others
        return n or None
    return 1  # a knockout after a knockout takes its champion


def _round_plan(state, index: int) -> list[dict]:
    """Best-of of each round of a knockout stage (drawn or not)."""
    view = state.view.stages[index]
    if view.bracket is not None:
        total = len(view.bracket.rounds)
        return [{"name": round_name(round_number=r + 1, total_rounds=total), "best_of": rnd[0].best_of if rnd else None}
                for r, rnd in enumerate(view.bracket.rounds)]
    n = _knockout_size_guess(state, index)
    if not n or n < 2:
        return []
    total = (n - 1).bit_length()
    return [{"name": round_name(round_number=r, total_rounds=total),
             "best_of": knockout_best_of(stage=view.stage, round_number=r, settings=state.settings)}
            for r in range(1, total + 1)]


def best_of_label(n: int | None) -> str:
    return _("melhor de %(n)s") % {"n": n} if n else ""


def rules_present(state) -> dict:
    s = state.settings
    cp = s.class_points
    stages = []
    for i, (view, model, title) in enumerate(_stage_views(state)):
        if isinstance(view, GroupStageView):
            per, others = view.stage.per_group, view.stage.best_others
            qualify = ngettext("%(n)s classificada por grupo", "%(n)s classificadas por grupo", per) % {"n": per}
            if others:
                qualify += " + " + ngettext("%(n)s melhor entre os demais colocados",
                                            "%(n)s melhores entre os demais colocados", others) % {"n": others}
            stages.append({"title": title, "kind": "groups",
                           "groups": len(view.tables),
                           "best_of": best_of_label(group_best_of(stage=view.stage, settings=s)),
                           "qualify": qualify if per or others else "", "rounds": []})
        else:
            rounds = _round_plan(state, i)
            stages.append({"title": title, "kind": "knockout", "groups": 0, "qualify": "",
                           "best_of": "" if rounds else best_of_label(view.stage.best_of or s.best_of_first_knockout),
                           "rounds": [{"name": r["name"], "best_of": best_of_label(r["best_of"])} for r in rounds]})
    onze = (_("a outra dupla ganha 3 pontos") if s.mao_de_onze_tie == "opponent" else _("ninguém pontua"))
    ferro = ngettext("%(n)s ponto", "%(n)s pontos", s.mao_de_ferro_value) % {"n": s.mao_de_ferro_value}
    third = {"match": _("decidido em jogo, com o mesmo número de partidas da final"),
             "average": _("pelo average (sem jogo de 3º lugar)"),
             "shared": _("bronze para as duas duplas eliminadas na semifinal")}.get(s.third_place, s.third_place)
    manilha = (_("fixa (velha): 4♣ 7♥ A♠ 7♦") if s.manilha == "fixed" else _("variável (vira)"))
    rules = [
        {"label": _("Manilha"), "value": manilha},
        {"label": _("Baralho"), "value": _("sujo (40 cartas)") if s.deck == "sujo" else s.deck},
        {"label": _("Mão de onze com as três rodadas empatadas"), "value": onze},
        {"label": _("Mão de ferro (11 x 11)"), "value": _("vale %(pontos)s; quem vence a mão vence a partida") % {"pontos": ferro}},
        {"label": _("3º lugar"), "value": third},
    ]
    if any(isinstance(v, GroupStageView) for v in state.view.stages):
        rules.append({"label": _("Pontos classificatórios"),
                      "value": _("vitória sem perder partida %(a)s x %(b)s; vitória perdendo partida %(c)s x %(d)s; "
                                 "WO %(e)s x %(f)s") % {"a": cp.clean_win, "b": cp.clean_loss, "c": cp.close_win,
                                                         "d": cp.close_loss, "e": cp.walkover_win, "f": cp.walkover_loss}})
        rules.append({"label": _("Desempate nos grupos"),
                      "value": _("partidas vencidas, confronto direto, saldo de pontos-partida, sorteio")})
    return {"preset": preset_label(state.tournament.preset), "stages": stages, "rules": rules}


def event_present(state) -> dict:
    t = state.tournament
    refs = dupla_refs(state)
    podium = [row for row in classification_present(state) if row["medal"]]
    return {
        "name": t.name, "slug": t.slug,
        "date": date_br(t.date), "weekday": weekday_br(t.date), "start_time": time_br(t.start_time),
        "venue": t.venue, "category": t.category, "min_age": t.min_age, "max_duplas": t.max_duplas,
        "regulation_text": t.regulation,
        "duplas_count": len(refs),
        "duplas": sorted(refs.values(), key=lambda r: r["name"].casefold()),
        "status": tournament_status(state),
        "podium": podium,
        **rules_present(state),
    }


# --- standings ---------------------------------------------------------------------

def _standing_row(row, refs: dict, *, group: str = "") -> dict:
    s = row.stats
    return {
        "rank": row.rank, "rank_label": ordinal(row.rank),
        "dupla": refs.get(row.dupla) or unknown_dupla(row.dupla),
        "group": group_title(group) if group else "",
        "points": s.points, "jogos": s.jogos, "won": s.won, "lost": s.lost,
        "partidas_won": s.partidas_won, "partidas_lost": s.partidas_lost,
        "points_for": s.points_for, "points_against": s.points_against,
        "saldo": signed(s.saldo), "average": average_br(s.average),
        "note": criterion_note(row.decided_by), "decided_by": row.decided_by or "",
        "tied": row.tied, "qualified": row.qualified,
    }


def standings_present(state) -> dict:
    refs = dupla_refs(state)
    stages = []
    for view, _model, title in _stage_views(state):
        if not isinstance(view, GroupStageView):
            continue
        group_of = {d: t.key for t in view.tables for d in t.duplas}
        tables = []
        for t in view.tables:
            tables.append({
                "key": t.key, "title": group_title(t.key), "complete": t.complete,
                "jogos_done": t.jogos_done, "jogos_total": t.jogos_total,
                "progress": _("%(done)s de %(total)s jogos encerrados") % {"done": t.jogos_done, "total": t.jogos_total},
                "rows": [_standing_row(r, refs) for r in t.rows],
                "awaiting_draw": any(r.tied for r in t.rows),
            })
        others = [_standing_row(r, refs, group=group_of.get(r.dupla, "")) for r in view.others]
        stages.append({
            "key": view.stage.key, "title": title, "tables": tables, "others": others,
            "per_group": view.stage.per_group, "best_others": view.stage.best_others,
            "complete": view.complete, "decided": view.decided,
        })
    return {"stages": stages, "classification": classification_present(state), "finished": state.view.finished}


def classification_present(state) -> list[dict]:
    if not state.view.finished:
        return []
    refs = dupla_refs(state)
    players = _player_names(state)
    rows = []
    for c in state.view.classification:
        rows.append({
            "place": c.place, "place_label": ordinal(c.place),
            "dupla": refs.get(c.dupla) or unknown_dupla(c.dupla),
            "players": [players.get(p, p) for p in c.players],
            "medal": c.medal or "", "medal_emoji": MEDAL_EMOJI.get(c.medal or "", ""),
            "medal_label": medal_label(c.medal),
        })
    return rows


# --- jogos: results and live scores --------------------------------------------------

def _jogo_rows_by_slot(state) -> dict[tuple, dict]:
    out = {}
    for j in state.jogo_rows:
        if j["group_id"] is None and j["round"] is not None:
            out[(j["stage_id"], j["round"], 0 if j["third_place"] else j["position"], j["third_place"])] = j
    return out


def _result_view(result, row: dict | None, partida_rows: list[dict]) -> dict:
    """Status, partidas and live score of a jogo (row: the stored jogo, may be None)."""
    out = {"status": status_of("upcoming") | {"label": _("a jogar")}, "won": None, "winner": None,
           "partidas": [], "live": None, "walkover": "", "walkover_side": None, "penalty": "", "best_of": None}
    if row is not None:
        out["best_of"] = row["best_of"]
        if row["status"] == Jogo.IN_PROGRESS:
            out["status"] = status_of("live")
    if result is None:
        return out
    out["best_of"] = result.best_of
    if result.finished:
        out["status"] = status_of("finished")
        out["winner"] = result.winner
    elif result.started:
        out["status"] = status_of("live")
    if result.walkover is not None:
        out["status"] = {"code": "wo", "label": _("WO")}
        out["walkover"] = (_("as duas duplas ausentes") if result.walkover == WALKOVER_BOTH else "")
        out["walkover_side"] = None if result.walkover == WALKOVER_BOTH else result.walkover
        return out
    out["won"] = result.partidas_won
    if result.lost_by is not None:
        out["penalty"] = _("perda do jogo") + (f": {row['penalty_reason']}" if row and row.get("penalty_reason") else "")
        out["partidas"] = []
        return out
    aligned = len(partida_rows) == len(result.partidas)
    for i, p in enumerate(result.partidas):
        penalty = aligned and partida_rows[i]["mode"] == "penalty"
        item = {"number": i + 1, "a": p.score[0], "b": p.score[1], "finished": p.finished,
                "winner": p.winner, "text": f"{p.score[0]}x{p.score[1]}", "penalty": penalty}
        if penalty:
            item["text"] += " (" + _("perda da partida") + ")"
        if p.finished:
            out["partidas"].append(item)
        elif not result.finished:
            out["live"] = item
    return out


def _jogo_item(state, row: dict, refs: dict, key_of: dict, group_key: dict, round_title: str) -> dict:
    a = key_of.get(row["dupla_a_id"])
    b = key_of.get(row["dupla_b_id"])
    view = _result_view(state.results.get(row["id"]), row, state.partidas.get(row["id"], []))
    item = {
        "id": row["id"], "mesa": row["mesa"], "round_title": round_title,
        "group": group_title(group_key[row["group_id"]]) if row["group_id"] in group_key else "",
        "a": refs.get(a) or unknown_dupla(a), "b": refs.get(b) or unknown_dupla(b),
        "third_place": row["third_place"], **view,
    }
    item["score_text"] = ", ".join(p["text"] for p in view["partidas"])
    item["best_of_label"] = best_of_label(view["best_of"])
    return item


def jogos_present(state, *, dupla: str | None = None) -> dict:
    """Schedule and results: stage → round (Rodada 1…, Semifinal…) → jogos by mesa; optionally one dupla's."""
    refs = dupla_refs(state)
    key_of = state.dupla_key_by_id()
    group_key = {gid: g for (_s, g), gid in state.group_names.items()}
    stage_by_id = {s.id: s for s in state.stage_models.values()}
    selected = dupla if dupla in refs else None
    views = {v.stage.key: (v, title) for v, _m, title in _stage_views(state)}
    rows_by_stage: dict[int, list[dict]] = defaultdict(list)
    for row in state.jogo_rows:
        rows_by_stage[row["stage_id"]].append(row)
    sections = []
    for key, (view, title) in views.items():
        model = state.stage_models.get(key)
        rows = rows_by_stage.get(model.id, []) if model else []
        rounds: dict[tuple, dict] = {}
        total = len(view.bracket.rounds) if isinstance(view, KnockoutStageView) and view.bracket else None
        for row in rows:
            if isinstance(view, GroupStageView):
                sort = (row["round"] or 0, 1)
                name = _("Rodada %(n)s") % {"n": row["round"]} if row["round"] else _("Jogos")
            elif row["third_place"]:
                sort = (row["round"] or 0, 0)
                name = _("Disputa de 3º lugar")
            else:
                sort = (row["round"] or 0, 1)
                name = (round_name(round_number=row["round"], total_rounds=total) if total and row["round"]
                        else _("Rodada %(n)s") % {"n": row["round"] or "?"})
            block = rounds.setdefault(sort, {"title": name, "jogos": [], "rest": []})
            if selected and selected not in (key_of.get(row["dupla_a_id"]), key_of.get(row["dupla_b_id"])):
                continue
            block["jogos"].append(_jogo_item(state, row, refs, key_of, group_key, name))
        if isinstance(view, GroupStageView) and not selected:
            _add_rests(view, rows, rounds, refs, key_of, group_key)
        blocks = []
        for sort in sorted(rounds):
            block = rounds[sort]
            block["jogos"].sort(key=lambda j: (j["mesa"] is None, j["mesa"] or 0, j["id"]))
            block["live"] = sum(1 for j in block["jogos"] if j["status"]["code"] == "live")
            block["done"] = all(j["status"]["code"] in ("finished", "wo") for j in block["jogos"])
            if block["jogos"] or block["rest"]:
                blocks.append(block)
        waiting = ""
        if isinstance(view, KnockoutStageView) and view.bracket is None:
            waiting = _(view.waiting_for) if view.waiting_for else _("a chave ainda não foi sorteada")
        sections.append({"key": key, "title": title, "rounds": blocks, "waiting": waiting,
                         "kind": "groups" if isinstance(view, GroupStageView) else "knockout"})
    live = [j for s in sections for r in s["rounds"] for j in r["jogos"] if j["status"]["code"] == "live"]
    choices = sorted(refs.values(), key=lambda r: r["name"].casefold())
    return {"sections": sections, "live_count": len(live), "duplas": choices,
            "selected": refs.get(selected) if selected else None, "selected_key": selected or "",
            "has_jogos": any(s["rounds"] for s in sections)}


def _add_rests(view, rows, rounds, refs, key_of, group_key) -> None:
    """Duplas of a group with no jogo in a round (odd groups): shown as 'folga'."""
    by_round: dict[int, set] = defaultdict(set)
    groups_in_round: dict[int, set] = defaultdict(set)
    for row in rows:
        if row["round"] is None:
            continue
        by_round[row["round"]].update((key_of.get(row["dupla_a_id"]), key_of.get(row["dupla_b_id"])))
        groups_in_round[row["round"]].add(group_key.get(row["group_id"]))
    for r, playing in by_round.items():
        block = rounds.get((r, 1))
        if block is None:
            continue
        for t in view.tables:
            if t.key not in groups_in_round[r]:
                continue
            for d in t.duplas:
                if d not in playing:
                    block["rest"].append({"dupla": refs.get(d) or unknown_dupla(d), "group": group_title(t.key)})


# --- the bracket -------------------------------------------------------------------

def _bracket_jogo(state, jogo, refs: dict, rows_by_slot: dict, stage_id: int | None, total: int) -> dict:
    row = rows_by_slot.get((stage_id, jogo.round, 0 if jogo.third_place else jogo.position, jogo.third_place))
    partida_rows = state.partidas.get(row["id"], []) if row else []
    result_view = _result_view(jogo.result, row, partida_rows)
    score = jogo.score
    if jogo.result is not None and jogo.result.walkover == WALKOVER_BOTH:
        score = None  # nobody played: no partidas to count
    slots = []
    for side, key in enumerate(jogo.duplas):
        ref = refs.get(key) or unknown_dupla(key) if key else None
        if key is None:
            label = _("— folga —") if jogo.bye else _("a definir")
        else:
            label = ref["name"]
        slots.append({"dupla": ref, "label": label, "empty": key is None, "bye": jogo.bye and key is None,
                      "score": score[side] if score is not None and not jogo.bye else None,
                      "winner": bool(jogo.decided and key is not None and jogo.winner == key),
                      "absent": result_view.get("walkover_side") == side})
    if jogo.bye:
        status = {"code": "bye", "label": _("bye")}
    elif jogo.decided and jogo.winner is None:
        status = {"code": "wo", "label": _("WO duplo")}
    elif None in jogo.duplas:
        status = {"code": "pending", "label": _("aguardando")}
    else:
        status = result_view["status"]
    return {
        "round": jogo.round, "position": jogo.position, "third_place": jogo.third_place,
        "name": _("Disputa de 3º lugar") if jogo.third_place else round_name(round_number=jogo.round, total_rounds=total),
        "slots": slots, "bye": jogo.bye, "decided": jogo.decided, "status": status,
        "mesa": row["mesa"] if row else None, "best_of": jogo.best_of, "best_of_label": best_of_label(jogo.best_of),
        "live": result_view["live"], "partidas": result_view["partidas"],
        "score_text": ", ".join(p["text"] for p in result_view["partidas"]),
        "walkover": status.get("code") == "wo" or result_view["status"]["code"] == "wo",
    }


def bracket_present(state) -> dict:
    refs = dupla_refs(state)
    rows_by_slot = _jogo_rows_by_slot(state)
    stages = []
    for view, model, title in _stage_views(state):
        if not isinstance(view, KnockoutStageView):
            continue
        stage_id = model.id if model else None
        out = {"key": view.stage.key, "title": title, "drawn": view.bracket is not None, "rounds": [],
               "third": None, "champion": None, "waiting": ""}
        if view.bracket is None:
            out["waiting"] = _(view.waiting_for) if view.waiting_for else _("a chave ainda não foi sorteada")
            stages.append(out)
            continue
        b = view.bracket
        total = len(b.rounds)
        for r, rnd in enumerate(b.rounds, start=1):
            jogos = [_bracket_jogo(state, j, refs, rows_by_slot, stage_id, total) for j in rnd]
            out["rounds"].append({
                "number": r, "name": round_name(round_number=r, total_rounds=total),
                "best_of_label": best_of_label(rnd[0].best_of if rnd else None),
                "jogos": jogos, "pairs": [jogos[i:i + 2] for i in range(0, len(jogos), 2)],
            })
        if b.third_place is not None:
            out["third"] = _bracket_jogo(state, b.third_place, refs, rows_by_slot, stage_id, total)
        final = b.final
        if final.decided and final.winner:
            out["champion"] = refs.get(final.winner) or unknown_dupla(final.winner)
        stages.append(out)
    return {"stages": stages, "classification": classification_present(state)}


def event_head(state) -> dict:
    """What every event page shows on top: name, date, venue, status."""
    t = state.tournament
    return {"name": t.name, "slug": t.slug, "date": date_br(t.date), "start_time": time_br(t.start_time),
            "venue": t.venue, "status": tournament_status(state),
            "has_groups": any(isinstance(v, GroupStageView) for v in state.view.stages),
            "has_knockout": any(isinstance(v, KnockoutStageView) for v in state.view.stages)}
