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
catalogue (``locale/en/LC_MESSAGES/django.po``). A message whose words follow a number is written with
``ngettext`` (the singular and plural templates, the number, the parameters), which ``xgettext`` extracts as one
plural entry; the web edge words it with the catalogue's ``ngettext``::

    ngettext("%(n)s ponto", "%(n)s pontos", n, n=n)
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self

__all__ = ["Plural", "Text", "_", "joined", "ngettext", "render"]


PluralTranslate = Callable[[str, str, int], str]  # an ``ngettext``


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

    def worded(self, translate: Callable[[str], str], plural: PluralTranslate | None = None) -> str:
        """The message in another language: its template through ``translate`` (a ``gettext``; a ``Plural``'s
        through ``plural``, an ``ngettext``), then the parameters, each ``Text`` among them worded the same way.
        A plain ``str``, not a ``Text``."""
        return self._fill(translate(self.template), translate, plural)

    def _fill(self, template: str, translate: Callable[[str], str], plural: PluralTranslate | None) -> str:
        if not self.params:
            return str(template)
        return template % {key: render(value, translate, plural) for key, value in self.params.items()}


class Plural(Text):
    """A ``Text`` whose words follow a number (``ngettext``): its Portuguese is the singular template for 1 and
    the plural one for any other number, as gettext says an untranslated message."""

    singular: str
    plural: str
    number: int

    def __new__(cls, singular: str, plural: str, count: int, /, **params: object) -> Self:
        text = super().__new__(cls, singular if count == 1 else plural, **params)
        text.singular, text.plural, text.number = singular, plural, count
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return _plural_rebuilt, (self.singular, self.plural, self.number, dict(self.params))

    def worded(self, translate: Callable[[str], str], plural: PluralTranslate | None = None) -> str:
        template = plural(self.singular, self.plural, self.number) if plural is not None else translate(self.template)
        return self._fill(template, translate, plural)


def _rebuilt(template: str, params: dict[str, object]) -> Text:
    return Text(template, **params)


def _plural_rebuilt(singular: str, plural: str, count: int, params: dict[str, object]) -> Plural:
    return Plural(singular, plural, count, **params)


def render(value: object, translate: Callable[[str], str], plural: PluralTranslate | None = None) -> object:
    """``value`` worded through ``translate`` (and ``plural``) when it is a ``Text``; any other value as it is."""
    return value.worded(translate, plural) if isinstance(value, Text) else value


def _(template: str, /, **params: object) -> Text:
    """A translatable message: ``template`` (Portuguese, ``%(name)s`` parameters) with its ``params``."""
    return Text(template, **params)


def ngettext(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A translatable message whose words follow ``count``: ``singular`` and ``plural`` (Portuguese, ``%(name)s``
    parameters) with its ``params`` (the number among them, named as the templates name it)."""
    return Plural(singular, plural, count, **params)


def joined(parts: Sequence[object], separator: str = ", ") -> Text:
    """``parts`` one after the other with ``separator`` between them, each part worded in its own right."""
    params = {f"p{i}": part for i, part in enumerate(parts)}
    return Text(separator.replace("%", "%%").join(f"%({key})s" for key in params), **params)
