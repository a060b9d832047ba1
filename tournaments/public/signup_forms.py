"""The public sign-up form: individual or pair, one contact at least, and a honeypot for bots."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.forms import PARTNER_FIELDS, RegistrationFields

INDIVIDUAL, PAIR = "individual", "pair"


class SignupForm(RegistrationFields):
    kind = forms.ChoiceField(
        label=gettext_lazy("Como você se inscreve?"),
        widget=forms.RadioSelect,
        initial=INDIVIDUAL,
        choices=[
            (INDIVIDUAL, gettext_lazy("Sozinho(a): a dupla sai no sorteio")),
            (PAIR, gettext_lazy("Em dupla, com meu(minha) parceiro(a)")),
        ],
    )
    # Hidden from people by the ``honeypot`` CSS class; a bot that fills every field fills this one.
    website = forms.CharField(
        label=gettext_lazy("Não preencha este campo"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    field_order = ["kind", "name", "birth_date", "phone", "email"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["phone"].help_text = _("Informe um telefone ou um e-mail, para a organização falar com você.")

    def is_bot(self) -> bool:
        return bool(self.data.get("website", "").strip())

    def wants_partner(self) -> bool:
        return self.cleaned_data.get("kind") == PAIR

    def clean(self):
        data = super().clean()
        if data.get("kind") != PAIR:
            for name in PARTNER_FIELDS:  # typed before switching back to "sozinho(a)": not sent
                data[name] = None
                self.errors.pop(name, None)
        elif not data.get("partner_name") and "partner_name" not in self.errors:
            self.add_error("partner_name", _("Informe o nome do(a) parceiro(a)."))
        return data
