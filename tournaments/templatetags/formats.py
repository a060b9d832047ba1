"""``{{ value|hora }}``: a time of day as the whole site writes it ("14:00"), through ``presenters.labels.time_br``."""

from __future__ import annotations

import datetime as dt

from django import template

from ..presenters.labels import time_br

register = template.Library()


@register.filter
def hora(value: dt.time | dt.datetime | None) -> str:
    return time_br(value)
