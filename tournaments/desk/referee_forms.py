"""The forms of the referee's screen (no JS): each one becomes the body the súmula API takes.

The forms only read what was posted; every rule (which values a situation
allows, who may confirm, what a result must be) is the services' and
``scoring``'s, so the screen and the API refuse the same things with the same
messages.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.partida import HOW_CHOICES
from tournaments.limits import column_integer
from tournaments.models import Jogo, Mao, Partida
from tournaments.presenters.sumula_pad import posted_id, server_id  # noqa: F401 (the screen's forms' ids)
from tournaments.sumula.inputs import REASON_MAX


class MaoForm(forms.Form):
    """One entry of the partida being played: a mão, a dupla that ran, a refused mão de onze, a tie, a penalty."""

    id = forms.CharField(required=False)
    to = forms.TypedChoiceField(
        choices=[("0", "0"), ("1", "1"), ("", "")], coerce=int, empty_value=None, required=False
    )
    points = column_integer(Mao, "points", required=False, min_value=0, max_value=99)
    how = forms.ChoiceField(choices=[(h, h) for h in HOW_CHOICES], required=False)
    reason = forms.CharField(required=False, max_length=REASON_MAX, strip=True)

    def clean_how(self) -> str:
        """Only a form without 'how' is a mão played; an empty 'how' is refused, as in the API."""
        if "how" in self.data and not self.data.get("how"):
            raise forms.ValidationError(
                _("'how' deve ser played, ran, refused ou penalty (sem 'how', a mão foi jogada: played)")
            )
        return self.cleaned_data.get("how") or "played"

    def mao(self) -> dict:
        d = self.cleaned_data
        out = {"id": posted_id(d.get("id")), "to": d.get("to"), "how": d["how"]}
        if d.get("points") is not None:
            out["points"] = d["points"]
        if d.get("reason"):
            out["reason"] = d["reason"]
        return out


class UndoForm(forms.Form):
    mao = forms.CharField(max_length=64)


def _score_fields(form: forms.Form, best_of: int) -> None:
    for n in range(1, best_of + 1):
        for side in ("a", "b"):
            form.fields[f"p{n}_{side}"] = column_integer(Partida, "score_a", required=False, min_value=0, max_value=99)


def _scores(form: forms.Form, best_of: int) -> list[list[int]]:
    """The partidas typed (rows left blank are skipped; a half-filled row is an error)."""
    partidas = []
    for n in range(1, best_of + 1):
        a, b = form.cleaned_data.get(f"p{n}_a"), form.cleaned_data.get(f"p{n}_b")
        if a is None and b is None:
            continue
        if a is None or b is None:
            raise forms.ValidationError(_("partida %(n)s: informe os pontos das duas duplas") % {"n": n})
        partidas.append([a, b])
    if not partidas:
        raise forms.ValidationError(_("informe o placar de pelo menos uma partida"))
    return partidas


class ResultForm(forms.Form):
    """Quick entry: the final scores of the partidas (transcribing a paper súmula)."""

    id = forms.CharField(required=False)

    def __init__(self, *args: Any, best_of: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.best_of = best_of
        _score_fields(self, best_of)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # a form's clean gives its cleaned data
        data["partidas"] = _scores(self, self.best_of)
        return data

    def result(self) -> dict:
        return {"id": posted_id(self.cleaned_data.get("id")), "partidas": self.cleaned_data["partidas"]}


class WalkoverForm(forms.Form):
    """A WO: the dupla absent (or both), always with the reason the referee gives."""

    id = forms.CharField(required=False)
    absent = forms.CharField(
        max_length=60, error_messages={"required": gettext_lazy("WO: escolha a dupla ausente (ou as duas)")}
    )
    reason = forms.CharField(
        max_length=REASON_MAX,
        strip=True,
        error_messages={
            "required": gettext_lazy("WO: escreva o motivo (por exemplo, não compareceu à chamada da mesa)")
        },
    )

    def result(self) -> dict:
        d = self.cleaned_data
        return {"id": posted_id(d.get("id")), "walkover": d["absent"], "walkover_reason": d["reason"]}


class PenaltyForm(forms.Form):
    """Perda da partida or perda do jogo, always with a reason."""

    id = forms.CharField(required=False)
    scope = forms.ChoiceField(
        choices=[("partida", "partida"), ("jogo", "jogo")],
        error_messages={
            "required": gettext_lazy("escolha: perda da partida ou do jogo"),
            "invalid_choice": gettext_lazy("escolha: perda da partida ou do jogo"),
        },
    )
    lost_by = forms.CharField(max_length=60, error_messages={"required": gettext_lazy("escolha a dupla punida")})
    reason = forms.CharField(
        max_length=REASON_MAX,
        strip=True,
        error_messages={"required": gettext_lazy("toda penalidade precisa de um motivo")},
    )

    def penalty(self) -> dict:
        d = self.cleaned_data
        return {"id": posted_id(d.get("id")), "scope": d["scope"], "lost_by": d["lost_by"], "reason": d["reason"]}


_VIA_ERRORS = {
    k: gettext_lazy("'via': falta o número da via da súmula conferida; recarregue a página")
    for k in ("required", "invalid", "min_value", "max_value")
}


def _via_field() -> forms.IntegerField:
    """The via the screen showed (a hidden field): the answer or the signature is for that via only."""
    return column_integer(Jogo, "via", min_value=1, error_messages=_VIA_ERRORS)


class AnswerForm(forms.Form):
    """A dupla confirms (accept=1) or contests (accept=0, with a reason), typing its PIN on the referee's phone,
    for the via the screen showed."""

    dupla = forms.CharField(max_length=60)
    via = _via_field()
    pin = forms.CharField(max_length=20, strip=True, error_messages={"required": gettext_lazy("digite o PIN da dupla")})
    accept = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")
    reason = forms.CharField(required=False, max_length=REASON_MAX, strip=True)


class SignForm(forms.Form):
    via = _via_field()
    reason = forms.CharField(required=False, max_length=REASON_MAX, strip=True)


class CorrectionForm(ResultForm):
    """A new via: the reason and the whole new result (final scores of the partidas)."""

    reason = forms.CharField(
        max_length=REASON_MAX,
        strip=True,
        error_messages={"required": gettext_lazy("toda correção precisa de um motivo")},
    )

    def correction(self) -> dict:
        return self.result() | {"reason": self.cleaned_data["reason"]}


def form_errors(form: forms.Form) -> list[str]:
    """A form's errors as sentences for the page's alert."""
    out = []
    for field, errors in form.errors.items():
        for e in errors:
            out.append(
                str(e)
                if field == "__all__" or field in ("pin", "reason", "scope", "lost_by", "via", "how", "absent")
                else f"{field}: {e}"
            )
    return out


class AppealDecisionForm(forms.Form):
    """The comissão organizadora's decision on an appeal: deferido or indeferido, with its reason (the service
    checks both again, as for every write)."""

    decisao = forms.ChoiceField(
        choices=[("upheld", gettext_lazy("deferido")), ("rejected", gettext_lazy("indeferido"))],
        widget=forms.RadioSelect,
        error_messages={
            "required": gettext_lazy("escolha a decisão: deferido ou indeferido"),
            "invalid_choice": gettext_lazy("escolha a decisão: deferido ou indeferido"),
        },
    )
    motivo = forms.CharField(
        max_length=600,
        strip=True,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 600}),
        error_messages={
            "required": gettext_lazy("escreva o motivo da decisão"),
            "max_length": gettext_lazy("o motivo tem no máximo %(limit_value)d caracteres (este tem %(show_value)d)"),
        },
    )
