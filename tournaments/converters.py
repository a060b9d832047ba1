"""URL parts that can only be a key the site made or accepted, so anything else is a 404 before any query.

``%00``, a text longer than its column or characters no key has never reach
the database (PostgreSQL refuses a NUL in a query: that was a 500). Each
pattern accepts every key the site stores:

- ``jogokey``: a jogo's key, ``j1``, ``j2``, … or what the tournament file gave
  (``interchange.jogos_reader.KEY_PATTERN``, at most ``Jogo.key``'s 60 characters);
- ``maoid``: a mão's id in the API, made by the client (any text but ``/`` and NUL,
  at most ``result_form.MAO_KEY_MAX`` characters) or ``p<partida>m<mão>``;
- ``duplakey``: a dupla's key from the file (any text but NUL, at most ``Dupla.key``'s 60);
- ``linktoken``: a private link's token (``models.new_private_token``: URL-safe base64);
- ``atletakey``: an atleta's key, ``a<id>`` (``atletas.services``; at most ``Atleta.key``'s 20 characters).

Imported by every ``urls`` module that uses them (the import registers them once).
"""

from __future__ import annotations

from django.urls import register_converter

from .result_form import MAO_KEY_MAX

JOGO_KEY_MAX = 60  # Jogo.key (models/results.py)
DUPLA_KEY_MAX = 60  # Dupla.key (models/people.py)
LINK_TOKEN_MIN, LINK_TOKEN_MAX = 8, 40  # new_private_token makes 22 characters; Dupla.token holds 40
ATLETA_KEY_MAX = 20  # Atleta.key (models/atletas.py)


class _Text:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class JogoKeyConverter(_Text):
    regex = rf"[\w.-]{{1,{JOGO_KEY_MAX}}}"


class MaoIdConverter(_Text):
    regex = rf"[^/\x00]{{1,{MAO_KEY_MAX}}}"


class DuplaKeyConverter(_Text):
    regex = rf"[^\x00]{{1,{DUPLA_KEY_MAX}}}"


class LinkTokenConverter(_Text):
    regex = rf"[-A-Za-z0-9_]{{{LINK_TOKEN_MIN},{LINK_TOKEN_MAX}}}"


class AtletaKeyConverter(_Text):
    regex = rf"[A-Za-z0-9]{{1,{ATLETA_KEY_MAX}}}"


register_converter(JogoKeyConverter, "jogokey")
register_converter(MaoIdConverter, "maoid")
register_converter(DuplaKeyConverter, "duplakey")
register_converter(LinkTokenConverter, "linktoken")
register_converter(AtletaKeyConverter, "atletakey")
