"""Online play (DOMAIN §9): salas, tables and their seats, the events of a table, the actions clients sent, the
logs of finished partidas, chat and conduct.

A table keeps its partida as JSON (``truco.store.partida_dump``) in ``state`` with the number of its last event
(``seq``) and the next moment its clock must look at it (``deadline``): a server that restarts takes every
table up from its row, with the time that was left. Every event is kept (``TableEvent``) with what it hides
(another seat's cards): the live connection strips each seat's view (``truco.views``) as it sends.
"""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .fields import NameField


class Sala(models.Model):
    """A lobby of up to 60 tables; new salas open as needed (DOMAIN §9.4)."""

    slug = models.SlugField(_("endereço"), max_length=40, unique=True)
    name = NameField(_("nome"), max_length=60)
    number = models.PositiveIntegerField(_("número"), unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "online_sala"
        ordering = ["number"]

    def __str__(self) -> str:
        return self.name


class OnlineProfile(models.Model):
    """Who plays online: an account (``user``) or a guest (``guest_key``, a random token kept in the session)."""

    user = models.OneToOneField(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="online_profile",
    )
    guest_key = models.CharField(max_length=64, unique=True, null=True, blank=True)
    display_name = NameField(_("nome"), max_length=30)
    avatar = models.CharField(_("avatar"), max_length=30, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "online_profile"

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class OnlineTable(models.Model):
    """A table where four play in the browser, its partida kept as JSON between actions."""

    DRAFT, OPEN, PLAYING, FINISHED, CLOSED = "draft", "open", "playing", "finished", "closed"
    STATUS_CHOICES = [
        (DRAFT, _("em criação")),
        (OPEN, _("aberta")),
        (PLAYING, _("em jogo")),
        (FINISHED, _("partida terminada")),
        (CLOSED, _("fechada")),
    ]
    LIVE_STATUSES = (OPEN, PLAYING, FINISHED)
    CASUAL, TORNEIO = "casual", "torneio"
    KIND_CHOICES = [(CASUAL, _("mesa livre")), (TORNEIO, _("jogo de torneio"))]
    ROBOT_CHOICES = [("", "—"), ("aleatorio", _("aleatório")), ("basico", _("básico"))]

    sala = models.ForeignKey(Sala, null=True, blank=True, on_delete=models.SET_NULL, related_name="tables")
    number = models.PositiveIntegerField(_("número"), default=0)
    kind = models.CharField(max_length=12, choices=KIND_CHOICES, default=CASUAL)
    host = models.ForeignKey(
        OnlineProfile, null=True, blank=True, on_delete=models.SET_NULL, related_name="hosted_tables"
    )
    status = models.CharField(max_length=10, choices=STATUS_CHOICES, default=DRAFT)
    password_hash = models.CharField(max_length=200, blank=True)
    appearance = models.CharField(_("aparência"), max_length=30, blank=True)
    face = models.CharField(_("cartas"), max_length=30, blank=True)
    back = models.CharField(_("verso"), max_length=30, blank=True)
    preset = models.CharField(max_length=20, default="online")
    state = models.JSONField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    partida_n = models.PositiveIntegerField(default=0)
    auto_start = models.BooleanField(default=False)
    robot_level = models.CharField(max_length=12, choices=ROBOT_CHOICES, blank=True)
    # A tournament jogo's table (kind "torneio", docs/regras.md §9.7): its jogo, the jogo's time (the WO
    # tolerance counts from it) and its stage: seating, playing, then the duplas' confirmation.
    jogo = models.OneToOneField(
        "tournaments.Jogo", null=True, blank=True, on_delete=models.CASCADE, related_name="online_table"
    )
    opens_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "online_table"
        indexes = [models.Index(fields=["sala", "status"]), models.Index(fields=["status", "auto_start"])]

    def __str__(self) -> str:
        return f"mesa {self.pk}"


class TableSeat(models.Model):
    """One of a table's four seats: a person (``profile``) or a robot (``robot``, its level)."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    profile = models.ForeignKey(OnlineProfile, null=True, blank=True, on_delete=models.CASCADE, related_name="seats")
    robot = models.CharField(max_length=12, blank=True)
    present = models.BooleanField(default=False)
    # at a tournament jogo's table: the dupla's player sitting here (the dupla's private link seats them)
    player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="online_seats"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "online_seat"
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="online_seat_unique"),
            models.UniqueConstraint(fields=["table", "profile"], name="online_seat_profile_unique"),
        ]


class TableEvent(models.Model):
    """One event of a table, as the log writes it (hidden parts included: views strip them per seat)."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    partida_n = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=20)
    data = models.JSONField()
    at = models.DateTimeField()

    class Meta:
        db_table = "online_event"
        ordering = ["table", "seq"]
        constraints = [models.UniqueConstraint(fields=["table", "seq"], name="online_event_unique")]


class ClientAction(models.Model):
    """An action a client sent, by its own ``client_id``: the same id twice acts once."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="client_actions")
    profile = models.ForeignKey(OnlineProfile, on_delete=models.CASCADE, related_name="+")
    client_id = models.CharField(max_length=64)
    seq = models.PositiveIntegerField(null=True, blank=True)  # the seq it led to; None when refused
    reason = models.TextField(blank=True)
    at = models.DateTimeField()

    class Meta:
        db_table = "online_client_action"
        constraints = [
            models.UniqueConstraint(fields=["table", "profile", "client_id"], name="online_client_action_unique")
        ]


class PartidaLog(models.Model):
    """A finished partida's game log (INTERCHANGE.md "The game log"), served as registro.json."""

    table = models.ForeignKey(OnlineTable, on_delete=models.CASCADE, related_name="logs")
    n = models.PositiveIntegerField()
    data = models.JSONField()
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    ended_by = models.CharField(max_length=20, blank=True)
    finished_at = models.DateTimeField()

    class Meta:
        db_table = "online_partida_log"
        ordering = ["table", "n"]
        constraints = [models.UniqueConstraint(fields=["table", "n"], name="online_partida_log_unique")]


class ChatMessage(models.Model):
    """A message in a sala's chat or a table's (a table's are deleted when its partida ends)."""

    sala = models.ForeignKey(Sala, null=True, blank=True, on_delete=models.CASCADE, related_name="messages")
    table = models.ForeignKey(OnlineTable, null=True, blank=True, on_delete=models.CASCADE, related_name="messages")
    profile = models.ForeignKey(OnlineProfile, on_delete=models.CASCADE, related_name="messages")
    text = models.CharField(max_length=300)
    at = models.DateTimeField()
    hidden = models.BooleanField(default=False)

    class Meta:
        db_table = "online_chat"
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["sala", "at"]), models.Index(fields=["table", "at"])]


class ConductReport(models.Model):
    """A player's report of a message or a player, until staff handle it."""

    reporter = models.ForeignKey(OnlineProfile, on_delete=models.CASCADE, related_name="reports_made")
    target = models.ForeignKey(OnlineProfile, on_delete=models.CASCADE, related_name="reports_received")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    text = models.TextField(blank=True)  # the message as it was, kept after the chat is gone
    reason = models.CharField(max_length=300)
    at = models.DateTimeField()
    handled_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=300, blank=True)

    class Meta:
        db_table = "online_conduct_report"
        ordering = ["-at"]


class Sanction(models.Model):
    """A measure staff took against a profile (004 "medidas administrativas"), with its reason."""

    WARN, MUTE, SUSPEND, BAN = "warn", "mute", "suspend", "ban"
    KIND_CHOICES = [(WARN, _("advertência")), (MUTE, _("silêncio")), (SUSPEND, _("suspensão")), (BAN, _("banimento"))]
    profile = models.ForeignKey(OnlineProfile, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(max_length=10, choices=KIND_CHOICES)
    reason = models.CharField(max_length=300)
    by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()
    until = models.DateTimeField(null=True, blank=True)  # None: for ever (a ban)

    class Meta:
        db_table = "online_sanction"
        ordering = ["-at"]
        indexes = [models.Index(fields=["profile", "kind"])]


class ClockBeat(models.Model):
    """The tables' clock's last beat (one row): each ASGI process's clock loop writes it as it ticks, so a clock
    that finds it far behind knows no clock ran (every server was down) and gives each table back the time its
    clock had left (``tournaments.online.services.table_tick``)."""

    at = models.DateTimeField()

    class Meta:
        db_table = "online_clock"
