"""The súmula API's OpenAPI schema (tests/openapi/sumula.yaml, written from INTERCHANGE.md): valid OpenAPI 3, and
every path in it is a URL of the site's API, and every URL of the API is in it."""

import re
from pathlib import Path

import pytest
import schemathesis
import yaml
from django.urls import Resolver404, get_resolver, resolve

SCHEMA = Path(__file__).resolve().parents[1] / "openapi" / "sumula.yaml"
SAMPLE = {"slug": "copa-2026", "key": "j1", "id": "mao-1"}


def _schema() -> dict:
    return yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))


def test_the_schema_is_valid_openapi_3():
    schema = schemathesis.openapi.from_path(str(SCHEMA))
    schema.validate()  # the OpenAPI 3.0 meta-schema; raises on any error
    assert len([r.ok() for r in schema.get_all_operations()]) == 9


def test_the_validity_check_catches_a_broken_schema():
    broken = _schema()
    broken["paths"]["/torneios/{slug}/jogos/"]["get"]["responses"]["200"]["description"] = 5
    with pytest.raises(Exception):
        schemathesis.openapi.from_dict(broken).validate()


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
        assert route in paths, f"/api/v1{route} ({pattern.name}) is missing from {SCHEMA.name}"


def test_confirmations_and_signatures_carry_the_via():
    """The contract (issue 21): confirmacao and homologacao bodies say which via they are for."""
    paths = _schema()["paths"]
    for action in ("confirmacao", "homologacao"):
        body = paths[f"/torneios/{{slug}}/jogos/{{key}}/{action}/"]["post"]["requestBody"]
        assert "via" in body["content"]["application/json"]["schema"]["required"]
