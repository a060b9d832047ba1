"""Every JSON request body the site reads, through one door: ``json_body_read``.

A body is refused, with a message in Portuguese naming the place, when it is
too big (``DATA_UPLOAD_MAX_MEMORY_SIZE``), a form (multipart, or not JSON text under another content type: JSON sent as
``text/plain`` or as curl's default form type is read all the same),
not UTF-8, not JSON, nested deeper than ``JSON_BODY_MAX_DEPTH``, has a key
twice in one object, holds NUL or a lone surrogate in a text or a key (valid
JSON escapes that no PostgreSQL column and no UTF-8 encoder takes), a number
no column holds, or is not an object. The value rules are the tournament
file's (``interchange.jsonfile.json_loads_checked``): one place for them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _

from scoring.errors import RuleViolation
from scoring.messages import Text
from tournaments.interchange.jsonfile import json_depth_exceeded, json_loads_checked
from tournaments.refusals import Refused

JSON_BODY_MAX_DEPTH = 20  # the deepest body the API takes nests 5 levels (a result's partidas > maos)
JSON_BODY_MAX_PROBLEMS = 5  # problems named in one answer (a hostile body may have thousands)
JSON_CONTENT_TYPES = ("application/json",)


def json_body_parse(*, raw: bytes, content_type: str) -> dict[str, Any]:
    """The JSON object in ``raw`` (an empty body is ``{}``); ``Refused`` (bad request) says what is wrong, where."""
    if not raw:
        return {}
    declared = content_type.split(";")[0].strip().lower()
    if declared == "multipart/form-data":  # a form, never JSON
        raise _not_json(content_type)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if declared not in JSON_CONTENT_TYPES:
            raise _not_json(content_type) from exc
        raise Refused.bad_request(_("o corpo não está em UTF-8 (byte %(n)d inválido)") % {"n": exc.start}) from exc
    if declared not in JSON_CONTENT_TYPES and not text.lstrip("\ufeff \t\r\n").startswith(("{", "[")):
        # JSON sent with another type (curl -d sends it as a form) is read all the same; anything else is a form
        raise _not_json(content_type)
    text = text.removeprefix("\ufeff")
    position = json_depth_exceeded(text=text, max_depth=JSON_BODY_MAX_DEPTH)  # before json.loads recurses
    if position is not None:
        raise Refused.bad_request(
            _(
                "corpo JSON inválido na linha %(line)d, coluna %(column)d: aninhamento "
                "profundo demais (o máximo é %(n)d níveis)"
            )
            % {"line": position[0], "column": position[1], "n": JSON_BODY_MAX_DEPTH},
        )
    try:
        data = json_loads_checked(text=text, max_depth=JSON_BODY_MAX_DEPTH, body=True)
    except RuleViolation as exc:
        raise Refused.bad_request(*_problem_messages(exc)) from exc
    if not isinstance(data, dict):
        raise Refused.bad_request(_("o corpo deve ser um objeto JSON ({…}), não %(what)s") % {"what": _json_kind(data)})
    return data


def _not_json(content_type: str) -> Refused:
    return Refused.bad_request(
        _("o corpo deve ser JSON, enviado com Content-Type: application/json (recebido: %(type)s)")
        % {"type": content_type[:80] or _("nenhum")},
    )


def json_body_read(*, request: HttpRequest) -> dict[str, Any]:
    """The JSON object a request carries (see ``json_body_parse``); ``Refused`` (bad request) when unreadable."""
    try:
        raw = request.body
    except RequestDataTooBig as exc:
        raise Refused.bad_request(
            _("corpo grande demais: o máximo é %(n)d bytes") % {"n": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
        ) from exc
    except RawPostDataException as exc:  # a form body someone already parsed: it was not JSON
        raise _not_json(request.content_type or "") from exc
    return json_body_parse(raw=raw, content_type=request.META.get("CONTENT_TYPE", ""))


def _problem_messages(exc: RuleViolation) -> list[str]:
    """The checked parse's problems (``Text``s, worded in the reader's language at the web edge), each at its
    place in the body; a problem of the whole text ("arquivo", to the file reader) at none."""
    messages: list[str] = []
    for problem in exc.errors[:JSON_BODY_MAX_PROBLEMS]:
        place = "" if problem.place in ("", "arquivo") else problem.place
        messages.append(
            Text("'%(place)s': %(message)s", place=place, message=problem.message) if place else problem.message
        )
    return messages


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return _("uma lista")
    if isinstance(value, str):
        return _("um texto")
    if isinstance(value, bool) or value is None:
        return "true/false/null"
    return _("um número")
