"""Forms of the staff page (/equipe/) and the PINs page (/pins/)."""

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Dupla, StaffRole


class StaffAddForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail da pessoa"),
        max_length=254,
        help_text=_(
            "A pessoa recebe um convite com um link. Ela entra na equipe quando aceitar: com a conta que "
            "já tem, ou criando uma ali mesmo."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}),
    )
    role = forms.ChoiceField(
        label=_("Papel"), choices=StaffRole.ROLE_CHOICES, initial=StaffRole.REFEREE, widget=forms.RadioSelect
    )


ROW_ID_MAX = 2**63 - 1  # a BigAutoField: a larger number names no row (and SQLite cannot even compare it)


def _row_id_field() -> forms.IntegerField:
    return forms.IntegerField(min_value=1, max_value=ROW_ID_MAX, widget=forms.HiddenInput)


class StaffRoleForm(forms.Form):
    """A button of the list: give a member of the staff the other role."""

    user = _row_id_field()
    role = forms.ChoiceField(choices=StaffRole.ROLE_CHOICES, widget=forms.HiddenInput)


class InvitationActionForm(forms.Form):
    invitation = _row_id_field()


class StaffRemoveForm(forms.Form):
    user = _row_id_field()


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
        field.choices = [("", "—")] + [(d.key, f"{d.display_name} ({d.key})") for d in duplas]
        self.fields["dupla"].error_messages["invalid_choice"] = _("Escolha uma das duplas do torneio.")
        self.fields["dupla"].error_messages["required"] = _("Escolha a dupla que perdeu o cartão.")
