"""``{% webcal path %}``: the address a phone's calendar subscribes to (``webcal://`` and the site's host, from
``SITE_URL``), for the links to the calendar feeds (``calendars.feeds``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def webcal(path: str) -> str:
    """``webcal://host[:port]/path``: the feed at ``path`` as a calendar app subscribes to it."""
    return f"webcal://{urlsplit(settings.SITE_URL).netloc}{path}"
