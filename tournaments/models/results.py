"""Jogos and what they store once (partidas as mãos or final scores), and the súmula's records: vias, events,
wrong PINs."""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament
from .people import Dupla
from .stages import Group, Stage


class Jogo(models.Model):
    """Two duplas playing a best-of-N series of partidas."""

    # The súmula's statuses (docs/contrato.md, "Súmula API"); the rules between them live in ``scoring.sumula``.
    SCHEDULED, IN_PROGRESS, AWAITING, CONTESTED, CONFIRMED, HOMOLOGATED = (
        "scheduled",
        "in_progress",
        "awaiting_confirmation",
        "contested",
        "confirmed",
        "homologated",
    )
    STATUS_CHOICES = [
        (SCHEDULED, _("a jogar")),
        (IN_PROGRESS, _("em andamento")),
        (AWAITING, _("aguarda confirmação")),
        (CONTESTED, _("contestada")),
        (CONFIRMED, _("confirmada")),
        (HOMOLOGATED, _("homologada")),
    ]
    AT_TABLE = (IN_PROGRESS, AWAITING, CONTESTED)  # the duplas are still at the mesa (playing or confirming)
    WALKOVER_CHOICES = [
        ("", _("não")),
        ("a", _("dupla A ausente")),
        ("b", _("dupla B ausente")),
        ("both", _("as duas ausentes")),
    ]
    SIDE_CHOICES = [("", "—"), ("a", _("dupla A")), ("b", _("dupla B"))]

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="jogos")
    # Unique in the tournament and stable for the jogo's life: the súmula API, its public page and the
    # printed QR codes address the jogo by it. Kept from the tournament file, else made (``jogo_keys_new``).
    key = models.CharField(_("código do jogo"), max_length=60, editable=False)
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="jogos")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, null=True, blank=True, related_name="jogos")
    dupla_a = models.ForeignKey(Dupla, on_delete=models.RESTRICT, related_name="+")
    dupla_b = models.ForeignKey(Dupla, on_delete=models.RESTRICT, related_name="+")
    round = models.PositiveIntegerField(_("rodada"), null=True, blank=True)
    mesa = models.PositiveIntegerField(_("mesa"), null=True, blank=True)
    position = models.PositiveIntegerField(_("posição na chave"), null=True, blank=True)
    third_place = models.BooleanField(_("disputa de 3º lugar"), default=False)
    # a mesa online in a hybrid event (docs/regras.md §9.7); a jogo of an online stage or event is online too
    online = models.BooleanField(_("mesa online"), default=False)
    best_of = models.PositiveSmallIntegerField(_("melhor de"))
    status = models.CharField(_("situação"), max_length=24, choices=STATUS_CHOICES, default=SCHEDULED)
    # The súmula: its via (a correction makes a new one), the confirmations of the current via, the signature.
    via = models.PositiveSmallIntegerField(_("via"), default=1)
    via_reason = models.CharField(_("motivo da via"), max_length=300, blank=True)
    # The via whose result counts in standings and bracket: this one once confirmed, else the last counted
    # via of the history (a correction waits for its confirmations), or None.
    counted_via = models.PositiveSmallIntegerField(_("via que conta"), null=True, blank=True)
    confirmations = models.JSONField(
        _("confirmações"),
        default=dict,
        blank=True,
        help_text='Per side ("a", "b"): {"answer": "confirmed"|"contested", "reason": str, "at": ISO time, '
        '"by": "pin"|"link"|"file"}.',
    )
    signed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("homologada por"),
    )
    signed_at = models.DateTimeField(_("homologada em"), null=True, blank=True)
    signed_reason = models.CharField(_("decisão do árbitro"), max_length=300, blank=True)
    version = models.PositiveIntegerField(
        _("versão"), default=0, help_text="Bumped by every write to this súmula (live pages, the API)."
    )
    walkover = models.CharField(_("WO"), max_length=4, choices=WALKOVER_CHOICES, blank=True)
    lost_by = models.CharField(_("perda do jogo"), max_length=1, choices=SIDE_CHOICES, blank=True)
    # the reason of the perda do jogo (lost_by) or of the WO (walkover): a jogo has one or the other, never both
    penalty_reason = models.CharField(_("motivo da penalidade"), max_length=300, blank=True)
    entry_order = models.PositiveIntegerField(_("ordem de registro"), null=True, blank=True)
    referee = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("árbitro"),
        help_text=_("Vazio: o árbitro da mesa."),
    )

    class Meta:
        ordering = ["tournament", "stage__order", "round", "third_place", "position", "mesa", "id"]
        indexes = [models.Index(fields=["tournament", "stage"])]
        constraints = [models.UniqueConstraint(fields=["tournament", "key"], name="jogo_key_unique")]
        verbose_name = _("jogo")
        verbose_name_plural = _("jogos")

    def __str__(self) -> str:
        return f"{self.dupla_a} x {self.dupla_b}"


class Partida(models.Model):
    SCORE, MAOS, PENALTY = "score", "maos", "penalty"
    MODE_CHOICES = [(SCORE, _("placar final")), (MAOS, _("mão a mão")), (PENALTY, _("perda da partida"))]
    jogo = models.ForeignKey(Jogo, on_delete=models.CASCADE, related_name="partidas")
    number = models.PositiveSmallIntegerField(_("número"))
    mode = models.CharField(_("registro"), max_length=8, choices=MODE_CHOICES, default=SCORE)
    score_a = models.PositiveSmallIntegerField(null=True, blank=True)
    score_b = models.PositiveSmallIntegerField(null=True, blank=True)
    lost_by = models.CharField(max_length=1, choices=Jogo.SIDE_CHOICES, blank=True)
    penalty_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["jogo", "number"]
        constraints = [models.UniqueConstraint(fields=["jogo", "number"], name="partida_number_unique")]
        verbose_name = _("partida")
        verbose_name_plural = _("partidas")

    def __str__(self) -> str:
        return f"{self.jogo} · {_('partida')} {self.number}"


class Mao(models.Model):
    """One entry of a súmula: a mão or a penalty inside a partida."""

    HOW_CHOICES = [
        ("played", _("jogada")),
        ("ran", _("correu")),
        ("refused", _("mão de onze recusada")),
        ("penalty", _("penalidade")),
    ]
    partida = models.ForeignKey(Partida, on_delete=models.CASCADE, related_name="maos")
    order = models.PositiveSmallIntegerField(_("ordem"))
    to = models.PositiveSmallIntegerField(
        _("para a dupla"), null=True, blank=True, help_text=_("0 = dupla A, 1 = dupla B, vazio = mão empatada")
    )
    points = models.PositiveSmallIntegerField(_("pontos"), null=True, blank=True)
    how = models.CharField(_("como"), max_length=8, choices=HOW_CHOICES, default="played")
    reason = models.CharField(_("motivo"), max_length=300, blank=True)
    scorer = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("anotado por"),
    )
    # The client-made ``id`` of the súmula API (idempotent retries from an offline phone); blank for mãos
    # that came otherwise (the API then names them by partida and order).
    key = models.CharField(_("identificador"), max_length=64, blank=True)

    class Meta:
        ordering = ["partida", "order"]
        constraints = [models.UniqueConstraint(fields=["partida", "order"], name="mao_order_unique")]
        verbose_name = _("mão")
        verbose_name_plural = _("mãos")


class SumulaVia(models.Model):
    """An earlier via of a corrected súmula, as it stood when a correction replaced it (read-only)."""

    jogo = models.ForeignKey(Jogo, on_delete=models.CASCADE, related_name="vias")
    via = models.PositiveSmallIntegerField(_("via"))
    via_reason = models.CharField(_("motivo da via"), max_length=300, blank=True)
    status = models.CharField(_("situação"), max_length=24, choices=Jogo.STATUS_CHOICES)
    by = models.CharField(_("corrigida por"), max_length=150, blank=True)
    at = models.DateTimeField(_("corrigida em"))
    # The result in the tournament file's form (partidas / walkover / penalty, dupla keys), plus confirmations.
    result = models.JSONField(_("resultado"))
    confirmations = models.JSONField(_("confirmações"), default=dict, blank=True)

    class Meta:
        ordering = ["jogo", "via"]
        constraints = [models.UniqueConstraint(fields=["jogo", "via"], name="sumula_via_unique")]
        verbose_name = _("via anterior da súmula")
        verbose_name_plural = _("vias anteriores das súmulas")


class SumulaEvent(models.Model):
    """The súmula's log: every mão, undo, result, confirmation, contest, decision, signature, correction."""

    jogo = models.ForeignKey(Jogo, on_delete=models.CASCADE, related_name="events")
    via = models.PositiveSmallIntegerField(_("via"))
    action = models.CharField(_("ação"), max_length=20)
    # the API's client-made id of a mão: recorded once per jogo, so a retry never adds it twice
    client_id = models.CharField(_("identificador"), max_length=64, null=True, blank=True)
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("quem"),
    )
    dupla = models.ForeignKey(
        Dupla, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("dupla")
    )
    method = models.CharField(_("como"), max_length=10, blank=True, help_text="session, pin or link")
    device = models.CharField(_("aparelho"), max_length=300, blank=True)
    at = models.DateTimeField(_("quando"), auto_now_add=True)
    data = models.JSONField(_("dados"), default=dict, blank=True)

    class Meta:
        ordering = ["jogo", "id"]
        constraints = [models.UniqueConstraint(fields=["jogo", "client_id"], name="sumula_event_client_id_unique")]
        verbose_name = _("registro da súmula")
        verbose_name_plural = _("registros das súmulas")


class PinFailure(models.Model):
    """A wrong PIN for a dupla, with where it came from (``sumula.pins`` reads these to lock and throttle).

    ``address`` is the client's address (``tournaments.web.client_ip``); ``staff`` says it was typed in a
    session of the tournament's referee or organizer (the referee's screen), ``user`` that account.
    An unlock by the referee sets ``cleared_at``: the failure stays (the history), but no longer locks the dupla.
    """

    dupla = models.ForeignKey(Dupla, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(db_index=True)
    address = models.CharField(max_length=64, blank=True, default="")
    staff = models.BooleanField(default=False)
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["dupla", "at"]), models.Index(fields=["address", "at"])]


class Appeal(models.Model):
    """A dupla's appeal (recurso) against the referee's decision on one via of its jogo's súmula, decided by the
    comissão organizadora (AABB Art.6, FENACEF Art.39). A record of its own: who appealed, when, how and why,
    and the committee's decision with its reason. Upheld, it leads to a correction (a new via), a separate act."""

    UPHELD, REJECTED = "upheld", "rejected"
    DECISION_CHOICES = [("", _("aguarda decisão")), (UPHELD, _("deferido")), (REJECTED, _("indeferido"))]
    REASON_MAX = 600

    jogo = models.ForeignKey(Jogo, on_delete=models.CASCADE, related_name="appeals", verbose_name=_("jogo"))
    dupla = models.ForeignKey(Dupla, on_delete=models.CASCADE, related_name="appeals", verbose_name=_("dupla"))
    via = models.PositiveSmallIntegerField(_("via recorrida"))
    reason = models.CharField(_("motivo do recurso"), max_length=REASON_MAX)
    filed_at = models.DateTimeField(_("recorrido em"))
    method = models.CharField(_("como"), max_length=10, blank=True, help_text="link or pin")
    device = models.CharField(_("aparelho"), max_length=300, blank=True)
    decision = models.CharField(_("decisão"), max_length=10, choices=DECISION_CHOICES, blank=True)
    decision_reason = models.CharField(_("motivo da decisão"), max_length=REASON_MAX, blank=True)
    decided_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("decidido por"),
    )
    decided_at = models.DateTimeField(_("decidido em"), null=True, blank=True)

    class Meta:
        ordering = ["jogo", "filed_at", "id"]
        constraints = [
            # one appeal per dupla and via: a second one is refused (``appeal_file`` says why)
            models.UniqueConstraint(fields=["jogo", "dupla", "via"], name="appeal_one_per_dupla_via"),
            models.CheckConstraint(
                condition=models.Q(decision__in=["", "upheld", "rejected"]), name="appeal_decision_valid"
            ),
        ]
        verbose_name = _("recurso")
        verbose_name_plural = _("recursos")

    def __str__(self) -> str:
        return f"{self.jogo.key} · {self.dupla} · {self.via}"
