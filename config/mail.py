"""Mail without EMAIL_HOST: nothing is sent, and no one-time link ever reaches the log.

``UnsentMailBackend`` logs one line per mail (subject and number of recipients: never the body, where
password-reset and invitation links go, nor the addresses). With ``ZAP_MAIL_DIR`` set, each mail is also
written whole to a new file there, readable by the server's user only (file mode 600, directory 700), for
an operator who must pass a link on by hand. ``mail_configured`` says whether the site's mail leaves at all
(the staff page then shows an invitation's link to the organizer who made it instead).
"""

from __future__ import annotations

import logging
import os
import re
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend

log = logging.getLogger("zap.mail")

_LINK = re.compile(r"\S+://\S+")


# The backends that keep mail on this machine (``make run``'s, Django's development and test ones): with one of
# them, mail is not configured. Anything else (SMTP, a provider's backend) counts as mail that leaves.
NOT_SENDING = frozenset(
    {
        "config.mail.UnsentMailBackend",
        "django.core.mail.backends.console.EmailBackend",
        "django.core.mail.backends.dummy.EmailBackend",
        "django.core.mail.backends.filebased.EmailBackend",
        "django.core.mail.backends.locmem.EmailBackend",
    }
)
SMTP = "django.core.mail.backends.smtp.EmailBackend"


def mail_configured() -> bool:
    """Whether the site's mail leaves for the people it is addressed to: the default mailer's backend is none of
    ``NOT_SENDING`` (read each time: the settings say, as the tests may change them)."""
    mailers = getattr(settings, "MAILERS", None)
    if mailers is None:  # Django's older EMAIL_BACKEND setting
        return getattr(settings, "EMAIL_BACKEND", SMTP) not in NOT_SENDING
    default = mailers.get("default")
    return default is not None and default.get("BACKEND", SMTP) not in NOT_SENDING


def redact(text: str) -> str:
    """``text`` with every link (where tokens go) replaced by ``[link omitido]``."""
    return _LINK.sub("[link omitido]", text)


class UnsentMailBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        count = 0
        for message in email_messages or ():
            path = self._keep(message)
            n = len(message.recipients())
            log.warning(
                "e-mail não enviado (sem EMAIL_HOST): assunto %r, %d %s%s",
                redact(str(message.subject)),
                n,
                "destinatário" if n == 1 else "destinatários",
                f", guardado em {path}" if path else "",
            )
            count += 1
        return count

    def _keep(self, message: EmailMessage) -> str:
        folder = getattr(settings, "ZAP_MAIL_DIR", "")
        if not folder:
            return ""
        directory = Path(folder)
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = f"{datetime.now(UTC):%Y%m%d-%H%M%S}-{secrets.token_hex(4)}.eml"
        fd = os.open(directory / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(message.message().as_bytes())
        return str(directory / name)
