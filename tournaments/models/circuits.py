"""A circuit (circuito): a season of etapas under one ranking of atletas (DOMAIN §7.3).

The circuit's settings, its etapas, the sorteios and exclusions its organizer recorded, and its audit are
written through ``tournaments.circuits.services.circuit_write`` (one write path: it locks the circuit, audits
and moves ``version``, from which the ranking's cache key comes). ``EtapaPlace`` is derived: each player's final
place in a finished etapa, kept by ``circuits.services.etapa_places_follow`` after the etapa's results commit.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .atletas import Atleta
from .event import Tournament
from .fields import NameField
from .people import Player


def _default_points() -> dict[str, int]:
    from scoring.circuit import DEFAULT_POINTS

    return dict(DEFAULT_POINTS)


class Circuit(models.Model):
    """A season: its points table (the circuit file's form), best N, qualification, and who organizes it."""

    LIGA = "liga"
    FINAL = "final"
    TEMPLATE_CHOICES = [(LIGA, _("Liga de etapas")), (FINAL, _("Etapas + final"))]

    name = NameField(_("nome"), max_length=200)
    slug = models.SlugField(_("endereço"), max_length=100, unique=True)
    template = models.CharField(_("modelo"), max_length=10, choices=TEMPLATE_CHOICES, default=LIGA)
    points = models.JSONField(_("pontos por colocação"), default=_default_points)
    count_best = models.PositiveSmallIntegerField(_("melhores etapas que contam"), null=True, blank=True)
    qualify_top = models.PositiveSmallIntegerField(_("classificados para a final"), null=True, blank=True)
    qualify_min_etapas = models.PositiveSmallIntegerField(_("mínimo de etapas jogadas"), default=0)
    qualify_alternates = models.PositiveSmallIntegerField(_("suplentes"), default=0)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="circuits",
        verbose_name=_("organizador"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # moved by every write of the circuit and whenever an etapa's places change: the ranking's cache key
    version = models.PositiveIntegerField(default=1, editable=False)
    # the season archive (``circuits.archive``): closed by its organizer, its ranking frozen (``CircuitSnapshot``);
    # a new season made from it points back here (``previous``; from the old one: ``next_season``)
    closed_at = models.DateTimeField(_("encerrado em"), null=True, blank=True, editable=False)
    closed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
        verbose_name=_("encerrado por"),
    )
    previous = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="next_season",
        editable=False,
        verbose_name=_("temporada anterior"),
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("circuito")
        verbose_name_plural = _("circuitos")

    def __str__(self) -> str:
        return self.name


class CircuitEtapa(models.Model):
    """A tournament as an etapa of a circuit (at most one circuit per tournament)."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="etapas")
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="circuit_etapa")
    weight = models.PositiveSmallIntegerField(_("peso"), default=1)
    final = models.BooleanField(_("final"), default=False)  # left out of the qualification ranking
    order = models.PositiveIntegerField(default=0)  # the order of the file or the desk; calendar order first

    class Meta:
        ordering = ["circuit", "order", "id"]
        verbose_name = _("etapa")
        verbose_name_plural = _("etapas")

    def __str__(self) -> str:
        return f"{self.circuit}: {self.tournament}"


class CircuitExclusion(models.Model):
    """An atleta excluded from a circuit's ranking by its organizer (FPRT 001: eliminated "da Etapa e do
    Campeonato")."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="exclusions")
    atleta = models.ForeignKey(Atleta, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("motivo"), max_length=300)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["circuit", "atleta"], name="circuit_exclusion_unique")]
        verbose_name = _("exclusão do circuito")
        verbose_name_plural = _("exclusões do circuito")


class CircuitSorteio(models.Model):
    """A recorded sorteio settling a tie across the qualification line: ``atletas`` (keys), the first ahead."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="sorteios")
    atletas = models.JSONField(default=list)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["circuit", "at", "id"]
        verbose_name = _("sorteio do circuito")
        verbose_name_plural = _("sorteios do circuito")


class CircuitAudit(models.Model):
    """One action on a circuit: who, when, what, and the data before and after."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="audit")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(_("quando"), auto_now_add=True, db_index=True)
    action = models.CharField(_("ação"), max_length=40)
    summary = models.CharField(_("o quê"), max_length=300)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        default_permissions = ("view",)
        verbose_name = _("registro do circuito")
        verbose_name_plural = _("registros do circuito")


class EtapaPlace(models.Model):
    """Derived: a player's place in a finished etapa's general classification (None: their dupla was
    disqualified), kept while the tournament is an etapa and has finished."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="etapa_place_unique")]
        default_permissions = ()


class CircuitAtleta(models.Model):
    """Derived, one part of a circuit's ranking per atleta (``tournaments.circuits.parts``): the atleta's season
    totals as the ranking counts them (``points`` and 1st/2nd/3rd places), the same before the last finished
    etapa (``prev_*``: the movement) and over the etapas not marked final (``q_*``: the qualification), their
    results per etapa, their equipe. A counted result in one etapa rewrites the rows of the atletas whose places
    it changed; the ranks come from a window over these rows when a page is read."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="+")
    atleta = models.ForeignKey(Atleta, on_delete=models.CASCADE, related_name="+")
    points = models.PositiveIntegerField(default=0)
    firsts = models.PositiveIntegerField(default=0)
    seconds = models.PositiveIntegerField(default=0)
    thirds = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)
    prev_points = models.PositiveIntegerField(default=0)
    prev_firsts = models.PositiveIntegerField(default=0)
    prev_seconds = models.PositiveIntegerField(default=0)
    prev_thirds = models.PositiveIntegerField(default=0)
    prev_played = models.PositiveIntegerField(default=0)
    # the rank in the ranking before the last finished etapa (None: not in it), kept for the movement: made with
    # the rows, and again for every row when a result moves someone's totals before that etapa
    prev_rank = models.PositiveIntegerField(null=True, blank=True)
    q_points = models.PositiveIntegerField(default=0)
    q_firsts = models.PositiveIntegerField(default=0)
    q_seconds = models.PositiveIntegerField(default=0)
    q_thirds = models.PositiveIntegerField(default=0)
    q_played = models.PositiveIntegerField(default=0)
    results = models.JSONField(default=list)  # [[tournament id, place or None (DQ), points, counted], …]
    team = NameField(max_length=120, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["circuit", "atleta"], name="circuit_atleta_unique")]
        indexes = [
            models.Index(fields=["circuit", "-points", "-firsts", "-seconds", "-thirds"], name="circuit_atleta_rank"),
            models.Index(
                fields=["circuit", "-q_points", "-q_firsts", "-q_seconds", "-q_thirds"], name="circuit_atleta_qualify"
            ),
        ]
        default_permissions = ()


class CircuitSnapshot(models.Model):
    """A closed circuit's ranking as it stood when its organizer closed it (``circuits.archive.circuit_close``):
    every public value of the ``CircuitStanding`` (rows, etapas, equipes, qualification), read in its place from
    then on, whatever an etapa's results do later."""

    circuit = models.OneToOneField(Circuit, on_delete=models.CASCADE, related_name="snapshot")
    standing = models.JSONField()
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        default_permissions = ()
        verbose_name = _("ranking final do circuito")
        verbose_name_plural = _("rankings finais dos circuitos")


class CircuitEquipe(models.Model):
    """An atleta's equipe carried into a new season from the one before (``circuits.archive.circuit_season_next``):
    the equipe the ranking gives the atleta when no etapa of this season names one."""

    circuit = models.ForeignKey(Circuit, on_delete=models.CASCADE, related_name="equipes")
    atleta = models.ForeignKey(Atleta, on_delete=models.CASCADE, related_name="+")
    team = NameField(_("equipe"), max_length=120)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["circuit", "atleta"], name="circuit_equipe_unique")]
        default_permissions = ()
        verbose_name = _("equipe trazida da temporada anterior")
        verbose_name_plural = _("equipes trazidas da temporada anterior")
