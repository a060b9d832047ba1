"""Players, registrations and duplas (docs/regras.md §2), and the private links a dupla had."""

import secrets

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .atletas import Atleta
from .event import Tournament
from .fields import NameField


class Player(models.Model):
    """An athlete in one tournament. Birth date and contacts are private."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    key = models.CharField(max_length=60)
    name = NameField(_("nome"), max_length=200)
    birth_date = models.DateField(_("data de nascimento"), null=True, blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("telefone"), max_length=40, blank=True)
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        verbose_name=_("conta"),
    )
    order = models.PositiveIntegerField(default=0)
    team = NameField(_("equipe"), max_length=120, blank=True)  # their equipe or club (public; optional)
    # the person across tournaments (DOMAIN §7.1): set by ``tournaments.atletas.services.atletas_link`` wherever
    # a player is made or renamed
    atleta = models.ForeignKey(
        Atleta, null=True, blank=True, on_delete=models.SET_NULL, related_name="players", editable=False
    )

    class Meta:
        ordering = ["tournament", "order", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="player_key_unique")]
        verbose_name = _("atleta")
        verbose_name_plural = _("atletas")

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A sign-up, individual or as a pair, in order of arrival."""

    WAITING, PAIRED, WITHDRAWN = "waiting", "paired", "withdrawn"
    STATUS_CHOICES = [(WAITING, _("aguardando")), (PAIRED, _("em dupla")), (WITHDRAWN, _("desistiu"))]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    FORM, CSV, DESK, FILE = "form", "csv", "desk", "file"
    SOURCE_CHOICES = [
        (FORM, _("formulário público")),
        (CSV, _("planilha CSV")),
        (DESK, _("comissão")),
        (FILE, _("arquivo do torneio")),
    ]
    order = models.PositiveIntegerField(_("ordem de chegada"))
    player1 = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player2 = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    status = models.CharField(_("situação"), max_length=12, choices=STATUS_CHOICES, default=WAITING)
    source = models.CharField(_("origem"), max_length=6, choices=SOURCE_CHOICES, default=FILE)
    # Check-in on the day: None = not yet checked, True = present, False = absent.
    present = models.BooleanField(_("presente"), null=True, blank=True)
    withdrawn_at = models.DateTimeField(_("desistiu em"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "order"]
        verbose_name = _("inscrição")
        verbose_name_plural = _("inscrições")

    def players(self) -> list[Player]:
        return [p for p in (self.player1, self.player2) if p is not None]

    def __str__(self) -> str:
        return " + ".join(p.name for p in self.players())


def new_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


def new_private_token() -> str:
    """The secret of a dupla's private link ``/d/<token>/``: 128 random bits, not guessable."""
    return secrets.token_urlsafe(16)


class Dupla(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="duplas")
    key = models.CharField(max_length=60)
    name = NameField(_("nome"), max_length=200, blank=True)
    player1 = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    player2 = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="+")
    seed = models.PositiveIntegerField(_("cabeça de chave"), null=True, blank=True)
    disqualified = models.BooleanField(_("desclassificada"), default=False)
    disqualified_reason = models.CharField(_("motivo da desclassificação"), max_length=300, blank=True)
    # Only a hash of the PIN is stored (Django's password hashers); the PIN is shown once, when made.
    pin_hash = models.CharField(_("código da dupla (hash)"), max_length=200, blank=True, editable=False)
    token = models.CharField(_("link privado"), max_length=40, unique=True, default=new_private_token, editable=False)
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "order", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="dupla_key_unique")]
        verbose_name = _("dupla")
        verbose_name_plural = _("duplas")

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        return self.name or f"{self.player1.name} / {self.player2.name}"


class ReplacedLink(models.Model):
    """A dupla's private link that a new PIN card replaced: kept (as a SHA-256 of its token) to answer 410."""

    token_hash = models.CharField(max_length=64, unique=True)
    dupla = models.ForeignKey(Dupla, on_delete=models.CASCADE, related_name="+")
    replaced_at = models.DateTimeField(auto_now_add=True)
