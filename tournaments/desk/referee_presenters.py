"""The referee's screens as they show: the list of a referee's jogos (sections, names) and the súmula
screen of one jogo (the board, the pad of values, the sheet, the confirmations, the data for ``static/js/sumula.js``).
The views are in ``referee.py``."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.sumula import AWAITING, CONFIRMED, CONTESTED, HOMOLOGATED, IN_PROGRESS, SCHEDULED, answers_needed
from tournaments.models import Jogo, Tournament
from tournaments.presenters.jogo import jogo_label
from tournaments.presenters.sumula_pad import (  # noqa: F401 (shared with the dupla's scoring screen)
    dupla_names,
    first_name,
    gains,
    pad_present,
    penalty_named,
    phase_of,
    server_id,
    sheet_rows,
)
from tournaments.selectors import (
    tournament_settings,
    tournament_state_get,
)
from tournaments.sumula.sheet import Sumula, sheet_json

STATUS_LABELS = dict(Jogo.STATUS_CHOICES)
# where a jogo goes on the referee's list: at the table (or waiting for the signature), to play, done
TABLE, TO_PLAY, DONE = "table", "to_play", "done"
SECTION_OF = {
    IN_PROGRESS: TABLE,
    AWAITING: TABLE,
    CONTESTED: TABLE,
    CONFIRMED: TABLE,
    SCHEDULED: TO_PLAY,
    HOMOLOGATED: DONE,
}
PILL = {
    SCHEDULED: "upcoming",
    IN_PROGRESS: "live",
    AWAITING: "awaiting",
    CONTESTED: "contested",
    CONFIRMED: "confirmed",
    HOMOLOGATED: "finished",
}


# --- shared pieces ---------------------------------------------------------------------------------------


def side_name(jogo: Jogo, key: str) -> str:
    dupla = jogo.dupla_a if key == jogo.dupla_a.key else jogo.dupla_b
    return dupla_names(dupla)["name"]


def screen_strings(duplas: list[dict]) -> dict:
    """The words the script shows (pt-BR from the catalogs, like the template's)."""
    return {
        "pending": _("pendente"),
        "sending": _("enviando…"),
        "online": _("conectado"),
        "all_sent": _("tudo enviado"),
        "offline": _("sem conexão"),
        "offline_one": _("sem conexão — %(n)s anotação pendente"),
        "offline_many": _("sem conexão — %(n)s anotações pendentes"),
        "waiting_one": _("%(n)s anotação pendente"),
        "waiting_many": _("%(n)s anotações pendentes"),
        "partida": _("Partida %(n)s"),
        "tie": _("empate"),
        "ran": _("a outra correu"),
        "refused": _("onze recusada"),
        "penalty": _("penalidade"),
        "normal": _("Mão normal"),
        "onze": _("Mão de onze: %(dupla)s decide — aceita vale 3; recusa dá 1 ponto à outra dupla"),
        "ferro": _("Mão de ferro (11 x 11): quem vencer a mão vence a partida"),
        "decided_pending": _("Jogo decidido (falta enviar as anotações pendentes)"),
        "decided": _("Jogo decidido: falta a confirmação das duplas"),
        "flush_first": _("Há anotações pendentes: espere o envio antes de fazer isto."),
        "login": _(
            "Sua sessão expirou ou o token de segurança mudou: entre de novo; as anotações continuam guardadas."
        ),
        "server": _("O servidor não aceitou agora (%(status)s); tentando de novo."),
        "quick": _("placar final, sem mãos"),
        "lost_partida": _("perda da partida (%(dupla)s): %(reason)s"),
        "close": _("fechar"),
        "double_tap": _("Segundo toque ignorado: toque duplo conta uma mão só. Se eram duas mãos, toque de novo."),
        "no_maos": _("nenhuma mão ainda"),
        "status": {k: str(v) for k, v in STATUS_LABELS.items()},
        "duplas": [d["short"] for d in duplas],
    }


def correction_rows(data: Sumula, best_of: int) -> list[dict]:
    """The correction form's rows, filled with the current via's partidas (their points, in the order of the
    jogo's duplas): a correction starts from the result it corrects, and the referee changes what is wrong."""
    scores = {p.number: p.score for p in data.partidas}
    rows = []
    for n in range(1, best_of + 1):
        score = scores.get(n)
        rows.append({"n": n, "a": score[0] if score else None, "b": score[1] if score else None})
    return rows


def referee_screen_present(*, tournament: Tournament, jogo: Jogo, data: Sumula) -> dict:
    """The súmula screen of one jogo as the referee's phone shows it, and the data its script takes."""
    duplas = [dupla_names(jogo.dupla_a), dupla_names(jogo.dupla_b)]
    status = data.status
    phase = phase_of(status)
    partidas = data.partidas
    answers = data.confirmation_details
    answered = any(answers.values())
    last = partidas[-1] if partidas else None
    last_mao = last.maos[-1].id if last and last.maos else None
    current = data.current
    partida_number: int | None
    points: list[int] | None
    if current is not None:  # a partida is being played: the last one
        assert last is not None
        partida_number, points = last.number, list(current)
    elif phase == "entry":
        partida_number, points = len(partidas) + 1, [0, 0]
    else:
        partida_number, points = (last.number, list(last.score)) if last else (None, None)
    settings = tournament_settings(tournament=tournament)
    state = tournament_state_get(tournament=tournament)
    title = jogo_label(state)(jogo)
    options = data.options
    onze_side = None
    if options and options.situation == "mao_de_onze":
        onze_side = 0 if options.score[0] == 11 else 1
    winner = data.winner
    winner_side = [d["key"] for d in duplas].index(winner) if winner else None
    strings = screen_strings(duplas)
    situation = ""
    if options and phase == "entry":
        situation = {
            "normal": strings["normal"],
            "mao_de_ferro": strings["ferro"],
            "mao_de_onze": strings["onze"] % {"dupla": duplas[onze_side]["short"] if onze_side is not None else ""},
        }[options.situation]
    confirmations = []
    keys = [d["key"] for d in duplas]
    absent = keys.index(data.walkover) if data.walkover in keys else data.walkover  # a side, "both" or None
    needed = answers_needed(walkover=absent)
    for i, d in enumerate(duplas):
        detail = answers.get(d["key"])
        if not needed[i] and detail is None:
            continue  # absent from the WO: not asked to confirm
        confirmations.append(
            {
                "dupla": d,
                "side": i,
                "answer": detail.answer if detail else None,
                "reason": (detail.reason if detail else None) or "",
            }
        )
    client = {
        "storage": f"zap-sumula:{tournament.slug}:{jogo.key}",
        "api": {
            "jogo": reverse("api:jogo", args=[tournament.slug, jogo.key]),
            "maos": reverse("api:maos", args=[tournament.slug, jogo.key]),
            "mao": reverse("api:mao", args=[tournament.slug, jogo.key, "__ID__"]),
        },
        "rules": {"ferro": settings.mao_de_ferro_value, "onze_tie": settings.mao_de_onze_tie},
        "duplas": duplas,
        "sumula": sheet_json(data),
        "t": strings,
    }
    return {
        "desk_tab": "referee",
        "jogo": jogo,
        "title": title,
        "sumula": data,
        "duplas": duplas,
        "phase": phase,
        "status_label": STATUS_LABELS.get(status, status),
        "pill": PILL.get(status, "upcoming"),
        "partida_number": partida_number,
        "points": points,
        "won": list(data.score),
        "winner_side": winner_side,
        "situation": situation,
        "board": [
            {
                "side": i,
                "dupla": duplas[i],
                "won": data.score[i],
                "points": points[i] if points else None,
                "winner": winner_side == i,
            }
            for i in (0, 1)
        ],
        "pad": pad_present(options, duplas) if phase == "entry" else None,
        "onze_side": onze_side,
        "sheet": sheet_rows(data, duplas),
        "last_mao": last_mao,
        "may_undo": bool(last_mao) and not answered and status not in (CONFIRMED, HOMOLOGATED),
        "empty": not partidas and data.walkover is None and data.penalty is None,
        "walkover": data.walkover,
        "walkover_reason": data.walkover_reason or "",
        "jogo_penalty": data.penalty,
        "walkover_name": (
            _("as duas duplas") if data.walkover == "both" else side_name(jogo, data.walkover) if data.walkover else ""
        ),
        "penalty_name": side_name(jogo, data.penalty.lost_by) if data.penalty else "",
        "confirmations": confirmations,
        "answers_needed": sum(needed),
        "answered": answered,
        "need_reason": status in (AWAITING, CONTESTED),
        "score_rows": [{"n": n, "a": None, "b": None} for n in range(1, jogo.best_of + 1)],
        "correction_rows": correction_rows(data, jogo.best_of),
        "ids": {k: server_id() for k in ("resultado", "wo", "penalidade", "correcao")},
        "client": client,
    }
