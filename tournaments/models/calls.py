"""Players called to their mesa ("Sua vez"): who was called, for which jogo, how, by whom and when."""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament
from .people import Dupla, Player
from .results import Jogo


class Call(models.Model):
    """One call of a jogo's duplas to their mesa (``tournaments/calls``).

    ``PAGES``: the jogo shows "Sua vez" on the TV, the event page and the duplas' private pages (both duplas,
    ``dupla`` empty). ``WHATSAPP``: the desk opened a WhatsApp message to a player of ``dupla`` (the phone is
    read from the player when the button is pressed, never kept here). ``EMAIL``: a message queued to
    ``email`` (a player's address), sent outside the request; ``status`` says how far it got.
    Private: only the organizers' desk shows these rows.
    """

    PAGES, WHATSAPP, EMAIL = "pages", "whatsapp", "email"
    CHANNEL_CHOICES = [(PAGES, _("nas páginas")), (WHATSAPP, _("WhatsApp")), (EMAIL, _("e-mail"))]
    QUEUED, SENDING, SENT, FAILED = "queued", "sending", "sent", "failed"
    STATUS_CHOICES = [
        ("", "—"),
        (QUEUED, _("na fila")),
        (SENDING, _("enviando")),
        (SENT, _("enviado")),
        (FAILED, _("falhou")),
    ]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    jogo = models.ForeignKey(Jogo, on_delete=models.CASCADE, related_name="calls")
    dupla = models.ForeignKey(Dupla, on_delete=models.CASCADE, null=True, blank=True, related_name="calls")
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    channel = models.CharField(_("meio"), max_length=10, choices=CHANNEL_CHOICES)
    mesa = models.PositiveIntegerField(_("mesa"), null=True, blank=True)  # the jogo's mesa when called
    by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("chamada por"),
    )
    at = models.DateTimeField(_("chamada em"), auto_now_add=True)
    # e-mail only: the address, the delivery state, the last error, when it left, how many tries
    email = models.EmailField(_("e-mail"), blank=True)
    status = models.CharField(_("envio"), max_length=8, choices=STATUS_CHOICES, blank=True)
    error = models.CharField(_("erro"), max_length=300, blank=True)
    sent_at = models.DateTimeField(_("enviado em"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("tentativas"), default=0)
    tried_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "at", "id"]
        indexes = [
            models.Index(fields=["tournament", "channel", "jogo"]),
            models.Index(fields=["channel", "status"]),
        ]
        verbose_name = _("chamada")
        verbose_name_plural = _("chamadas")

    def __str__(self) -> str:
        return f"{self.get_channel_display()} · {self.jogo}"
