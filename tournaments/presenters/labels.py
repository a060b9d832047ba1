"""Fixed labels and formats of the public pages, translated once per language (``labels``)."""

import datetime as dt
import functools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.rules import PRESET_LABELS
from scoring.standings import CRITERION_LABELS

from ..models import Jogo, Stage

# --- labels, translated once per language -------------------------------------------------

WEEKDAYS = (
    gettext_noop("segunda-feira"),
    gettext_noop("terça-feira"),
    gettext_noop("quarta-feira"),
    gettext_noop("quinta-feira"),
    gettext_noop("sexta-feira"),
    gettext_noop("sábado"),
    gettext_noop("domingo"),
)
STATUS_LABELS = {
    "finished": gettext_noop("encerrado"),
    "live": gettext_noop("em andamento"),
    "upcoming": gettext_noop("a começar"),
    "awaiting": gettext_noop("provisório: aguarda confirmação"),
    "contested": gettext_noop("provisório: contestado"),
    "confirmed": gettext_noop("confirmado"),
}
# a decided jogo's status code by its súmula's status (a result counts from "confirmed" on)
DECIDED_CODES = {
    Jogo.AWAITING: "awaiting",
    Jogo.CONTESTED: "contested",
    Jogo.CONFIRMED: "confirmed",
    Jogo.HOMOLOGATED: "finished",
}


@dataclass(frozen=True, slots=True)
class Status:
    """A status as the templates show it: its code (a CSS class) and its label, translated and escaped."""

    code: SafeString
    label: str


@functools.lru_cache(maxsize=8)
def _labels_for(language: str | None) -> Mapping[str, Any]:
    """Every fixed label and format of the pages, in ``language`` (the active one when called).

    A lookup table by label name (not a read model: no page shows it whole), so a Mapping of texts, tables of
    texts and ``Status`` values. The dicts inside are shared between requests: read them, never change them.
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
        # a criterion reached again after a later one split the tie (docs/regras.md §5.1): the chain, spelled out
        "restart_notes": {
            ("head_to_head", "saldo"): _("decidido por confronto direto após saldo"),
            ("head_to_head", "head_to_head"): _(
                "decidido por confronto direto entre as duplas que seguiram empatadas no confronto direto"
            ),
        },
        "decided_after": _("decidido por %(criterion)s após %(after)s"),
        "decided_by": _("decidido por %(criterion)s"),
        "status": {code: _status(code, label) for code, label in STATUS_LABELS.items()},
        "to_play": _status("upcoming", "a jogar"),
        "wo": _status("wo", "WO"),
        "wo_both": _status("wo", gettext_noop("WO duplo")),
        "bye": _status("bye", gettext_noop("folga")),  # a bye: "folga" in Portuguese, as its slot says
        "pending": _status("pending", "aguardando"),
        "group": _("Grupo %(key)s"),
        "round": _("Rodada %(n)s"),
        "jogos": _("Jogos"),
        "third": _("Disputa de 3º lugar"),
        "rounds_from_end": {
            1: _("Final"),
            2: _("Semifinais"),  # the round of two jogos (DOMAIN.md is silent; "as semifinais", as the docs say)
            3: _("Quartas de final"),
            4: _("Oitavas de final"),
            5: _("16-avos de final"),
        },
        "nth_round": _("%(n)sª rodada"),
        "jogo_in_round": _("%(round)s · jogo %(n)s"),  # a knockout jogo by its place in its round, top to bottom
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


def _status(code: str, label: str) -> Status:
    return Status(code=SafeString(code), label=escape(_(label)))


def page_labels() -> Mapping[str, Any]:
    """The labels of the active language (``_labels_for``)."""
    return _labels_for(translation.get_language())


def as_is(value: object) -> SafeString:
    """A number (or a string of digits and signs) as text the template outputs as is: no localizing, no escaping."""
    return SafeString(value)


# --- small formats -----------------------------------------------------------------


def date_br(value: dt.date | None) -> str:
    return value.strftime("%d/%m/%Y") if value else ""


def weekday_br(value: dt.date | None) -> str:
    return page_labels()["weekdays"][value.weekday()] if value else ""


def time_br(value: dt.time | dt.datetime | None) -> str:
    """A time of day as the whole site writes it (pages, desk, PDFs): "14:00", "09:30".

    One form, the one of the clock, the desk's time fields and the round times ("HH:MM"; the same in English),
    rather than "14h00": the round times, "Atualizado às" and the PDFs' footers already said "14:00". A datetime
    is given in local time. Templates use the ``hora`` filter (``templatetags/formats.py``), which calls this."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
    return value.strftime("%H:%M")


def average_br(value: float | None) -> str:
    """3 decimals with a comma; ∞ when nothing was conceded; — for 0 ÷ 0."""
    if value is None:
        return as_is("—")
    if math.isinf(value):
        return as_is("∞")
    return as_is(f"{value:.3f}".replace(".", ","))


def score_text(a: int, b: int) -> str:
    """A score as every page and printed sheet writes it, a jogo's or a partida's: "14 x 4", the points (or
    partidas) of the dupla named first first. Partidas one after the other: ``scores_text``."""
    return as_is(f"{a} x {b}")


def scores_text(texts: Iterable[str]) -> str:
    """Partidas' scores (``score_text``, maybe with a note) one after the other: "14 x 4, 12 x 3"."""
    return ", ".join(texts)


def signed(value: int) -> str:
    return as_is(f"+{value}" if value > 0 else str(value).replace("-", "−"))


def ordinal(value: int | None) -> str:
    return as_is(f"{value}º" if value else "—")


def medal_label(medal: str | None) -> str:
    return page_labels()["medal"].get(medal or "", "")


def criterion_note(code: str | None, after: str | None = None, labels: Mapping[str, Any] | None = None) -> str:
    """'decidido por confronto direto'… for a place decided by a tiebreaker; '' otherwise.

    ``after``: the criterion that split the tie just before, when ``code`` decided by starting the
    chain again ("decidido por confronto direto após saldo").
    """
    if not code or code == "points":
        return ""
    labels = labels or page_labels()
    if after:
        return labels["restart_notes"].get((code, after)) or labels["decided_after"] % {
            "criterion": CRITERION_LABELS.get(code, code),
            "after": CRITERION_LABELS.get(after, after),
        }
    return labels["notes"].get(code) or labels["decided_by"] % {"criterion": CRITERION_LABELS.get(code, code)}


def preset_label(preset: str) -> str:
    return PRESET_LABELS.get(preset, preset or "—")


def group_title(key: str) -> str:
    return page_labels()["group"] % {"key": key}


def best_of_label(n: int | None) -> str:
    return page_labels()["best_of"] % {"n": n} if n else ""


def _round_name(*, round_number: int, total_rounds: int) -> str:
    """pt-BR name of a knockout round: 'Final', 'Semifinais'…, '16-avos de final', else '1ª rodada'."""
    labels = page_labels()
    from_end = total_rounds - round_number + 1
    return labels["rounds_from_end"].get(from_end) or labels["nth_round"] % {"n": round_number}


def knockout_round_title(*, round_number: int | None, total_rounds: int | None, third_place: bool = False) -> str:
    """A knockout jogo's round as people name it, the one helper every page, sheet and screen uses: "Disputa de
    3º lugar" for the third-place jogo, else by its distance from the final ("Final", "Semifinais", "Quartas de
    final", …) when the bracket's rounds are known, else "2ª rodada"; "" with no round."""
    labels = page_labels()
    if third_place:
        return labels["third"]
    if not round_number:
        return ""
    if total_rounds:
        return _round_name(round_number=round_number, total_rounds=total_rounds)
    return labels["nth_round"] % {"n": round_number}


def stage_title(stage: Stage | None, kind: str, index: int, count: int) -> str:
    if stage is not None and stage.name:
        return stage.name
    if kind == Stage.GROUPS:
        return _("Fase de grupos") if count == 1 or index == 0 else _("Fase de grupos %(n)s") % {"n": index + 1}
    return _("Eliminatória") if count == 1 or index == 0 else _("Eliminatória %(n)s") % {"n": index + 1}


def positive_int(value: str | int | None) -> int | None:
    """A page parameter as a number ≥ 1; None when absent or not a number."""
    if value is None:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if number >= 1 else None


def plain_param(value: str | int | None, number: int | None) -> bool:
    """The parameter is written as its number is ('3', not '03' or '+3'): one way to ask for each page."""
    return number is not None and str(value) == str(number)
