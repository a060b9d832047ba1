"""Admin forms: each field checked with the importer's rules, with a message saying what is wrong.

Results have no form here: partidas, mãos and a jogo's result fields are read-only in the admin
(``admin/__init__.py``); they change through the súmula (the referee screen and the API).

These checks give clear messages field by field; the whole-tournament check
(``guard.py``) still runs after every save and catches what a single form
cannot see.
"""

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from scoring.rules import best_of_error, settings_build
from scoring.tournament import PREVIOUS

from ..limits import ColumnBoundsForm
from ..models import Draw, Dupla, Group, GroupEntry, Jogo, Player, Registration, Stage, Tournament
from ..wording import worded

MAX_AGE = 120  # as the importer: tournament.min_age
MAX_REGULATION = 20000  # as the importer: tournament.regulation
MAX_SEED = 100000  # a seed beyond any bracket
MAX_MESA = 100000
MAX_ORDER = 1000000


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tournament(form: forms.ModelForm) -> Tournament | None:
    """The tournament the form's object belongs to (cleaned value first, then the instance)."""
    value = form.cleaned_data.get("tournament") if hasattr(form, "cleaned_data") else None
    if isinstance(value, Tournament):
        return value
    return getattr(form.instance, "tournament", None) if form.instance.tournament_id else None


def _key(form: forms.ModelForm, model, scope: dict) -> None:
    """A key: text without surrounding blanks, unique in its scope (the tournament or the stage)."""
    key = form.cleaned_data.get("key")
    if key is None:
        return
    if not key.strip():
        form.add_error("key", "a chave não pode ficar em branco")
        return
    if key != key.strip():
        form.add_error("key", "a chave não pode começar nem terminar com espaço")
        return
    if None in scope.values():
        return
    taken = model.objects.filter(key=key, **scope).exclude(pk=form.instance.pk)
    if taken.exists():
        form.add_error("key", f"a chave {key!r} já é usada por outro registro deste torneio")


def _belongs(form: forms.ModelForm, field: str, tournament: Tournament | None, what: str) -> None:
    value = form.cleaned_data.get(field)
    if value is not None and tournament is not None and value.tournament_id != tournament.pk:
        form.add_error(field, f"{what} pertence a outro torneio ({value.tournament})")


def _range(form: forms.ModelForm, field: str, low: int, high: int, label: str) -> None:
    value = form.cleaned_data.get(field)
    if value is not None and not low <= value <= high:
        form.add_error(field, f"{label} deve ser um número inteiro entre {low} e {high}")


class TournamentForm(ColumnBoundsForm):
    class Meta:
        model = Tournament
        fields = "__all__"

    def clean_settings(self):
        value = self.cleaned_data.get("settings")
        if value in (None, ""):
            return {}
        if not isinstance(value, dict):
            raise ValidationError(
                'os ajustes do regulamento devem ser um objeto JSON, por exemplo {"third_place": "match"}'
            )
        return value

    def clean(self):
        cleaned = super().clean()
        _range(self, "min_age", 0, MAX_AGE, "a idade mínima")
        max_duplas = cleaned.get("max_duplas")
        if max_duplas is not None:
            if max_duplas < 2:
                self.add_error("max_duplas", "o limite de duplas deve ser pelo menos 2")
            elif self.instance.pk and self.instance.duplas.count() > max_duplas:
                self.add_error(
                    "max_duplas", f"o torneio já tem {self.instance.duplas.count()} duplas; o limite não pode ser menor"
                )
        if len(cleaned.get("regulation") or "") > MAX_REGULATION:
            self.add_error("regulation", f"regulamento longo demais (máximo {MAX_REGULATION} caracteres)")
        if "settings" in cleaned and cleaned.get("preset"):
            _, problems = settings_build(preset=cleaned["preset"], overrides=cleaned["settings"])
            for problem in problems:
                self.add_error("settings", worded(str(problem)))
        return cleaned


class PlayerForm(ColumnBoundsForm):
    class Meta:
        model = Player
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        tournament = _tournament(self)
        _key(self, Player, {"tournament": tournament})
        _range(self, "order", 0, MAX_ORDER, "a ordem")
        birth = cleaned.get("birth_date")
        if birth and tournament is not None and tournament.date and tournament.min_age is not None:
            day = tournament.date
            age = day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))
            if age < tournament.min_age:
                self.add_error(
                    "birth_date",
                    f"terá {age} anos em {day:%d/%m/%Y}; a categoria exige a partir de {tournament.min_age} anos",
                )
        return cleaned


def _two_players(form, tournament, *, same: str) -> None:
    """player1 and player2: athletes of this tournament, and not the same one (``same`` says why)."""
    _belongs(form, "player1", tournament, "o atleta")
    _belongs(form, "player2", tournament, "o atleta")
    player1 = form.cleaned_data.get("player1")
    if player1 is not None and player1 == form.cleaned_data.get("player2"):
        form.add_error("player2", same)


class RegistrationForm(ColumnBoundsForm):
    class Meta:
        model = Registration
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        tournament = _tournament(self)
        _two_players(self, tournament, same="o parceiro deve ser outro atleta")
        _range(self, "order", 1, MAX_ORDER, "a ordem de chegada")
        return cleaned


class DuplaForm(ColumnBoundsForm):
    class Meta:
        model = Dupla
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        tournament = _tournament(self)
        _key(self, Dupla, {"tournament": tournament})
        _two_players(self, tournament, same="uma dupla tem dois atletas diferentes")
        _range(self, "seed", 1, MAX_SEED, "a cabeça de chave")
        seed = cleaned.get("seed")
        if (
            seed is not None
            and tournament is not None
            and Dupla.objects.filter(tournament=tournament, seed=seed).exclude(pk=self.instance.pk).exists()
        ):
            self.add_error("seed", f"outra dupla deste torneio já é a cabeça de chave {seed}")
        if cleaned.get("disqualified_reason", "").strip() and not cleaned.get("disqualified"):
            self.add_error("disqualified_reason", "só uma dupla desclassificada tem motivo de desclassificação")
        _range(self, "order", 0, MAX_ORDER, "a ordem")
        return cleaned


def best_of_rounds_problems(value: Any) -> list[str]:
    """Why a stage's ``best_of_rounds`` is not {"round": odd best-of} (rounds from 1), as the importer reads it."""
    if not isinstance(value, dict):
        return ['deve ser um objeto {"rodada": melhor de}, por exemplo {"1": 5, "2": 3}']
    problems = []
    for r, n in value.items():
        if not (isinstance(r, str) and r.isascii() and r.isdigit() and 1 <= int(r) <= 64):
            problems.append(f"rodada {r!r} inválida: use 1 para a primeira rodada, 2 para a seguinte…")
        elif best_of_error(n):
            problems.append(f"rodada {r}: {best_of_error(n)}")
    return problems


class StageForm(ColumnBoundsForm):
    class Meta:
        model = Stage
        fields = "__all__"

    def clean_best_of_rounds(self):
        value = self.cleaned_data.get("best_of_rounds")
        if value in (None, ""):
            return {}
        problems = best_of_rounds_problems(value)
        if problems:
            raise ValidationError(problems)
        return {str(int(r)): n for r, n in value.items()}

    def clean(self):
        cleaned = super().clean()
        tournament = _tournament(self)
        _key(self, Stage, {"tournament": tournament})
        best_of = cleaned.get("best_of")
        if best_of is not None and best_of_error(best_of):
            self.add_error("best_of", worded(best_of_error(best_of)))
        if len(cleaned.get("name") or "") > 120:
            self.add_error("name", "nome longo demais (máximo 120 caracteres)")
        kind = cleaned.get("kind")
        if "entrants" in self.fields:
            self._clean_entrants(cleaned, kind, tournament)
        if kind == Stage.KNOCKOUT and cleaned.get("best_of_rounds") is None:
            cleaned["best_of_rounds"] = {}
        if kind == Stage.GROUPS and cleaned.get("best_of_rounds"):
            self.add_error("best_of_rounds", "só a fase eliminatória tem melhor de por rodada")
        if kind == Stage.KNOCKOUT and (cleaned.get("qualify_per_group") or cleaned.get("qualify_best_others")):
            self.add_error("qualify_per_group", "só a fase de grupos tem classificados por grupo")
        if cleaned.get("draw_method") == "random" and cleaned.get("draw_seed") is None and kind == Stage.KNOCKOUT:
            self.add_error("draw_seed", "o sorteio aleatório da chave precisa de uma semente")
        _range(self, "order", 0, MAX_ORDER, "a ordem")
        return cleaned

    def _clean_entrants(self, cleaned: dict, kind: str | None, tournament: Tournament | None) -> None:
        entrants = cleaned.get("entrants")
        if entrants in (None, ""):
            cleaned["entrants"] = PREVIOUS if kind == Stage.KNOCKOUT else ""
            return
        if entrants == PREVIOUS:
            return
        if kind == Stage.GROUPS:
            self.add_error("entrants", 'as duplas de uma fase de grupos vêm dos grupos: deixe em branco ou "previous"')
        elif not isinstance(entrants, list) or not all(isinstance(e, str) for e in entrants):
            self.add_error("entrants", 'use "previous" ou a lista das chaves das duplas, por exemplo ["d1", "d2"]')
        elif len(set(entrants)) != len(entrants):
            self.add_error("entrants", "uma dupla aparece duas vezes na lista")
        elif len(entrants) < 2:
            self.add_error("entrants", "a chave precisa de pelo menos 2 duplas")
        elif tournament is not None and tournament.pk:
            known = set(Dupla.objects.filter(tournament=tournament).values_list("key", flat=True))
            unknown = [e for e in entrants if e not in known]
            if unknown:
                self.add_error("entrants", f"duplas inexistentes neste torneio: {', '.join(unknown)}")


class GroupForm(ColumnBoundsForm):
    class Meta:
        model = Group
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        stage = cleaned.get("stage") or (self.instance.stage if self.instance.stage_id else None)
        _key(self, Group, {"stage": stage})
        if stage is not None and stage.kind != Stage.GROUPS:
            self.add_error("stage" if "stage" in self.fields else None, "só uma fase de grupos tem grupos")
        _range(self, "order", 0, MAX_ORDER, "a ordem")
        return cleaned


class GroupEntryForm(ColumnBoundsForm):
    class Meta:
        model = GroupEntry
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        dupla, group = cleaned.get("dupla"), self.instance.group if self.instance.group_id else None
        if dupla is not None and group is not None and dupla.tournament_id != group.stage.tournament_id:
            self.add_error("dupla", f"a dupla {dupla.key} pertence a outro torneio")
        elif (
            dupla is not None
            and group is not None
            and GroupEntry.objects.filter(group__stage=group.stage, dupla=dupla).exclude(group=group).exists()
        ):
            self.add_error("dupla", f"a dupla {dupla.key} já está em outro grupo desta fase")
        _range(self, "order", 0, MAX_ORDER, "a ordem")
        return cleaned


class JogoForm(ColumnBoundsForm):
    """Who plays where: stage, group, duplas, mesa. The result (WO, penalties, partidas, the súmula's status,
    confirmations, signature) is read-only in the admin: it changes through the súmula services only."""

    class Meta:
        model = Jogo
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        tournament = _tournament(self)
        stage = cleaned.get("stage") or (self.instance.stage if self.instance.stage_id else None)
        group = cleaned.get("group") if "group" in self.fields else self.instance.group
        if stage is not None and tournament is not None and stage.tournament_id != tournament.pk:
            self.add_error("stage", "a fase pertence a outro torneio")
        if group is not None and stage is not None and group.stage_id != stage.pk:
            self.add_error("group", "o grupo pertence a outra fase")
        if "group" in self.fields and stage is not None and (stage.kind == Stage.GROUPS) != (group is not None):
            self.add_error("group", "um jogo de fase de grupos tem grupo; um de fase eliminatória, não")
        _belongs(self, "dupla_a", tournament, "a dupla A")
        _belongs(self, "dupla_b", tournament, "a dupla B")
        if cleaned.get("dupla_a") is not None and cleaned.get("dupla_a") == cleaned.get("dupla_b"):
            self.add_error("dupla_b", "um jogo tem duas duplas diferentes")
        best_of = cleaned.get("best_of")
        if best_of is not None and best_of_error(best_of):
            self.add_error("best_of", worded(best_of_error(best_of)))
        _range(self, "mesa", 1, MAX_MESA, "a mesa")
        return cleaned


class DrawForm(ColumnBoundsForm):
    class Meta:
        model = Draw
        fields = "__all__"

    def clean(self):
        cleaned = super().clean()
        tournament = _tournament(self)
        kind, stage, group = cleaned.get("kind"), cleaned.get("stage"), cleaned.get("group")
        if stage is not None and tournament is not None and stage.tournament_id != tournament.pk:
            self.add_error("stage", "a fase pertence a outro torneio")
        if group is not None and stage is not None and group.stage_id != stage.pk:
            self.add_error("group", "o grupo pertence a outra fase")
        if kind in (Draw.BRACKET, Draw.TIEBREAK) and stage is None:
            self.add_error("stage", "informe a fase deste sorteio")
        if kind == Draw.BRACKET and stage is not None and stage.kind != Stage.KNOCKOUT:
            self.add_error("stage", "o sorteio da chave é de uma fase eliminatória")
        if kind == Draw.TIEBREAK and stage is not None and stage.kind != Stage.GROUPS:
            self.add_error("stage", "o sorteio de desempate é de uma fase de grupos")
        if "result" in cleaned:
            self._clean_result(cleaned.get("result"), kind, tournament)
        return cleaned

    def _clean_result(self, result: Any, kind: str | None, tournament: Tournament | None) -> None:
        if not isinstance(result, dict):
            self.add_error("result", 'o resultado deve ser um objeto JSON, por exemplo {"order": ["d1", "d2"]}')
            return
        if kind not in (Draw.BRACKET, Draw.TIEBREAK):
            return
        unknown_keys = sorted(set(result) - {"order"})
        if unknown_keys:
            self.add_error(
                "result", f'campos desconhecidos no resultado: {", ".join(map(str, unknown_keys))}; use só "order"'
            )
        order = result.get("order")
        if not isinstance(order, list):
            self.add_error("result", 'informe a ordem sorteada em "order" (uma lista de chaves de duplas)')
            return
        keys = [d for d in order if d is not None]
        if kind == Draw.TIEBREAK and (len(order) < 2 or len(keys) != len(order)):
            self.add_error(
                "result", "o sorteio de desempate lista pelo menos 2 duplas empatadas, da melhor para a pior"
            )
            return
        if not all(isinstance(d, str) for d in keys):
            self.add_error(
                "result",
                "a ordem lista chaves de duplas (texto)" + (" ou null para um bye" if kind == Draw.BRACKET else ""),
            )
            return
        if len(set(keys)) != len(keys):
            self.add_error("result", "uma dupla aparece duas vezes na ordem")
            return
        if kind == Draw.BRACKET and (len(order) < 2 or len(order) & (len(order) - 1)):
            self.add_error("result", "a chave tem 2, 4, 8, 16… posições (null para bye)")
            return
        if tournament is not None:
            known = set(Dupla.objects.filter(tournament=tournament).values_list("key", flat=True))
            strangers = [d for d in keys if d not in known]
            if strangers:
                self.add_error("result", f"duplas inexistentes neste torneio: {', '.join(strangers)}")
