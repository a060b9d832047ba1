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
READ = {"200", "400", "404", "405", "414", "429"}
WRITE = {"200", "201", "400", "403", "404", "405", "409", "413", "414", "415", "422", "429"}
# The contract (docs/contrato.md, "Súmula API"; formerly tests/openapi/sumula.yaml, written by hand from it):
# path -> method, statuses, the body's properties and which of them are required.
CONTRACT = {
    "/torneios/{slug}/jogos/": ("get", READ, None, None),
    "/torneios/{slug}/jogos/{key}/": ("get", READ, None, None),
    "/torneios/{slug}/jogos/{key}/maos/": (
        "post",
        WRITE,
        {"id", "to", "points", "how", "reason"},
        {"id", "to", "points"},
    ),
    "/torneios/{slug}/jogos/{key}/maos/{id}/": ("delete", WRITE, None, None),
    "/torneios/{slug}/jogos/{key}/resultado/": ("post", WRITE, {"id", "partidas", "walkover", "penalty"}, set()),
    "/torneios/{slug}/jogos/{key}/confirmacao/": (
        "post",
        WRITE,
        {"dupla", "pin", "via", "accept", "reason"},
        {"dupla", "pin", "via", "accept"},
    ),
    "/torneios/{slug}/jogos/{key}/homologacao/": ("post", WRITE, {"via", "reason"}, {"via"}),
    "/torneios/{slug}/jogos/{key}/correcao/": (
        "post",
        WRITE,
        {"id", "reason", "partidas", "walkover", "penalty"},
        {"reason"},
    ),
    "/torneios/{slug}/jogos/{key}/penalidade/": (
        "post",
        WRITE,
        {"id", "scope", "lost_by", "reason"},
        {"id", "scope", "lost_by", "reason"},
    ),
    "/schema/": ("get", {"200"}, None, None),
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
