"""The calls' e-mails, sent outside the request: queued by the call (``Call.QUEUED``), sent once the call's
write commits, in a background thread (``mail_dispatch``), and again by ``manage.py calls_send`` for those that
failed or were left behind (a process that stopped mid-send). Each change of a row's delivery state is a
``PRIVATE`` write (nothing the pages show); the sending itself holds no transaction."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import connections
from django.db.models import F, Q
from django.utils import timezone

from ..caching import background_run
from ..models import Call, Tournament
from ..writes import PRIVATE, tournament_write
from .messages import call_subject, call_text

log = logging.getLogger("zap.calls")

ATTEMPTS_MAX = 5  # a message that failed this often waits for the organizer (the desk shows the error)
STALE = timedelta(minutes=10)  # "enviando" for longer than this: the sender stopped; try again


@dataclass(frozen=True)
class Sent:
    sent: int
    failed: int


def mail_dispatch(*, ids: list[int]) -> None:
    """Send these queued e-mails now, outside the request: in a thread of their own once the response has gone
    (``caching.background_run``, which ``shares_wait`` waits for; ``ZAP_CALLS_MAIL_THREAD``, the default), else
    right here (tests)."""
    if not getattr(settings, "ZAP_CALLS_MAIL_THREAD", True):
        calls_mail_send(ids=ids)
        return

    def run() -> None:
        try:
            calls_mail_send(ids=ids)
        except Exception:  # the rows stay queued or sending: ``calls_send`` picks them up
            log.exception("chamadas: envio de e-mails interrompido")
        finally:
            connections.close_all()

    background_run(run, name="zap-calls-mail")


def _pending(ids: Iterable[int] | None) -> list[Call]:
    rows = Call.objects.filter(channel=Call.EMAIL)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids), status=Call.QUEUED)
    else:
        stale = timezone.now() - STALE
        rows = rows.filter(
            Q(status=Call.QUEUED)
            | Q(status=Call.FAILED, attempts__lt=ATTEMPTS_MAX)
            | Q(status=Call.SENDING, tried_at__lt=stale)
        )
    return list(
        rows.select_related(
            "tournament",
            "jogo__stage",
            "jogo__dupla_a__player1",
            "jogo__dupla_a__player2",
            "jogo__dupla_b__player1",
            "jogo__dupla_b__player2",
            "dupla__player1",
            "dupla__player2",
        ).order_by("id")
    )


def _claim(call: Call) -> bool:
    """Mark ``call`` as being sent, unless another sender took it first (its state moved since it was read)."""
    with tournament_write(tournament=call.tournament, action="calls.mail", kind=PRIVATE):
        taken = Call.objects.filter(pk=call.pk, status=call.status, attempts=call.attempts).update(
            status=Call.SENDING, tried_at=timezone.now(), attempts=F("attempts") + 1
        )
    return taken == 1


def _settle(call: Call, *, error: str) -> None:
    with tournament_write(tournament=call.tournament, action="calls.mail", kind=PRIVATE):
        if error:
            Call.objects.filter(pk=call.pk).update(status=Call.FAILED, error=error[:300])
        else:
            Call.objects.filter(pk=call.pk).update(status=Call.SENT, error="", sent_at=timezone.now())


def calls_mail_send(*, ids: Iterable[int] | None = None, tournament: Tournament | None = None) -> Sent:
    """Send the calls' e-mails: these queued ones (``ids``), else every one queued, failed (fewer than
    ``ATTEMPTS_MAX`` tries) or left "enviando" for longer than ``STALE`` (of ``tournament`` only, if given)."""
    sent = failed = 0
    for call in _pending(ids):
        if tournament is not None and call.tournament_id != tournament.pk:
            continue
        if not _claim(call):
            continue
        jogo = call.jogo
        jogo.tournament = call.tournament
        dupla = call.dupla
        error = ""
        if dupla is None:
            error = "sem dupla"
        else:
            try:
                send_mail(call_subject(jogo=jogo), call_text(jogo=jogo, dupla=dupla, at=call.at), None, [call.email])
            except Exception as exc:  # SMTP down, refused address: kept as failed, with why
                error = f"{exc.__class__.__name__}: {exc}"
        _settle(call, error=error)
        if error:
            failed += 1
            log.warning("chamadas: e-mail da chamada %s não enviado (%s)", call.pk, error[:120])
        else:
            sent += 1
    return Sent(sent=sent, failed=failed)
