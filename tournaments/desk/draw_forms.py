"""Forms of the draw pages: duplas, competition draw (preview and publish), mesas, referees, tiebreak."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..draws.pairing import SEED_LIMIT
from ..draws.tables import MESAS_MAX
from ..limits import column_integer
from ..models import Draw, Dupla, Jogo, Tournament
from ..models.fields import NameFormField
from ..registrations.checks import TEAM_MAX

BYE = ""
ROUND_MAX = 1000  # far beyond any stage's rounds (a group of 16 plays 15; a bracket of 4,096 duplas, 12)


def _id_choices(pairs) -> list[tuple[str, str]]:
    return [("", "—")] + [(str(pk), label) for pk, label in pairs]


class DuplaEditForm(forms.Form):
    name = NameFormField(
        label=_("Nome da dupla"), max_length=200, required=False, help_text=_("Vazio: os nomes dos dois atletas.")
    )
    seed = column_integer(
        Dupla,
        "seed",
        label=_("Cabeça de chave"),
        min_value=1,
        max_value=9999,
        required=False,
        help_text=_("1 = a melhor. Vazio: sem cabeça de chave."),
    )
    team1 = NameFormField(max_length=TEAM_MAX, required=False)
    team2 = NameFormField(max_length=TEAM_MAX, required=False)

    def __init__(self, *args, players=(), **kwargs):
        """``players``: the dupla's two players, whose names label their equipe fields."""
        super().__init__(*args, **kwargs)
        for field, player in zip(("team1", "team2"), players, strict=False):
            self.fields[field].label = gettext("Equipe de %(name)s") % {"name": player.name}
            self.fields[field].help_text = _("A equipe ou o clube (opcional, público).")


class SwapForm(forms.Form):
    player_a = forms.TypedChoiceField(label=_("Atleta"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("troca de dupla com"), coerce=int)
    reason = forms.CharField(label=_("Motivo da troca"), max_length=300)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = _id_choices(players)
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("player_a") and data.get("player_a") == data.get("player_b"):
            self.add_error("player_b", _("Escolha dois atletas diferentes."))
        return data


class DuplaAddForm(forms.Form):
    registration_1 = forms.TypedChoiceField(label=_("Inscrição"), coerce=int)
    registration_2 = forms.TypedChoiceField(
        label=_("com a inscrição"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("Vazio quando a primeira já é uma inscrição em dupla."),
    )

    def __init__(self, *args, waiting=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = _id_choices(waiting)
        self.fields["registration_1"].choices = choices
        self.fields["registration_2"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("registration_1") and data.get("registration_1") == data.get("registration_2"):
            self.add_error("registration_2", _("Escolha duas inscrições diferentes."))
        return data


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Motivo"), max_length=300, widget=forms.Textarea(attrs={"rows": 2}))


class PairingUndoForm(forms.Form):
    """Undo a pairing draw: which one (the newest shown on the page), and why."""

    draw = column_integer(Draw, "id", min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Motivo"), max_length=300, widget=forms.Textarea(attrs={"rows": 2}))


class PreviewForm(forms.Form):
    """What "Publicar" sends back: the preview's roll and seed, its fingerprint, and for a fixed bracket every
    position."""

    seed = column_integer(Draw, "seed", min_value=0, max_value=SEED_LIMIT - 1, widget=forms.HiddenInput)
    check = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    roll = forms.CharField(max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args, positions: int = 0, duplas=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.positions = positions
        choices = [(BYE, _("— folga —"))] + [(key, name) for key, name in duplas]
        for i in range(1, positions + 1):
            self.fields[f"pos_{i}"] = forms.ChoiceField(
                label=_("Posição %(n)d") % {"n": i}, choices=choices, required=False
            )

    def position_fields(self):
        return [self[f"pos_{i}"] for i in range(1, self.positions + 1)]

    def order(self) -> list[str | None] | None:
        if not self.positions:
            return None
        return [self.cleaned_data.get(f"pos_{i}") or None for i in range(1, self.positions + 1)]


class SeedingForm(forms.Form):
    """Where the cabeças de chave of an etapa's draw come from (offered only when the tournament is an etapa)."""

    seeding = forms.ChoiceField(
        label=_("Cabeças de chave"),
        choices=[
            ("current", _("pela ordem atual (as definidas na página Duplas)")),
            ("none", _("nenhuma")),
            ("circuit", _("pelo ranking do circuito")),
            # the força in one sentence for an organizer (DOMAIN §7.3: OpenSkill's mu - 3 sigma, summed over the dupla)
            (
                "forca",
                _(
                    "pela força (OpenSkill): uma nota de cada atleta tirada dos jogos das etapas anteriores, que sobe "
                    "mais ao vencer quem é forte e fica mais baixa para quem jogou pouco, somada nos dois da dupla"
                ),
            ),
        ],
        initial="current",
        widget=forms.RadioSelect,
    )
    seeds = column_integer(  # the seeds 1 to N go to the duplas
        Dupla,
        "seed",
        label=_("Quantas cabeças de chave"),
        min_value=0,
        max_value=9999,
        required=False,
        help_text=_("Pelo ranking ou pela força. Vazio: uma por grupo (na chave, um quarto dela)."),
    )


class MesasForm(forms.Form):
    mesas = column_integer(
        Tournament,
        "mesas",
        label=_("Número de mesas"),
        min_value=1,
        max_value=MESAS_MAX,
        required=False,
        help_text=_("Os jogos de cada rodada se revezam nessas mesas. Vazio: uma mesa por jogo."),
    )

    def __init__(self, *args, shown: int = 0, staff=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.shown = shown
        choices = _id_choices(staff)
        for i in range(1, shown + 1):
            self.fields[f"referee_{i}"] = forms.TypedChoiceField(
                label=_("Árbitro da mesa %(n)d") % {"n": i},
                choices=choices,
                coerce=int,
                required=False,
                empty_value=None,
            )

    def referee_fields(self):
        return [self[f"referee_{i}"] for i in range(1, self.shown + 1)]

    def referees(self) -> dict[int, int | None]:
        count = self.cleaned_data.get("mesas") or 0
        return {i: self.cleaned_data.get(f"referee_{i}") for i in range(1, min(count, self.shown) + 1)}


class JogoRefereeForm(forms.Form):
    referee = forms.TypedChoiceField(label=_("Árbitro"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args, staff=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["referee"].choices = [("", _("o da mesa"))] + [(str(pk), name) for pk, name in staff]


class RoundTimeForm(forms.Form):
    """The time a round is called (the programação page): CharFields refuse NUL, which PostgreSQL cannot store."""

    fase = forms.CharField(label=_("Fase"), max_length=60)  # Stage.key
    rodada = column_integer(Jogo, "round", label=_("Rodada"), min_value=1, max_value=ROUND_MAX)
    horario = forms.CharField(label=_("Horário da rodada"), max_length=20, required=False)


class TiebreakForm(forms.Form):
    stage = forms.CharField(max_length=60)
    group = forms.CharField(max_length=60, required=False)
    duplas = forms.CharField(max_length=5000)

    def dupla_keys(self) -> list[str]:
        return [k for k in self.cleaned_data["duplas"].split(",") if k]
