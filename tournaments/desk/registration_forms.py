"""Forms of the desk's registration pages: add/edit, CSV upload and its confirmation."""

from __future__ import annotations

import base64
from typing import Any

from django import forms
from django.core import signing
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..forms import RegistrationFields
from ..registrations.csv_reader import MAX_BYTES

CONFIRM_MAX_AGE = 2 * 60 * 60  # seconds a previewed file may wait for its confirmation


class DeskRegistrationForm(RegistrationFields):
    """The organizer adds anyone, with or without contacts, also after registration closed."""


class UploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Planilha CSV"),
        help_text=gettext_lazy(
            "Colunas: nome, nascimento, email, telefone e, para quem se inscreve em dupla, parceiro, "
            "parceiro_nascimento, parceiro_email, parceiro_telefone; opcionais: equipe e parceiro_equipe "
            "(a equipe ou o clube de cada um). Separador , ou ; — UTF-8 ou Windows-1252."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv,text/plain"}),
    )

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("Arquivo grande demais: %(kb)d KB; o máximo é %(max)d KB. Divida-o em partes.")
                % {"kb": upload.size // 1000, "max": MAX_BYTES // 1000}
            )
        content = upload.read(MAX_BYTES + 1)
        if not content.strip():
            raise forms.ValidationError(_("O arquivo está vazio."))
        self.filename = upload.name[:120]
        return content


def _salt(tournament_id: int, user_id: int) -> str:
    return f"zap.registrations.csv.{tournament_id}.{user_id}"


def file_sign(*, content: bytes, filename: str, tournament_id: int, user_id: int) -> str:
    """The previewed file, signed for this tournament and organizer, to come back with the confirmation."""
    return signing.dumps(
        {"f": filename, "c": base64.b64encode(content).decode("ascii")},
        salt=_salt(tournament_id, user_id),
        compress=True,
    )


class ConfirmForm(forms.Form):
    payload = forms.CharField(widget=forms.HiddenInput, max_length=4 * MAX_BYTES)

    def __init__(self, *args: Any, tournament_id: int, user_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.salt = _salt(tournament_id, user_id)

    def clean_payload(self) -> tuple[bytes, str]:
        try:
            data = signing.loads(self.cleaned_data["payload"], salt=self.salt, max_age=CONFIRM_MAX_AGE)
            return base64.b64decode(data["c"]), str(data["f"])
        except signing.SignatureExpired:
            raise forms.ValidationError(_("A pré-visualização expirou; envie o arquivo de novo.")) from None
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            raise forms.ValidationError(_("Arquivo de confirmação inválido; envie o arquivo de novo.")) from None
