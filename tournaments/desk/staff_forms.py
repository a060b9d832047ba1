"""Forms of the staff page (/equipe/) and the PINs page (/pins/)."""

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.db.models import Model
from django.utils.translation import gettext_lazy as _

from ..limits import column_integer
from ..models import Dupla, StaffInvitation, StaffRole


class StaffAddForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail da pessoa"),
        max_length=254,
        help_text=_(
            "A pessoa recebe um convite com um link, que vale só para este e-mail. Ela entra na equipe quando "
            "aceitar: com a conta que tem este e-mail, ou criando uma ali mesmo."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}),
    )
    role = forms.ChoiceField(
        label=_("Papel"), choices=StaffRole.ROLE_CHOICES, initial=StaffRole.REFEREE, widget=forms.RadioSelect
    )


def _row_id_field(model: type[Model]) -> forms.IntegerField:
    """A row of ``model`` named by its id (a larger number names no row, and SQLite cannot even compare it)."""
    return column_integer(model, "id", min_value=1, widget=forms.HiddenInput)


class StaffRoleForm(forms.Form):
    """A button of the list: give a member of the staff the other role."""

    user = _row_id_field(User)
    role = forms.ChoiceField(choices=StaffRole.ROLE_CHOICES, widget=forms.HiddenInput)


class InvitationActionForm(forms.Form):
    invitation = _row_id_field(StaffInvitation)


class InvitationClaimForm(forms.Form):
    """Confirm or refuse the request of ``user`` (the account the page showed) to accept ``invitation``."""

    invitation = _row_id_field(StaffInvitation)
    user = _row_id_field(User)


class StaffRemoveForm(forms.Form):
    user = _row_id_field(User)


class PinsResetForm(forms.Form):
    """PINs for every dupla. ``first``: no dupla has a PIN yet, so none stops working and nothing is confirmed."""

    confirm = forms.BooleanField(
        label=_("Entendo que os PINs atuais deixam de valer e que os novos aparecem só uma vez."),
        error_messages={"required": _("Marque a confirmação: os PINs atuais deixam de valer.")},
    )
    batch = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, first: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if first:
            del self.fields["confirm"]


class PinResetOneForm(forms.Form):
    """A new PIN and link for one dupla (a lost card): the others keep theirs."""

    dupla = forms.ChoiceField(label=_("Dupla"))
    confirm_one = forms.BooleanField(
        label=_("Entendo que o PIN e o link privado desta dupla deixam de valer e que os novos aparecem só uma vez."),
        error_messages={"required": _("Marque a confirmação: o PIN e o link atuais da dupla deixam de valer.")},
    )
    batch = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, duplas: Iterable[Dupla] = (), **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "one_%s")  # beside the form for all duplas on the same page: its own ids
        super().__init__(*args, **kwargs)
        field = self.fields["dupla"]
        assert isinstance(field, forms.ChoiceField)
        # named as people know them; two duplas called alike (no name, players of the same names) by their order
        named = [(d, d.display_name) for d in duplas]
        alike = Counter(name for _d, name in named)
        field.choices = [("", "—")] + [
            (d.key, name if alike[name] == 1 else f"{name} ({d.order}ª)") for d, name in named
        ]
        self.fields["dupla"].error_messages["invalid_choice"] = _("Escolha uma das duplas do torneio.")
        self.fields["dupla"].error_messages["required"] = _("Escolha a dupla que perdeu o cartão.")
