"""How the whole site writes a time, a score and a person in a template: ``{{ value|hora }}`` ("14:00", through
``presenters.labels.time_br``), ``{{ pair|placar }}`` ("14 x 4", through ``presenters.labels.score_text``) and
``{{ user|pessoa }}`` (the name a staff person gave, through ``roles.display_name``; desk pages only)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django import template

from ..presenters.labels import score_text, time_br
from ..roles import display_name

register = template.Library()


@register.filter
def hora(value: dt.time | dt.datetime | None) -> str:
    return time_br(value)


@register.filter
def placar(pair: Sequence[int] | None) -> str:
    """A score given as (first dupla's, second dupla's): "14 x 4"; "" for none."""
    if not pair:
        return ""
    a, b = pair
    return score_text(a, b)


@register.filter
def pessoa(user) -> str:
    """A staff person as the desk names them (``roles.display_name``): "Rita Campos", else the username."""
    return display_name(user)
