"""/organizar/<slug>/equipe/ and /organizar/<slug>/pins/: roles, invitations, dupla PINs and cards."""

from django.urls import path

from . import pins, staff

urlpatterns = [
    path("<slug:slug>/equipe/", staff.staff, name="staff"),
    path("<slug:slug>/equipe/remover/", staff.staff_remove, name="staff_remove"),
    path(
        "<slug:slug>/equipe/convites/reenviar/",
        staff.invitation_action,
        {"action": "reenviar"},
        name="invitation_resend",
    ),
    path(
        "<slug:slug>/equipe/convites/cancelar/",
        staff.invitation_action,
        {"action": "cancelar"},
        name="invitation_revoke",
    ),
    path(
        "<slug:slug>/equipe/convites/confirmar/",
        staff.invitation_claim_answer,
        {"action": "confirmar"},
        name="invitation_confirm",
    ),
    path(
        "<slug:slug>/equipe/convites/recusar/",
        staff.invitation_claim_answer,
        {"action": "recusar"},
        name="invitation_refuse",
    ),
    path("<slug:slug>/pins/", pins.pins, name="pins"),
]
