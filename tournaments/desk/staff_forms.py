"""Forms of the staff page (/equipe/) and the PINs page (/pins/)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import StaffRole


class StaffAddForm(forms.Form):
    who = forms.CharField(
        label=_("Nome de usuário ou e-mail"), max_length=254,
        help_text=_("Quem já tem conta: o nome de usuário ou o e-mail. Quem não tem: o e-mail; a pessoa recebe um "
                    "link para criar a senha."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}))
    role = forms.ChoiceField(label=_("Papel"), choices=StaffRole.ROLE_CHOICES, initial=StaffRole.REFEREE,
                             widget=forms.RadioSelect)


class StaffRemoveForm(forms.Form):
    user = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class PinsResetForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("Entendo que os PINs atuais deixam de valer e que os novos aparecem só uma vez."),
        error_messages={"required": _("Marque a confirmação: os PINs atuais deixam de valer.")})
    batch = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
