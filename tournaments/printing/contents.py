"""Reads for the printed sheets: what each sheet prints, as plain values, in a fixed number of queries.

A batch of súmulas is built from the tournament's live state (``tournament_live_get``: a fixed number of
queries whatever the tournament's size, fewer still when it is cached) plus one query for the referees' names.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.sumula import MAO_FERRO, MAO_ONZE, MAO_PENALTY, MAO_PLAYED, MAO_RAN, MAO_REFUSED, MAO_TIE, mao_kind
from tournaments.presenters.sumula import sumula_present

from .. import presenters
from ..models import Dupla, Jogo, OnlineTable, PartidaLog, Tournament
from ..online.event import stage_online
from ..refusals import Refused
from ..rows import JogoRow
from ..selectors import TournamentState, jogo_referee, mesa_referees, tournament_live_get, tournament_state_get
from ..state import DuplaRef as StateDupla
from ..sumula.selectors import sumula_get
from ..sumula.sheet import Partida
from .medals import Event, Placed
from .sumula import Side, SumulaSheet
from .sumula_grids import MaoLine, PartidaBox

KIND_NOTES = {
    MAO_PENALTY: gettext_noop("penalidade"),
    MAO_REFUSED: gettext_noop("recusou o onze"),
    MAO_RAN: gettext_noop("correu"),
    MAO_TIE: gettext_noop("empate"),
    MAO_FERRO: gettext_noop("mão de ferro"),
    MAO_ONZE: gettext_noop("mão de onze"),
}
VALUE_NOTES = {3: gettext_noop("truco"), 6: gettext_noop("seis"), 9: gettext_noop("nove"), 12: gettext_noop("doze")}
# The article on signing the súmula in each base regulation that has one (the sheet's signature line cites it):
# FENACEF 2023, Art. 33 and Art. 38 §2–§3. The AABB-SP regulation and Truco Online's say nothing about it.
SIGNATURE_RULES = {"fenacef": "FENACEF Art. 38"}


@dataclass(frozen=True)
class BatchChoice:
    """One batch the desk offers: a stage's round (or the whole stage) and how many jogos it prints."""

    stage: str
    stage_title: str
    round: int | None
    title: str
    count: int


def jogo_url(*, tournament: Tournament, key: str) -> str:
    """The jogo's public page as an absolute link (``SITE_URL``): the súmula's QR code."""
    return f"{django_settings.SITE_URL}/torneios/{tournament.slug}/jogos/{key}/"


def when_where(tournament: Tournament) -> str:
    parts = [presenters.date_br(tournament.date), presenters.time_br(tournament.start_time), tournament.venue]
    return " · ".join(p for p in parts if p)


def reminders(state: TournamentState) -> tuple[str, ...]:
    """The preset's rules a table needs at hand, one line each (docs/regras.md §3, §6)."""
    texts = presenters.rule_texts(state.settings)
    return (
        _(
            "Valores da mão: 1 · truco 3 · seis 6 · nove 9 · doze 12. Quem corre dá à outra dupla o valor de antes do "
            "pedido (1, 3, 6 ou 9). Partida de 12 pontos."
        ),
        _(
            "Mão de onze (uma dupla com 11): essa dupla vê as cartas e decide; se recusar, a outra marca 1; se jogar, "
            "vale 3, sem truco. Três rodadas empatadas: %(tie)s."
        )
        % {"tie": texts["onze_tie"]},
        _("Mão de ferro (11 x 11): sem truco e sem recusa, vale %(ferro)s; quem vence a mão vence a partida.")
        % {"ferro": texts["ferro"]},
        _("Manilha: %(manilha)s. Baralho: %(deck)s.") % {"manilha": texts["manilha"], "deck": texts["deck"]},
    )


def signature_rule(tournament: Tournament) -> str:
    """The article of the event's regulation on signing the súmula ("" when its regulation has none)."""
    return SIGNATURE_RULES.get(tournament.preset, "")


def _side(letter: str, dupla: Dupla | StateDupla) -> Side:
    return Side(
        letter=letter,
        name=dupla.display_name,
        players=(dupla.player1.name, dupla.player2.name),
        has_name=bool(dupla.name),
    )


def _referee_names(ids: set[int]) -> dict[int, str]:
    """The referees' full names (a sheet on the table never shows a username: it may be an e-mail address)."""
    if not ids:
        return {}
    users = get_user_model().objects.filter(id__in=ids).only("id", "first_name", "last_name")
    return {u.id: u.get_full_name() for u in users}


def _batch_rows(state: TournamentState, *, stage: str | None, round_number: int | None) -> list[JogoRow]:
    """The scheduled jogos of the selection, in print order: stage, round, mesa (none last), bracket position."""
    stage_id = None
    if stage is not None:
        model = state.stage_models.get(stage)
        if model is None:
            known = ", ".join(state.stage_models) or _("nenhuma")
            raise Refused.bad_request(
                _("stage: a fase “%(stage)s” não existe neste torneio (fases: %(known)s)")
                % {"stage": stage, "known": known}
            )
        stage_id = model.id
    order = {m.id: m.order for m in state.stage_models.values()}
    rows = [
        j
        for j in state.jogo_rows
        if j.status == Jogo.SCHEDULED
        and (stage_id is None or j.stage_id == stage_id)
        and (round_number is None or j.round == round_number)
    ]
    rows.sort(
        key=lambda j: (
            order.get(j.stage_id, 0),
            j.round or 0,
            j.third_place,
            j.mesa is None,
            j.mesa or 0,
            j.position or 0,
            j.id,
        )
    )
    return rows


def sumula_batch_get(
    *, tournament: Tournament, stage: str | None = None, round_number: int | None = None
) -> list[SumulaSheet]:
    """Blank súmulas, pre-filled, of the scheduled jogos (of ``stage``, of its round ``round_number``); ``Refused``
    (a bad request) when ``stage`` names no stage here."""
    state = tournament_live_get(tournament=tournament)
    rows = _batch_rows(state, stage=stage, round_number=round_number)
    by_id = {d.id: d for d in state.duplas.values()}
    place, label = presenters.jogo_place(state), presenters.jogo_label(state)
    mesas = mesa_referees(tournament=tournament)
    referee_of = {j.id: jogo_referee(j, mesas) for j in rows}
    referees = _referee_names({r for r in referee_of.values() if r is not None})
    name, place_line, rules = tournament.name, when_where(tournament), reminders(state)
    rule = signature_rule(tournament)
    sheets = []
    for j in rows:
        sheets.append(
            SumulaSheet(
                key=j.key,
                url=jogo_url(tournament=tournament, key=j.key),
                stage=place(j)[0],
                group_round=label(j),
                in_group=j.group_id is not None,
                mesa=str(j.mesa or ""),
                best_of=j.best_of,
                sides=(_side("A", by_id[j.dupla_a_id]), _side("B", by_id[j.dupla_b_id])),
                referee=referees.get(referee, "") if (referee := referee_of[j.id]) is not None else "",
                tournament=name,
                when_where=place_line,
                reminders=rules,
                signature_rule=rule,
            )
        )
    return sheets


def batch_choices(*, tournament: Tournament) -> list[BatchChoice]:
    """Every stage and round that has scheduled jogos, with their count, for the desk's print page.

    A round is one batch (``?stage=&round=``); the third-place jogo is in the
    final's round, and the batch's title says so.
    """
    state = tournament_live_get(tournament=tournament)
    place = presenters.jogo_place(state)
    by_stage = {m.id: m for m in state.stage_models.values()}
    out: dict[tuple, dict] = {}
    for j in _batch_rows(state, stage=None, round_number=None):
        stage = by_stage[j.stage_id]
        stage_title, _group, round_title = place(j)
        batch = out.setdefault(
            (stage.order, j.round or 0, stage.key),
            {"stage": stage.key, "stage_title": stage_title, "round": j.round, "titles": [], "count": 0},
        )
        title = (
            (_("Rodada %(n)s") % {"n": j.round} if j.group_id is not None else round_title)
            if j.round is not None
            else _("sem rodada")
        )
        if title not in batch["titles"]:
            batch["titles"].append(title)
        batch["count"] += 1
    return [
        BatchChoice(
            stage=b["stage"],
            stage_title=b["stage_title"],
            round=b["round"],
            title=_joined(b["titles"]),
            count=b["count"],
        )
        for _k, b in sorted(out.items())
    ]


def _joined(titles: list[str]) -> str:
    """ "Final", "Final e Disputa de 3º lugar"."""
    if len(titles) == 1:
        return titles[0]
    return _("%(a)s e %(b)s") % {"a": ", ".join(titles[:-1]), "b": titles[-1]}


# --- the filled súmula ------------------------------------------------------------------------------------------


def _note(how: str, to: int | None, points: int | None, before: tuple[int, int]) -> str:
    """What a mão was, in a word or two (the sheet's 'obs.' column)."""
    kind = mao_kind(how=how, to=to, before=before)
    if kind == MAO_PLAYED:
        return _(VALUE_NOTES[points]) if points in VALUE_NOTES else ""
    return _(KIND_NOTES[kind])


def _partida_box(p: Partida, keys: tuple[str, str], letters: dict[str, str], notes: list[str]) -> PartidaBox:
    lines, before = [], (0, 0)
    for n, mao in enumerate(p.maos, start=1):
        lines.append(
            MaoLine(
                number=n,
                a=mao.score[0],
                b=mao.score[1],
                note=_note(mao.how, mao.to, mao.points, before),
            )
        )
        if mao.how == "penalty":
            to = keys[mao.to] if mao.to is not None and mao.to in (0, 1) else None
            notes.append(
                _("Partida %(p)s, mão %(n)s: penalidade de %(points)s a favor da dupla %(to)s: %(reason)s")
                % {
                    "p": p.number,
                    "n": n,
                    "points": mao.points,
                    "to": letters.get(to, "?") if to is not None else "?",
                    "reason": mao.reason or "",
                }
            )
        before = mao.score
    note = ""
    if p.penalty:
        lost = letters.get(p.penalty.lost_by, "?")
        note = _("perda da partida pela dupla %(d)s") % {"d": lost}
        notes.append(
            _("Partida %(p)s: perda da partida pela dupla %(d)s: %(reason)s")
            % {"p": p.number, "d": lost, "reason": p.penalty.reason}
        )
    elif not p.maos and p.finished:
        note = _("resultado anotado sem as mãos")
    winner = keys.index(p.winner) if p.winner in keys else None
    return PartidaBox(number=p.number, lines=tuple(lines), score=p.score, winner=winner, note=note)


def online_notes(*, tournament: Tournament, jogo: Jogo, state: TournamentState) -> list[str]:
    """A jogo played on an online table (docs/regras.md §9.7): the súmula says so and where to replay each partida
    (absolute links). No query for a jogo that is not online."""
    stage = next((s for s in state.stage_models.values() if s.id == jogo.stage_id), None)
    if not (jogo.online or (stage is not None and stage_online(tournament, stage.key))):
        return []
    table_id = OnlineTable.objects.filter(jogo=jogo).values_list("pk", flat=True).first()
    if table_id is None:
        return []
    played = list(PartidaLog.objects.filter(table_id=table_id).order_by("n").values_list("n", flat=True))
    base = django_settings.SITE_URL
    out = [
        _("Jogo disputado online (mesa online %(table)d): a súmula foi preenchida pela própria mesa.")
        % {"table": table_id}
    ]
    if played:
        out.append(
            _("Replay das partidas: %(urls)s")
            % {"urls": " · ".join(f"{base}/jogar/mesas/{table_id}/partidas/{n}/" for n in played)}
        )
    return out


def sumula_sheet_get(*, tournament: Tournament, jogo: Jogo, via: int | None = None) -> SumulaSheet | None:
    """The filled súmula of ``jogo`` (its current via, or the earlier via ``via``; None if it has no such via).

    Public: no account names (who signed is told by role; the referee line carries the referee's full name, as the
    blank sheet on the mesa does, never a username), no PINs, no contacts.
    """
    data = sumula_get(tournament=tournament, jogo=jogo, via=via)
    if data is None:
        return None
    state = tournament_live_get(tournament=tournament)
    view = sumula_present(state=state, tournament=tournament, jogo=jogo, data=data)
    keys = data.duplas
    sides = (_side("A", jogo.dupla_a), _side("B", jogo.dupla_b))
    letters = dict(zip(keys, ("A", "B"), strict=False))
    notes: list[str] = []
    partidas = tuple(_partida_box(p, keys, letters, notes) for p in data.partidas)
    # the jogo's referee (its own, else its mesa's), else whoever signed it
    referee = jogo_referee(jogo, mesa_referees(tournament=tournament)) or jogo.signed_by_id
    result = ""
    if view.walkover:
        if view.walkover.both:
            result = _("WO: as duas duplas ausentes")
        else:
            result = _("WO: %(absent)s ausente · vencedora: %(winner)s") % {
                "absent": view.walkover.absent,
                "winner": view.winner_name,
            }
        notes.insert(0, result)
        if view.walkover.reason:
            notes.insert(1, _("Motivo do WO: %(reason)s") % {"reason": view.walkover.reason})
    elif view.penalty:
        result = _("Perda do jogo: %(dupla)s · vencedora: %(winner)s") % {
            "dupla": view.penalty.dupla,
            "winner": view.winner_name,
        }
        notes.insert(
            0,
            _("Perda do jogo por %(dupla)s: %(reason)s") % {"dupla": view.penalty.dupla, "reason": view.penalty.reason},
        )
    elif view.has_result:
        score = _("A %(a)s x %(b)s B") % {"a": data.score[0], "b": data.score[1]}
        if view.winner_name and view.winner is not None:
            result = _("%(score)s · vencedora: dupla %(letter)s, %(name)s") % {
                "score": score,
                "letter": "AB"[view.winner],
                "name": view.winner_name,
            }
        else:
            result = _("%(score)s · em andamento") % {"score": score}
    for letter, answer in zip("AB", view.answers, strict=False):
        if answer.answer == "confirmed":
            text = _("Dupla %(l)s confirmou %(method)s em %(when)s.")
        elif answer.answer == "contested":
            text = _("Dupla %(l)s contestou %(method)s em %(when)s: %(reason)s")
        elif answer.absent:
            text = _("Dupla %(l)s ausente: não confirma o WO.")
        elif view.decided:
            text = _("Dupla %(l)s ainda não confirmou.")
        else:
            continue
        notes.append(
            (text % {"l": letter, "method": answer.method, "when": answer.when, "reason": answer.reason}).replace(
                "  ", " "
            )
        )
    if view.signed:
        notes.append(
            view.signed.text
            + (" " + _("Decisão: %(reason)s") % {"reason": view.signed.reason} if view.signed.reason else "")
        )
    for appeal in view.appeals:  # each appeal, then the comissão's decision (or that it waits), on lines of their own
        notes.append(
            _("Recurso de %(dupla)s (%(via)s) em %(when)s: %(reason)s")
            % {"dupla": appeal.dupla, "via": appeal.via, "when": appeal.when, "reason": appeal.reason}
        )
        if appeal.decision:
            notes.append(
                _("Comissão organizadora: %(decision)s em %(when)s: %(reason)s")
                % {"decision": appeal.decision_label, "when": appeal.decided_when, "reason": appeal.decision_reason}
            )
        else:
            notes.append(_("Recurso aguarda decisão da comissão organizadora."))
    notes[0:0] = online_notes(tournament=tournament, jogo=jogo, state=state)  # first: the sheet was filled online
    replaces = ""
    if view.replaces:
        replaces = _("%(via)s — substitui a %(old)s: %(reason)s") % {
            "via": view.via_name,
            "old": view.replaces,
            "reason": view.via_reason or _("sem motivo"),
        }
    elif view.reading_old:
        replaces = _("%(via)s — substituída pela %(latest)s em %(when)s") % {
            "via": view.via_name,
            "latest": view.latest_name,
            "when": view.replaced_at,
        }
    return SumulaSheet(
        key=jogo.key,
        url=jogo_url(tournament=tournament, key=jogo.key),
        tournament=tournament.name,
        when_where=when_where(tournament),
        stage=view.stage,
        group_round=presenters.jogo_label(state)(jogo),
        in_group=jogo.group_id is not None,
        mesa=str(jogo.mesa or ""),
        best_of=jogo.best_of,
        sides=sides,
        reminders=reminders(state),
        referee=_referee_names({referee}).get(referee, "") if referee is not None else "",
        signature_rule=signature_rule(tournament),
        filled=True,
        via=view.via_name,
        replaces=replaces,
        status=view.status.label,
        partidas=partidas,
        won=data.score if view.has_result else None,
        result=result,
        notes=tuple(notes),
    )


# --- the ceremony: medal list and certificates -------------------------------------------------------------------


def ceremony_get(*, tournament: Tournament) -> tuple[Event, list[Placed], bool]:
    """The event, its final classification (every dupla with its athletes, and whether it played: a dupla absent
    from every jogo it had, lost by WO, gets no certificate) and whether it is final."""
    state = tournament_state_get(tournament=tournament)
    present: set[int] = set()  # the duplas at a mesa for at least one jogo with a result
    for j in state.jogo_rows:
        result = state.results.get(j.id)
        if result is not None and result.started:
            present.update(
                d for d, side in ((j.dupla_a_id, "a"), (j.dupla_b_id, "b")) if j.walkover not in (side, "both")
            )
    event = Event(
        name=tournament.name,
        category=tournament.category,
        when=presenters.date_br(tournament.date),
        venue=tournament.venue,
    )
    placed = [
        Placed(
            place=row.place,
            medal=row.medal,
            dupla=row.dupla.name,
            has_name=row.dupla.has_name,
            athletes=tuple(row.players),
            played=state.duplas[row.dupla.key].id in present if row.dupla.key in state.duplas else True,
        )
        for row in presenters.classification_present(state)
    ]
    return event, placed, bool(state.view.finished)
