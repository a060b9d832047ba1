"""No input answers 500 (issue 21, item 2): JSON bodies, URL parts, form fields and the error answers.

The seven causes found by the fuzzing: deeply nested JSON; NUL or a lone
surrogate in a JSON text; ``%00`` as a jogo key (public page, ``sumula.pdf``,
the API, the private link); a multipart body on the API; ``%00`` as an undo
id; NUL in the schedule's ``fase``. Under ``/api/v1/`` every error is
``{"errors": [...]}`` in JSON (unknown URLs, 405, 414, 503 included).
"""

import contextlib
import json
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.urls import Resolver404, resolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.sumula import PIN, api, db_snapshot, partida_maos, staff_user
from tournaments.models import Dupla, StaffRole, Stage

pytestmark = pytest.mark.django_db

SLUG = "copa-sumula"


def errors_of(response, status: int) -> list[str]:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    data = json.loads(response.content)
    assert set(data) == {"errors"}, data
    assert isinstance(data["errors"], list) and data["errors"], data
    assert all(isinstance(e, str) and e and "None" not in e for e in data["errors"]), data
    return data["errors"]


@contextlib.contextmanager
def nul_params():
    """The queries sent with a NUL in a parameter (PostgreSQL refuses them: a 500), collected while inside."""
    seen: list[str] = []

    def wrapper(execute, sql, params, many, context):
        rows = params if many else [params]
        if any(isinstance(p, str) and "\x00" in p for row in rows or () for p in (row or ())):
            seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield seen


def raw_post(client, url: str, raw: bytes, content_type: str = "application/json"):
    return client.post(url, data=raw, content_type=content_type)


def confirm_body(**extra) -> dict:
    return {"dupla": "d1", "pin": PIN["d1"], "via": 1, "accept": True} | extra


# --- 1. deeply nested JSON -----------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [21, 5_000, 200_000])
def test_deeply_nested_json_is_refused_naming_the_depth(client, cup, j1, depth):
    before = db_snapshot()
    raw = b'{"dupla": ' + b"[" * depth + b"]" * depth + b"}"
    problems = errors_of(raw_post(client, api(SLUG, j1, "confirmacao"), raw), 400)
    assert "aninhamento profundo demais" in problems[0] and "20 níveis" in problems[0]
    assert db_snapshot() == before


def test_nesting_within_the_limit_reaches_the_endpoint(client, cup, j1):
    raw = json.dumps(confirm_body(reason=[[[[["x"]]]]])).encode()
    response = raw_post(client, api(SLUG, j1, "confirmacao"), raw)
    assert response.status_code != 400 or "aninhamento" not in response.content.decode()


# --- 2. NUL and lone surrogates in JSON texts, named with their field -----------------------------------


@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800", "\\udfff"])
def test_nul_or_surrogate_in_the_dupla_is_refused_naming_it(client, cup, j1, escape):
    before = db_snapshot()
    raw = b'{"dupla": "d1' + escape.encode() + b'", "pin": "111111", "via": 1, "accept": true}'
    problems = errors_of(raw_post(client, api(SLUG, j1, "confirmacao"), raw), 400)
    assert problems[0].startswith("'dupla': ") and "caractere inválido" in problems[0]
    assert db_snapshot() == before


@pytest.mark.parametrize("field", ["id", "reason", "how"])
@pytest.mark.parametrize("escape", ["\\u0000", "\\ud800"])
def test_nul_or_surrogate_in_a_staff_write_is_refused_naming_the_field(ref, cup, j1, field, escape):
    mao = partida_maos(0, "m")[0]
    body = json.dumps(mao | {field: "PLACEHOLDER"}).replace("PLACEHOLDER", f"x{escape}y").encode()
    before = db_snapshot()
    problems = errors_of(raw_post(ref, api(SLUG, j1, "maos"), body), 400)
    assert problems[0].startswith(f"'{field}': ") and "caractere inválido" in problems[0]
    assert db_snapshot() == before


def test_nul_in_a_key_and_deep_in_a_result_are_named(ref, cup, j1):
    problems = errors_of(raw_post(ref, api(SLUG, j1, "resultado"), b'{"a\\u0000": 1}'), 400)
    assert "nome de campo com caractere inválido" in problems[0]
    raw = b'{"partidas": [[12, 3], {"maos": [{"reason": "ok\\u0000"}]}]}'
    problems = errors_of(raw_post(ref, api(SLUG, j1, "resultado"), raw), 400)
    assert problems[0].startswith("'partidas[1].maos[0].reason': ")


# --- duplicate keys, numbers, encoding, size, top level -----------------------------------------------


def test_a_repeated_key_is_refused(client, cup, j1):
    before = db_snapshot()
    raw = b'{"dupla": "d1", "dupla": "d4", "pin": "111111", "via": 1, "accept": true}'
    problems = errors_of(raw_post(client, api(SLUG, j1, "confirmacao"), raw), 400)
    assert problems == ["'dupla': campo repetido neste objeto: cada campo aparece uma vez"]
    assert db_snapshot() == before


@pytest.mark.parametrize(
    "raw, words",
    [
        (b'{"to": 0, "points": NaN}', "'points': NaN"),
        (b'{"to": 0, "points": 1e999}', "'points': número fora do intervalo"),
        (b'{"to": 0, "points": ' + b"9" * 5000 + b"}", "'points': número grande demais"),
        (b'\xff\xfe{"to": 0}', "não está em UTF-8"),
        (b'{"to": 0,}', "corpo JSON inválido na linha 1"),
        (b'[{"to": 0}]', "objeto JSON"),
        (b'"texto"', "objeto JSON"),
    ],
)
def test_bodies_no_column_or_parser_takes_are_refused(ref, cup, j1, raw, words):
    problems = errors_of(raw_post(ref, api(SLUG, j1, "maos"), raw), 400)
    assert words in problems[0], problems


def test_a_body_over_the_upload_limit_is_refused(client, cup, j1, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    raw = json.dumps(confirm_body(reason="x" * 2000)).encode()
    problems = errors_of(raw_post(client, api(SLUG, j1, "confirmacao"), raw), 400)
    assert "corpo grande demais" in problems[0] and "1000 bytes" in problems[0]


# --- 4. a form body on the API -------------------------------------------------------------------------


def test_a_multipart_body_on_a_staff_write_is_a_json_400(ref, cup, j1):
    before = db_snapshot()
    response = ref.post(api(SLUG, j1, "maos"), {"id": "m1", "to": "0", "points": "3"})  # multipart/form-data
    problems = errors_of(response, 400)
    assert "Content-Type: application/json" in problems[0]
    assert db_snapshot() == before


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain", ""])
def test_a_form_body_not_sent_as_json_is_refused(ref, cup, j1, content_type):
    before = db_snapshot()
    response = ref.generic("POST", api(SLUG, j1, "maos"), b"id=m1&to=0&points=3", content_type=content_type)
    assert "Content-Type: application/json" in errors_of(response, 400)[0]
    assert db_snapshot() == before


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "text/plain", ""])
def test_json_sent_with_another_content_type_is_read_all_the_same(ref, cup, j1, content_type):
    """``curl -d '{…}'`` sends JSON as a form: the body is JSON text, so it is read as JSON (as before)."""
    mao = partida_maos(0, "m")[0]
    response = ref.generic("POST", api(SLUG, j1, "maos"), json.dumps(mao).encode(), content_type=content_type)
    assert response.status_code == 201, response.content


def test_json_with_a_charset_is_taken(ref, cup, j1):
    mao = partida_maos(0, "m")[0]
    response = raw_post(ref, api(SLUG, j1, "maos"), json.dumps(mao).encode(), "application/json; charset=utf-8")
    assert response.status_code == 201, response.content


# --- 3 and 5. URL parts that cannot be a key -----------------------------------------------------------


def _token(cup) -> str:
    return Dupla.objects.get(tournament=cup, key="d1").token


BAD_KEYS = ["\x00", "j1\x00", "j" * 61, "a b", "<x>", "j1'"]


@pytest.mark.parametrize("bad", BAD_KEYS)
def test_a_key_that_cannot_exist_does_not_resolve(cup, bad):
    token = _token(cup)
    for path in (
        f"/torneios/{SLUG}/jogos/{bad}/",
        f"/torneios/{SLUG}/jogos/{bad}/sumula.pdf",
        f"/api/v1/torneios/{SLUG}/jogos/{bad}/",
        f"/api/v1/torneios/{SLUG}/jogos/{bad}/confirmacao/",
        f"/organizar/{SLUG}/arbitragem/{bad}/",
        f"/d/{token}/jogos/{bad}/resposta/",
        f"/d/{bad}/",
        f"/api/v1/torneios/{SLUG}/jogos/j1/maos/{bad[:1] or 'x'}\x00/",
    ):
        with pytest.raises(Resolver404):
            resolve(path)


def test_keys_the_site_makes_or_a_file_gives_still_resolve(cup):
    token = _token(cup)
    for key in ("j1", "j40000", "final-1", "A.2_b", "Jogo-ção", "k" * 60):
        assert resolve(f"/torneios/{SLUG}/jogos/{key}/").url_name == "sumula"
        assert resolve(f"/api/v1/torneios/{SLUG}/jogos/{key}/maos/p1m2/").url_name == "mao"
        assert resolve(f"/d/{token}/jogos/{key}/resposta/").url_name == "answer"
    assert resolve(f"/api/v1/torneios/{SLUG}/jogos/j1/maos/{'m' * 64}/").url_name == "mao"
    assert resolve(f"/api/v1/torneios/{SLUG}/jogos/j1/maos/id com espaço/").url_name == "mao"
    assert resolve(f"/torneios/{SLUG}/duplas/Os Zapeiros/").url_name == "dupla"


def test_nul_in_public_urls_is_a_404_without_a_query(client, cup):
    token = _token(cup)
    for path, is_api in (
        (f"/torneios/{SLUG}/jogos/%00/", False),
        (f"/torneios/{SLUG}/jogos/%00/sumula.pdf", False),
        (f"/api/v1/torneios/{SLUG}/jogos/%00/", True),
        (f"/d/{token}/jogos/%00/resposta/", False),
        ("/d/%00/", False),
        (f"/torneios/{SLUG}/duplas/%00/", False),
    ):
        with nul_params() as queries:
            response = client.get(path)
        assert response.status_code == 404, path
        assert not queries, path
        if is_api:
            errors_of(response, 404)


def test_nul_as_an_undo_id_is_a_json_404(ref, cup, j1):
    before = db_snapshot()
    with nul_params() as queries:
        errors_of(ref.delete(api(SLUG, j1, "maos") + "%00/"), 404)
        errors_of(ref.delete(api(SLUG, j1, "maos") + "m1%00/"), 404)
    assert not queries
    errors_of(ref.delete(api(SLUG, j1, "maos") + "m" * 65 + "/"), 404)
    assert db_snapshot() == before


# --- 6. NUL in the schedule's fase ---------------------------------------------------------------------


@pytest.mark.parametrize("field, value", [("fase", "grupos\x00"), ("horario", "15:30\x00"), ("rodada", "1\x00")])
def test_nul_in_the_round_time_form_is_refused_naming_the_field(client, cup, field, value):
    client.force_login(staff_user(cup, "org", StaffRole.ORGANIZER))
    data = {"fase": "grupos", "rodada": "1", "horario": "15:30"} | {field: value}
    with nul_params() as queries:
        response = client.post(f"/organizar/{SLUG}/programacao/horario/", data)
    assert response.status_code == 400
    assert f"campo &#x27;{field}&#x27; tem um caractere nulo" in response.content.decode()
    assert not queries
    assert Stage.objects.get(tournament=cup, key="grupos").round_times == {}


def test_the_round_time_form_itself_refuses_nul_too():
    """Behind the middleware, the form's own fields refuse it as well (a view reached another way)."""
    from tournaments.desk.draw_forms import RoundTimeForm

    form = RoundTimeForm({"fase": "grupos\x00", "rodada": "1", "horario": "15:30"})
    assert not form.is_valid() and "fase" in form.errors


@pytest.mark.parametrize(
    "path",
    [
        "/torneios/?q=a%00b",
        f"/organizar/{SLUG}/inscricoes/?q=%00",
        f"/organizar/{SLUG}/imprimir/?stage=%00",
        f"/torneios/{SLUG}/duplas/?q%00=x",
    ],
)
def test_nul_in_any_query_string_is_a_400_page_before_any_view(client, cup, path):
    client.force_login(staff_user(cup, "org", StaffRole.ORGANIZER))
    with nul_params() as queries:
        response = client.get(path)
    assert response.status_code == 400 and "caractere nulo" in response.content.decode()
    assert not queries


def test_nul_in_a_query_string_of_the_api_is_a_json_400(client, cup, j1):
    assert "caractere nulo" in errors_of(client.get(api(SLUG, j1) + "?via=%00"), 400)[0]


def test_nul_in_the_private_links_reason_is_refused_and_writes_nothing(client, cup, j1):
    from tournaments.models import Dupla

    token = Dupla.objects.get(tournament=cup, key="d1").token
    before = db_snapshot()
    response = client.post(
        f"/d/{token}/jogos/{j1}/resposta/", {"resposta": "contestar", "via": "1", "motivo": "placar\x00errado"}
    )
    assert response.status_code == 400 and "motivo" in response.content.decode()
    assert db_snapshot() == before


# --- errors under /api/v1/ are JSON --------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/",
        "/api/v1/nada/",
        f"/api/v1/torneios/{SLUG}/",
        "/api/v2/torneios/",
        f"/api/v1/torneios/{SLUG}/jogos/j1/desconhecido/",
    ],
)
def test_an_unknown_api_url_is_a_json_404(client, cup, path):
    errors_of(client.get(path), 404)
    errors_of(client.post(path, data=b"{}", content_type="application/json"), 404)


def test_an_unknown_page_is_still_the_html_404(client, db):
    response = client.get("/torneios/nao-existe/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_long_url_is_a_414(client, cup):
    errors_of(client.get(f"/api/v1/torneios/{SLUG}/jogos/" + "j" * 3000 + "/"), 414)
    errors_of(client.get(f"/api/v1/torneios/{SLUG}/jogos/?q=" + "x" * 3000), 414)
    response = client.get(f"/torneios/{SLUG}/?q=" + "x" * 3000)
    assert response.status_code == 414 and "Endereço longo demais" in response.content.decode()
    assert client.get(f"/torneios/{SLUG}/?q=" + "x" * 1000).status_code == 200


def test_a_database_outage_is_a_503_json_on_the_api(client, cup, j1):
    with mock.patch("tournaments.api.sumula.tournament_live_get", side_effect=OperationalError("conexão recusada")):
        response = client.get(api(SLUG))
    assert errors_of(response, 503) == ["banco de dados indisponível; tente de novo em instantes"]
    assert response["Retry-After"]
    with mock.patch("tournaments.api.sumula.pin_verify", side_effect=OperationalError("conexão recusada")):
        errors_of(
            client.post(api(SLUG, j1, "confirmacao"), data=json.dumps(confirm_body()), content_type="application/json"),
            503,
        )


def test_a_database_outage_is_a_503_page(client, cup):
    with mock.patch("tournaments.public.views.tournaments_all", side_effect=OperationalError("conexão recusada")):
        response = client.get("/torneios/")
    assert response.status_code == 503
    page = response.content.decode()
    assert "temporariamente fora do ar" in page and "Algo deu errado" not in page


@pytest.mark.parametrize("path, is_api", [("/torneios/", False), ("/api/v1/torneios/x/jogos/", True)])
def test_a_database_outage_in_a_middleware_is_a_503_too(client, db, path, is_api):
    client.raise_request_exception = False
    with mock.patch("config.language.chosen_language", side_effect=OperationalError("conexão recusada")):
        response = client.get(path)
    if is_api:
        errors_of(response, 503)
    else:
        assert response.status_code == 503 and "temporariamente fora do ar" in response.content.decode()


def test_a_bug_on_the_api_is_a_json_500(client, cup):
    client.raise_request_exception = False
    with mock.patch("tournaments.api.sumula.tournament_live_get", side_effect=RuntimeError("bug")):
        errors_of(client.get(api(SLUG)), 500)


def test_a_csrf_failure_on_the_api_is_json(rf):
    from config.errors import csrf_failure

    errors_of(csrf_failure(rf.post("/api/v1/torneios/x/jogos/j1/maos/"), reason="sem token"), 403)


# --- the fuzz: anything at the write endpoints and the confirmation is < 500 and JSON ------------------

json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(alphabet=st.characters(codec=None, blacklist_categories=()), max_size=20),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELDS = [
    "dupla",
    "pin",
    "via",
    "accept",
    "reason",
    "id",
    "to",
    "points",
    "how",
    "partidas",
    "walkover",
    "penalty",
    "lost_by",
]
bodies = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda v: json.dumps(v).encode(), json_values),
    st.builds(lambda d: json.dumps(d).encode(), st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=5)),
    st.builds(
        lambda d: json.dumps(d, ensure_ascii=True).encode(),  # escapes: \u0000, lone surrogates
        st.dictionaries(st.sampled_from(FIELDS), st.text(max_size=6), max_size=4),
    ),
    st.builds(lambda n: b"[" * n + b"]" * n, st.integers(0, 3000)),
)
ACTIONS = ["confirmacao", "maos", "resultado", "homologacao", "correcao", "penalidade"]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    action=st.sampled_from(ACTIONS),
    body=bodies,
    content_type=st.sampled_from(
        ["application/json", "application/json", "text/plain", "multipart/form-data; boundary=xx"]
    ),
)
def test_any_body_at_any_write_is_answered_without_a_500(ref, cup, j1, action, body, content_type):
    response = ref.generic("POST", api(SLUG, j1, action), body, content_type=content_type)
    assert response.status_code < 500, (response.status_code, body[:200])
    assert response["Content-Type"].startswith("application/json")
    if response.status_code >= 400:
        errors_of(response, response.status_code)
