"""How the whole site writes a time, a score, a person and a contact in a template: ``{{ value|hora }}`` ("14:00",
through ``presenters.labels.time_br``), ``{{ pair|placar }}`` ("14 x 4", through ``presenters.labels.score_text``),
``{{ user|pessoa }}`` (the name a staff person gave, through ``roles.display_name``; desk pages only), and
``{{ phone|telefone }}`` and ``{{ address|email }}``, which a narrow screen never breaks in the middle of a number,
nor of an address but before its "@" or a "." (desk pages only: contacts are private)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

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


@register.filter
def telefone(phone: str | None) -> SafeString:
    """A phone number kept on one line: "(11) 98000-1000" never breaks at its space or its hyphen."""
    return format_html('<span class="contact-token">{}</span>', phone or "")


@register.filter
def email(address: str | None) -> SafeString:
    """An e-mail address that a line too narrow for it breaks before its "@" or a ".", never inside a word."""
    marked = "".join(f"<wbr>{escape(c)}" if c in "@." else escape(c) for c in address or "")
    return mark_safe(f'<span class="contact-email">{marked}</span>')  # every character escaped above
