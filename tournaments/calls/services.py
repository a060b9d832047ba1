"""Calling duplas to their mesa: one jogo, a whole round, a WhatsApp message to one player. Every call is a
``Call`` row written through ``tournament_write``; the first call of a jogo is a ``PAGES`` write (the TV, the
event page and the duplas' pages show "Sua vez" from the new version on), a WhatsApp message to a jogo already
called is ``PRIVATE`` (nothing the pages show changes). E-mails are queued here, within the hour's limits
(``mailquota``) and never twice for one call, and sent after the commit (``mail``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..audit import audit_record
from ..mailquota import ACCOUNT, Budget, Over, budgets_load, budgets_take, room_text
from ..models import Call, Dupla, Jogo, Player, Stage, Tournament
from ..refusals import Refused
from ..writes import PAGES, PRIVATE, tournament_write
from . import mail
from .messages import call_text
from .phones import phone_is_mobile, phone_normalize, whatsapp_url

Who = User | AnonymousUser | None


@dataclass(frozen=True)
class Called:
    """What one call did: the jogos called (on the pages) and the e-mails queued; the e-mails not repeated (that
    address already had this call: the same jogo at the same mesa) and, when the hour's limit held some back,
    why (how many, until when)."""

    jogos: int
    emails: int
    skipped: tuple[str, ...] = ()  # jogos of a round not called, each with why
    repeated: int = 0
    mail_refused: str = ""


@dataclass
class _Queued:
    """The e-mails of one write's calls: queued, not repeated, held back by a limit (and the latest such)."""

    budgets: list[Budget]
    emails: int = 0
    repeated: int = 0
    held_jogos: int = 0
    held_emails: int = 0
    over: Over | None = None

    def refused_text(self) -> str:
        over = self.over
        if over is None:
            return ""
        values = {"n": over.used, "limit": over.limit, "when": room_text(over)}
        if over.scope == ACCOUNT:
            why = ngettext(
                "esta conta já pôs %(n)d e-mail de chamada na fila na última hora (o limite é %(limit)d por "
                "hora); há lugar de novo %(when)s",
                "esta conta já pôs %(n)d e-mails de chamada na fila na última hora (o limite é %(limit)d por "
                "hora); há lugar de novo %(when)s",
                over.used,
            )
        else:
            why = ngettext(
                "este torneio já pôs %(n)d e-mail de chamada na fila na última hora (o limite é %(limit)d por "
                "hora, %(per)d por atleta das duplas); há lugar de novo %(when)s",
                "este torneio já pôs %(n)d e-mails de chamada na fila na última hora (o limite é %(limit)d por "
                "hora, %(per)d por atleta das duplas); há lugar de novo %(when)s",
                over.used,
            )
            values["per"] = settings.ZAP_CALL_EMAILS_PER_PLAYER_HOUR
        held = ngettext(
            "%(n)d e-mail de chamada não enviado",
            "%(n)d e-mails de chamada não enviados",
            self.held_emails,
        ) % {"n": self.held_emails}
        if self.held_jogos > 1:
            held += " " + _("(de %(n)d jogos)") % {"n": self.held_jogos}
        return f"{held}: {why % values}."


def _mail_budgets(*, tournament: Tournament, user: Who) -> _Queued:
    """The hour's budgets of the calls' e-mails: the event's (per player of its duplas) and the account's, read
    under the tournament's row (locked by the call's write) and the account's."""
    players = 2 * Dupla.objects.filter(tournament=tournament).count()
    budgets = budgets_load(
        sends=Call.objects.filter(channel=Call.EMAIL),
        at="at",
        tournament=tournament,
        event_limit=settings.ZAP_CALL_EMAILS_PER_PLAYER_HOUR * players,
        account=_account(user),
        account_field="by",
        account_limit=settings.ZAP_CALL_EMAILS_PER_ACCOUNT_HOUR,
    )
    return _Queued(budgets=budgets)


def _account(user: Who) -> User | None:
    return user if isinstance(user, User) and user.is_authenticated else None


def _jogo_get(*, tournament: Tournament, jogo_id: int) -> Jogo:
    jogo = (
        Jogo.objects.filter(tournament=tournament, pk=jogo_id)
        .select_related("dupla_a__player1", "dupla_a__player2", "dupla_b__player1", "dupla_b__player2", "stage")
        .first()
    )
    if jogo is None:
        raise Refused.not_found(_("Jogo %(id)s: não existe neste torneio.") % {"id": jogo_id})
    jogo.tournament = tournament
    return jogo


def _callable(jogo: Jogo) -> str | None:
    """Why ``jogo`` cannot be called now, or None."""
    if jogo.mesa is None:
        return _("o jogo ainda não tem mesa")
    if jogo.status != Jogo.SCHEDULED:
        return _("o jogo já começou ou terminou (%(status)s)") % {"status": jogo.get_status_display()}
    return None


def _record(*, tournament: Tournament, jogo: Jogo, user: Who, queued: _Queued) -> None:
    """The pages' call of ``jogo`` and an e-mail queued to each address of its duplas' players that has not had
    this call yet (the same jogo at the same mesa: one e-mail per address and dupla, ever), if the hour's limits
    have room for all of them; counted in ``queued``. Inside the caller's write (the tournament's row locked)."""
    by = _account(user)
    Call.objects.create(tournament=tournament, jogo=jogo, channel=Call.PAGES, mesa=jogo.mesa, by=by)
    had = {
        (dupla_id, email.casefold())
        for dupla_id, email in Call.objects.filter(jogo=jogo, channel=Call.EMAIL, mesa=jogo.mesa).values_list(
            "dupla_id", "email"
        )
    }
    emails: list[Call] = []
    for dupla in (jogo.dupla_a, jogo.dupla_b):
        for player in (dupla.player1, dupla.player2):
            if not player.email:
                continue
            if (dupla.pk, player.email.casefold()) in had:
                queued.repeated += 1
                continue
            had.add((dupla.pk, player.email.casefold()))
            emails.append(
                Call(
                    tournament=tournament,
                    jogo=jogo,
                    dupla=dupla,
                    player=player,
                    channel=Call.EMAIL,
                    mesa=jogo.mesa,
                    by=by,
                    email=player.email,
                    status=Call.QUEUED,
                )
            )
    if not emails:
        return
    over = budgets_take(queued.budgets, len(emails))
    if over is not None:
        queued.over = over
        queued.held_jogos += 1
        queued.held_emails += len(emails)
        return
    ids = [c.pk for c in Call.objects.bulk_create(emails)]
    queued.emails += len(ids)
    transaction.on_commit(lambda: mail.mail_dispatch(ids=ids), robust=True)


def _named(jogo: Jogo) -> str:
    """A jogo in a message or the history, as people know it: by its duplas ("Ana / Bia x Caio / Davi"); its key
    is for addresses only."""
    return _("Jogo %(a)s x %(b)s") % {"a": jogo.dupla_a.display_name, "b": jogo.dupla_b.display_name}


def jogo_call(*, tournament: Tournament, jogo_id: int, user: Who = None) -> Called:
    """Call one jogo's duplas to its mesa: "Sua vez" on the pages until the jogo begins, an e-mail to each
    player with an address (within the hour's limits). Refused when the jogo has no mesa or has begun. Calling
    again is a new call on the pages; no address gets the same call's e-mail twice."""
    with tournament_write(tournament=tournament, action="calls.jogo", user=user, kind=PAGES):
        jogo = _jogo_get(tournament=tournament, jogo_id=jogo_id)
        why = _callable(jogo)
        if why is not None:
            raise Refused.conflict(_("%(jogo)s: não pode ser chamado: %(why)s.") % {"jogo": _named(jogo), "why": why})
        queued = _mail_budgets(tournament=tournament, user=user)
        _record(tournament=tournament, jogo=jogo, user=user, queued=queued)
        emails = queued.emails
        audit_record(
            tournament=tournament,
            user=user,
            action="call_jogo",
            summary=_("%(jogo)s chamado à mesa %(mesa)s") % {"jogo": _named(jogo), "mesa": jogo.mesa},
            after={"jogo": jogo.key, "mesa": jogo.mesa, "emails": emails, "emails_held": queued.held_emails},
        )
    return Called(jogos=1, emails=emails, repeated=queued.repeated, mail_refused=queued.refused_text())


def round_call(*, tournament: Tournament, stage_key: str, round_number: int, user: Who = None) -> Called:
    """Call a round: each of its jogos still to play that has a mesa, not called yet, whose mesa is free (no
    jogo at it now, and it is the first of the round's jogos on that mesa still to play: a mesa's second jogo
    waits for the first). The others are listed in ``skipped`` with why."""
    with tournament_write(tournament=tournament, action="calls.round", user=user, kind=PAGES) as write:
        stage = Stage.objects.filter(tournament=tournament, key=stage_key).first()
        if stage is None:
            raise Refused.not_found(_("Chamar a rodada: fase %(key)s não existe.") % {"key": stage_key})
        jogos = list(
            Jogo.objects.filter(tournament=tournament, stage=stage, round=round_number)
            .select_related("dupla_a__player1", "dupla_a__player2", "dupla_b__player1", "dupla_b__player2")
            .order_by("third_place", "position", "id")
        )
        if not jogos:
            raise Refused.not_found(
                _("Chamar a rodada: a rodada %(n)s de %(stage)s não tem jogos.") % {"n": round_number, "stage": stage}
            )
        busy = set(
            Jogo.objects.filter(tournament=tournament, status__in=Jogo.AT_TABLE, mesa__isnull=False).values_list(
                "mesa", flat=True
            )
        )
        called_before = set(
            Call.objects.filter(jogo__in=jogos, channel=Call.PAGES).values_list("jogo_id", flat=True).distinct()
        )
        count = 0
        queued = _mail_budgets(tournament=tournament, user=user)
        skipped: list[str] = []
        # mesas whose earlier jogo (of this round, or of an earlier round or stage) is still to play
        waiting: set[int] = {
            mesa
            for mesa in Jogo.objects.filter(tournament=tournament, status=Jogo.SCHEDULED, mesa__isnull=False)
            .filter(Q(stage__order__lt=stage.order) | Q(stage=stage, round__lt=round_number))
            .values_list("mesa", flat=True)
            if mesa is not None
        }
        for jogo in jogos:
            if jogo.status != Jogo.SCHEDULED:
                continue  # begun or decided: nothing to call
            if jogo.mesa is None:
                skipped.append(_("%(jogo)s: sem mesa") % {"jogo": _named(jogo)})
                continue
            if jogo.mesa in waiting:
                skipped.append(
                    _("%(jogo)s: espera o jogo anterior da mesa %(mesa)s") % {"jogo": _named(jogo), "mesa": jogo.mesa}
                )
                continue
            waiting.add(jogo.mesa)
            if jogo.pk in called_before:
                continue  # already called: "chamar de novo" is per jogo
            if jogo.mesa in busy:
                skipped.append(_("%(jogo)s: a mesa %(mesa)s está ocupada") % {"jogo": _named(jogo), "mesa": jogo.mesa})
                continue
            _record(tournament=tournament, jogo=jogo, user=user, queued=queued)
            count += 1
        if count == 0 and write.action == "calls.round":
            write.kind = PRIVATE  # nothing the pages show changed (the outer write says so to the engine)
        audit_record(
            tournament=tournament,
            user=user,
            action="call_round",
            summary=_("Rodada %(n)s de %(stage)s chamada: %(count)d jogos")
            % {"n": round_number, "stage": stage, "count": count},
            after={
                "stage": stage.key,
                "round": round_number,
                "jogos": count,
                "emails": queued.emails,
                "emails_held": queued.held_emails,
                "skipped": skipped,
            },
        )
    return Called(
        jogos=count,
        emails=queued.emails,
        skipped=tuple(skipped),
        repeated=queued.repeated,
        mail_refused=queued.refused_text(),
    )


def whatsapp_call(*, tournament: Tournament, jogo_id: int, dupla_id: int, player_id: int, user: Who = None) -> str:
    """Record a WhatsApp call of one player of ``dupla`` and return the ``https://wa.me/…`` link with the
    message ready to send. The jogo counts as called on the pages from then on (if it was not). Refused when
    the jogo has no mesa or has begun, or the player's phone is not a usable Brazilian number."""
    first = not Call.objects.filter(jogo_id=jogo_id, channel=Call.PAGES).exists()
    # the first call of this jogo: the pages say "Sua vez" from now on (a new version); later ones change nothing
    kind = PAGES if first else PRIVATE
    with tournament_write(tournament=tournament, action="calls.whatsapp", user=user, kind=kind):
        jogo = _jogo_get(tournament=tournament, jogo_id=jogo_id)
        why = _callable(jogo)
        if why is not None:
            raise Refused.conflict(_("%(jogo)s: não pode ser chamado: %(why)s.") % {"jogo": _named(jogo), "why": why})
        duplas = {jogo.dupla_a_id: jogo.dupla_a, jogo.dupla_b_id: jogo.dupla_b}
        dupla: Dupla | None = duplas.get(dupla_id)
        if dupla is None:
            raise Refused.not_found(_("%(jogo)s: essa dupla não joga este jogo.") % {"jogo": _named(jogo)})
        players = {p.pk: p for p in (dupla.player1, dupla.player2)}
        player: Player | None = players.get(player_id)
        if player is None:
            raise Refused.not_found(_("Dupla %(dupla)s: esse atleta não é da dupla.") % {"dupla": dupla})
        phone = phone_normalize(player.phone)
        if phone is None:
            raise Refused.invalid(
                _("telefone inválido: %(player)s (dupla %(dupla)s)") % {"player": player.name, "dupla": dupla}
            )
        if not phone_is_mobile(phone):
            raise Refused.invalid(
                _("telefone fixo, sem WhatsApp: %(player)s (dupla %(dupla)s)") % {"player": player.name, "dupla": dupla}
            )
        if first and not Call.objects.filter(jogo=jogo, channel=Call.PAGES).exists():
            Call.objects.create(tournament=tournament, jogo=jogo, channel=Call.PAGES, mesa=jogo.mesa, by=_account(user))
        Call.objects.create(
            tournament=tournament,
            jogo=jogo,
            dupla=dupla,
            player=player,
            channel=Call.WHATSAPP,
            mesa=jogo.mesa,
            by=_account(user),
        )
        audit_record(
            tournament=tournament,
            user=user,
            action="call_whatsapp",
            summary=_("%(jogo)s: WhatsApp aberto para %(player)s (dupla %(dupla)s), mesa %(mesa)s")
            % {"jogo": _named(jogo), "player": player.name, "dupla": dupla, "mesa": jogo.mesa},
            after={"jogo": jogo.key, "dupla": dupla.key, "player": player.key, "mesa": jogo.mesa},
        )
        text = call_text(jogo=jogo, dupla=dupla, at=timezone.now())
    return whatsapp_url(phone=phone, text=text)
