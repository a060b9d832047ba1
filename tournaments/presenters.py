"""What the public pages show, as plain values: names instead of keys, pt-BR labels and number formats.

Templates stay dumb: they loop over the dicts and lists built here. Nothing
here touches private data (birth dates, contacts, PINs), and nothing here
queries the database except ``tournament_list_rows`` (a fixed number of
aggregate queries, whatever the number of events).

Cost: the pages of a 1024-dupla event hold thousands of rows, so every
label is translated once per language (``_labels``), not once per row, and
every value leaves here as a plain ``str`` (numbers already formatted), so
the template neither localizes nor re-translates anything per cell.

Big events are shown in parts, as a phone needs them (small events are shown
whole, as before): /jogos/ one round at a time (``?rodada=N``),
/classificacao/ ``GROUPS_PER_PAGE`` groups a page (``?pagina=N``), and a
bracket of more than ``BRACKET_PAGED_OVER`` duplas from the round of 32 on,
with its earlier rounds by section (``?secao=N``). Each builder says whether
the parameters it was given were all valid (``canonical``): the views cache
only those pages.
"""

import datetime as dt
import functools
import math
from collections import defaultdict
from typing import Any, Callable, Iterable
from urllib.parse import quote

from django.db.models import Count, Q
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from scoring.bracket_draw import bracket_size
from scoring.jogo import WALKOVER_BOTH
from scoring.rules import PRESET_LABELS
from scoring.standings import CRITERION_LABELS
from scoring.tournament import GroupStageView, KnockoutStageView, group_best_of, knockout_best_of

from .models import Dupla, Jogo, Stage, Tournament

# --- big events: shown in parts ------------------------------------------------------

JOGOS_PAGED_OVER = 100  # more jogos than this: /jogos/ shows one round at a time
GROUPS_PER_PAGE = 16  # more groups than this: /classificacao/ shows them this many a page
BRACKET_PAGED_OVER = 64  # more duplas than this in a bracket: earlier rounds by section
SECTION_ROUND_FROM_END = 5  # ... the round of 32 ("16-avos de final") and later shown whole
BRACKET_CLASSIFICATION_ROWS = 32  # a sectioned bracket lists the final classification down to the round of 32

# --- labels, translated once per language -------------------------------------------------

WEEKDAYS = (gettext_noop("segunda-feira"), gettext_noop("terça-feira"), gettext_noop("quarta-feira"),
            gettext_noop("quinta-feira"), gettext_noop("sexta-feira"), gettext_noop("sábado"), gettext_noop("domingo"))
MEDAL_EMOJI = {"gold": "🥇", "silver": "🥈", "bronze": "🥉"}
STATUS_LABELS = {"finished": gettext_noop("encerrado"), "live": gettext_noop("em andamento"),
                 "upcoming": gettext_noop("a começar"), "awaiting": gettext_noop("provisório: aguarda confirmação"),
                 "contested": gettext_noop("provisório: contestado"), "confirmed": gettext_noop("confirmado")}
# a decided jogo's status code by its súmula's status (a result counts from "confirmed" on)
DECIDED_CODES = {Jogo.AWAITING: "awaiting", Jogo.CONTESTED: "contested", Jogo.CONFIRMED: "confirmed",
                 Jogo.HOMOLOGATED: "finished"}


@functools.lru_cache(maxsize=8)
def _labels_for(language: str | None) -> dict[str, Any]:
    """Every fixed label and format of the pages, in ``language`` (the active one when called).

    The dicts inside are shared between requests: read them, never change them.
    Medal and status labels (only ever output by templates) are escaped here
    once; the rest are plain text, escaped by the template.
    """
    return {
        "medal": {"gold": escape(_("ouro")), "silver": escape(_("prata")), "bronze": escape(_("bronze"))},
        "notes": {
            "partidas_won": _("decidido por partidas vencidas"),
            "head_to_head": _("decidido por confronto direto"),
            "saldo": _("decidido por saldo de pontos-partida"),
            "average": _("decidido por average"),
            "draw": _("decidido por sorteio"),
        },
        # a criterion reached again after a later one split the tie (DOMAIN.md §5.1): the chain, spelled out
        "restart_notes": {
            ("head_to_head", "saldo"): _("decidido por confronto direto após saldo"),
            ("head_to_head", "head_to_head"): _(
                "decidido por confronto direto entre as duplas que seguiram empatadas no confronto direto"),
        },
        "decided_after": _("decidido por %(criterion)s após %(after)s"),
        "decided_by": _("decidido por %(criterion)s"),
        "status": {code: _status(code, label) for code, label in STATUS_LABELS.items()},
        "to_play": _status("upcoming", "a jogar"),
        "wo": _status("wo", "WO"),
        "wo_both": _status("wo", gettext_noop("WO duplo")),
        "bye": _status("bye", gettext_noop("bye")),
        "pending": _status("pending", "aguardando"),
        "group": _("Grupo %(key)s"),
        "round": _("Rodada %(n)s"),
        "jogos": _("Jogos"),
        "third": _("Disputa de 3º lugar"),
        "rounds_from_end": {1: _("Final"), 2: _("Semifinal"), 3: _("Quartas de final"), 4: _("Oitavas de final"),
                            5: _("16-avos de final")},
        "nth_round": _("%(n)sª rodada"),
        "best_of": _("melhor de %(n)s"),
        "best_of_escaped": {n: escape(_("melhor de %(n)s") % {"n": n}) for n in range(1, 16)},
        "players": _("%(a)s e %(b)s"),
        "progress": _("%(done)s de %(total)s jogos encerrados"),
        "both_absent": _("as duas duplas ausentes"),
        "lost_jogo": _("perda do jogo"),
        "lost_partida": _("perda da partida"),
        "bye_slot": _("— folga —"),
        "to_define": _("a definir"),
        "not_drawn": _("a chave ainda não foi sorteada"),
        "section": _("Seção %(n)s"),
        "undecided": _("em disputa"),
        "weekdays": tuple(_(w) for w in WEEKDAYS),
    }


def _status(code: str, label: str) -> dict:
    """A status as the templates show it: its code (a CSS class) and its label, translated and escaped."""
    return {"code": SafeString(code), "label": escape(_(label))}


def _labels() -> dict[str, Any]:
    return _labels_for(translation.get_language())


def _safe(value) -> SafeString:
    """A number (or a string of digits and signs) as text the template outputs as is: no localizing, no escaping."""
    return SafeString(value)


# --- small formats -----------------------------------------------------------------

def date_br(value: dt.date | None) -> str:
    return value.strftime("%d/%m/%Y") if value else ""


def weekday_br(value: dt.date | None) -> str:
    return _labels()["weekdays"][value.weekday()] if value else ""


def time_br(value: dt.time | None) -> str:
    return value.strftime("%Hh%M") if value else ""


def average_br(value: float | None) -> str:
    """3 decimals with a comma; ∞ when nothing was conceded; — for 0 ÷ 0."""
    if value is None:
        return _safe("—")
    if math.isinf(value):
        return _safe("∞")
    return _safe(f"{value:.3f}".replace(".", ","))


def signed(value: int) -> str:
    return _safe(f"+{value}" if value > 0 else str(value).replace("-", "−"))


def ordinal(value: int | None) -> str:
    return _safe(f"{value}º" if value else "—")


def medal_label(medal: str | None) -> str:
    return _labels()["medal"].get(medal or "", "")


def criterion_note(code: str | None, after: str | None = None, labels: dict | None = None) -> str:
    """'decidido por confronto direto'… for a place decided by a tiebreaker; '' otherwise.

    ``after``: the criterion that split the tie just before, when ``code`` decided by starting the
    chain again ("decidido por confronto direto após saldo").
    """
    if not code or code == "points":
        return ""
    labels = labels or _labels()
    if after:
        return labels["restart_notes"].get((code, after)) or labels["decided_after"] % {
            "criterion": CRITERION_LABELS.get(code, code), "after": CRITERION_LABELS.get(after, after)}
    return labels["notes"].get(code) or labels["decided_by"] % {"criterion": CRITERION_LABELS.get(code, code)}


def preset_label(preset: str) -> str:
    return PRESET_LABELS.get(preset, preset or "—")


def group_title(key: str) -> str:
    return _labels()["group"] % {"key": key}


def best_of_label(n: int | None) -> str:
    return _labels()["best_of"] % {"n": n} if n else ""


def round_name(*, round_number: int, total_rounds: int) -> str:
    """pt-BR name of a knockout round: 'Final', 'Semifinal'…, '16-avos de final', else '1ª rodada'."""
    labels = _labels()
    from_end = total_rounds - round_number + 1
    return labels["rounds_from_end"].get(from_end) or labels["nth_round"] % {"n": round_number}


def stage_title(stage: Stage | None, kind: str, index: int, count: int) -> str:
    if stage is not None and stage.name:
        return stage.name
    if kind == Stage.GROUPS:
        return _("Fase de grupos") if count == 1 or index == 0 else _("Fase de grupos %(n)s") % {"n": index + 1}
    return _("Eliminatória") if count == 1 or index == 0 else _("Eliminatória %(n)s") % {"n": index + 1}


def _positive_int(value) -> int | None:
    """A page parameter as a number ≥ 1; None when absent or not a number."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number >= 1 else None


def _plain(value, number: int | None) -> bool:
    """The parameter is written as its number is ('3', not '03' or '+3'): one way to ask for each page."""
    return number is not None and str(value) == str(number)


# --- duplas ------------------------------------------------------------------------

def dupla_refs(state) -> dict[str, dict]:
    """Public face of every dupla: name, players' names, seed, disqualified, the link to its jogos."""
    players = _labels()["players"]
    refs = {}
    for key, d in state.duplas.items():
        p1, p2 = d.player1.name, d.player2.name
        refs[key] = {
            "key": key,
            "name": d.name or f"{p1} / {p2}",  # Dupla.display_name, without going through the model again
            "players": players % {"a": p1, "b": p2},
            "player_names": (p1, p2),
            "has_name": bool(d.name),
            "seed": d.seed,
            "disqualified": d.disqualified,
            "filter_url": "?dupla=" + quote(key, safe="/"),
        }
    return refs


def _player_names(state) -> dict[str, str]:
    out = {}
    for d in state.duplas.values():
        out[d.player1.key] = d.player1.name
        out[d.player2.key] = d.player2.name
    return out


def unknown_dupla(key: str | None) -> dict:
    return {"key": key or "", "name": key or "—", "players": "", "player_names": (), "has_name": False,
            "seed": None, "disqualified": False, "filter_url": "?dupla=" + quote(key or "", safe="/")}


# --- status ------------------------------------------------------------------------

def status_of(code: str) -> dict:
    return _labels()["status"][code]


def tournament_status(state) -> dict:
    if state.view.finished:
        return status_of("finished")
    started = any(r is not None and (r.started or r.finished) for r in state.results.values())
    started = started or any(j["status"] != Jogo.SCHEDULED for j in state.jogo_rows)
    return status_of("live" if started else "upcoming")


def tournament_list_rows(tournaments: Iterable[Tournament]) -> list[dict]:
    """The events with their status, in 2 queries whatever their number.

    'encerrado' from the stored flag (``Tournament.finished``, kept by the
    services); else 'em andamento' when something was played; else 'a começar'.
    """
    tournaments = list(tournaments)
    ids = [t.id for t in tournaments]
    started: dict[int, int] = {}
    duplas: dict[int, int] = {}
    if ids:
        for row in (Jogo.objects.filter(tournament_id__in=ids).values("tournament_id")
                    .annotate(started=Count("id", filter=~Q(status=Jogo.SCHEDULED)))):
            started[row["tournament_id"]] = row["started"]
        for row in Dupla.objects.filter(tournament_id__in=ids).values("tournament_id").annotate(n=Count("id")):
            duplas[row["tournament_id"]] = row["n"]
    rows = []
    for t in tournaments:
        if t.finished:
            status = status_of("finished")
        elif started.get(t.id):
            status = status_of("live")
        else:
            status = status_of("upcoming")
        rows.append({"tournament": t, "name": t.name, "slug": t.slug, "url": t.get_absolute_url(),
                     "date": date_br(t.date), "date_iso": t.date.isoformat() if t.date else "",
                     "venue": t.venue, "category": t.category, "status": status, "duplas": duplas.get(t.id, 0)})
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
    total = bracket_size(n).bit_length() - 1
    return [{"name": round_name(round_number=r, total_rounds=total),
             "best_of": knockout_best_of(stage=view.stage, round_number=r, settings=state.settings)}
            for r in range(1, total + 1)]


def rule_texts(s) -> dict[str, str]:
    """The preset's rules in words (the event page and the printed súmula's reminders say them alike)."""
    return {
        "onze_tie": _("a outra dupla ganha 3 pontos") if s.mao_de_onze_tie == "opponent" else _("ninguém pontua"),
        "ferro": ngettext("%(n)s ponto", "%(n)s pontos", s.mao_de_ferro_value) % {"n": s.mao_de_ferro_value},
        "third": {"match": _("decidido em jogo, com o mesmo número de partidas da final"),
                  "average": _("pelo average (sem jogo de 3º lugar)"),
                  "shared": _("bronze para as duas duplas eliminadas na semifinal")}.get(s.third_place, s.third_place),
        "manilha": _("fixa (velha): 4♣ 7♥ A♠ 7♦") if s.manilha == "fixed" else _("variável (vira)"),
        "deck": _("sujo (40 cartas)") if s.deck == "sujo" else s.deck,
    }


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
                           "best_of": "" if rounds else best_of_label(
                               knockout_best_of(stage=view.stage, round_number=1, settings=s)),
                           "rounds": [{"name": r["name"], "best_of": best_of_label(r["best_of"])} for r in rounds]})
    texts = rule_texts(s)
    onze, ferro, third, manilha = texts["onze_tie"], texts["ferro"], texts["third"], texts["manilha"]
    rules = [
        {"label": _("Manilha"), "value": manilha},
        {"label": _("Baralho"), "value": texts["deck"]},
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
    podium = classification_present(state, refs=refs, medals_only=True)
    return {
        "name": t.name, "slug": t.slug,
        "date": date_br(t.date), "weekday": weekday_br(t.date), "start_time": time_br(t.start_time),
        "venue": t.venue, "category": t.category, "min_age": t.min_age, "max_duplas": t.max_duplas,
        "regulation_text": t.regulation,
        "duplas_count": len(refs),
        "duplas": sorted(refs.values(), key=lambda r: r["name"].casefold()),
        "status": tournament_status(state),
        "podium": podium,
        # the form itself says when sign-up opens or has closed (the page is cached, the clock moves on)
        "signup": t.public_signup and not t.registration_closed and not refs,
        **rules_present(state),
    }


# --- standings ---------------------------------------------------------------------

def _standing_row(row, refs: dict, labels: dict, *, group: str = "") -> dict:
    s = row.stats
    decided_by = row.decided_by
    note = criterion_note(decided_by, row.decided_after, labels)
    return {
        "rank": row.rank, "rank_label": ordinal(row.rank),
        "dupla": refs.get(row.dupla) or unknown_dupla(row.dupla),
        "group": labels["group"] % {"key": group} if group else "",
        "points": _safe(s.points), "jogos": _safe(s.jogos), "won": _safe(s.won), "lost": _safe(s.lost),
        "partidas_won": _safe(s.partidas_won), "partidas_lost": _safe(s.partidas_lost),
        "points_for": _safe(s.points_for), "points_against": _safe(s.points_against),
        "saldo": signed(s.saldo), "average": average_br(s.average),
        "note": note, "decided_by": decided_by or "", "decided_after": row.decided_after or "",
        "tied": row.tied, "qualified": row.qualified,
        "cls": ("is-qualified" if row.qualified else "") + (" is-tied" if row.tied else ""),
        "tags": bool(row.qualified or row.tied or note or (refs.get(row.dupla) or {}).get("disqualified")),
    }


@functools.lru_cache(maxsize=8192)  # slugify is slow (two regexes, unicode normalisation); keys repeat
def _group_anchor(stage_key: str, group_key: str) -> str:
    return f"grupo-{slugify(stage_key)}-{slugify(group_key)}"


def standings_present(state, *, pagina=None, whole: bool = False) -> dict:
    """Group tables (all of them, or ``GROUPS_PER_PAGE`` a page when there are more) and the final classification.

    ``whole``: every group on one page, whatever their number (the printed classificação).

    On a paged event the final classification (one complete list) is on the
    first page only, and each stage's comparison between groups comes after
    its last group.
    """
    labels = _labels()
    refs = dupla_refs(state)
    group_stages = [(view, title) for view, _model, title in _stage_views(state) if isinstance(view, GroupStageView)]
    everything = [(si, t) for si, (view, _title) in enumerate(group_stages) for t in view.tables]
    paged = len(everything) > GROUPS_PER_PAGE and not whole
    page_count = -(-len(everything) // GROUPS_PER_PAGE) if paged else 1
    wanted = _positive_int(pagina)
    valid = paged and wanted is not None and wanted <= page_count
    canonical = pagina is None or (valid and _plain(pagina, wanted))
    current = wanted if valid else 1
    first = (current - 1) * GROUPS_PER_PAGE
    shown = everything[first:first + GROUPS_PER_PAGE] if paged else everything
    shown_ids = {id(t) for _si, t in shown}

    stages = []
    for si, (view, title) in enumerate(group_stages):
        tables_here = [t for t in view.tables if id(t) in shown_ids]
        last_here = not paged or (view.tables and id(view.tables[-1]) in shown_ids)
        if paged and not tables_here and not (not view.tables and current == 1):
            continue
        group_of = {d: t.key for t in view.tables for d in t.duplas}
        tables = []
        for t in tables_here:
            tables.append({
                "key": t.key, "title": labels["group"] % {"key": t.key}, "anchor": _group_anchor(view.stage.key, t.key),
                "complete": t.complete, "jogos_done": t.jogos_done, "jogos_total": t.jogos_total,
                "progress": labels["progress"] % {"done": t.jogos_done, "total": t.jogos_total},
                "rows": [_standing_row(r, refs, labels) for r in t.rows],
                "awaiting_draw": any(r.tied for r in t.rows),
            })
        others = ([_standing_row(r, refs, labels, group=group_of.get(r.dupla, "")) for r in view.others]
                  if last_here else [])
        stages.append({
            "key": view.stage.key, "slug": slugify(view.stage.key), "title": title, "tables": tables, "others": others,
            "per_group": view.stage.per_group, "best_others": view.stage.best_others,
            "complete": view.complete, "decided": view.decided,
        })

    classification_shown = bool(state.view.finished and state.view.classification)  # on page 1
    classification = classification_present(state, refs=refs) if current == 1 else []
    out = {"stages": stages, "classification": classification, "finished": state.view.finished,
           "has_stages": bool(group_stages), "show_stage_titles": len(group_stages) > 1 or classification_shown,
           "paged": paged, "canonical": canonical, "query": f"?pagina={current}" if valid else "",
           "pages": [], "jump": [], "previous": None, "next": None, "page_number": current, "page_count": page_count}
    if paged:
        for n in range(1, page_count + 1):
            part = everything[(n - 1) * GROUPS_PER_PAGE:n * GROUPS_PER_PAGE]
            keys = [t.key for _si, t in part]
            url = f"?pagina={n}"
            if n == 1 and classification_shown:  # past the complete classification, to the groups
                url += f"#{_group_anchor(group_stages[part[0][0]][0].stage.key, part[0][1].key)}"
            out["pages"].append({"number": n, "url": url, "current": n == current,
                                 "label": keys[0] if len(keys) == 1 else f"{keys[0]}–{keys[-1]}"})
        out["previous"] = out["pages"][current - 2] if current > 1 else None
        out["next"] = out["pages"][current] if current < page_count else None
        position = 0
        for view, title in group_stages:
            groups = []
            for t in view.tables:
                n = position // GROUPS_PER_PAGE + 1
                anchor = _group_anchor(view.stage.key, t.key)
                groups.append({"key": t.key, "url": f"#{anchor}" if n == current else f"?pagina={n}#{anchor}",
                               "complete": t.complete})
                position += 1
            others_url = ""
            if view.others:
                n = max(position - 1, 0) // GROUPS_PER_PAGE + 1
                anchor = f"demais-{slugify(view.stage.key)}"
                others_url = f"#{anchor}" if n == current else f"?pagina={n}#{anchor}"
            out["jump"].append({"title": title, "groups": groups, "others_url": others_url})
    return out


def classification_present(state, *, refs: dict | None = None, medals_only: bool = False) -> list[dict]:
    if not state.view.finished:
        return []
    labels = _labels()
    refs = refs if refs is not None else dupla_refs(state)
    players = _player_names(state)
    rows = []
    for c in state.view.classification:
        if medals_only and not c.medal:
            continue
        names = [players.get(p, p) for p in c.players]
        rows.append({
            "place": c.place, "place_label": ordinal(c.place),
            "dupla": refs.get(c.dupla) or unknown_dupla(c.dupla),
            "players": names, "players_text": " e ".join(names),
            "medal": c.medal or "", "medal_emoji": MEDAL_EMOJI.get(c.medal or "", ""),
            "medal_label": labels["medal"].get(c.medal or "", ""),
        })
    return rows


# --- jogos: results and live scores --------------------------------------------------

def _jogo_rows_by_slot(state) -> dict[tuple, dict]:
    out = {}
    for j in state.jogo_rows:
        if j["group_id"] is None and j["round"] is not None:
            out[(j["stage_id"], j["round"], 0 if j["third_place"] else j["position"], j["third_place"])] = j
    return out


def _status_code(result, row: dict | None) -> str:
    """A jogo's status code alone (as ``_result_view`` tells it), cheap enough for every jogo of a big event."""
    if result is not None:
        if result.walkover is not None:
            return "wo"
        if result.finished:
            return DECIDED_CODES.get(row["status"], "finished") if row is not None else "finished"
        if result.started:
            return "live"
    if row is not None and row["status"] == Jogo.IN_PROGRESS:
        return "live"
    return "upcoming"


def _result_view(result, row: dict | None, partida_rows: list[dict], labels: dict | None = None) -> dict:
    """Status, partidas and live score of a jogo (row: the stored jogo, may be None)."""
    labels = labels or _labels()
    out = {"status": labels["to_play"], "won": None, "winner": None,
           "partidas": [], "live": None, "walkover": "", "walkover_side": None, "penalty": "", "best_of": None}
    if row is not None:
        out["best_of"] = row["best_of"]
        if row["status"] == Jogo.IN_PROGRESS:
            out["status"] = labels["status"]["live"]
    if result is None:
        return out
    out["best_of"] = result.best_of
    code = _status_code(result, row)
    if result.finished:
        out["status"] = labels["status"][code] if code in labels["status"] else labels["wo"]
        out["winner"] = result.winner
    elif result.started:
        out["status"] = labels["status"]["live"]
    if result.walkover is not None:
        provisional = row is not None and row["status"] in (Jogo.AWAITING, Jogo.CONTESTED)
        out["status"] = labels["status"][DECIDED_CODES[row["status"]]] if provisional else labels["wo"]
        out["walkover"] = labels["both_absent"] if result.walkover == WALKOVER_BOTH else ""
        out["walkover_side"] = None if result.walkover == WALKOVER_BOTH else result.walkover
        return out
    out["won"] = result.partidas_won
    if result.lost_by is not None:
        out["penalty"] = labels["lost_jogo"] + (f": {row['penalty_reason']}" if row and row.get("penalty_reason") else "")
        out["partidas"] = []
        return out
    aligned = len(partida_rows) == len(result.partidas)
    for i, p in enumerate(result.partidas):
        penalty = aligned and partida_rows[i]["mode"] == "penalty"
        text = f"{p.score[0]}x{p.score[1]}"
        if penalty:
            text += " (" + labels["lost_partida"] + ")"
        item = {"number": i + 1, "a": p.score[0], "b": p.score[1], "finished": p.finished,
                "winner": p.winner, "text": text, "penalty": penalty}
        if p.finished:
            out["partidas"].append(item)
        elif not result.finished:
            out["live"] = item
    return out


def _jogo_item(state, row: dict, refs: dict, key_of: dict, group_titles: dict, round_title: str,
               labels: dict) -> dict:
    a = key_of.get(row["dupla_a_id"])
    b = key_of.get(row["dupla_b_id"])
    view = _result_view(state.results.get(row["id"]), row, state.partidas.get(row["id"], []), labels)
    won, winner, absent = view["won"], view["winner"], view["walkover_side"]
    item = {
        "id": _safe(row["id"]), "mesa": row["mesa"], "mesa_text": _safe(row["mesa"] or "—"), "round_title": round_title,
        "group": group_titles.get(row["group_id"], ""),
        "a": refs.get(a) or unknown_dupla(a), "b": refs.get(b) or unknown_dupla(b),
        "third_place": row["third_place"], **view,
        "sumula_url": f"/torneios/{state.tournament.slug}/jogos/{row['key']}/",
    }
    item["cls"] = _safe("jogo jogo-" + view["status"]["code"])
    item["a_cls"] = _SIDE_WINNER if winner == 0 else _SIDE
    item["b_cls"] = _SIDE_WINNER if winner == 1 else _SIDE
    item["won_a"] = _safe(won[0]) if won else ""
    item["won_b"] = _safe(won[1]) if won else ""
    item["absent_a"], item["absent_b"] = absent == 0, absent == 1
    item["score_text"] = ", ".join(p["text"] for p in view["partidas"])
    item["show_partidas"] = bool(view["partidas"] or view["live"])
    item["best_of_label"] = _best_of_escaped(view["best_of"], labels)
    return item


_SIDE, _SIDE_WINNER = SafeString("jogo-side"), SafeString("jogo-side is-winner")


def _best_of_escaped(n: int | None, labels: dict) -> str:
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
    labels = _labels()
    refs = dupla_refs(state)
    key_of = state.dupla_key_by_id()
    group_key = {gid: g for (_s, g), gid in state.group_names.items()}
    group_titles = {gid: escape(labels["group"] % {"key": g}) for gid, g in group_key.items()}
    selected = dupla if dupla in refs else None
    paged = selected is None and len(state.jogo_rows) > JOGOS_PAGED_OVER
    rows_by_stage: dict[int, list[dict]] = defaultdict(list)
    for row in state.jogo_rows:
        rows_by_stage[row["stage_id"]].append(row)

    # every round of every stage, with its rows and the state of its jogos (no jogo built yet)
    stages: list[dict] = []
    blocks: list[dict] = []
    for view, model, title in _stage_views(state):
        is_groups = isinstance(view, GroupStageView)
        rows = rows_by_stage.get(model.id, []) if model else []
        total = len(view.bracket.rounds) if not is_groups and view.bracket else None
        by_sort: dict[tuple, dict] = {}
        for row in rows:
            number = row["round"]
            sort = (number or 0, 0 if row["third_place"] and not is_groups else 1)
            block = by_sort.get(sort)
            if block is None:
                if is_groups:
                    name = labels["round"] % {"n": number} if number else labels["jogos"]
                elif row["third_place"]:
                    name = labels["third"]
                else:
                    name = (round_name(round_number=number, total_rounds=total) if total and number
                            else labels["round"] % {"n": number or "?"})
                block = by_sort[sort] = {"title": name, "round": number, "rows": []}
            if selected and selected not in (key_of.get(row["dupla_a_id"]), key_of.get(row["dupla_b_id"])):
                continue
            block["rows"].append(row)
        waiting = ""
        if isinstance(view, KnockoutStageView) and view.bracket is None:
            waiting = _(view.waiting_for) if view.waiting_for else labels["not_drawn"]
        stage = {"key": view.stage.key, "title": title, "kind": "groups" if is_groups else "knockout",
                 "waiting": waiting, "view": view, "blocks": []}
        for sort in sorted(by_sort):
            block = by_sort[sort]
            if not block["rows"]:
                continue
            codes = [_status_code(state.results.get(r["id"]), r) for r in block["rows"]]
            block["live"] = codes.count("live")
            block["done"] = all(c in ("finished", "wo", "confirmed") for c in codes)
            block["stage"] = stage
            block["number"] = len(blocks) + 1
            blocks.append(block)
            stage["blocks"].append(block)
        stages.append(stage)

    wanted = _positive_int(rodada)
    valid_round = paged and wanted is not None and wanted <= len(blocks)
    canonical = (dupla is None or selected is not None) and (rodada is None or (valid_round and _plain(rodada, wanted)))
    current = None
    if paged:
        current = blocks[wanted - 1] if valid_round else next((b for b in blocks if not b["done"]), blocks[-1])

    def build(block: dict) -> dict:
        stage = block["stage"]
        jogos = [_jogo_item(state, row, refs, key_of, group_titles, block["title"], labels) for row in block["rows"]]
        jogos.sort(key=lambda j: (j["mesa"] is None, j["mesa"] or 0, j["id"]))
        rest = []
        if stage["kind"] == "groups" and not selected and block["round"] is not None:
            rest = _rests(stage["view"], block["rows"], refs, key_of, group_key, labels)
        return {"title": block["title"], "number": block["number"], "jogos": jogos, "rest": rest,
                "live": block["live"], "done": block["done"]}

    sections = []
    for stage in stages:
        shown = [b for b in stage["blocks"] if current is None or b is current]
        if current is not None and not shown:
            continue
        sections.append({"key": stage["key"], "title": stage["title"], "kind": stage["kind"],
                         "waiting": "" if current is not None else stage["waiting"],
                         "rounds": [build(b) for b in shown]})

    nav, previous, following = [], None, None
    if current is not None:
        for stage in stages:
            nav.append({"title": stage["title"], "waiting": stage["waiting"],
                        "rounds": [{"number": b["number"], "title": b["title"], "url": f"?rodada={b['number']}",
                                    "current": b is current, "live": b["live"], "done": b["done"]}
                                   for b in stage["blocks"]]})
        links = [r for s in nav for r in s["rounds"]]
        previous = links[current["number"] - 2] if current["number"] > 1 else None
        following = links[current["number"]] if current["number"] < len(links) else None

    choices = sorted(refs.values(), key=lambda r: r["name"].casefold())
    if selected:
        query = "?dupla=" + quote(selected, safe="")
    else:
        query = f"?rodada={wanted}" if valid_round else ""
    return {"sections": sections, "live_count": sum(b["live"] for b in blocks), "duplas": choices,
            "options": [(r["key"], r["name"], r["key"] == selected) for r in choices],
            "selected": refs.get(selected) if selected else None, "selected_key": selected or "",
            "has_jogos": bool(blocks), "paged": current is not None, "nav": nav,
            "current": {"number": current["number"], "title": current["title"], "stage": current["stage"]["title"]}
            if current is not None else None,
            "previous": previous, "next": following, "canonical": canonical, "query": query}


def _rests(view, rows: list[dict], refs: dict, key_of: dict, group_key: dict, labels: dict) -> list[dict]:
    """Duplas of a group with no jogo in a round (odd groups): shown as 'folga'."""
    playing: set = set()
    groups: set = set()
    for row in rows:
        playing.update((key_of.get(row["dupla_a_id"]), key_of.get(row["dupla_b_id"])))
        groups.add(group_key.get(row["group_id"]))
    out = []
    for t in view.tables:
        if t.key not in groups:
            continue
        for d in t.duplas:
            if d not in playing:
                out.append({"dupla": refs.get(d) or unknown_dupla(d), "group": labels["group"] % {"key": t.key}})
    return out


# --- the bracket -------------------------------------------------------------------

def _bracket_jogo(state, jogo, refs: dict, rows_by_slot: dict, stage_id: int | None, total: int,
                  labels: dict | None = None) -> dict:
    labels = labels or _labels()
    row = rows_by_slot.get((stage_id, jogo.round, 0 if jogo.third_place else jogo.position, jogo.third_place))
    partida_rows = state.partidas.get(row["id"], []) if row else []
    result_view = _result_view(jogo.result, row, partida_rows, labels)
    score = jogo.score
    if jogo.result is not None and jogo.result.walkover == WALKOVER_BOTH:
        score = None  # nobody played: no partidas to count
    slots = []
    for side, key in enumerate(jogo.duplas):
        ref = refs.get(key) or unknown_dupla(key) if key else None
        if key is None:
            label = labels["bye_slot"] if jogo.bye else labels["to_define"]
        else:
            label = ref["name"]
        slots.append({"dupla": ref, "label": label, "empty": key is None, "bye": jogo.bye and key is None,
                      "score": score[side] if score is not None and not jogo.bye else None,
                      "winner": bool(jogo.decided and key is not None and jogo.winner == key),
                      "absent": result_view.get("walkover_side") == side})
    if jogo.bye:
        status = labels["bye"]
    elif jogo.decided and jogo.winner is None:
        status = labels["wo_both"]
    elif None in jogo.duplas:
        status = labels["pending"]
    else:
        status = result_view["status"]
    return {
        "round": jogo.round, "position": jogo.position, "third_place": jogo.third_place,
        "name": labels["third"] if jogo.third_place else round_name(round_number=jogo.round, total_rounds=total),
        "slots": slots, "bye": jogo.bye, "decided": jogo.decided, "status": status,
        "mesa": row["mesa"] if row else None, "key": row["key"] if row else "", "best_of": jogo.best_of,
        "best_of_label": labels["best_of"] % {"n": jogo.best_of} if jogo.best_of else "",
        "live": result_view["live"], "partidas": result_view["partidas"],
        "score_text": ", ".join(p["text"] for p in result_view["partidas"]),
        "walkover": status.get("code") == "wo" or result_view["status"]["code"] == "wo",
        "sources": [],
    }


def _bracket_round(number: int, total: int, rnd: list, jogos: list[dict], labels: dict) -> dict:
    return {"number": number, "name": round_name(round_number=number, total_rounds=total),
            "best_of_label": labels["best_of"] % {"n": rnd[0].best_of} if rnd and rnd[0].best_of else "",
            "jogos": jogos, "pairs": [jogos[i:i + 2] for i in range(0, len(jogos), 2)]}


def bracket_present(state, *, secao=None, whole: bool = False) -> dict:
    """Every knockout stage: its rounds side by side, the third-place jogo, the champion, the final classification.

    ``whole``: every round of every bracket, whatever its size (the printed chave).

    A bracket of more than ``BRACKET_PAGED_OVER`` duplas shows the round of 32
    and later rounds; the rounds before it come by section (``secao``): the
    sub-bracket that fills one place of the round of 32, numbered 1… across
    the stages, each on its own page.
    """
    labels = _labels()
    refs = dupla_refs(state)
    rows_by_slot = _jogo_rows_by_slot(state)
    wanted = _positive_int(secao)
    stages, offset, chosen = [], 0, None
    for view, model, title in _stage_views(state):
        if not isinstance(view, KnockoutStageView):
            continue
        stage_id = model.id if model else None
        out = {"key": view.stage.key, "slug": slugify(view.stage.key), "title": title,
               "drawn": view.bracket is not None, "rounds": [], "third": None, "champion": None, "waiting": "",
               "sections": [], "section": None}
        stages.append(out)
        if view.bracket is None:
            out["waiting"] = _(view.waiting_for) if view.waiting_for else labels["not_drawn"]
            continue
        b = view.bracket
        total = len(b.rounds)

        def present(jogo, total=total, stage_id=stage_id):
            return _bracket_jogo(state, jogo, refs, rows_by_slot, stage_id, total, labels)

        entrants = sum(1 for d in (view.order or ()) if d is not None)
        cut = total - SECTION_ROUND_FROM_END + 1  # the round of 32
        if entrants > BRACKET_PAGED_OVER and cut > 1 and not whole:
            count = 2 * len(b.rounds[cut - 1])
            for s in range(1, count + 1):
                feeder = b.rounds[cut - 2][s - 1]
                winner = (refs.get(feeder.winner) or unknown_dupla(feeder.winner))["name"] \
                    if feeder.decided and feeder.winner else ""
                out["sections"].append({"number": offset + s, "label": labels["section"] % {"n": offset + s},
                                        "url": f"?secao={offset + s}", "winner": winner,
                                        "current": wanted == offset + s})
            if wanted is not None and offset < wanted <= offset + count:
                chosen, s = out, wanted - offset
                for r in range(1, cut):
                    size = 2 ** (cut - 1 - r)
                    part = b.rounds[r - 1][(s - 1) * size:s * size]
                    out["rounds"].append(_bracket_round(r, total, part, [present(j) for j in part], labels))
                target = b.rounds[cut - 1][(s - 1) // 2]
                out["rounds"].append(_bracket_round(cut, total, b.rounds[cut - 1], [present(target)], labels))
                sections = out["sections"]
                out["section"] = {
                    "number": wanted, "label": labels["section"] % {"n": wanted}, "slot_round": out["rounds"][-1]["name"],
                    "previous": sections[s - 2] if s > 1 else None, "next": sections[s] if s < count else None,
                    "winner": sections[s - 1]["winner"],
                }
                offset += count
                continue
            for r in range(cut, total + 1):
                jogos = [present(j) for j in b.rounds[r - 1]]
                if r == cut:
                    for p, item in enumerate(jogos):
                        item["sources"] = out["sections"][2 * p:2 * p + 2]
                out["rounds"].append(_bracket_round(r, total, b.rounds[r - 1], jogos, labels))
            offset += count
        else:
            for r, rnd in enumerate(b.rounds, start=1):
                out["rounds"].append(_bracket_round(r, total, rnd, [present(j) for j in rnd], labels))
        if b.third_place is not None:
            out["third"] = present(b.third_place)
        final = b.final
        if final.decided and final.winner:
            out["champion"] = refs.get(final.winner) or unknown_dupla(final.winner)

    canonical = secao is None or (chosen is not None and _plain(secao, wanted))
    if chosen is not None:  # a section page shows that section only
        return {"stages": [chosen], "classification": [], "classification_total": 0, "classification_cut": False,
                "section": chosen["section"], "canonical": canonical, "query": f"?secao={wanted}"}
    classification = classification_present(state, refs=refs)
    total_rows = len(classification)
    cut_rows = any(s["sections"] for s in stages) and total_rows > BRACKET_CLASSIFICATION_ROWS
    if cut_rows:
        classification = [r for r in classification if r["place"] and r["place"] <= BRACKET_CLASSIFICATION_ROWS]
    return {"stages": stages, "classification": classification, "classification_total": total_rows,
            "classification_cut": cut_rows, "section": None, "canonical": canonical, "query": ""}


def jogo_place(state) -> Callable[[dict], tuple[str, str, str]]:
    """A function giving a stored jogo's (stage, group, round) titles: ("Fase de grupos", "Grupo A", "Rodada 2"),
    ("Eliminatória", "", "Semifinal"). It takes the jogo's ``stage_id``, ``group_id``, ``round`` and
    ``third_place`` (a row of ``state.jogo_rows``, or the same values of a model)."""
    labels = _labels()
    stages = {model.id: (view, title) for view, model, title in _stage_views(state) if model is not None}
    groups = {gid: g for (_s, g), gid in state.group_names.items()}

    def place(row: dict) -> tuple[str, str, str]:
        view, title = stages.get(row["stage_id"], (None, ""))
        number = row["round"]
        if row["group_id"] is not None:
            group = groups.get(row["group_id"], "")
            return title, labels["group"] % {"key": group} if group else "", (
                labels["round"] % {"n": number} if number else "")
        if row["third_place"]:
            return title, "", labels["third"]
        if number is None:
            return title, "", ""
        if isinstance(view, KnockoutStageView) and view.bracket is not None:
            return title, "", round_name(round_number=number, total_rounds=len(view.bracket.rounds))
        return title, "", labels["nth_round"] % {"n": number}
    return place


def event_head(state) -> dict:
    """What every event page shows on top: name, date, venue, status."""
    t = state.tournament
    return {"name": t.name, "slug": t.slug, "date": date_br(t.date), "start_time": time_br(t.start_time),
            "venue": t.venue, "status": tournament_status(state),
            "has_groups": any(isinstance(v, GroupStageView) for v in state.view.stages),
            "has_knockout": any(isinstance(v, KnockoutStageView) for v in state.view.stages)}
