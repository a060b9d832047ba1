"""Rule presets (docs/regras.md §6) and the per-tournament overrides."""

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import RuleError
from .messages import _

MAO_DE_ONZE_TIE_CHOICES = ("opponent", "nobody")
THIRD_PLACE_CHOICES = ("match", "average", "shared")
FORMAT_CHOICES = ("groups_knockout", "knockout")
MANILHA_CHOICES = ("fixed", "variable")


@dataclass(frozen=True)
class ClassPoints:
    """Classification points per group jogo (docs/regras.md §4)."""

    clean_win: int = 3  # won without conceding a partida
    clean_loss: int = 0
    close_win: int = 2  # won conceding partidas
    close_loss: int = 1
    walkover_win: int = 3
    walkover_loss: int = 0


@dataclass(frozen=True)
class RuleSettings:
    preset: str
    format: str
    best_of_groups: int
    best_of_first_knockout: int
    best_of_later_knockout: int
    manilha: str
    deck: str
    mao_de_onze_tie: str
    mao_de_ferro_value: int
    third_place: str
    class_points: ClassPoints = ClassPoints()


PRESETS: dict[str, RuleSettings] = {
    "fenacef": RuleSettings(
        preset="fenacef",
        format="groups_knockout",
        best_of_groups=3,
        best_of_first_knockout=5,
        best_of_later_knockout=5,
        manilha="fixed",
        deck="sujo",
        mao_de_onze_tie="opponent",
        mao_de_ferro_value=1,
        third_place="average",
    ),
    "aabb": RuleSettings(
        preset="aabb",
        format="knockout",
        best_of_groups=3,
        best_of_first_knockout=5,
        best_of_later_knockout=3,
        manilha="variable",
        deck="sujo",
        mao_de_onze_tie="opponent",
        mao_de_ferro_value=1,
        third_place="match",
    ),
    "online": RuleSettings(
        preset="online",
        format="groups_knockout",
        best_of_groups=3,
        best_of_first_knockout=3,
        best_of_later_knockout=3,
        manilha="variable",
        deck="sujo",
        mao_de_onze_tie="nobody",
        mao_de_ferro_value=1,
        third_place="match",
    ),
}

PRESET_LABELS = {"fenacef": "FENACEF 2023", "aabb": "AABB / Paulista", "online": "Truco Online"}

# Settings that a tournament file may override, with the values each accepts.
_OVERRIDABLE: dict[str, tuple[Any, ...] | str] = {
    "format": FORMAT_CHOICES,
    "best_of_groups": "best_of",
    "best_of_first_knockout": "best_of",
    "best_of_later_knockout": "best_of",
    "manilha": MANILHA_CHOICES,
    "mao_de_onze_tie": MAO_DE_ONZE_TIE_CHOICES,
    "mao_de_ferro_value": (1, 3),
    "third_place": THIRD_PLACE_CHOICES,
}
_CLASS_POINT_NAMES = tuple(f.name for f in fields(ClassPoints))


def best_of_error(value: Any) -> str | None:
    """Why ``value`` is not a valid best-of (an odd positive whole number), or None."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or value % 2 == 0:
        return _("melhor de %(value)s não é válido: use um número ímpar positivo (1, 3, 5, 7…)", value=repr(value))
    return None


def wins_needed(best_of: int) -> int:
    """Partidas a dupla must win to take a best-of-N jogo: ⌈N/2⌉."""
    return best_of // 2 + 1


def settings_build(
    *, preset: Any, overrides: Mapping[str, Any] | None = None
) -> tuple[RuleSettings | None, list[RuleError]]:
    """The settings of a preset with a tournament's overrides, or the problems found."""
    errors: list[RuleError] = []
    if not isinstance(preset, str) or preset not in PRESETS:
        options = ", ".join(PRESETS)
        return None, [
            RuleError(
                "preset",
                _("preset %(preset)s desconhecido; use um de: %(options)s", preset=repr(preset), options=options),
            )
        ]
    settings = PRESETS[preset]
    if overrides is None:
        return settings, []
    if not isinstance(overrides, Mapping):
        return None, [RuleError("settings", _("settings deve ser um objeto JSON"))]
    changes: dict[str, Any] = {}
    class_changes: dict[str, Any] = {}
    for name, value in overrides.items():
        place = f"settings.{name}"
        if name in _OVERRIDABLE:
            allowed = _OVERRIDABLE[name]
            if allowed == "best_of":
                problem = best_of_error(value)
                if problem:
                    errors.append(RuleError(place, problem))
                    continue
            elif not any(type(value) is type(option) and value == option for option in allowed):
                options = ", ".join(repr(v) for v in allowed)
                errors.append(
                    RuleError(
                        place, _("valor %(value)s inválido; use um de: %(options)s", value=repr(value), options=options)
                    )
                )
                continue
            changes[name] = value
        elif name == "class_points" and isinstance(value, Mapping):
            for key, points in value.items():
                if key not in _CLASS_POINT_NAMES:
                    errors.append(RuleError(f"{place}.{key}", _("critério de pontos classificatórios desconhecido")))
                elif isinstance(points, bool) or not isinstance(points, int) or points < 0:
                    errors.append(RuleError(f"{place}.{key}", _("os pontos classificatórios devem ser um inteiro ≥ 0")))
                else:
                    class_changes[key] = points
        elif name == "class_points":
            errors.append(RuleError(place, _("class_points deve ser um objeto com os pontos de cada resultado")))
        elif name in ("deck", "preset"):
            if value != getattr(settings, name):
                errors.append(
                    RuleError(
                        place,
                        _(
                            "%(name)s não pode ser alterado (é %(value)s)",
                            name=name,
                            value=repr(getattr(settings, name)),
                        ),
                    )
                )
        else:
            errors.append(RuleError(place, _("configuração desconhecida")))
    if errors:
        return None, errors
    if class_changes:
        changes["class_points"] = replace(settings.class_points, **class_changes)
    return replace(settings, **changes), []


def settings_overrides(settings: RuleSettings) -> dict[str, Any]:
    """The values in which ``settings`` differs from its preset (what a file must carry)."""
    base = PRESETS[settings.preset]
    out: dict[str, Any] = {}
    for name in _OVERRIDABLE:
        if getattr(settings, name) != getattr(base, name):
            out[name] = getattr(settings, name)
    if settings.class_points != base.class_points:
        out["class_points"] = {
            f.name: getattr(settings.class_points, f.name)
            for f in fields(ClassPoints)
            if getattr(settings.class_points, f.name) != getattr(base.class_points, f.name)
        }
    return out


def settings_as_dict(settings: RuleSettings) -> dict[str, Any]:
    """Every value, for storage (JSON)."""
    out = {f.name: getattr(settings, f.name) for f in fields(RuleSettings) if f.name != "class_points"}
    out["class_points"] = {f.name: getattr(settings.class_points, f.name) for f in fields(ClassPoints)}
    return out
