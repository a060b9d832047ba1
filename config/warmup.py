"""What a server process loads before its first request: the URLconf (and with it every view module), the
public pages' templates and both catalogues.

Without it the first request of each fresh process pays for them (about half a second: most of the site's
modules are imported by the URLconf). With gunicorn's ``preload_app`` it runs once in the master, before the
workers fork, and they share what it loaded.
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import URLResolver, get_resolver
from django.utils import translation

logger = logging.getLogger(__name__)

# the folders of the pages a spectator, a referee or a dupla opens first
TEMPLATE_FOLDERS = ("tournaments", "sumula", "privatelink")


def _resolvers_fill(resolver) -> None:
    resolver.reverse_dict  # noqa: B018 - built on first use: the URL patterns compiled for reverse()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            _resolvers_fill(pattern)


def server_warm() -> None:
    """Load the URLconf, the public templates and the catalogues (errors are logged, never raised: a page that
    cannot load fails on its own request, with its own message)."""
    _resolvers_fill(get_resolver())  # imports every view module, and readies reverse() for every name
    base = Path(settings.BASE_DIR) / "templates"
    for folder in TEMPLATE_FOLDERS:
        for path in sorted((base / folder).glob("*.html")):
            try:
                get_template(str(path.relative_to(base)))
            except (TemplateDoesNotExist, TemplateSyntaxError) as exc:  # pragma: no cover - a broken template
                logger.warning("warm-up: %s", exc)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            translation.gettext("Classificação")
