"""Scoring's words for people: Portuguese texts that the web edge can put in the reader's language.

Scoring knows no Django, so it cannot translate; it can say *what* it means. A message is written with
``_``: a template in Portuguese with named ``%(name)s`` parameters and their values::

    _("placar %(a)s x %(b)s não termina a partida: uma dupla precisa chegar a %(target)s", a=a, b=b, target=TARGET)

The result is a ``Text``: a ``str`` whose value is the Portuguese text, rendered at once (so every reader
that compares, joins or prints it gets exactly the Portuguese it always got), which also keeps its
``template`` and ``params``. The web edge (``tournaments.web.worded``) renders it again through the site's
catalogue in the active language: ``gettext(template) % params``. A parameter may itself be a ``Text``
(a piece of wording, such as "1, 3 ou 4"); it is worded the same way.

``_`` is the name ``xgettext`` (Django's ``makemessages``) extracts, so every template reaches the
catalogue (``locale/en/LC_MESSAGES/django.po``).
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self

__all__ = ["Text", "_", "joined", "render"]


class Text(str):
    """A message in Portuguese (its ``str`` value) that remembers its ``template`` and ``params``."""

    template: str
    params: Mapping[str, object]

    def __new__(cls, template: str, /, **params: object) -> Self:
        text = super().__new__(cls, template % params if params else template)
        text.template = template
        text.params = dict(params)
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (self.template, dict(self.params))

    def worded(self, translate: Callable[[str], str]) -> str:
        """The message in another language: its template through ``translate`` (a ``gettext``), then the
        parameters, each ``Text`` among them worded the same way. A plain ``str``, not a ``Text``."""
        template = translate(self.template)
        if not self.params:
            return str(template)
        return template % {key: render(value, translate) for key, value in self.params.items()}


def _rebuilt(template: str, params: dict[str, object]) -> Text:
    return Text(template, **params)


def render(value: object, translate: Callable[[str], str]) -> object:
    """``value`` worded through ``translate`` when it is a ``Text``; any other value as it is."""
    return value.worded(translate) if isinstance(value, Text) else value


def _(template: str, /, **params: object) -> Text:
    """A translatable message: ``template`` (Portuguese, ``%(name)s`` parameters) with its ``params``."""
    return Text(template, **params)


def joined(parts: Sequence[object], separator: str = ", ") -> Text:
    """``parts`` one after the other with ``separator`` between them, each part worded in its own right."""
    params = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(separator.replace("%", "%%").join(f"%({key})s" for key in params), **params)
