"""The event's shape: stages, groups and who is in them, the draws that made them, the mesas."""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament
from .fields import NameField
from .people import Dupla


class Stage(models.Model):
    GROUPS, KNOCKOUT = "groups", "knockout"
    KIND_CHOICES = [(GROUPS, _("classificatória (grupos)")), (KNOCKOUT, _("eliminatória (chave)"))]
    DRAW_CHOICES = [("seeded", _("cabeças de chave")), ("random", _("sorteio")), ("fixed", _("ordem fixa"))]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    key = models.CharField(max_length=60)
    name = NameField(_("nome"), max_length=120, blank=True)
    order = models.PositiveIntegerField(default=0)
    kind = models.CharField(_("tipo"), max_length=10, choices=KIND_CHOICES)
    best_of = models.PositiveSmallIntegerField(_("melhor de"), null=True, blank=True)
    best_of_rounds = models.JSONField(_("melhor de por rodada"), default=dict, blank=True)
    qualify_per_group = models.PositiveSmallIntegerField(_("classificados por grupo"), default=0)
    qualify_best_others = models.PositiveSmallIntegerField(_("melhores demais colocados"), default=0)
    entrants = models.JSONField(
        _("participantes"), default=str, blank=True, help_text=_('"previous" ou a lista de chaves das duplas')
    )
    draw_method = models.CharField(_("sorteio da chave"), max_length=10, choices=DRAW_CHOICES, default="seeded")
    draw_seed = models.BigIntegerField(_("semente do sorteio"), null=True, blank=True)
    round_times = models.JSONField(
        _("horário das rodadas"),
        default=dict,
        blank=True,
        help_text='{"1": "14:00", "2": "15:30"}: the time each round is called',
    )

    class Meta:
        ordering = ["tournament", "order"]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="stage_key_unique")]
        verbose_name = _("fase")
        verbose_name_plural = _("fases")

    def __str__(self) -> str:
        return self.name or self.key


class Group(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="groups")
    key = models.CharField(max_length=60)
    order = models.PositiveIntegerField(default=0)
    duplas = models.ManyToManyField(Dupla, through="GroupEntry", related_name="groups")

    class Meta:
        ordering = ["stage", "order"]
        constraints = [models.UniqueConstraint(fields=["stage", "key"], name="group_key_unique")]
        verbose_name = _("grupo")
        verbose_name_plural = _("grupos")

    def __str__(self) -> str:
        return f"{_('Grupo')} {self.key}"


class GroupEntry(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="entries")
    dupla = models.ForeignKey(Dupla, on_delete=models.CASCADE, related_name="group_entries")
    order = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["group", "order"]
        constraints = [models.UniqueConstraint(fields=["group", "dupla"], name="group_entry_unique")]


class Draw(models.Model):
    """A recorded random draw (sorteio): who, when, seed and result, so it can be shown and replayed."""

    PAIRING, GROUPS, BRACKET, TIEBREAK = "pairing", "groups", "bracket", "tiebreak"
    KIND_CHOICES = [
        (PAIRING, _("formação das duplas")),
        (GROUPS, _("grupos")),
        (BRACKET, _("chave")),
        (TIEBREAK, _("desempate")),
    ]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="draws")
    kind = models.CharField(_("tipo"), max_length=10, choices=KIND_CHOICES)
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="draws")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, null=True, blank=True, related_name="draws")
    method = models.CharField(_("método"), max_length=10, blank=True)
    seed = models.BigIntegerField(_("semente"), null=True, blank=True)
    result = models.JSONField(_("resultado"))
    performed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("feito por"),
    )
    performed_at = models.DateTimeField(_("feito em"), auto_now_add=True)
    note = models.CharField(_("observação"), max_length=200, blank=True)
    # a pairing draw undone at the desk (its duplas deleted, its registrations waiting again): kept, with the reason
    undone_at = models.DateTimeField(_("desfeito em"), null=True, blank=True)
    undone_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("desfeito por"),
    )
    undo_reason = models.CharField(_("motivo para desfazer"), max_length=300, blank=True)

    class Meta:
        ordering = ["tournament", "performed_at", "id"]
        verbose_name = _("sorteio")
        verbose_name_plural = _("sorteios")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.tournament}"


class DrawRoll(models.Model):
    """A draw shown to the organizer as a preview (a "roll"): who, when, the seed and what it showed, in order.

    Rolls of one kind since the last publish make a series; publishing attaches
    the series to the draw it made (``draw``) and marks the roll published, so
    the public record says how many were shown and which one was published.
    A reload of the same preview (the same ``token``) is the same roll.
    """

    PAIRING, COMPETITION = "pairing", "competition"
    KIND_CHOICES = [(PAIRING, _("formação das duplas")), (COMPETITION, _("grupos e chave"))]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="draw_rolls")
    kind = models.CharField(_("tipo"), max_length=12, choices=KIND_CHOICES)
    number = models.PositiveIntegerField(_("número"))  # 1, 2, … within its series
    token = models.CharField(max_length=40)  # the preview form's token: a reload shows this roll again
    seed = models.BigIntegerField(_("semente"))
    shown = models.JSONField(_("o que mostrou"))
    shown_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("mostrado a"),
    )
    shown_at = models.DateTimeField(_("mostrado em"), auto_now_add=True)
    closed = models.BooleanField(default=False)  # its series ended with a publish
    published = models.BooleanField(default=False)  # the roll that was published
    draw = models.ForeignKey(Draw, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls")

    class Meta:
        ordering = ["tournament", "shown_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "token"], name="draw_roll_token_unique")]
        verbose_name = _("sorteio exibido")
        verbose_name_plural = _("sorteios exibidos")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.number}"


class Mesa(models.Model):
    """A table of the venue and the referee who looks after it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="mesa_rows")
    number = models.PositiveSmallIntegerField(_("mesa"))
    referee = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("árbitro"),
    )

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="mesa_number_unique")]
        verbose_name = _("mesa")
        verbose_name_plural = _("mesas")
