"""Scoring's messages in the reader's language: ``worded`` renders a ``scoring.messages.Text`` through the
site's catalogue (``gettext``, and ``ngettext`` for a message whose words follow a number; the active
language); any other text is returned as it is.

In pt-BR the result is the very text scoring wrote (the templates are the msgids); in English, the
catalogue's translation with the same values. The web edge words every refusal with it (``tournaments.web``).
"""

from django.utils.translation import gettext, ngettext

from scoring.messages import Text

__all__ = ["worded"]


def worded(text: str) -> str:
    """``text`` in the active language when it is a scoring ``Text``; otherwise ``text`` itself."""
    return text.worded(gettext, ngettext) if isinstance(text, Text) else text
