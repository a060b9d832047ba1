"""The engine's own rows: the audit trail, the log of changes, the stored parts and state snapshots."""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament


class AuditEntry(models.Model):
    """One organizer action: who, when, what, and the data before and after."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("quem"),
    )
    at = models.DateTimeField(_("quando"), auto_now_add=True, db_index=True)
    action = models.CharField(_("ação"), max_length=40)
    summary = models.CharField(_("o quê"), max_length=300)
    before = models.JSONField(_("antes"), null=True, blank=True)
    after = models.JSONField(_("depois"), null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("registro de ação")
        verbose_name_plural = _("registros de ações")

    def __str__(self) -> str:
        return f"{self.at:%d/%m/%Y %H:%M} · {self.summary}"


class TournamentChange(models.Model):
    """The results engine's log: one row per version of a tournament's results (``engine.engine_commit``).

    ``jogos`` names the jogos whose records the write changed (None: a structural change, every part made
    again), ``duplas`` the duplas read again (a disqualification); ``parts`` the parts of the results that
    changed. A process holding an earlier version replays
    the rows after it instead of building the whole state.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField()
    action = models.CharField(max_length=40)
    jogos = models.JSONField(null=True, blank=True)
    duplas = models.JSONField(default=list, blank=True)  # duplas read again (a disqualification)
    parts = models.JSONField(default=list, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "version"], name="change_version_unique")]
        default_permissions = ()  # the engine's own: nobody edits it

    def __str__(self) -> str:
        return f"{self.tournament_id} v{self.version} {self.action}"


class ResultPart(models.Model):
    """The version of one part of a tournament's results (a group table, a stage's comparison, a bracket, the
    classification): the version of the write that last changed it. Rendered fragments are cached under it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="parts")
    key = models.CharField(max_length=120)
    version = models.PositiveIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="part_key_unique")]
        default_permissions = ()  # the engine's own: nobody edits it

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.key} v{self.version}"


class StateSnapshot(models.Model):
    """A tournament's derived state as a process last kept it (``snapshots.py``), pickled and compressed: a
    process that has nothing (a fresh start, an emptied Redis) reads it and replays the engine's log since,
    instead of building the whole state. The log and the tables stay the source: ``key`` names the release
    and the tournament it was made by and for, and only those read it."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="state_snapshot")
    key = models.CharField(max_length=120)
    version = models.PositiveIntegerField()
    data = models.BinaryField()
    saved_at = models.DateTimeField()

    class Meta:
        default_permissions = ()  # the engine's own: nobody edits it

    def __str__(self) -> str:
        return f"{self.tournament_id} v{self.version}"
