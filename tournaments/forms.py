"""Forms shared by more than one audience (the web edge, beside ``web.py``; an audience's own forms live with it).

``RegistrationFields``: the fields of a registration (a player, and a partner for a pair), shared by the desk
and the public sign-up.

The form reads what was typed; the checks of DOMAIN §2 step 2 run in the
service (``registration_add`` / ``registration_edit``), whose refusal's problems come
back next to their fields (``tournaments.web.refusal_to_form``, through ``refusal_places``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms import BoundField
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import Registration, Tournament
from .models.fields import NameFormField
from .registrations.checks import BIRTH, CONTACT, EMAIL, NAME, PHONE, TEAM, TEAM_MAX, PersonIn

DATE_FORMATS = ["%Y-%m-%d", "%d/%m/%Y"]
# a problem's place (``checks.Problem.place``) → the field it is shown next to
FIELD_OF = {
    f"players[0].{NAME}": "name",
    f"players[0].{BIRTH}": "birth_date",
    f"players[0].{EMAIL}": "email",
    f"players[0].{PHONE}": "phone",
    f"players[0].{CONTACT}": "phone",
    f"players[0].{TEAM}": "team",
    f"players[1].{NAME}": "partner_name",
    f"players[1].{BIRTH}": "partner_birth_date",
    f"players[1].{EMAIL}": "partner_email",
    f"players[1].{PHONE}": "partner_phone",
    f"players[1].{TEAM}": "partner_team",
}
PARTNER_FIELDS = ("partner_name", "partner_birth_date", "partner_email", "partner_phone", "partner_team")


def _date_widget() -> forms.DateInput:
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class RegistrationFields(forms.Form):
    refusal_places = FIELD_OF  # where a refusal's problems are shown

    name = NameFormField(
        label=gettext_lazy("Nome completo"), max_length=200, widget=forms.TextInput(attrs={"autocomplete": "name"})
    )
    birth_date = forms.DateField(
        label=gettext_lazy("Data de nascimento"), required=False, widget=_date_widget(), input_formats=DATE_FORMATS
    )
    phone = forms.CharField(
        label=gettext_lazy("Telefone (WhatsApp)"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"type": "tel", "autocomplete": "tel", "inputmode": "tel"}),
    )
    email = forms.EmailField(
        label=gettext_lazy("E-mail"),
        max_length=254,
        required=False,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    # per player: a pair from two clubs is possible (the equipe ranking of a circuit counts atletas)
    team = NameFormField(
        label=gettext_lazy("Equipe ou clube"),
        max_length=TEAM_MAX,
        required=False,
        help_text=gettext_lazy("Opcional. Aparece nas páginas públicas; num circuito, soma pontos para a equipe."),
        widget=forms.TextInput(attrs={"autocomplete": "organization"}),
    )
    partner_name = NameFormField(label=gettext_lazy("Nome completo do(a) parceiro(a)"), max_length=200, required=False)
    partner_birth_date = forms.DateField(
        label=gettext_lazy("Data de nascimento do(a) parceiro(a)"),
        required=False,
        widget=_date_widget(),
        input_formats=DATE_FORMATS,
    )
    partner_phone = forms.CharField(
        label=gettext_lazy("Telefone do(a) parceiro(a)"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs={"type": "tel", "inputmode": "tel"}),
    )
    partner_email = forms.EmailField(label=gettext_lazy("E-mail do(a) parceiro(a)"), max_length=254, required=False)
    partner_team = NameFormField(
        label=gettext_lazy("Equipe ou clube do(a) parceiro(a)"),
        max_length=TEAM_MAX,
        required=False,
        help_text=gettext_lazy("Opcional; pode ser outra equipe."),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if tournament.min_age:
            note = _("Obrigatória: idade mínima de %(age)d anos no dia do torneio.") % {"age": tournament.min_age}
            for name in ("birth_date", "partner_birth_date"):
                self.fields[name].help_text = note
            self.fields["birth_date"].widget.attrs["required"] = True

    @property
    def player_fields(self) -> list[BoundField]:
        return [self[name] for name in ("name", "birth_date", "phone", "email", "team")]

    @property
    def partner_fields(self) -> list[BoundField]:
        return [
            self[name]
            for name in ("partner_name", "partner_birth_date", "partner_phone", "partner_email", "partner_team")
        ]

    def wants_partner(self) -> bool:
        return any(self.cleaned_data.get(f) for f in PARTNER_FIELDS)

    def people(self) -> list[PersonIn]:
        d = self.cleaned_data
        players = [
            PersonIn(
                name=d["name"],
                birth_date=d.get("birth_date"),
                email=d.get("email") or "",
                phone=d.get("phone") or "",
                team=d.get("team") or "",
            )
        ]
        if self.wants_partner():
            players.append(
                PersonIn(
                    name=d.get("partner_name") or "",
                    birth_date=d.get("partner_birth_date"),
                    email=d.get("partner_email") or "",
                    phone=d.get("partner_phone") or "",
                    team=d.get("partner_team") or "",
                )
            )
        return players

    @classmethod
    def initial_of(cls, registration: Registration) -> dict:
        p1, p2 = registration.player1, registration.player2
        data = {"name": p1.name, "birth_date": p1.birth_date, "email": p1.email, "phone": p1.phone, "team": p1.team}
        if p2 is not None:
            data |= {
                "partner_name": p2.name,
                "partner_birth_date": p2.birth_date,
                "partner_email": p2.email,
                "partner_phone": p2.phone,
                "partner_team": p2.team,
            }
        return data
