"""The súmula API's OpenAPI 3.1 document, made from the same types the API reads and writes, served read-only at
``/api/v1/schema/`` (``api:schema``).

Request bodies are the typed inputs (``tournaments.sumula.commands``, ``tournaments.api.parse``); answers are
``tournaments.api.schemas`` (the súmula's types are ``tournaments.sumula.sheet``'s). A dataclass becomes an object
schema in ``components.schemas`` (named after the class); each field's JSON Schema comes from its type (``str``, ``int``, ``bool``, ``X | None``, ``list[X]``,
``tuple[X, X]``, ``dict[str, X]``, ``Literal[...]``, another dataclass, a ``type`` alias), with its
``metadata["openapi"]`` added (a ``type`` there replaces the one the field's Python type gives: for values the
domain checks under the jogo's lock). An answer's properties are all required (null is written, not left out)
but ``omit_none`` ones, and no other property appears; a request's required properties are the ones the
contract marks ``required``; other properties are ignored, so a request schema stays open.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
import types
import typing
from typing import Any, Literal, TypeAliasType

from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from tournaments.api import parse, schemas
from tournaments.sumula import commands, sheet
from tournaments.web import errors_json

type Json = dict[str, Any]

OPENAPI_VERSION = "3.1.0"
SERVER = "/api/v1"
ALIASES_AS_COMPONENTS = ("Score", "Status")  # type aliases named in the document (others are written inline)
PATH_PARAMETERS = {"slug": "slug", "key": "key", "mao": "id"}  # URL kwarg -> the contract's name
DESCRIPTION = (
    "Staff authenticate with the session of /entrar/ and send the CSRF token in the X-CSRFToken header; duplas "
    'authenticate with their PIN in the body. Errors: status 400/403/404/409/422/429 with {"errors": ["…"]} in '
    "Portuguese; a refused write writes nothing. Anonymous staff writes get 403; a role on another tournament only, "
    "404. Writes authenticated by a PIN alone need no CSRF token. `winner` is always a dupla key (null until "
    "decided). An `id` already recorded always answers 200 with the súmula as it stands, even after the jogo ended."
)
# What each route answers besides its 200, every one of them an answer the server gives (tests/api/test_openapi.py
# drives the server to each, and to no other): 400 a query with a NUL, or a body the API cannot read (not JSON,
# too big, not an object, a value of the wrong type); 403 a staff write without a session of the event's referee or
# organizer (or without the CSRF token), a wrong PIN; 404 no such event (or a draft, to anyone but its staff), jogo,
# via or mão; 405 another method; 409 a write the súmula's state refuses now; 414 an address longer than any the
# site makes; 422 a value that breaks a rule; 429 a PIN locked by wrong tries; 503 the database does not answer.
READ_STATUSES = ("400", "404", "405", "414", "503")
WRITE_STATUSES = ("400", "403", "404", "405", "409", "414", "422", "503")
STAFF: list[dict[str, list[str]]] = [{"session": [], "csrf": []}]
# where the answers' types live: the API's own, and the súmula as the domain reads it (which the API sends as it is)
ANSWER_MODULES = (schemas.__name__, sheet.__name__)


@dataclasses.dataclass(frozen=True)
class Operation:
    """One route of ``tournaments.api.urls`` (by URL name) as the document describes it."""

    method: str
    summary: str
    description: str = ""
    body: type | None = None  # the request's typed input
    answer: str = "Sumula"  # the component of the 200 answer (a write's 201 is a Sumula too)
    write: bool = False
    staff: bool = False
    query: tuple[Json, ...] = ()
    more: tuple[str, ...] = ()  # statuses this route answers beyond the reads' or the writes' (a new mão: 201)
    less: tuple[str, ...] = ()  # statuses of READ_STATUSES / WRITE_STATUSES this route never answers


OPERATIONS: dict[str, Operation] = {
    "jogos": Operation(
        "get",
        "every jogo (anyone)",
        "With the ETag of the last answer in If-None-Match, and no jogo changed since: 304, no body.",
        answer="JogosList",
        more=("304",),
    ),
    "jogo": Operation(
        "get",
        "the súmula (anyone); ?via=N an earlier via",
        query=({"name": "via", "in": "query", "required": False, "schema": {"type": "integer", "minimum": 1}},),
    ),
    "maos": Operation(
        "post",
        "appends a mão to the partida being played (referee, organizer)",
        "201 and the súmula; the same id again → 200, nothing added. Breaks a rule → 422. Jogo ended, confirmed or "
        "signed → 409.",
        body=commands.MaoAdd,
        write=True,
        staff=True,
        more=("201",),
    ),
    "mao": Operation(
        "delete",
        "undoes the last mão while no dupla has confirmed (referee, organizer)",
        "200 and the súmula; a mão that is not the last, or after a confirmation, 409.",
        write=True,
        staff=True,
        less=("422",),  # no body: nothing to break a rule
    ),
    "resultado": Operation(
        "post",
        "the whole result at once, in any form a jogo takes in the file (referee, organizer)",
        "partidas as scores, walkover, penalty; only while no mão is recorded.",
        body=commands.ResultSet,
        write=True,
        staff=True,
    ),
    "confirmacao": Operation(
        "post",
        "the dupla confirms, or contests with a reason (PIN in the body, no CSRF token)",
        "Only once the result is complete (before: 409). `via` is the via the dupla saw: another via → 409, nothing "
        "written. Wrong PIN → 403; the 6th wrong PIN for that dupla within 10 minutes, and every try for the next "
        "10 minutes, even with the right PIN → 429.",
        body=parse.Confirmation,
        write=True,
        more=("429",),
    ),
    "homologacao": Operation(
        "post",
        "signs that via once both duplas confirmed it (referee, organizer)",
        'Another via → 409; with a contest or a missing confirmation it also needs "reason" (the referee decided).',
        body=parse.Signature,
        write=True,
        staff=True,
    ),
    "correcao": Operation(
        "post",
        "replaces the result with a new via (referee, organizer)",
        '{"reason": "…", <result>}: via + 1, with its via_reason; the old via stays readable; confirmations start '
        "again.",
        body=commands.Correction,
        write=True,
        staff=True,
    ),
    "penalidade": Operation(
        "post",
        "perda da partida or perda do jogo, with its reason (README, an addition to the contract)",
        body=commands.Penalty,
        write=True,
        staff=True,
    ),
    "schema": Operation("get", "this document (OpenAPI 3.1, JSON)", answer="OpenAPI"),
}

OPERATION_IDS = {
    "jogos": "jogos_list",
    "jogo": "jogo_detail",
    "maos": "mao_add",
    "mao": "mao_undo",
    "resultado": "result_set",
    "confirmacao": "confirmation",
    "homologacao": "homologation",
    "correcao": "correction",
    "penalidade": "penalty",
    "schema": "schema",
}


# --- types -> JSON Schema ---------------------------------------------------------------------------------


class _Components:
    """The document's ``components.schemas``, filled as types are met."""

    def __init__(self) -> None:
        self.schemas: dict[str, Json] = {}

    def ref(self, name: str) -> Json:
        return {"$ref": f"#/components/schemas/{name}"}

    def of(self, tp: Any) -> Json:
        """The JSON Schema of the Python type ``tp``."""
        if isinstance(tp, TypeAliasType):
            if tp.__name__ in ALIASES_AS_COMPONENTS:
                if tp.__name__ not in self.schemas:
                    self.schemas[tp.__name__] = {}  # reserved first: an alias may name itself
                    self.schemas[tp.__name__] = self.of(tp.__value__)
                return self.ref(tp.__name__)
            return self.of(tp.__value__)
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            return self.model(tp)
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin in (types.UnionType, typing.Union):
            present = [a for a in args if a is not type(None)]
            inner = self.of(present[0] if len(present) == 1 else typing.Union[tuple(present)])  # noqa: UP007
            if len(present) < len(args):
                return _nullable(inner)
            return inner
        if origin is Literal:
            return {"type": _json_type(args[0]), "enum": list(args)}
        if origin is list:
            return {"type": "array", "items": self.of(args[0])}
        if origin is tuple:
            if len(set(args)) != 1:
                raise TypeError(f"a tuple of one type only: {tp}")
            if args == (int, int):
                score: Json = {"type": "array", "items": {"type": "integer", "minimum": 0}}
                return score | {"minItems": 2, "maxItems": 2}
            return {"type": "array", "items": self.of(args[0]), "minItems": len(args), "maxItems": len(args)}
        if origin is dict:
            return {"type": "object", "additionalProperties": self.of(args[1])}
        if tp is object or tp is Any:
            return {}
        return {"type": _json_type(tp)}

    def model(self, cls: type, *, answer: bool | None = None) -> Json:
        """A dataclass as a component (its ``$ref``)."""
        name = cls.__name__
        if name not in self.schemas:
            self.schemas[name] = {}
            self.schemas[name] = self.object(cls, answer=cls.__module__ in ANSWER_MODULES if answer is None else answer)
        return self.ref(name)

    def object(self, cls: type, *, answer: bool) -> Json:
        properties, required = self.properties(cls, answer=answer)
        out: Json = {"type": "object"}
        if cls.__doc__ and not cls.__doc__.startswith(f"{cls.__name__}("):
            out["description"] = " ".join(cls.__doc__.split())
        out["properties"] = properties
        if required:
            out["required"] = required
        if answer:
            out["additionalProperties"] = False
        return out

    def properties(self, cls: type, *, answer: bool) -> tuple[Json, list[str]]:
        hints = typing.get_type_hints(cls)
        properties: Json = {}
        required: list[str] = []
        for f in dataclasses.fields(cls):
            if f.metadata.get("flatten"):  # a part whose properties sit beside this object's own
                inner, inner_required = self.properties(hints[f.name], answer=answer)
                properties |= inner
                required += inner_required
                continue
            extra = dict(f.metadata.get("openapi", {}))
            must = extra.pop("required", False)
            schema = {} if "type" in extra else self.of(hints[f.name])
            if "$ref" in schema and extra:
                schema = {"allOf": [schema]}
            properties[f.name] = schema | extra
            if (answer and not f.metadata.get("omit_none")) or (not answer and must):
                required.append(f.name)
        return properties, required


def _nullable(schema: Json) -> Json:
    kind = schema.get("type")
    if isinstance(kind, str) and "$ref" not in schema:
        out = schema | {"type": [kind, "null"]}
        if "enum" in schema:
            out["enum"] = [*schema["enum"], None]
        return out
    return {"anyOf": [schema, {"type": "null"}]}


def _json_type(tp: Any) -> str:
    if isinstance(tp, bool) or tp is bool:
        return "boolean"
    if isinstance(tp, int) or tp is int:
        return "integer"
    if isinstance(tp, float) or tp is float:
        return "number"
    if isinstance(tp, str) or tp is str:
        return "string"
    raise TypeError(f"no JSON Schema type for {tp!r}")


# --- the document ----------------------------------------------------------------------------------------


def _routes() -> list[tuple[str, str]]:
    """(URL name, OpenAPI path) of every route of ``tournaments.api.urls``, in its order."""
    api = next(
        r for r in get_resolver().url_patterns if isinstance(r, URLResolver) and getattr(r, "namespace", None) == "api"
    )
    out = []
    for pattern in api.url_patterns:
        if isinstance(pattern, URLPattern) and pattern.name:
            route = re.sub(
                r"<(?:\w+:)?(\w+)>", lambda m: "{" + PATH_PARAMETERS[m.group(1)] + "}", "/" + str(pattern.pattern)
            )
            out.append((pattern.name, route))
    return out


def _parameter(name: str) -> Json:
    return {"$ref": f"#/components/parameters/{name}"}


def operation_statuses(operation: Operation) -> list[str]:
    """Every status ``operation`` answers (its 200 and the rest), in order."""
    base = (
        ("400", "405", "414") if operation.answer == "OpenAPI" else WRITE_STATUSES if operation.write else READ_STATUSES
    )
    return sorted({"200", *base, *operation.more} - set(operation.less))


def _responses(operation: Operation) -> Json:
    answer = {"$ref": f"#/components/responses/{operation.answer}"}
    out: Json = {}
    for status in operation_statuses(operation):
        if status in ("200", "201"):
            out[status] = answer
        elif status == "304":
            out[status] = {"description": "not modified: the answer the ETag in If-None-Match names still holds"}
        else:
            out[status] = {"$ref": "#/components/responses/Error"}
    return out


def document_build() -> Json:
    """The OpenAPI document of the súmula API."""
    components = _Components()
    answers = {
        name: components.model(cls) for name, cls in (("JogosList", schemas.JogosList), ("Sumula", schemas.Sumula))
    }
    components.model(schemas.Errors)
    paths: Json = {}
    for name, route in _routes():
        operation = OPERATIONS[name]
        item: Json = paths.setdefault(route, {})
        names = re.findall(r"\{(\w+)\}", route)
        if names:
            item["parameters"] = [_parameter(n) for n in names]
        spec: Json = {"operationId": OPERATION_IDS[name], "summary": operation.summary}
        if operation.description:
            spec["description"] = operation.description
        if operation.query:
            spec["parameters"] = list(operation.query)
        if operation.staff:
            spec["security"] = copy.deepcopy(STAFF)
        if operation.body is not None:
            body = components.model(operation.body, answer=False)
            spec["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
        spec["responses"] = _responses(operation)
        item[operation.method] = spec
    responses: Json = {
        "Error": _content('{"errors": ["…"]} in Portuguese', components.ref("Errors")),
        "Sumula": _content("the súmula as it stands", answers["Sumula"]),
        "JogosList": _content("every jogo", answers["JogosList"]),
        "OpenAPI": _content("this document", {"type": "object", "required": ["openapi", "paths"]}),
    }
    return {
        "openapi": OPENAPI_VERSION,
        "info": {"title": "Zap, súmula API", "version": "1", "description": DESCRIPTION},
        "servers": [{"url": SERVER}],
        "paths": paths,
        "components": {
            "securitySchemes": {
                "session": {"type": "apiKey", "in": "cookie", "name": "sessionid"},
                "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRFToken"},
            },
            "parameters": {
                "slug": _path_parameter("slug", {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}),
                "key": _path_parameter("key", {"type": "string", "minLength": 1}),
                "id": _path_parameter("id", {"type": "string", "minLength": 1}),
            },
            "responses": responses,
            "schemas": dict(sorted(components.schemas.items())),
        },
    }


def _content(description: str, schema: Json) -> Json:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _path_parameter(name: str, schema: Json) -> Json:
    return {"name": name, "in": "path", "required": True, "schema": schema}


@functools.cache
def document() -> Json:
    """The document, built once per process (the types do not change while it runs)."""
    return document_build()


@csrf_exempt
def schema(request: HttpRequest) -> JsonResponse:
    """``GET /api/v1/schema/``: the OpenAPI document (JSON). Read-only as ``tournaments.web.read_only`` pages are
    (GET and HEAD, anything else 405 with the API's ``{"errors": [...]}``, no CSRF check), but never gzipped: the
    API's answers are plain JSON, and clients that fetch the document in-process (schemathesis through WSGI) do not
    undo a compression."""
    if request.method not in ("GET", "HEAD"):
        allowed = "GET, HEAD"
        refused = errors_json(
            405,
            _("método %(method)s não aceito aqui: use %(allowed)s") % {"method": request.method, "allowed": allowed},
        )
        refused["Allow"] = allowed
        return refused
    response = JsonResponse(document(), json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "public, max-age=300"
    return response
