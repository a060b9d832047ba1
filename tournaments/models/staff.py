"""Who runs an event with the organizer: roles and invitations (docs/regras.md §8)."""

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament


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

    Only the SHA-256 of the link's token is kept. Pending: not accepted, not revoked, not expired. An account
    with that address accepts it; another account holding the link may only ask (``claimed_by``, ``claimed_at``):
    an organizer then confirms or refuses.
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
    claimed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at"]
        verbose_name = _("convite para a equipe")
        verbose_name_plural = _("convites para a equipe")

    def __str__(self) -> str:
        return f"{self.email} · {self.get_role_display()} · {self.tournament}"
