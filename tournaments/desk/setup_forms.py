"""Forms of the tournament's setup: the three-field start, the full edit, the format."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.messages import Text
from scoring.rules import PRESETS, settings_build

from .. import limits
from ..models import Stage, Tournament
from ..models.fields import NameFormField
from ..online.event import WO_TOLERANCE_MAX, event_online
from ..setup.starters import starter_choices
from ..wording import worded

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DEFAULT = ("", _("como no regulamento base"))
BEST_OF = [DEFAULT, ("1", "1"), ("3", "3"), ("5", "5"), ("7", "7")]


class PastDateConfirm:
    """An event date in the past is a slip more often than not (last year's date, the wrong month): the form warns
    at the date and asks for a confirmation, a checkbox that shows only then, before it saves one. A date that is
    not changed (editing an event already held) asks nothing."""

    def past_date_field(self) -> None:
        self.fields["confirm_past_date"] = forms.BooleanField(
            label=_("Sim, a data já passou: é um torneio já realizado."), required=False, widget=forms.HiddenInput
        )

    def past_date_check(self, data: dict, *, before: dt.date | None = None) -> None:
        day = data.get("date")
        if not isinstance(day, dt.date) or day >= timezone.localdate() or day == before:
            return
        if data.get("confirm_past_date"):
            return
        self.fields["confirm_past_date"].widget = forms.CheckboxInput()  # now shown, to be ticked
        self.add_error(
            "date",
            _(
                "Esta data já passou (%(date)s). Se o torneio já aconteceu, marque a confirmação abaixo e salve de novo; "
                "senão, corrija a data."
            )
            % {"date": day.strftime("%d/%m/%Y")},
        )


class TournamentNewForm(PastDateConfirm, forms.Form):
    starter = forms.ChoiceField(label=_("Modelo"), choices=starter_choices, widget=forms.RadioSelect, initial="aabb")
    name = NameFormField(
        label=_("Nome do torneio"),
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": _("Olimpíada AABB-SP 2024 - Truco")}),
    )
    date = forms.DateField(label=_("Data"), widget=DATE, input_formats=["%Y-%m-%d", "%d/%m/%Y"])
    venue = NameFormField(label=_("Local"), max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.past_date_field()

    def clean(self):
        data = super().clean()
        self.past_date_check(data)
        return data


class TournamentEditForm(PastDateConfirm, limits.ColumnBoundsForm):
    """Every setting of the event; the rule overrides are folded into ``settings``."""

    mao_de_onze_tie = forms.ChoiceField(
        label=_("Mão de onze com as três rodadas empatadas"),
        required=False,
        choices=[DEFAULT, ("opponent", _("a outra dupla marca 3")), ("nobody", _("ninguém marca"))],
    )
    mao_de_ferro_value = forms.ChoiceField(
        label=_("Valor da mão de ferro"), required=False, choices=[DEFAULT, ("1", "1"), ("3", "3")]
    )
    third_place = forms.ChoiceField(
        label=_("3º lugar"),
        required=False,
        choices=[
            DEFAULT,
            ("match", _("jogo de 3º lugar")),
            ("average", _("pela média (FENACEF Art. 7)")),
            ("shared", _("dividido: as duas perdedoras das semifinais ganham bronze")),
        ],
    )

    # online play (docs/regras.md §9.7): which jogos are played on online tables, and the WO tolerance there
    online_mode = forms.ChoiceField(
        label=_("Jogos online"),
        choices=[
            ("none", _("nenhum: todas as mesas são presenciais (uma mesa pode ser online, marcada no jogo)")),
            ("all", _("todos os jogos do evento")),
            ("stages", _("os jogos das fases marcadas abaixo")),
        ],
        initial="none",
        required=False,
        widget=forms.RadioSelect,
    )
    online_stages = forms.MultipleChoiceField(
        label=_("Fases jogadas online"), required=False, choices=[], widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "start_time",
            "venue",
            "city",
            "category",
            "min_age",
            "max_duplas",
            "preset",
            "public_signup",
            "registration_opens",
            "registration_closes",
            "allow_self_scoring",
            "regulation",
            "wo_tolerance_minutes",
        ]
        widgets = {
            "date": DATE,
            "start_time": TIME,
            "registration_opens": DATETIME,
            "registration_closes": DATETIME,
            "regulation": forms.Textarea(attrs={"rows": 6}),
        }
        help_texts = {
            "min_age": _("Idade completa na data do torneio. Vazio: sem idade mínima."),
            "max_duplas": _("Vagas para 2 atletas por dupla; quem passar do limite vai para a lista de espera."),
            "public_signup": _(
                "Os atletas se inscrevem sozinhos pela página do torneio enquanto as inscrições estão abertas."
            ),
            "registration_opens": _("Vazio: abertas desde já."),
            "registration_closes": _("Vazio: até a comissão encerrar."),
        }

    OVERRIDES = ("mao_de_onze_tie", "mao_de_ferro_value", "third_place")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        current = self.instance.settings or {}
        for name in self.OVERRIDES:
            if name in current:
                self.initial[name] = str(current[name])
        for name in ("date", "start_time"):
            self.fields[name].required = True
        self.fields["date"].input_formats = ["%Y-%m-%d", "%d/%m/%Y"]
        self.fields["min_age"].widget.attrs.update(min=0, max=120)
        self.fields["max_duplas"].widget.attrs.update(min=2, max=limits.MAX_DUPLAS)
        self.fields["wo_tolerance_minutes"].widget.attrs.update(min=0, max=WO_TOLERANCE_MAX)
        self.fields["wo_tolerance_minutes"].required = False  # empty: as it was
        stages = list(self.instance.stages.order_by("order").values_list("key", "name")) if self.instance.pk else []
        self.fields["online_stages"].choices = [(key, name or key) for key, name in stages]
        current = event_online(self.instance)
        self.initial["online_mode"] = "stages" if isinstance(current, list) else current
        self.initial["online_stages"] = current if isinstance(current, list) else []
        self.past_date_field()

    def clean_wo_tolerance_minutes(self):
        value = self.cleaned_data.get("wo_tolerance_minutes")
        if value is None:
            return self.instance.wo_tolerance_minutes
        if value > WO_TOLERANCE_MAX:
            raise forms.ValidationError(_("A tolerância é de no máximo %(max)d minutos.") % {"max": WO_TOLERANCE_MAX})
        return value

    def clean_max_duplas(self):
        value = self.cleaned_data.get("max_duplas")
        if value is not None and value < 2:
            raise forms.ValidationError(_("O limite precisa ser de pelo menos 2 duplas."))
        if value is not None and value > limits.MAX_DUPLAS:
            raise forms.ValidationError(
                _("O limite pode ser de no máximo %(max)d duplas.") % {"max": limits.MAX_DUPLAS}
            )
        if value is not None and self.instance.pk:
            formed = self.instance.duplas.count()
            if value < formed:
                raise forms.ValidationError(
                    _("Já há %(n)d duplas formadas: o limite não pode ficar abaixo disso.") % {"n": formed}
                )
        return value

    def clean_min_age(self):
        value = self.cleaned_data.get("min_age")
        if value is not None and value > 120:
            raise forms.ValidationError(_("Idade mínima acima de 120 anos: confira o número."))
        return value

    def clean(self):
        data = super().clean()
        self.past_date_check(data, before=self.instance.date if self.instance.pk else None)
        opens, closes = data.get("registration_opens"), data.get("registration_closes")
        if opens and closes and closes <= opens:
            self.add_error("registration_closes", _("O fim das inscrições precisa ser depois do início."))
        overrides = {k: v for k, v in (self.instance.settings or {}).items() if k not in self.OVERRIDES}
        for name in self.OVERRIDES:
            value = data.get(name)
            if value:
                overrides[name] = int(value) if name == "mao_de_ferro_value" else value
        preset = data.get("preset") or self.instance.preset
        _settings, errors = settings_build(preset=preset, overrides=overrides)
        for error in errors:
            self.add_error(None, worded(Text("%(place)s: %(message)s", place=error.place, message=error.message)))
        data["settings"] = overrides
        # an older form without these fields keeps what the event had
        if "online_mode" not in self.data:
            data["online"] = self.instance.online
            return data
        mode, stages = data.get("online_mode") or "none", data.get("online_stages") or []
        if mode == "stages" and not stages:
            self.add_error("online_stages", _("Marque as fases jogadas online (ou escolha outra opção)."))
        chosen = list(stages) if mode == "stages" else mode
        data["online"] = self.instance.online if chosen == event_online(self.instance) else chosen
        return data

    def changes(self) -> dict:
        data = dict(self.cleaned_data)
        return {name: data[name] for name in (*self.Meta.fields, "settings", "online") if name in data}


class FormatForm(forms.Form):
    KIND = [
        ("knockout", _("só mata-mata")),
        ("groups_knockout", _("grupos e depois mata-mata")),
        ("round_robin", _("todos contra todos (um grupo só)")),
    ]
    METHOD = [
        ("seeded", _("cabeças de chave nas posições de praxe")),
        ("random", _("sorteio")),
        ("fixed", _("eu escolho a posição de cada dupla")),
    ]
    kind = forms.ChoiceField(label=_("Formato"), choices=KIND, widget=forms.RadioSelect)
    group_size = forms.TypedChoiceField(
        label=_("Duplas por grupo (preferido)"),
        coerce=int,
        choices=[(3, "3"), (4, "4"), (5, "5")],
        initial=4,
        help_text=_("Se a conta não fechar, o sorteio propõe grupos de 3 ou 5."),
    )
    per_group = limits.column_integer(
        Stage, "qualify_per_group", label=_("Classificadas por grupo"), min_value=1, max_value=4, initial=2
    )
    best_others = limits.column_integer(
        Stage,
        "qualify_best_others",
        label=_("Melhores demais colocadas"),
        min_value=0,
        max_value=16,
        initial=0,
        help_text=_("Vagas a mais no mata-mata, pelos critérios entre grupos."),
    )
    best_of_groups = forms.ChoiceField(label=_("Melhor de, nos grupos"), choices=BEST_OF, required=False)
    best_of_first = forms.ChoiceField(label=_("Melhor de, 1ª rodada do mata-mata"), choices=BEST_OF, required=False)
    best_of_later = forms.ChoiceField(
        label=_("Melhor de, da 2ª rodada em diante (final e 3º lugar inclusive)"), choices=BEST_OF, required=False
    )
    bracket_method = forms.ChoiceField(label=_("Posições na chave"), choices=METHOD, widget=forms.RadioSelect)

    @classmethod
    def initial_from(cls, fmt: dict) -> dict:
        rounds = fmt.get("best_of_rounds") or {}
        later = fmt.get("best_of_knockout")
        first = rounds.get("1", later)
        return {
            "kind": fmt.get("kind", "knockout"),
            "group_size": fmt.get("group_size", 4),
            "per_group": fmt.get("per_group", 2),
            "best_others": fmt.get("best_others", 0),
            "best_of_groups": str(fmt.get("best_of_groups") or ""),
            "best_of_first": str(first or ""),
            "best_of_later": str(later or ""),
            "bracket_method": fmt.get("bracket_method", "seeded"),
        }

    def clean(self):
        data = super().clean()
        if data.get("best_of_first") and not data.get("best_of_later"):
            self.add_error(
                "best_of_later",
                _("Escolha também o melhor de das rodadas seguintes (ou deixe as duas como no regulamento)."),
            )
        return data

    def format(self) -> dict:
        d = self.cleaned_data
        first = int(d["best_of_first"]) if d.get("best_of_first") else None
        later = int(d["best_of_later"]) if d.get("best_of_later") else None
        fmt = {
            "kind": d["kind"],
            "bracket_method": d["bracket_method"],
            "best_of_knockout": later,
            "best_of_rounds": {"1": first} if first and first != later else {},
        }
        if d["kind"] != "knockout":
            fmt["best_of_groups"] = int(d["best_of_groups"]) if d.get("best_of_groups") else None
        if d["kind"] == "groups_knockout":
            fmt.update(group_size=d["group_size"], per_group=d["per_group"], best_others=d["best_others"])
        return fmt


PRESET_NAMES = list(PRESETS)
