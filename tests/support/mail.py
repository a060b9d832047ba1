"""A mail backend that counts as configured (config.mail.mail_configured: it is not one of the development or test
backends) and keeps each message in ``django.core.mail.outbox``, as the test runner's locmem backend does: a site
whose mail leaves, seen from a test."""

from django.core.mail.backends.locmem import EmailBackend

SENDING = {"default": {"BACKEND": "tests.support.mail.SendingBackend"}}
UNSENT = {"default": {"BACKEND": "config.mail.UnsentMailBackend"}}  # make run's: nothing leaves


class SendingBackend(EmailBackend):
    pass
