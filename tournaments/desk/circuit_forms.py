"""Forms of the circuit desk: a new circuit, its rules (the points table editor), an etapa, an exclusion.

The forms only read what was typed; every rule (a gap in the points table, a slug taken, a tournament the user
does not organize) is the service's, whose ``CircuitRefused`` problems ``problems_to_form`` puts next to the
field they name."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from ..circuits.services import CircuitSettings
from ..limits import column_integer
from ..models import Circuit, CircuitEtapa, Tournament
from ..models.fields import NameFormField

MAX_POINT_ROWS = 60  # rows of the points table a form reads (the default table has 8)
EXTRA_POINT_ROWS = 3  # blank rows offered for new places
OTHERS = "others"
RULES_FIELDS = {
    "name": "name",
    "count_best": "count_best",
    "qualify.top": "qualify_top",
    "qualify.min_etapas": "qualify_min_etapas",
    "qualify.alternates": "qualify_alternates",
}


def _place_sort(key: str) -> tuple[int, str]:
    match = re.match(r"\s*(\d+)", key)
    return (int(match.group(1)) if match else 10**9, key)


class CircuitNewForm(forms.Form):
    name = NameFormField(
        label=_("Nome do circuito"),
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": _("Liga Paulista de Truco 2026")}),
    )
    slug = forms.CharField(
        label=_("Endereço"),
        max_length=100,
        required=False,
        help_text=_(
            "A parte final do endereço do ranking (/circuitos/…): letras sem acento, números e hífens. "
            "Em branco: feito a partir do nome."
        ),
    )
    template = forms.ChoiceField(
        label=_("Modelo"), choices=Circuit.TEMPLATE_CHOICES, widget=forms.RadioSelect, initial=Circuit.LIGA
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not data.get("slug") and data.get("name"):
            data["slug"] = slug_suggest(name=data["name"])
        return data


def slug_suggest(*, name: str) -> str:
    """An address for a circuit named ``name``: its slug, with ``-2``, ``-3``… when taken."""
    base = slugify(name)[:90] or "circuito"
    taken = set(Circuit.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


class CircuitRulesForm(forms.Form):
    """The circuit's name, points table (rows ``key → points`` plus "demais colocações"), best N and
    qualification. The table's rows are fields ``key_<i>`` / ``points_<i>``; ``rows`` pairs them for the
    template."""

    # the numbers within their columns (and the least each takes): the service says what else is wrong, with the
    # points table's problems
    name = NameFormField(label=_("Nome do circuito"), max_length=200, required=False)
    others = forms.CharField(label=_("Demais colocações"), required=False, widget=forms.NumberInput(attrs={"min": 0}))
    count_best = column_integer(
        Circuit,
        "count_best",
        label=_("Etapas que contam (as melhores)"),
        min_value=1,
        required=False,
        help_text=_("Em branco: todas."),
        widget=forms.NumberInput(attrs={"placeholder": _("todas")}),
    )
    qualify_top = column_integer(
        Circuit,
        "qualify_top",
        label=_("Classificados para a final"),
        min_value=1,
        required=False,
        help_text=_("Em branco: sem classificação para a final."),
    )
    qualify_min_etapas = column_integer(
        Circuit, "qualify_min_etapas", label=_("Mínimo de etapas jogadas"), required=False
    )
    qualify_alternates = column_integer(Circuit, "qualify_alternates", label=_("Suplentes"), required=False)

    def __init__(self, data: Any = None, *, circuit: Circuit, **kwargs: Any) -> None:
        points: Mapping[str, Any] = circuit.points or {}
        bands = sorted((k for k in points if k != OTHERS), key=_place_sort)
        initial = {
            "name": circuit.name,
            "others": points.get(OTHERS, ""),
            "count_best": circuit.count_best,
            "qualify_top": circuit.qualify_top,
            "qualify_min_etapas": circuit.qualify_min_etapas,
            "qualify_alternates": circuit.qualify_alternates,
        }
        for i, key in enumerate(bands):
            initial[f"key_{i}"], initial[f"points_{i}"] = key, points[key]
        count = len(bands) + EXTRA_POINT_ROWS
        if data is not None:
            posted = [int(m.group(1)) for k in data for m in [re.fullmatch(r"key_(\d+)", k)] if m]
            count = min(max(posted, default=-1) + 1, MAX_POINT_ROWS)
        super().__init__(data, initial=initial, **kwargs)
        self.row_count = count
        for i in range(count):
            self.fields[f"key_{i}"] = forms.CharField(
                label=_("Colocação"),
                required=False,
                max_length=20,
                widget=forms.TextInput(attrs={"size": 6}),
            )
            self.fields[f"points_{i}"] = forms.CharField(
                label=_("Pontos"), required=False, max_length=12, widget=forms.NumberInput(attrs={"min": 0})
            )

    def settings(self) -> CircuitSettings:
        """What was typed, as the service's settings (a number the form could not read counts as blank: its
        field already says so). Call after ``is_valid()``; it adds the table's own problems to the form."""
        d = self.cleaned_data
        return CircuitSettings(
            name=d.get("name") or "",
            points=self.points(),
            count_best=d.get("count_best"),
            qualify_top=d.get("qualify_top"),
            qualify_min_etapas=d.get("qualify_min_etapas") or 0,
            qualify_alternates=d.get("qualify_alternates") or 0,
        )

    def show_problems(self, problems: Iterable[tuple[str, str]]) -> None:
        """The service's problems, each next to its field (a key of the table: its row)."""
        problems_to_form(self, problems, fields={**RULES_FIELDS, **self.key_fields()})

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"key_{i}"], self[f"points_{i}"]) for i in range(self.row_count)]

    def points(self) -> dict[str, Any]:
        """The table as the circuit file writes it; a value that is not a whole number goes on as typed, so the
        service names it under its key. A row with points and no place, or a place twice, is this form's."""
        out: dict[str, Any] = {}
        self._rows_by_key: dict[str, tuple[int, bool]] = {}
        for i in range(self.row_count):
            key = (self.cleaned_data.get(f"key_{i}") or "").strip().replace(" ", "")
            value = (self.cleaned_data.get(f"points_{i}") or "").strip()
            if not key and not value:
                continue
            if not key:
                self.add_error(f"key_{i}", _('diga a colocação ("3") ou a faixa ("5-8") destes pontos'))
                continue
            if key == OTHERS or key in out:
                self.add_error(f"key_{i}", _("a colocação %(k)s aparece em mais de uma linha") % {"k": key})
                continue
            out[key] = _number(value)
            self._rows_by_key[key] = (i, isinstance(out[key], int) and out[key] >= 0)
        others = (self.cleaned_data.get("others") or "").strip()
        if others:
            out[OTHERS] = _number(others)
        return out

    def key_fields(self) -> dict[str, str]:
        """The field that shows each problem of the table (``points.5-8`` → the row's points when they are not a
        whole number, else its place; ``points.others`` → "demais colocações"; ``points`` → the table's top).
        Read after ``points()``."""
        out = {f"points.{OTHERS}": "others"}
        for key, (i, is_number) in self._rows_by_key.items():
            out[f"points.{key}"] = f"key_{i}" if is_number else f"points_{i}"
        return out


def _number(value: str) -> Any:
    return int(value) if re.fullmatch(r"-?\d{1,9}", value) else value


class EtapaAttachForm(forms.Form):
    """A tournament to include: the choice lists only the user's tournaments in no circuit; a slug from elsewhere
    still reaches the service, which says why it may not be an etapa."""

    tournament = forms.ChoiceField(label=_("Torneio"))
    weight = column_integer(CircuitEtapa, "weight", label=_("Peso"), min_value=1, initial=1)
    final = forms.BooleanField(label=_("É a final (fica fora da classificação para a final)"), required=False)

    def __init__(self, *args: Any, candidates: Iterable[Tournament], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(t.slug, f"{t.name} ({t.date:%d/%m/%Y})" if t.date else t.name) for t in candidates]
        field = self.fields["tournament"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("escolha um torneio"))] + choices
        field.valid_value = lambda value: bool(value)  # type: ignore[method-assign]

    def clean_tournament(self) -> Tournament:
        slug = self.cleaned_data["tournament"]
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise forms.ValidationError(_("não há torneio com o endereço %(s)s no site") % {"s": slug})
        return tournament


class EtapaSetForm(forms.Form):
    weight = column_integer(CircuitEtapa, "weight", label=_("Peso"), min_value=1)
    final = forms.BooleanField(label=_("Final"), required=False)


class ExcludeForm(forms.Form):
    atleta = forms.ChoiceField(label=_("Atleta"))
    reason = forms.CharField(label=_("Motivo"), max_length=300)

    def __init__(self, *args: Any, atletas: Iterable[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["atleta"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [("", _("escolha um atleta"))] + list(atletas)


def problems_to_form(form: forms.BaseForm, problems: Iterable[tuple[str, str]], *, fields: Mapping[str, str]) -> None:
    """Put a service's (where, message) pairs next to the fields: ``fields`` maps the last part of a place
    (``circuit.count_best`` → ``count_best``) to a field; anything else goes on top of the form."""
    for where, message in problems:
        tail = where.split(".", 1)[1] if where.startswith("circuit.") else where
        name = fields.get(tail)
        form.add_error(name if name in form.fields else None, message)
