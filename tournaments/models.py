"""Zap's data: a tournament, its people, duplas, stages, jogos and súmulas.

Results are stored once, as mãos or as final scores; standings, brackets and
the classification are derived by ``scoring`` (see ``selectors.py``).
"""

import secrets

from django.conf import settings as django_settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

PRESET_CHOICES = [("fenacef", "FENACEF 2023"), ("aabb", "AABB / Paulista"), ("online", "Truco Online")]


class Tournament(models.Model):
    name = models.CharField(_("nome"), max_length=200)
    slug = models.SlugField(_("endereço"), max_length=120, unique=True)
    date = models.DateField(_("data"), null=True, blank=True)
    start_time = models.TimeField(_("início"), null=True, blank=True)
    venue = models.CharField(_("local"), max_length=200, blank=True)
    city = models.CharField(_("cidade"), max_length=120, blank=True, help_text=_("ex.: Campinas/SP"))
    category = models.CharField(_("categoria"), max_length=200, blank=True)
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
    public_signup = models.BooleanField(_("inscrição pelo site"), default=False)
    registration_opens = models.DateTimeField(_("inscrições abrem em"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("inscrições fecham em"), null=True, blank=True)
    registration_closed = models.BooleanField(_("inscrições encerradas"), default=False)
    mesas = models.PositiveSmallIntegerField(_("número de mesas"), null=True, blank=True)
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


class Player(models.Model):
    """An athlete in one tournament. Birth date and contacts are private."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    key = models.CharField(max_length=60)
    name = models.CharField(_("nome"), max_length=200)
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
    name = models.CharField(_("nome"), max_length=200, blank=True)
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


class Stage(models.Model):
    GROUPS, KNOCKOUT = "groups", "knockout"
    KIND_CHOICES = [(GROUPS, _("classificatória (grupos)")), (KNOCKOUT, _("eliminatória (chave)"))]
    DRAW_CHOICES = [("seeded", _("cabeças de chave")), ("random", _("sorteio")), ("fixed", _("ordem fixa"))]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    key = models.CharField(max_length=60)
    name = models.CharField(_("nome"), max_length=120, blank=True)
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

    class Meta:
        ordering = ["tournament", "performed_at", "id"]
        verbose_name = _("sorteio")
        verbose_name_plural = _("sorteios")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} · {self.tournament}"


class StaffRole(models.Model):
    """A person's role in one tournament (docs/regras.md §8). Decided in ``tournaments/permissions.py``."""

    ORGANIZER, REFEREE = "organizer", "referee"
    ROLE_CHOICES = [(ORGANIZER, _("comissão organizadora")), (REFEREE, _("árbitro"))]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_roles")
    role = models.CharField(_("papel"), max_length=10, choices=ROLE_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)
    added_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "role", "user__username"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="staff_role_unique")]
        verbose_name = _("papel no torneio")
        verbose_name_plural = _("papéis no torneio")

    def __str__(self) -> str:
        return f"{self.user} · {self.get_role_display()} · {self.tournament}"


class StaffInvitation(models.Model):
    """An invitation to a tournament's staff, sent to an e-mail address; the role is given when its owner accepts.

    Only the SHA-256 of the link's token is kept. Pending: not accepted, not revoked, not expired.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("papel"), max_length=10, choices=StaffRole.ROLE_CHOICES)
    email = models.EmailField(_("e-mail"))
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at"]
        verbose_name = _("convite para a equipe")
        verbose_name_plural = _("convites para a equipe")

    def __str__(self) -> str:
        return f"{self.email} · {self.get_role_display()} · {self.tournament}"


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


class ReplacedLink(models.Model):
    """A dupla's private link that a new PIN card replaced: kept (as a SHA-256 of its token) to answer 410."""

    token_hash = models.CharField(max_length=64, unique=True)
    dupla = models.ForeignKey(Dupla, on_delete=models.CASCADE, related_name="+")
    replaced_at = models.DateTimeField(auto_now_add=True)


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
