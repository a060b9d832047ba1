"""Write a tournament back as a tournament file, with the computed sections (docs/contrato.md)."""

import math
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from scoring.bracket import BracketJogo
from scoring.ranking import UNRANKED_LEVEL
from scoring.rules import settings_as_dict
from scoring.standings import StandingRow
from scoring.tournament import GroupStageView, KnockoutStageView

from ..models import AtletaNivel, Draw, Jogo, Player, Registration, SumulaVia, Tournament
from ..registrations.selectors import ACCEPTED, WAITING, registration_rows
from ..result_form import result_dict
from ..rows import JogoRow
from ..selectors import TournamentState, tournament_live_get
from .pairing_reader import RESULT_FIELDS
from .reader import FORMAT, VERSION
from .setup_reader import FORMAT_FIELDS

SETTINGS_IN_FILE = ("mao_de_onze_tie", "mao_de_ferro_value", "third_place")


def tournament_export(*, tournament: Tournament, include_private: bool = False) -> dict[str, Any]:
    """The tournament file of ``tournament``. Private data (birth dates, contacts, PINs) only on request."""
    state = tournament_live_get(tournament=tournament)
    players = list(Player.objects.filter(tournament=tournament).order_by("order", "id"))
    # the pairing draws that stand (one undone at the desk is not in the file: its registrations wait again)
    pairing = list(
        Draw.objects.filter(tournament=tournament, kind=Draw.PAIRING, undone_at=None).order_by("performed_at", "id")
    )
    # registrations not in a dupla yet, in order of arrival; the waiting list is those of them beyond the limit
    # (docs/contrato.md, "Computed sections"; docs/regras.md §2 step 2), not those awaiting the pairing draw; once
    # it ran, every one of them (the odd one out, §2 step 3)
    rows = registration_rows(tournament=tournament, duplas=len(state.duplas), drawn=bool(pairing))
    rows = [r for r in rows if r.situation in (ACCEPTED, WAITING)]
    data = tournament_file_build(
        state=state,
        players=players,
        registrations=[r.registration for r in rows],
        waiting=[p.key for r in rows if r.situation == WAITING for p in r.players],
        include_private=include_private,
    )
    if pairing:
        data = _after(data, "registrations", {"pairing_draws": pairing_draws_written(pairing)})
    return data


def pairing_draws_written(draws: list[Draw]) -> list[dict[str, Any]]:
    """The file's ``pairing_draws``: the pairing draws that stand, in order, as recorded (each its seed and result),
    so that an import records them again instead of drawing (``pairing_reader``)."""
    out = []
    for draw in draws:
        result = draw.result if isinstance(draw.result, dict) else {}
        item: dict[str, Any] = {} if draw.seed is None else {"seed": draw.seed}
        item |= {name: result[name] for name in RESULT_FIELDS if result.get(name) is not None}
        out.append(item)
    return out


def _after(data: dict[str, Any], anchor: str, more: dict[str, Any]) -> dict[str, Any]:
    """``data`` with ``more`` placed after the key ``anchor`` (or after ``players`` when it is absent)."""
    if anchor not in data:
        anchor = "players"
    out: dict[str, Any] = {}
    for key, value in data.items():
        out[key] = value
        if key == anchor:
            out |= more
    return out


def setup_written(t: Tournament) -> dict[str, Any]:
    """What the desk set up besides the rules (``setup_reader``), where it differs from what an import without it
    makes: the mesas, the competition format, the registration window, self-scoring."""
    out: dict[str, Any] = {}
    if t.mesas:
        out["mesas"] = t.mesas
    fmt = {k: v for k, v in t.format.items() if k in FORMAT_FIELDS} if isinstance(t.format, dict) else {}
    if fmt:
        out["competition_format"] = fmt
    window: dict[str, Any] = {"closed": t.registration_closed, "public_signup": t.public_signup}
    for name, moment in (("opens", t.registration_opens), ("closes", t.registration_closes)):
        if moment is not None:
            window[name] = moment.isoformat()
    if window != {"closed": True, "public_signup": False}:
        out["registration"] = window
    if t.allow_self_scoring:
        out["allow_self_scoring"] = True
    return out


def _average(value: float | None) -> float | str | None:
    if value is None:
        return None
    if math.isinf(value):
        return "inf"
    return value


def tournament_file_build(
    *,
    state: TournamentState,
    players: list[Player],
    registrations: list[Registration],
    waiting: list[str],
    include_private: bool,
) -> dict[str, Any]:
    """The file of ``state``: ``registrations`` are those not in a dupla yet, ``waiting`` the player keys of the
    waiting list."""
    t = state.tournament
    all_settings = settings_as_dict(state.settings)
    overrides = dict(t.settings or {})
    for name in SETTINGS_IN_FILE:
        overrides.setdefault(name, all_settings[name])
    tournament: dict[str, Any] = {
        "name": t.name,
        "slug": t.slug,
        "date": t.date.isoformat() if t.date else None,
        "start_time": t.start_time.strftime("%H:%M") if t.start_time else None,
        "venue": t.venue,
        **({"city": t.city} if t.city else {}),
        "category": t.category,
        "min_age": t.min_age,
        "max_duplas": t.max_duplas,
        "preset": t.preset,
        "settings": overrides | _online_settings(t),
    }
    if t.regulation:
        tournament["regulation"] = t.regulation
    tournament |= setup_written(t)
    out_players = []
    for p in players:
        row: dict[str, Any] = {"key": p.key, "name": p.name}
        if p.team:  # their equipe or club: public
            row["team"] = p.team
        if include_private:
            if p.birth_date:
                row["birth_date"] = p.birth_date.isoformat()
            if p.email:
                row["email"] = p.email
            if p.phone:
                row["phone"] = p.phone
        out_players.append(row)
    # the check-in is the desk's (private, like contacts): in the desk's download and the backup, not the public file
    out_regs = [
        {"players": [p.key for p in r.players()]}
        | ({"present": r.present} if include_private and r.present is not None else {})
        for r in registrations
    ]
    out_duplas = []
    for key, d in state.duplas.items():
        row = {"key": key, "players": [d.player1.key, d.player2.key]}
        if d.name:
            row["name"] = d.name
        if d.seed is not None:
            row["seed"] = d.seed
        if d.disqualified:
            row["disqualified"] = True
            if d.disqualified_reason:
                row["disqualified_reason"] = d.disqualified_reason
        out_duplas.append(row)

    out_stages = []
    for spec in state.stage_specs:
        stage = state.stage_models[spec.key]
        if spec.kind == "groups":
            row = {"key": spec.key, "kind": "groups"}
            if spec.name:
                row["name"] = spec.name
            if spec.best_of is not None:
                row["best_of"] = spec.best_of
            row["groups"] = [{"key": g.key, "duplas": list(g.duplas)} for g in spec.groups]
            row["qualify"] = {"per_group": spec.per_group, "best_others": spec.best_others}
            if spec.sorteios:
                row["sorteios"] = [({"group": g} if g else {}) | {"order": list(o)} for g, o in spec.sorteios]
        else:
            row = {"key": spec.key, "kind": "knockout"}
            if spec.name:
                row["name"] = spec.name
            if spec.best_of is not None:
                row["best_of"] = spec.best_of
            if spec.best_of_rounds:
                row["best_of_rounds"] = {str(k): v for k, v in sorted(spec.best_of_rounds.items())}
            row["entrants"] = spec.entrants if isinstance(spec.entrants, str) else list(spec.entrants)
            if spec.key in state.recorded_orders:
                row["draw"] = {"method": "fixed", "order": state.recorded_orders[spec.key]}
            else:
                row["draw"] = {"method": stage.draw_method} | (
                    {"seed": stage.draw_seed} if stage.draw_seed is not None else {}
                )
        if stage.round_times:
            row["round_times"] = dict(stage.round_times)
        out_stages.append(row)

    key_of = state.dupla_key_by_id()
    stage_key = {s.id: k for k, s in state.stage_models.items()}
    group_key = {gid: g for (_, g), gid in state.group_names.items()}
    # results in the order they were entered (the import replays them so), then the jogos still to play
    recorded = [j for j in state.jogo_rows if state.entries.get(j.id) is not None]
    recorded.sort(key=lambda j: (j.entry_order is None, j.entry_order or 0, j.id))
    scheduled = [j for j in state.jogo_rows if state.entries.get(j.id) is None]
    # staff account names are not for the public file (a username may be an e-mail address)
    referees = _usernames({j.referee_id for j in state.jogo_rows if j.referee_id}) if include_private else {}
    rows = {j.id: j for j in state.jogo_rows}
    history = via_history(jogo_ids=[j.id for j in state.jogo_rows if j.via > 1], key_of=key_of, rows=rows)
    out_jogos = [_jogo_row(j, state, key_of, stage_key, group_key, referees, history) for j in recorded + scheduled]
    # an event with no jogo online (nor online as a whole or by stage) has no table to name: no query
    any_online = t.online not in (None, "", "none") or any(j.online for j in state.jogo_rows)
    online = _online_jogos(t) if any_online else {}
    for row_out, j in zip(out_jogos, recorded + scheduled, strict=True):
        if j.id in online:
            row_out["online"] = {"table": online[j.id]} if online[j.id] else True

    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "tournament": tournament, "players": out_players}
    if out_regs:
        data["registrations"] = out_regs
    data |= {"duplas": out_duplas, "stages": out_stages, "jogos": out_jogos}
    data |= computed_sections(state=state, waiting=waiting)
    data["ranking"] = players_nivel(players=players)
    return data


def players_nivel(*, players: list[Player]) -> list[dict[str, Any]]:
    """The file's ``ranking``: each player's atleta Nível as it stands at export time (DOMAIN §7.2, over every
    published tournament, not this one alone), every player listed: higher score first, then more jogos won, then
    the players' order. A player with no counted jogo yet (or, made outside the services, no atleta) has score 0
    and level Marreco."""
    nivel = {
        row["atleta_id"]: row
        for row in AtletaNivel.objects.filter(atleta_id__in={p.atleta_id for p in players if p.atleta_id}).values(
            "atleta_id", "score", "level", "won"
        )
    }
    rows = []
    for i, p in enumerate(players):
        n = nivel.get(p.atleta_id) if p.atleta_id is not None else None
        score = n["score"] if n is not None and n["score"] is not None else None
        level = n["level"] if score is not None and n is not None else UNRANKED_LEVEL
        rows.append((-(score or 0), -(n["won"] if n else 0), i, {"player": p.key, "score": score or 0, "level": level}))
    rows.sort(key=lambda r: r[:3])
    return [r[3] for r in rows]


def _usernames(ids: set[int]) -> dict[int, str]:
    return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username")) if ids else {}


def _online_settings(t: Tournament) -> dict[str, Any]:
    """``settings.online`` and ``settings.wo_tolerance_minutes`` when they are not the defaults (docs/contrato.md,
    "Online play")."""
    out: dict[str, Any] = {}
    if t.online not in (None, "", "none"):
        out["online"] = t.online
    if t.wo_tolerance_minutes != 15:
        out["wo_tolerance_minutes"] = t.wo_tolerance_minutes
    return out


def _online_jogos(t: Tournament) -> dict[int, int | None]:
    """The jogos played online that the file names one by one: with a table, ``{"table": ID}``; marked online
    (a hybrid event's mesa) without one yet, ``true``. One query."""
    rows = Jogo.objects.filter(tournament=t).filter(Q(online=True) | Q(online_table__isnull=False))
    return dict(rows.values_list("pk", "online_table__id"))


def _jogo_row(
    j: JogoRow,
    state: TournamentState,
    key_of: dict[int, str],
    stage_key: dict[int, str],
    group_key: dict[int, str],
    referees: dict[int, str],
    history: dict[int, list[dict]],
) -> dict[str, Any]:
    duplas = (key_of[j.dupla_a_id], key_of[j.dupla_b_id])
    row: dict[str, Any] = {"key": j.key, "stage": stage_key[j.stage_id]}
    if j.group_id:
        row["group"] = group_key[j.group_id]
    row["duplas"] = list(duplas)
    if j.mesa:
        row["mesa"] = j.mesa
    if j.referee_id in referees:
        row["referee"] = referees[j.referee_id]
    row["status"] = j.status
    answers = answers_by_dupla(j.confirmations, duplas)
    if any(answers.values()):
        row["confirmations"] = answers
    if j.via > 1:
        row["via"] = j.via
        row["via_reason"] = j.via_reason or None
        row["history"] = history.get(j.id, [])
    row |= result_dict(state.entries.get(j.id), duplas)
    return row


def answers_by_dupla(confirmations: dict, duplas: tuple[str, str]) -> dict[str, str | None]:
    """A jogo's ``confirmations`` column as the file and the API write it: per dupla key, the answer or null."""
    return {key: (confirmations.get(side) or {}).get("answer") for side, key in zip("ab", duplas, strict=False)}


def via_history(*, jogo_ids: list[int], key_of: dict[int, str], rows: dict[int, JogoRow]) -> dict[int, list[dict]]:
    """The earlier vias of the corrected súmulas among ``jogo_ids``, as the export writes them."""
    out: dict[int, list[dict]] = {}
    if not jogo_ids:
        return out
    for v in SumulaVia.objects.filter(jogo_id__in=jogo_ids).order_by("jogo_id", "via"):
        j = rows[v.jogo_id]
        duplas = (key_of[j.dupla_a_id], key_of[j.dupla_b_id])
        item: dict[str, Any] = {
            "via": v.via,
            "via_reason": v.via_reason or None,
            "by": v.by,
            "at": v.at.isoformat(),
            "status": v.status,
        }
        answers = answers_by_dupla(v.confirmations, duplas)
        if any(answers.values()):
            item["confirmations"] = answers
        out.setdefault(v.jogo_id, []).append(item | v.result)
    return out


def computed_sections(*, state: TournamentState, waiting: list[str]) -> dict[str, Any]:
    view = state.view
    standings: dict[str, Any] = {}
    bracket: dict[str, Any] = {}
    third: dict[str, Any] = {}
    for stage_view in view.stages:
        key = stage_view.stage.key
        if isinstance(stage_view, GroupStageView):
            standings[key] = {t.key: [standing_row(r) for r in t.rows] for t in stage_view.tables}
        elif isinstance(stage_view, KnockoutStageView) and stage_view.bracket is not None:
            b = stage_view.bracket
            live = _live_scores(state, key)
            bracket[key] = {"rounds": [[bracket_jogo(s, live) for s in rnd] for rnd in b.rounds]}
            if b.third_place is not None:
                tp = bracket_jogo(b.third_place, live)
                third[key] = {k: tp[k] for k in ("duplas", "best_of", "winner", "score")}
    return {
        "standings": standings,
        "bracket": bracket,
        "bracket_third_place": third,
        "classification": [
            {"place": c.place, "dupla": c.dupla, "players": list(c.players), "medal": c.medal}
            for c in view.classification
        ],
        "waiting_list": waiting,
        "ranking": [],  # the players' Nível: filled in by ``tournament_export`` (``players_nivel``)
    }


def standing_row(r: StandingRow) -> dict[str, Any]:
    s = r.stats
    return {
        "rank": r.rank,
        "dupla": r.dupla,
        "points": s.points,
        "jogos": s.jogos,
        "won": s.won,
        "lost": s.lost,
        "partidas_won": s.partidas_won,
        "partidas_lost": s.partidas_lost,
        "points_for": s.points_for,
        "points_against": s.points_against,
        "saldo": s.saldo,
        "average": _average(s.average),
        "decided_by": r.decided_by,
        "tied": r.tied,
        "qualified": r.qualified,
    }


def _live_scores(state: TournamentState, stage_key: str) -> dict[tuple, list[int]]:
    """Partidas won in each knockout jogo of the stage as its súmula stands now, by bracket slot: the live
    score of a jogo in play, which the standings' view (per ``results_version``) does not follow."""
    stage = state.stage_models.get(stage_key)
    out: dict[tuple, list[int]] = {}
    for j in state.jogo_rows:
        if stage is None or j.stage_id != stage.id or j.group_id is not None:
            continue
        result = state.results.get(j.id)
        if result is not None and result.started:
            out[(j.round, j.position, j.third_place)] = list(result.partidas_won)
    return out


def bracket_jogo(s: BracketJogo, live: dict | None = None) -> dict[str, Any]:
    score = list(s.score) if s.score is not None else None
    if s.winner is None and live:  # not decided (or not counted yet): the súmula's live score
        score = live.get((s.round, s.position, s.third_place), score)
    return {
        "position": s.position,
        "duplas": list(s.duplas),
        "best_of": s.best_of,
        "bye": s.bye,
        "winner": s.winner,
        "score": score,
    }
