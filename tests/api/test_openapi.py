"""The súmula API's OpenAPI document (``tournaments.api.openapi``, made from the API's types, served at
/api/v1/schema/): valid OpenAPI 3.1; every path in it is a URL of the site's API and every URL of the API is in it;
it says what docs/contrato.md's "Súmula API" says (paths, methods, statuses, the bodies' properties); and the
API's answers are exactly its types (the serializer writes what the súmula read holds, field by field)."""

import copy
import json
import re

import pytest
import schemathesis
from django.urls import Resolver404, get_resolver, resolve, reverse

from tournaments.api.openapi import document, document_build
from tournaments.api.serialize import sumula_json
from tournaments.sumula.sheet import AnswerDetail, Mao, MaoOptions, Partida, PenaltyInfo, Sumula

SAMPLE = {"slug": "copa-2026", "key": "j1", "id": "mao-1"}
# every route: 400 (a NUL in the query, a body that is no JSON object), 405, 414 (a too long address), and where the
# database is read 404 and 503; a write: 403, 409, 422 (the contract's errors); a new mão 201; a PIN locked 429
READ = {"200", "400", "404", "405", "414", "503"}
WRITE = {"200", "400", "403", "404", "405", "409", "414", "422", "503"}
# The contract (docs/contrato.md, "Súmula API"; formerly tests/openapi/sumula.yaml, written by hand from it):
# path -> method, statuses, the body's properties and which of them are required.
CONTRACT = {
    "/torneios/{slug}/jogos/": ("get", READ | {"304"}, None, None),
    "/torneios/{slug}/jogos/{key}/": ("get", READ, None, None),
    "/torneios/{slug}/jogos/{key}/maos/": (
        "post",
        WRITE | {"201"},
        {"id", "to", "points", "how", "reason"},
        {"id", "to", "points"},
    ),
    "/torneios/{slug}/jogos/{key}/maos/{id}/": ("delete", WRITE - {"422"}, None, None),
    "/torneios/{slug}/jogos/{key}/resultado/": (
        "post",
        WRITE,
        {"id", "partidas", "walkover", "walkover_reason", "penalty"},
        set(),
    ),
    "/torneios/{slug}/jogos/{key}/confirmacao/": (
        "post",
        WRITE | {"429"},
        {"dupla", "pin", "via", "accept", "reason"},
        {"dupla", "pin", "via", "accept"},
    ),
    "/torneios/{slug}/jogos/{key}/homologacao/": ("post", WRITE, {"via", "reason"}, {"via"}),
    "/torneios/{slug}/jogos/{key}/correcao/": (
        "post",
        WRITE,
        {"id", "reason", "partidas", "walkover", "walkover_reason", "penalty"},
        {"reason"},
    ),
    "/torneios/{slug}/jogos/{key}/penalidade/": (
        "post",
        WRITE,
        {"id", "scope", "lost_by", "reason"},
        {"id", "scope", "lost_by", "reason"},
    ),
    "/schema/": ("get", {"200", "400", "405", "414"}, None, None),
}
ANSWERS = {
    "JogoRow": {"key", "stage", "group", "round", "mesa", "duplas", "status", "score", "current"},
    "Sumula": {"key", "duplas", "best_of", "status", "via", "partidas", "score", "winner", "confirmations", "version"},
    "Partida": {"maos", "score", "winner"},
    "Mao": {"id", "score"},
}


def _schema() -> dict:
    return document()


def _component(ref: dict) -> dict:
    return _schema()["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]


def test_the_schema_is_valid_openapi_3():
    schema = schemathesis.openapi.from_dict(_schema())
    schema.validate()  # the OpenAPI 3.1 meta-schema; raises on any error
    assert _schema()["openapi"].startswith("3.1.")
    assert len([r.ok() for r in schema.get_all_operations()]) == 10


def test_the_validity_check_catches_a_broken_schema():
    broken = copy.deepcopy(_schema())
    broken["paths"]["/torneios/{slug}/jogos/"]["get"]["responses"]["200"] = {"description": 5}
    with pytest.raises(Exception):
        schemathesis.openapi.from_dict(broken).validate()


def test_the_document_is_made_the_same_each_time():
    assert document_build() == document_build() == _schema()


@pytest.mark.parametrize("path", sorted(_schema()["paths"]))
def test_every_path_of_the_schema_is_a_url_of_the_api(path):
    base = _schema()["servers"][0]["url"]
    url = base + re.sub(r"\{(\w+)\}", lambda m: SAMPLE[m.group(1)], path)
    try:
        match = resolve(url)
    except Resolver404:
        pytest.fail(f"{path}: {url} is no URL of the site")
    assert match.namespace == "api"
    operations = {m.upper() for m in _schema()["paths"][path] if m in ("get", "post", "delete", "put", "patch")}
    assert operations


def test_every_url_of_the_api_is_in_the_schema():
    paths = {re.sub(r"\{\w+\}", "{}", p) for p in _schema()["paths"]}
    api = next(r for r in get_resolver().url_patterns if getattr(r, "namespace", None) == "api")
    for pattern in api.url_patterns:
        route = re.sub(r"<(?:\w+:)?\w+>", "{}", "/" + str(pattern.pattern))
        assert route in paths, f"/api/v1{route} ({pattern.name}) is missing from the OpenAPI document"


@pytest.mark.parametrize("path", sorted(CONTRACT))
def test_the_document_says_what_the_contract_says(path):
    method, statuses, properties, required = CONTRACT[path]
    item = _schema()["paths"][path]
    assert [m for m in item if m != "parameters"] == [method]
    operation = item[method]
    assert set(operation["responses"]) == statuses
    body = operation.get("requestBody")
    if properties is None:
        assert body is None
        return
    schema = _component(body["content"]["application/json"]["schema"])
    assert set(schema["properties"]) == properties
    assert set(schema.get("required", [])) == required


def test_the_answers_name_what_the_contract_names():
    schemas = _schema()["components"]["schemas"]
    for name, properties in ANSWERS.items():
        assert properties <= set(schemas[name]["properties"]), name
        assert properties <= set(schemas[name]["required"]), name
        assert schemas[name]["additionalProperties"] is False  # the serializer writes these and nothing else


def test_confirmations_and_signatures_carry_the_via():
    """The contract (issue 21): confirmacao and homologacao bodies say which via they are for."""
    paths = _schema()["paths"]
    for action in ("confirmacao", "homologacao"):
        body = paths[f"/torneios/{{slug}}/jogos/{{key}}/{action}/"]["post"]["requestBody"]
        assert "via" in _component(body["content"]["application/json"]["schema"])["required"]


def test_the_site_serves_the_document_read_only(client):
    url = reverse("api:schema")
    assert url == "/api/v1/schema/"
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert json.loads(response.content) == json.loads(json.dumps(_schema()))
    assert client.head(url).status_code == 200
    assert "Content-Encoding" not in client.get(url, HTTP_ACCEPT_ENCODING="gzip")  # schemathesis reads it as is
    for method in ("post", "put", "delete", "patch"):
        refused = getattr(client, method)(url)
        assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD"


SUMULA = {
    "key": "j1",
    "stage": "grupos",
    "group": "A",
    "round": None,
    "mesa": 2,
    "duplas": ["d1", "d2"],
    "best_of": 3,
    "status": "in_progress",
    "via": 1,
    "via_reason": None,
    "vias": 1,
    "replaced_at": None,
    "partidas": [
        {
            "number": 1,
            "maos": [
                {"id": "m-1", "to": 0, "points": 1, "how": "played", "score": [1, 0]},
                {"id": "m-2", "to": 1, "points": 3, "how": "penalty", "score": [1, 3], "reason": "4 cartas"},
            ],
            "score": [1, 3],
            "finished": False,
            "winner": None,
        },
        {
            "number": 2,
            "maos": [],
            "score": [0, 12],
            "finished": True,
            "winner": "d2",
            "penalty": {"lost_by": "d1", "reason": "atraso"},
        },
    ],
    "score": [0, 1],
    "winner": None,
    "walkover": None,
    "penalty": None,
    "confirmations": {"d1": None, "d2": "confirmed"},
    "confirmation_details": {
        "d1": None,
        "d2": {"answer": "confirmed", "reason": None, "at": "2026-01-01", "by": "pin"},
    },
    "signed": None,
    "version": 7,
    "current": [1, 3],
    "options": {
        "score": [1, 3],
        "situation": "normal",
        "played": [1, 3],
        "ran": [1],
        "refuse_by": None,
        "tie": True,
        "penalty": [1, 3],
    },
}


SUMULA_READ = Sumula(
    key="j1",
    stage="grupos",
    group="A",
    round=None,
    mesa=2,
    duplas=("d1", "d2"),
    best_of=3,
    status="in_progress",
    via=1,
    via_reason=None,
    vias=1,
    replaced_at=None,
    partidas=[
        Partida(
            number=1,
            maos=[
                Mao(id="m-1", to=0, points=1, how="played", score=(1, 0)),
                Mao(id="m-2", to=1, points=3, how="penalty", score=(1, 3), reason="4 cartas"),
            ],
            score=(1, 3),
            finished=False,
            winner=None,
        ),
        Partida(
            number=2,
            maos=[],
            score=(0, 12),
            finished=True,
            winner="d2",
            penalty=PenaltyInfo(lost_by="d1", reason="atraso"),
        ),
    ],
    score=(0, 1),
    winner=None,
    walkover=None,
    walkover_reason=None,
    penalty=None,
    confirmations={"d1": None, "d2": "confirmed"},
    confirmation_details={"d1": None, "d2": AnswerDetail(answer="confirmed", reason=None, at="2026-01-01", by="pin")},
    signed=None,
    version=7,
    current=(1, 3),
    options=MaoOptions(
        score=(1, 3), situation="normal", played=[1, 3], ran=[1], refuse_by=None, tie=True, penalty=[1, 3]
    ),
)


def test_the_sumula_answer_is_the_sumula_read_field_by_field():
    """Absent stays absent (a mão's reason, a partida's penalty), null stays null, the order is the read's."""
    out = sumula_json(SUMULA_READ)
    assert json.dumps(out) == json.dumps(SUMULA)


# --- the statuses: the document declares every status each route answers, and only those ------------------------


def _declared() -> dict[str, set[str]]:
    """operationId -> the statuses the document declares."""
    out = {}
    for item in _schema()["paths"].values():
        for method, operation in item.items():
            if method != "parameters":
                out[operation["operationId"]] = set(operation["responses"])
    return out


class _Driver:
    """Sends requests to the API as a client would and notes each route's answers (by operationId)."""

    def __init__(self, slug: str):
        from django.test import Client

        self.slug = slug
        self.seen: dict[str, set[str]] = {}
        self.anonymous = Client()

    def send(self, client, name: str, status: int, method: str, url: str, body=None, **headers):
        if body is None:
            response = getattr(client, method)(url, **headers)
        elif isinstance(body, bytes | str):
            response = getattr(client, method)(url, data=body, content_type="application/json", **headers)
        else:
            response = getattr(client, method)(url, data=json.dumps(body), content_type="application/json", **headers)
        assert response.status_code == status, (name, method, url, body, response.status_code, response.content[:300])
        if status != 304:
            assert response["Content-Type"] == "application/json", (name, response["Content-Type"])
        self.seen.setdefault(name, set()).add(str(status))
        return response


@pytest.mark.django_db
def test_every_route_answers_every_status_the_document_declares_and_no_other(cup, ref, monkeypatch):
    from django.db import OperationalError

    from tests.support.sumula import PIN, answer, api, jogo_between, play, sign
    from tournaments.sumula import pins

    s = cup.slug
    drive = _Driver(s)
    jogos = {pair: jogo_between(cup, *pair) for pair in (("d1", "d4"), ("d2", "d3"), ("d1", "d2"), ("d3", "d4"))}
    live, fresh, decided, other = jogos.values()
    routes = {  # name -> (method, url, a body the route takes)
        "jogos_list": ("get", api(s), None),
        "jogo_detail": ("get", api(s, live), None),
        "mao_add": ("post", api(s, live, "maos"), {"id": "m-1", "to": 0, "points": 1}),
        "mao_undo": ("delete", api(s, live, "maos") + "m-1/", None),
        "result_set": ("post", api(s, fresh, "resultado"), {"partidas": [[12, 3], [12, 4]]}),
        "confirmation": ("post", api(s, decided, "confirmacao"), {"dupla": "d1", "pin": "1", "via": 1, "accept": True}),
        "homologation": ("post", api(s, decided, "homologacao"), {"via": 1}),
        "correction": (
            "post",
            api(s, decided, "correcao"),
            {"reason": "placar trocado", "partidas": [[3, 12], [4, 12]]},
        ),
        "penalty": (
            "post",
            api(s, live, "penalidade"),
            {"id": "p-1", "scope": "partida", "lost_by": "d1", "reason": "x"},
        ),
        "schema": ("get", "/api/v1/schema/", None),
    }
    # what every route answers: a NUL in the query (400), another method (405), a too long address (414), an event
    # that does not exist (404), a database that does not answer (503)
    for name, (method, url, body) in routes.items():
        drive.send(ref, name, 400, method, url + "?x=%00", body)
        drive.send(ref, name, 405, "put" if method != "get" else "post", url, "{}" if method == "get" else None)
        drive.send(ref, name, 414, method, url + "?x=" + "a" * 2100, body)
        if name != "schema":
            drive.send(ref, name, 404, method, url.replace(f"/{s}/", "/nao-existe/"), body)
    # the reads
    listed = drive.send(ref, "jogos_list", 200, "get", api(s))
    drive.send(ref, "jogos_list", 304, "get", api(s), HTTP_IF_NONE_MATCH=listed["ETag"])
    drive.send(ref, "jogo_detail", 200, "get", api(s, live))
    drive.send(ref, "jogo_detail", 400, "get", api(s, live) + "?via=primeira")
    drive.send(ref, "schema", 200, "get", "/api/v1/schema/")
    # the staff writes: a mão, the same one again, one that breaks a rule, one without a session, a body not JSON
    drive.send(ref, "mao_add", 201, "post", *routes["mao_add"][1:])
    drive.send(ref, "mao_add", 200, "post", *routes["mao_add"][1:])
    drive.send(ref, "mao_add", 422, "post", api(s, live, "maos"), {"id": "m-x", "to": 0, "points": 5})
    for name, (method, url, body) in routes.items():
        if name.startswith(("mao", "result", "homologation", "correction", "penalty")):
            drive.send(drive.anonymous, name, 403, method, url, body)
            if body is not None:
                drive.send(ref, name, 400, method, url, b"nao e json")
    drive.send(ref, "mao_add", 201, "post", api(s, live, "maos"), {"id": "m-2", "to": 1, "points": 1})
    drive.send(ref, "result_set", 409, "post", api(s, live, "resultado"), {"partidas": [[12, 3], [12, 4]]})  # mãos
    drive.send(ref, "mao_undo", 409, "delete", api(s, live, "maos") + "m-1/")  # not the last
    drive.send(ref, "mao_undo", 200, "delete", api(s, live, "maos") + "m-2/")
    drive.send(ref, "mao_undo", 404, "delete", api(s, live, "maos") + "nao-existe/")
    drive.send(ref, "penalty", 422, "post", api(s, live, "penalidade"), routes["penalty"][2] | {"lost_by": "d9"})
    drive.send(ref, "penalty", 200, "post", *routes["penalty"][1:])
    drive.send(ref, "result_set", 422, "post", api(s, fresh, "resultado"), {"partidas": [[12, 12]]})
    drive.send(ref, "result_set", 200, "post", *routes["result_set"][1:])
    drive.send(ref, "mao_add", 409, "post", api(s, fresh, "maos"), {"id": "m-3", "to": 0, "points": 1})
    drive.send(ref, "penalty", 409, "post", api(s, fresh, "penalidade"), routes["penalty"][2] | {"id": "p-2"})
    drive.send(ref, "correction", 422, "post", api(s, fresh, "correcao"), {"reason": "x", "partidas": [[12, 12]]})
    drive.send(ref, "correction", 409, "post", api(s, other, "correcao"), routes["correction"][2])
    # the duplas' answers, then the signature
    play(ref, s, decided, [0, 0], "decidido")
    drive.send(ref, "homologation", 422, "post", api(s, decided, "homologacao"), {"via": 1})  # no confirmation
    not_yet = {"dupla": "d3", "pin": PIN["d3"], "via": 1, "accept": True}  # its jogo not played yet
    drive.send(ref, "confirmation", 409, "post", api(s, other, "confirmacao"), not_yet)
    drive.send(ref, "confirmation", 422, "post", api(s, decided, "confirmacao"), {"dupla": "d1", "pin": "1", "via": 1})
    drive.send(ref, "confirmation", 403, "post", *routes["confirmation"][1:])  # a wrong PIN
    for _ in range(pins.TRIES - 2):
        drive.send(drive.anonymous, "confirmation", 403, "post", *routes["confirmation"][1:])
    drive.send(drive.anonymous, "confirmation", 429, "post", *routes["confirmation"][1:])  # the lock
    assert answer(ref, s, decided, "d2", pin=PIN["d2"]).status_code == 200
    drive.seen.setdefault("confirmation", set()).add("200")
    drive.send(ref, "homologation", 409, "post", api(s, decided, "homologacao"), {"via": 2})  # another via
    assert sign(ref, s, decided, reason="d1 bloqueada: confirmei com o árbitro").status_code == 200
    drive.seen.setdefault("homologation", set()).add("200")
    drive.send(ref, "correction", 200, "post", *routes["correction"][1:])
    # a database that does not answer
    monkeypatch.setattr("tournaments.api.sumula._tournament", lambda *a, **k: (_ for _ in ()).throw(OperationalError))
    for name, (method, url, body) in routes.items():
        if name != "schema":
            drive.send(ref, name, 503, method, url, body)
    assert drive.seen == _declared()
