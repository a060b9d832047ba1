"""The tournament itself: its settings, preset and rules (docs/regras.md §1)."""

from django.conf import settings as django_settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .fields import NameField

PRESET_CHOICES = [("fenacef", "FENACEF 2023"), ("aabb", "AABB / Paulista"), ("online", "Truco Online")]


class Tournament(models.Model):
    name = NameField(_("nome"), max_length=200)
    slug = models.SlugField(_("endereço"), max_length=120, unique=True)
    date = models.DateField(_("data"), null=True, blank=True)
    start_time = models.TimeField(_("início"), null=True, blank=True)
    venue = NameField(_("local"), max_length=200, blank=True)
    city = NameField(_("cidade"), max_length=120, blank=True, help_text=_("ex.: Campinas/SP"))
    category = NameField(_("categoria"), max_length=200, blank=True)
    min_age = models.PositiveSmallIntegerField(_("idade mínima"), null=True, blank=True)
    max_duplas = models.PositiveIntegerField(_("limite de duplas"), null=True, blank=True)
    preset = models.CharField(_("regulamento base"), max_length=20, choices=PRESET_CHOICES, default="fenacef")
    settings = models.JSONField(
        _("ajustes do regulamento"), default=dict, blank=True, help_text=_("Valores que diferem do regulamento base.")
    )
    regulation = models.TextField(_("regulamento"), blank=True)
    allow_self_scoring = models.BooleanField(_("duplas anotam a própria súmula"), default=False)
    # The organizer's desk (docs/regras.md §2): registration window, format before the draw, tables.
    format = models.JSONField(
        _("formato"),
        default=dict,
        blank=True,
        help_text="The format chosen at the desk, used by the competition draw (see tournaments/draws/format.py).",
    )
    published = models.BooleanField(
        _("publicado"),
        default=True,
        help_text=_(
            "Um rascunho só aparece para a equipe do torneio; publicado, ele aparece na lista de eventos e as "
            "páginas públicas abrem para todos."
        ),
    )
    public_signup = models.BooleanField(_("inscrição pelo site"), default=False)
    registration_opens = models.DateTimeField(_("inscrições abrem em"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("inscrições fecham em"), null=True, blank=True)
    registration_closed = models.BooleanField(_("inscrições encerradas"), default=False)
    mesas = models.PositiveSmallIntegerField(_("número de mesas"), null=True, blank=True)
    # Online play (docs/regras.md §9.7): "none", "all" or a list of stage keys whose jogos are played on online
    # tables; a jogo may also be online by itself (``Jogo.online``, a hybrid event).
    online = models.JSONField(
        _("jogos online"),
        default=str,
        blank=True,
        help_text='"none" (or empty), "all" or a list of stage keys (tournaments/online/tournament.py).',
    )
    wo_tolerance_minutes = models.PositiveSmallIntegerField(
        _("tolerância para WO (minutos)"),
        default=15,
        help_text=_("Uma dupla que não se sentou à mesa online até esse tempo depois do horário perde por WO."),
    )
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("criado por"),
    )
    results_version = models.PositiveIntegerField(
        default=0,
        editable=False,
        help_text="The version of the results: the engine gives one to every write that changes what the pages "
        "show (tournaments/engine.py); derived views and pages are cached per version.",
    )
    finished = models.BooleanField(
        _("encerrado"),
        default=False,
        editable=False,
        help_text="Derived from the results (kept for listing many events).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("torneio")
        verbose_name_plural = _("torneios")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})
