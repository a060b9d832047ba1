"""The online ranking (DOMAIN §9.5): each account's score, level and statistics over its counted online
partidas (``OnlineRating``), one row per counted partida and account (``OnlineRatingPoint``: the walk's points,
the chart over time, the last partidas), and the link between an account and an atleta (``AccountAtleta``).

Derived from the partidas' logs as each partida ends (``tournaments.online.ranking.partida_count``); the points
are the source a rebuild walks again (``ranking_rebuild``)."""

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.ranking import UNRANKED_LEVEL

from .atletas import Atleta
from .online import OnlineProfile, PartidaLog


class OnlineStats(models.Model):
    """What the player page counts, per partida (a point) or in total (a rating)."""

    maos = models.PositiveIntegerField(_("mãos"), default=0)
    maos_won = models.PositiveIntegerField(_("mãos ganhas"), default=0)
    trucos_asked = models.PositiveIntegerField(_("trucos pedidos"), default=0)  # truco and raises the player asked
    truco_maos = models.PositiveIntegerField(_("mãos com truco aceito"), default=0)
    truco_maos_won = models.PositiveIntegerField(_("mãos com truco aceito ganhas"), default=0)
    ran = models.PositiveIntegerField(_("vezes que correu"), default=0)  # bets the player answered by running

    class Meta:
        abstract = True


class OnlineRating(OnlineStats):
    """An account's place in the online ranking: the walk's score after its counted partidas, its level, its
    counts (G, W, A of §7.2) and statistics. Only accounts have one (a guest is Marreco)."""

    profile = models.OneToOneField(OnlineProfile, on_delete=models.CASCADE, primary_key=True, related_name="rating")
    score = models.PositiveIntegerField(_("pontos"), default=0)
    level = models.CharField(_("nível"), max_length=20, default=UNRANKED_LEVEL)
    played = models.PositiveIntegerField(_("partidas"), default=0)
    won = models.PositiveIntegerField(_("vitórias"), default=0)
    abandoned = models.PositiveIntegerField(_("abandonos"), default=0)
    updated_at = models.DateTimeField()

    class Meta:
        db_table = "online_rating"
        indexes = [models.Index(fields=["-score", "-won", "profile"], name="online_rating_order")]
        verbose_name = _("ranking online")
        verbose_name_plural = _("ranking online")


class OnlineRatingPoint(OnlineStats):
    """One counted partida of an account: how it went (won, abandoned, the seat) and the score after it."""

    profile = models.ForeignKey(OnlineProfile, on_delete=models.CASCADE, related_name="rating_points")
    log = models.ForeignKey(PartidaLog, on_delete=models.CASCADE, related_name="rating_points")
    n = models.PositiveIntegerField()  # 1, 2, …: the account's counted partidas in order
    seat = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    abandoned = models.BooleanField(default=False)
    score = models.PositiveIntegerField()
    at = models.DateTimeField()

    class Meta:
        db_table = "online_rating_point"
        ordering = ["profile", "n"]
        constraints = [
            models.UniqueConstraint(fields=["profile", "log"], name="online_rating_point_unique"),
            models.UniqueConstraint(fields=["profile", "n"], name="online_rating_point_n"),
        ]


class AccountAtleta(models.Model):
    """An account linked to an atleta (DOMAIN §9.5) by the site's staff or a circuit organizer, with why; an
    unlink keeps the row (``ended_at``, ``ended_by``): the rows are the link's history. At most one live link per
    account and per atleta."""

    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="atleta_links")
    atleta = models.ForeignKey(Atleta, on_delete=models.CASCADE, related_name="account_links")
    reason = models.CharField(_("motivo"), max_length=300, blank=True)
    by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        db_table = "online_account_atleta"
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=Q(ended_at__isnull=True), name="account_atleta_user"),
            models.UniqueConstraint(
                fields=["atleta"], condition=Q(ended_at__isnull=True), name="account_atleta_atleta"
            ),
        ]
        verbose_name = _("conta ligada a atleta")
        verbose_name_plural = _("contas ligadas a atletas")
