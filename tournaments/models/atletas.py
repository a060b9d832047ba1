"""The atleta: a person across the site's tournaments (DOMAIN §7.1), and their Nível (§7.2)."""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.ranking import UNRANKED_LEVEL

from .fields import NameField


class Atleta(models.Model):
    """A person across tournaments: the players (one per tournament) that point here.

    ``key`` (``a7``) is public and stable; ``name`` is the name of their most recent player; ``identity`` is
    private (the normalized name and the birth date, ``scoring.atleta.atleta_identity``): players with the same
    identity join here automatically; None for an atleta whose players have no birth date. A manual join
    re-points players to one atleta (the other one, left with none, goes away)."""

    key = models.CharField(_("código"), max_length=20, unique=True)
    name = NameField(_("nome"), max_length=200)
    # the display name without case, accents and repeated spaces, to search by (public: only the name)
    name_search = models.CharField(max_length=200, db_index=True, editable=False)
    identity = models.CharField(max_length=240, unique=True, null=True, blank=True, editable=False)
    # the name an organizer chose on the desk among the atleta's registrations ("": the most recent one's);
    # it overrides DOMAIN §7.1's "the name of their most recent registration" while a registration carries it
    chosen_name = models.CharField(_("nome escolhido"), max_length=200, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name_search", "id"]
        verbose_name = _("atleta do site")
        verbose_name_plural = _("atletas do site")

    def __str__(self) -> str:
        return self.name


class AtletaNivel(models.Model):
    """An atleta's Nível (DOMAIN §7.2), derived from the counted jogos of the published tournaments and kept
    (``tournaments.atletas.services.nivel_update``): recomputed from the database for the atletas a write
    touched, after it commits. ``score`` None: no counted jogo yet (``level`` Marreco)."""

    atleta = models.OneToOneField(Atleta, on_delete=models.CASCADE, primary_key=True, related_name="nivel")
    score = models.PositiveIntegerField(null=True, blank=True)
    level = models.CharField(max_length=20, default=UNRANKED_LEVEL)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    walkovers_lost = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-score"], name="atletanivel_score")]
        verbose_name = _("nível")
        verbose_name_plural = _("níveis")


class AtletaJogos(models.Model):
    """An atleta's counted jogos in one tournament, in its order of play, as the Nível walks them (``[won, lost by
    walkover]`` each): kept by ``tournaments.atletas.services.nivel_update`` with the Nível, so that a result
    recomputes the jogos of its own tournament and reads the atleta's other tournaments from here, instead of
    loading every tournament the atleta ever played. Derived, never the source (``manage.py nivel_rebuild``)."""

    atleta = models.ForeignKey(Atleta, on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="+")
    jogos = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["atleta", "tournament"], name="atletajogos_unique")]
        verbose_name = _("jogos de atleta num torneio")
        verbose_name_plural = _("jogos de atletas nos torneios")


class AtletaAlias(models.Model):
    """Another identity of an atleta (private, like ``Atleta.identity``): the one an atleta joined into it on the
    desk had (a birth date typed another way), so that a later registration with that name and date joins the
    atleta by itself instead of making a stranger to join again. A split hands it back with the players who
    carry it."""

    atleta = models.ForeignKey(Atleta, on_delete=models.CASCADE, related_name="aliases")
    identity = models.CharField(max_length=240, unique=True, editable=False)

    class Meta:
        verbose_name = _("outra identidade de atleta")
        verbose_name_plural = _("outras identidades de atletas")

    def __str__(self) -> str:
        return f"{self.atleta_id}"


class AtletaAudit(models.Model):
    """One join or split of atletas on the desk (DOMAIN §7.1), two atletas marked as different people (no longer
    offered as a likely match), or the name an atleta shows chosen by an organizer: who, when, which atletas (their keys and names as they were), the players moved
    and the reason. Site-level (an atleta spans tournaments); each tournament
    touched gets its own ``AuditEntry`` too. Private: the desk lists it, no public page does."""

    JOIN, SPLIT, DISTINCT, NAME = "join", "split", "distinct", "name"
    ACTION_CHOICES = [
        (JOIN, _("juntar")),
        (SPLIT, _("separar")),
        (DISTINCT, _("pessoas diferentes")),
        (NAME, _("nome escolhido")),
    ]

    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(_("quando"), auto_now_add=True, db_index=True)
    action = models.CharField(_("ação"), max_length=10, choices=ACTION_CHOICES)
    # join: the atleta kept and the one that went away; split: the atleta split and the one made; distinct: the two
    atleta_key = models.CharField(max_length=20, db_index=True)
    other_key = models.CharField(max_length=20, db_index=True)
    summary = models.CharField(_("o quê"), max_length=300)
    reason = models.CharField(_("motivo"), max_length=300, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        default_permissions = ("view",)
        verbose_name = _("junção ou separação de atletas")
        verbose_name_plural = _("junções e separações de atletas")

    def __str__(self) -> str:
        return self.summary
