"""How the whole site writes a time and a score in a template: ``{{ value|hora }}`` ("14:00", through
``presenters.labels.time_br``) and ``{{ pair|placar }}`` ("14 x 4", through ``presenters.labels.score_text``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django import template

from ..presenters.labels import score_text, time_br

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
