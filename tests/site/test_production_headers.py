"""What production sends besides the page: security headers, a page the Content-Security-Policy does not break,
a request id and one log line per request, the health URL, and the doors that need a login.

The policy (``SECURE_CSP`` in config/settings.py) allows scripts and styles from this site only, with no
``unsafe-inline``: so no page may carry an inline ``<script>`` or ``<style>``, a ``style=`` attribute or an
``on…=`` handler; the browser would refuse them. Every page a visitor, an organizer or a referee reaches is
crawled (one page per URL name and tournament) and its HTML read with a real parser.
"""

from __future__ import annotations

import io
import json
import logging
import re
import sys
from urllib.parse import urljoin, urlsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError
from django.http import HttpResponse
from django.template import loader
from django.test import Client, RequestFactory, override_settings
from django.urls import Resolver404, resolve, reverse

from config.observability import JsonLinesFormatter, RequestIdFilter
from tests.support.files import demo_file, knockout_file
from tests.support.headers import assert_security_headers, inline_code
from tests.support.registrations import tournament_make
from tournaments.models import Dupla, Jogo, Mesa, StaffRole

DEMO, FINISHED = "copa-demo", "aabb-demo"
HEX32 = re.compile(r"[0-9a-f]{32}")
OWNER_PASSWORD = "senha-da-comissao-1"


# --- the world: two loaded events, their organizer, a referee --------------------------------------------------


@pytest.fixture
def world(db, load_file):
    demo = load_file(demo_file(load_file))  # groups and a knockout, one jogo at the table
    finished = load_file(knockout_file())  # over: medals, no polling
    owner = User.objects.create_user("comissao", password=OWNER_PASSWORD, is_staff=True)  # creates events too
    StaffRole.objects.create(tournament=demo, user=owner, role=StaffRole.ORGANIZER)
    StaffRole.objects.create(tournament=finished, user=owner, role=StaffRole.ORGANIZER)
    referee = User.objects.create_user("arbitro", password=OWNER_PASSWORD)
    StaffRole.objects.create(tournament=demo, user=referee, role=StaffRole.REFEREE)
    Mesa.objects.create(tournament=demo, number=1, referee=referee)
    return {"demo": demo, "finished": finished, "owner": owner, "referee": referee}


@pytest.fixture
def owner_client(world):
    client = Client()
    client.force_login(world["owner"])
    return client


def _live_jogo_key(tournament) -> str:
    """The key of a jogo being played (its súmula page polls), else of any decided one."""
    jogos = Jogo.objects.filter(tournament=tournament).exclude(dupla_a=None).exclude(dupla_b=None)
    live = jogos.filter(status__in=Jogo.AT_TABLE).first()
    return (live or jogos.order_by("id").first()).key


# --- 1. security headers ------------------------------------------------------------------------------------------


def test_public_pages_send_the_security_headers(client, world):
    for url in (
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[DEMO]),
        reverse("tournaments:standings", args=[DEMO]),
        reverse("tournaments:standings", args=[FINISHED]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_security_headers(response)
    # an htmx poll of a live part gets them too (a fragment, cached apart from the page)
    response = client.get(
        reverse("tournaments:standings", args=[DEMO]), headers={"HX-Request": "true", "HX-Target": "tabelas"}
    )
    assert response.status_code == 200 and b"topbar" not in response.content
    assert_security_headers(response)


def test_a_desk_page_sends_the_security_headers(owner_client, world):
    for url in (reverse("desk:home"), reverse("desk:overview", args=[DEMO])):
        response = owner_client.get(url)
        assert response.status_code == 200, url
        assert_security_headers(response)


def test_the_json_api_and_the_404_page_send_the_security_headers(owner_client, client, world):
    response = owner_client.get(f"/api/v1/torneios/{DEMO}/jogos/")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert_security_headers(response)
    response = client.get("/torneios/nao-existe/")
    assert response.status_code == 404
    assert_security_headers(response)


def test_hsts_only_on_a_secure_request_when_configured(world):
    url = reverse("tournaments:list")
    with override_settings(
        SECURE_HSTS_SECONDS=31536000, SECURE_HSTS_INCLUDE_SUBDOMAINS=False, SECURE_HSTS_PRELOAD=False
    ):
        client = Client()  # a new client: SecurityMiddleware reads the settings when the chain is built
        secure = client.get(url, secure=True)
        assert secure.status_code == 200
        assert secure["Strict-Transport-Security"] == "max-age=31536000"
        assert_security_headers(secure)
        plain = client.get(url)
        assert plain.status_code == 200 and "Strict-Transport-Security" not in plain.headers
    with override_settings(SECURE_HSTS_SECONDS=0):
        assert "Strict-Transport-Security" not in Client().get(url, secure=True).headers


# --- 2. no inline script or style on any page ------------------------------------------------------------------


def test_the_finder_finds_what_the_policy_refuses():
    """The checker itself: each thing the policy blocks is found, the allowed forms are not."""
    allowed = (
        '<script src="/static/js/a.js" defer></script><script type="application/json" id="d">{"a": 1}'
        '</script><link rel="stylesheet" href="/static/css/zap.css"><img src="data:image/png;base64,AA">'
        '<a href="/torneios/" class="one" data-on="x">x</a><form action="" method="post"></form>'
        '<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>'
    )
    assert inline_code(allowed) == []
    for bad in (
        "<script>alert(1)</script>",
        "<script type='module'>import x</script>",
        "<style>p{}</style>",
        '<p style="color:red">',
        '<button onclick="go()">',
        '<body onload="x()">',
        '<svg><rect style="x"/></svg>',
        '<input onfocus="x()" />',
        '<P STYLE="x">',
        '<a href="javascript:void(0)">',
        '<div hx-on:click="x()">',
        '<div hx-on::after-request="x()">',
        '<script src="https://cdn.example.com/htmx.js"></script>',
        '<link rel="stylesheet" href="//fonts.example.com/a.css">',
        '<img src="https://example.com/a.png">',
        '<form action="https://example.com/">',
        "<iframe src='/x'></iframe>",
    ):
        assert inline_code(bad), bad


SKIP_SUFFIXES = (".pdf", ".csv", ".json")


def _page_id(path: str) -> tuple | None:
    """One page per URL name and tournament: the 40th dupla's edit page adds nothing to the first's."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name, match.kwargs.get("slug")


def crawl(client, starts: list[str], *, within: tuple[str, ...], extra: list[str] = ()) -> tuple[dict, list]:
    """GET every page reachable by links from ``starts`` and ``extra`` (paths beginning with ``within``).

    Returns ({path: html}, [what went wrong]): a page that does not answer 200 (or 404), or answers without
    the security headers, is a failure.
    """
    client.raise_request_exception = False  # a page that fails is listed with the others, the crawl goes on
    seen_ids: set[tuple] = set()
    visited: set[str] = set()
    asked = set(starts) | set(extra)
    queue = list(starts) + list(extra)
    pages: dict[str, str] = {}
    failures: list[str] = []
    while queue:
        url = queue.pop(0)
        parts = urlsplit(url)
        path = parts.path
        if parts.netloc or path.endswith(SKIP_SUFFIXES) or (url not in asked and not path.startswith(within)):
            continue
        page_id = _page_id(path)
        if page_id is None or page_id[0] in ("accounts:logout", "admin:logout"):
            continue
        if url in visited or (page_id in seen_ids and url not in asked):
            continue
        visited.add(url)
        seen_ids.add(page_id)
        response = client.get(url)
        if response.status_code in (301, 302):
            queue.append(urljoin(url, response["Location"]))
            continue
        if response.status_code not in (200, 404):
            failures.append(f"{url}: {response.status_code}")
            continue
        if not response["Content-Type"].startswith("text/html"):
            continue
        try:
            assert_security_headers(response)
        except AssertionError as exc:
            failures.append(f"{url}: {exc}")
        html = response.content.decode()
        pages[url] = html
        for href in re.findall(r'<a\b[^>]*\bhref="([^"#]+)', html):
            queue.append(urljoin(url, href.replace("&amp;", "&")))
    return pages, failures


def _problems(pages: dict[str, str], failures: list[str]) -> list[str]:
    return failures + [f"{url}: {problem}" for url, html in pages.items() for problem in inline_code(html)]


def test_no_public_page_has_inline_code(client, world):
    demo_key, done_key = _live_jogo_key(world["demo"]), _live_jogo_key(world["finished"])
    sumulas = [
        reverse("tournaments:sumula", args=[DEMO, demo_key]),
        reverse("tournaments:sumula", args=[FINISHED, done_key]),
    ]
    pages, failures = crawl(
        client,
        [reverse("tournaments:list")],
        within=("/torneios/", "/d/", "/entrar/", "/conta/"),
        extra=sumulas
        + [
            f"/torneios/{DEMO}/jogos/?dupla=d1",
            reverse("accounts:login"),
            reverse("accounts:password_reset"),
            "/torneios/nao-existe/",
        ],
    )
    reached = {_page_id(urlsplit(u).path)[0] for u in pages}
    assert {
        "tournaments:list",
        "tournaments:detail",
        "tournaments:standings",
        "tournaments:bracket",
        "tournaments:jogos",
        "tournaments:sumula",
        "accounts:login",
    } <= reached, reached
    assert _problems(pages, failures) == []
    # the live parts htmx swaps in
    for url, target in (
        (reverse("tournaments:standings", args=[DEMO]), "tabelas"),
        (reverse("tournaments:bracket", args=[DEMO]), "chave"),
        (reverse("tournaments:jogos", args=[DEMO]), "jogos-lista"),
        (sumulas[0], "sumula-conteudo"),
    ):
        response = client.get(url, headers={"HX-Request": "true", "HX-Target": target})
        assert response.status_code == 200, url
        assert inline_code(response.content.decode()) == [], url


def test_no_desk_or_referee_page_has_inline_code(owner_client, world):
    pages, failures = crawl(
        owner_client,
        [reverse("desk:home")],
        within=("/organizar/",),
        extra=[
            reverse("referee:jogo", args=[DEMO, _live_jogo_key(world["demo"])]),
            reverse("printing:desk", args=[DEMO]),
            reverse("desk:pins", args=[DEMO]),
            reverse("desk:new"),
            reverse("desk:upload"),
            reverse("accounts:password_change"),
        ],
    )
    reached = {_page_id(urlsplit(u).path) for u in pages}
    for name in (
        "desk:overview",
        "desk:edit",
        "desk:registrations",
        "desk:duplas",
        "desk:competition",
        "desk:mesas",
        "desk:schedule",
        "referee:list",
        "referee:jogo",
        "printing:desk",
        "desk:staff",
        "desk:audit",
    ):
        assert (name, DEMO) in reached, (name, sorted(reached, key=str))
    assert {("desk:home", None), ("desk:new", None), ("accounts:password_change", None)} <= reached
    assert _problems(pages, failures) == []


def test_the_pin_cards_and_the_private_link_page_have_no_inline_code(owner_client, client, world):
    response = owner_client.post(reverse("desk:pins", args=[DEMO]), {"confirm": "on", "batch": "lote-1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "<svg" in html  # the QR codes, drawn inline
    assert inline_code(html) == []
    dupla = Dupla.objects.filter(tournament=world["demo"]).order_by("id").first()
    response = client.get(reverse("privatelink:dupla", args=[dupla.token]))
    assert response.status_code == 200
    assert_security_headers(response, referrer="no-referrer")  # stricter there: the link is the dupla's secret
    assert inline_code(response.content.decode()) == []


def test_the_referee_screens_have_no_inline_code(world):
    referee = Client()
    referee.force_login(world["referee"])
    pages, failures = crawl(
        referee,
        [reverse("referee:list", args=[DEMO])],
        within=(f"/organizar/{DEMO}/",),
        extra=[reverse("referee:jogo", args=[DEMO, _live_jogo_key(world["demo"])])],
    )
    assert {("referee:list", DEMO), ("referee:jogo", DEMO)} <= {_page_id(urlsplit(u).path) for u in pages}
    assert _problems(pages, failures) == []


def test_the_sign_up_pages_and_a_form_with_errors_have_no_inline_code(client, db):
    tournament = tournament_make(slug="inscricoes-abertas")
    url = reverse("tournaments:signup", args=[tournament.slug])
    pages = {url: client.get(url)}
    pages["formulário com erros"] = client.post(url, {"kind": "individual", "name": "", "birth_date": "ontem"})
    done = client.post(
        url,
        {
            "kind": "individual",
            "name": "Ana Souza",
            "birth_date": "1987-03-14",
            "phone": "(11) 98888-7777",
            "email": "",
            "website": "",
        },
    )
    assert done.status_code == 302
    pages["inscrição feita"] = client.get(done["Location"])
    pages["entrar com senha errada"] = client.post(reverse("accounts:login"), {"username": "x", "password": "y"})
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert_security_headers(response)
        assert inline_code(response.content.decode()) == [], name


def test_the_referee_screen_of_a_jogo_decided_in_the_imported_file_answers(owner_client, world):
    """A jogo whose result came in the tournament file is homologated with no signature (signed_at empty)."""
    jogo = Jogo.objects.filter(tournament=world["finished"], status="homologated", signed_at=None).first()
    assert jogo is not None
    owner_client.raise_request_exception = False
    response = owner_client.get(reverse("referee:jogo", args=[FINISHED, jogo.key]))
    assert response.status_code == 200
    assert inline_code(response.content.decode()) == []


def test_the_500_page_has_no_inline_code_and_links_its_stylesheet():
    html = loader.get_template("500.html").render()
    assert inline_code(html) == []
    assert re.search(r'<link rel="stylesheet" href="/static/css/error\.css"', html)
    assert (settings.BASE_DIR / "static" / "css" / "error.css").is_file()


def _broken(*args, **kwargs):
    raise RuntimeError("quebrou")


def test_a_server_error_answers_the_500_page_with_the_headers(world, monkeypatch):
    monkeypatch.setattr("tournaments.public.views.presenters.tournament_list_rows", _broken)
    client = Client(raise_request_exception=False)
    response = client.get(reverse("tournaments:list"))
    assert response.status_code == 500
    assert "Erro no servidor" in response.content.decode()
    assert inline_code(response.content.decode()) == []
    assert_security_headers(response)
    assert HEX32.fullmatch(response["X-Request-ID"])


# --- 3. the request id and the request's log line ----------------------------------------------------------------


class Capture(logging.Handler):
    """What the console handler of settings.LOGGING gets: records with their request id, formatted as JSON lines."""

    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.addFilter(RequestIdFilter())
        self.setFormatter(JsonLinesFormatter())
        self.records: list[logging.LogRecord] = []
        self.lines: list[str] = []

    def emit(self, record):
        self.records.append(record)
        self.lines.append(self.format(record))


@pytest.fixture
def request_log():
    """The zap.requests records of the test, at INFO (the tests run it at WARNING, pytest.ini)."""
    logger = logging.getLogger("zap.requests")
    capture = Capture()
    level = logger.level
    logger.addHandler(capture)
    logger.setLevel(logging.INFO)
    try:
        yield capture
    finally:
        logger.removeHandler(capture)
        logger.setLevel(level)


def test_every_response_carries_a_new_request_id(client, db):
    first = client.get(reverse("tournaments:list"))
    second = client.get(reverse("tournaments:list"))
    assert HEX32.fullmatch(first["X-Request-ID"]) and HEX32.fullmatch(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]
    # a 404, a redirect and the API get one too
    for url in ("/torneios/nao-existe/", "/organizar/", f"/api/v1/torneios/{DEMO}/jogos/"):
        assert HEX32.fullmatch(client.get(url)["X-Request-ID"]), url


@pytest.mark.parametrize("given", ["abc12345", "req-2024.06_01-XYZ", "a" * 64, "0123456789abcdef0123456789abcdef"])
def test_a_sane_incoming_request_id_is_kept(client, db, given):
    response = client.get(reverse("tournaments:list"), headers={"X-Request-ID": given})
    assert response["X-Request-ID"] == given


@pytest.mark.parametrize(
    "given",
    [
        "tem espaço aqui",
        "a" * 65,
        "a" * 200,
        "curto",
        "",
        "id;rm -rf",
        "abc12345\nX-Admin: 1",
        "ação-çççççç",
        "<script>alert(1)</script>",
    ],
)
def test_an_insane_incoming_request_id_is_replaced(client, db, given):
    response = client.get(reverse("tournaments:list"), headers={"X-Request-ID": given})
    assert HEX32.fullmatch(response["X-Request-ID"]), response["X-Request-ID"]


@pytest.mark.django_db
def test_a_request_id_with_a_trailing_newline_is_replaced_not_a_server_error():
    """``$`` in a regex also matches before a final newline: the id must match to its very end (``\\Z``)."""
    client = Client(raise_request_exception=False)
    response = client.get(reverse("tournaments:list"), headers={"X-Request-ID": "abc12345\n"})
    assert response.status_code == 200
    assert HEX32.fullmatch(response["X-Request-ID"])


def test_one_log_line_per_request_with_its_fields(client, world, request_log, caplog):
    url = reverse("tournaments:standings", args=[DEMO])
    with caplog.at_level(logging.INFO, logger="zap.requests"):
        response = client.get(url, headers={"X-Request-ID": "proxy-id-0001"})
    assert response.status_code == 200
    assert len(request_log.records) == 1
    assert [r for r in caplog.records if r.name == "zap.requests"] == request_log.records
    record = request_log.records[0]
    assert (record.method, record.path, record.status, record.tournament) == ("GET", url, 200, DEMO)
    assert record.user is None  # a public page never looks at who is signed in
    assert isinstance(record.duration_ms, (int, float)) and record.duration_ms >= 0
    assert record.request_id == "proxy-id-0001" == response["X-Request-ID"]
    assert record.getMessage() == f"GET {url} 200"
    line = json.loads(request_log.lines[0])
    assert {
        "time",
        "level",
        "logger",
        "message",
        "request_id",
        "method",
        "path",
        "status",
        "duration_ms",
        "user",
        "tournament",
    } <= set(line)
    assert (line["level"], line["logger"], line["request_id"]) == ("INFO", "zap.requests", "proxy-id-0001")
    assert (line["path"], line["status"], line["tournament"], line["user"]) == (url, 200, DEMO, None)
    assert "exception" not in line and "\n" not in request_log.lines[0]


def test_the_log_line_names_the_tournament_the_user_and_the_status(client, owner_client, world, request_log):
    owner = world["owner"]
    cases = [
        (owner_client, reverse("desk:overview", args=[DEMO]), 200, DEMO, owner.pk),
        (owner_client, reverse("desk:home"), 200, None, owner.pk),
        (owner_client, f"/api/v1/torneios/{DEMO}/jogos/", 200, DEMO, None),
        (client, reverse("tournaments:list"), 200, None, None),
        (client, f"/torneios/{FINISHED}/chave/", 200, FINISHED, None),
        (client, "/torneios/nao-existe/", 404, "nao-existe", None),
        (client, reverse("desk:overview", args=[DEMO]), 302, DEMO, None),  # anonymous: to the login
    ]
    for count, (who, url, status, tournament, user) in enumerate(cases, start=1):
        response = who.get(url)
        assert response.status_code == status, url
        assert len(request_log.records) == count, url  # exactly one line for this request
        record = request_log.records[-1]
        assert (record.path, record.status, record.tournament, record.method) == (url, status, tournament, "GET")
        assert record.request_id == response["X-Request-ID"], url
        if user is not None:
            assert record.user == user, url
        elif who is client:
            assert record.user is None, url  # nobody signed in (or nobody looked)


def test_a_post_is_logged_with_its_method(owner_client, world, request_log):
    response = owner_client.post(reverse("desk:pins", args=[DEMO]), {})  # the form again, with its error
    assert response.status_code == 200
    (record,) = request_log.records
    assert (record.method, record.status, record.user, record.tournament) == ("POST", 200, world["owner"].pk, DEMO)


def test_a_server_error_is_logged_with_status_500(world, monkeypatch, request_log):
    monkeypatch.setattr("tournaments.public.views.presenters.tournament_list_rows", _broken)
    response = Client(raise_request_exception=False).get(reverse("tournaments:list"))
    assert response.status_code == 500
    (record,) = request_log.records
    assert record.status == 500 and record.request_id == response["X-Request-ID"]


def test_the_configured_console_handler_writes_json_lines_with_the_request_id(client, world):
    """settings.LOGGING itself: the zap.requests handler adds the request id and writes one JSON object a line."""
    logger = logging.getLogger("zap.requests")
    handlers = [h for h in logger.handlers if isinstance(h, logging.StreamHandler)]
    assert handlers and not logger.propagate
    handler = handlers[0]
    assert any(isinstance(f, RequestIdFilter) for f in handler.filters)
    if settings.LOG_FORMAT != "json":
        pytest.skip("LOG_FORMAT=text neste ambiente")
    assert isinstance(handler.formatter, JsonLinesFormatter)
    out = io.StringIO()
    old_stream, old_level = handler.setStream(out), logger.level
    logger.setLevel(logging.INFO)
    try:
        response = client.get(reverse("tournaments:detail", args=[DEMO]), headers={"X-Request-ID": "lb-123456789"})
    finally:
        logger.setLevel(old_level)
        handler.setStream(old_stream or sys.stderr)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1, lines
    line = json.loads(lines[0])
    assert line["request_id"] == "lb-123456789" == response["X-Request-ID"]
    assert (line["path"], line["status"], line["tournament"], line["method"]) == (
        f"/torneios/{DEMO}/",
        200,
        DEMO,
        "GET",
    )


def test_a_record_outside_a_request_has_request_id_dash():
    record = logging.LogRecord("zap.tarefa", logging.WARNING, __file__, 1, "sem pedido %s", ("nenhum",), None)
    assert RequestIdFilter().filter(record) is True
    assert record.request_id == "-"
    line = json.loads(JsonLinesFormatter().format(record))
    assert line["request_id"] == "-" and line["message"] == "sem pedido nenhum"
    assert (line["level"], line["logger"]) == ("WARNING", "zap.tarefa")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}", line["time"])
    assert "exception" not in line


def test_an_exception_record_includes_the_traceback():
    try:
        raise ValueError("valor ruim: ação")
    except ValueError:
        record = logging.LogRecord("zap.tarefa", logging.ERROR, __file__, 1, "falhou", (), sys.exc_info())
    record.jogo = {"key": "j1"}  # an extra field that is not a string
    RequestIdFilter().filter(record)
    text = JsonLinesFormatter().format(record)
    assert "\n" not in text  # still one line
    line = json.loads(text)
    assert "ValueError: valor ruim: ação" in line["exception"] and "Traceback" in line["exception"]
    assert line["jogo"] == {"key": "j1"} and line["request_id"] == "-"


def test_a_log_written_while_a_request_runs_carries_its_id(client, world, monkeypatch):
    """Any logger, not only zap.requests: the filter reads the id of the request running."""
    seen = []
    from tournaments.public import views

    real = views.presenters.tournament_list_rows

    def spy(*args, **kwargs):
        record = logging.LogRecord("zap.x", logging.INFO, __file__, 1, "dentro", (), None)
        RequestIdFilter().filter(record)
        seen.append(record.request_id)
        return real(*args, **kwargs)

    monkeypatch.setattr(views.presenters, "tournament_list_rows", spy)
    response = client.get(reverse("tournaments:list"), headers={"X-Request-ID": "dentro-do-pedido"})
    assert seen == ["dentro-do-pedido"] == [response["X-Request-ID"]]
    record = logging.LogRecord("zap.x", logging.INFO, __file__, 1, "depois", (), None)
    RequestIdFilter().filter(record)
    assert record.request_id == "-"  # reset when the request ended


# --- 4. the health URL ---------------------------------------------------------------------------------------------


def _health(client, **kwargs):
    response = client.get("/saude/", **kwargs)
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    return response, response.json()


@pytest.mark.django_db
def test_health_answers_ok_when_database_and_cache_answer(client):
    response, body = _health(client)
    assert response.status_code == 200
    assert body == {"status": "ok", "database": "ok", "cache": "ok"}
    assert "Set-Cookie" not in response.headers and not response.cookies


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["truco.example.org"])
def test_health_answers_any_host_header():
    client = Client()
    assert client.get(reverse("tournaments:list"), HTTP_HOST="10.0.0.7").status_code == 400  # the rest checks it
    response, body = _health(client, HTTP_HOST="10.0.0.7")
    assert response.status_code == 200 and body["status"] == "ok"


@pytest.mark.django_db
@override_settings(SECURE_SSL_REDIRECT=True)
def test_health_is_not_redirected_to_https():
    client = Client()
    page = client.get(reverse("tournaments:list"))
    assert page.status_code == 301 and page["Location"].startswith("https://")  # the rest is
    response, body = _health(client)
    assert response.status_code == 200 and body["status"] == "ok"


@pytest.mark.django_db
def test_health_says_503_when_the_cache_is_down():
    broken = {
        **settings.CACHES,
        "default": {
            "BACKEND": "tournaments.caching.SharedRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    }
    with override_settings(CACHES=broken):
        response, body = _health(Client())
    assert response.status_code == 503
    assert body["status"] == "erro" and body["database"] == "ok"
    assert body["cache"].startswith("erro"), body
    assert "ConnectionError" in body["cache"]


@pytest.mark.django_db
def test_health_says_503_when_the_database_is_down(client, monkeypatch):
    def refused(*args, **kwargs):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr("config.observability.connection.cursor", refused)
    response, body = _health(client)
    assert response.status_code == 503
    assert body == {"status": "erro", "database": "erro: OperationalError", "cache": "ok"}
    assert "could not connect" not in response.content.decode()  # the kind of failure, not its details


@pytest.mark.django_db
def test_health_answers_a_post_and_a_head_the_same_way():
    """The load balancer may use any method: /saude/ answers before CSRF and the method checks, with the same
    report (a POST is 200 JSON too, and changes nothing but the cache's own probe key)."""
    client = Client(enforce_csrf_checks=True)
    response = client.post("/saude/", data="x", content_type="text/plain")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    head = client.head("/saude/")
    assert head.status_code == 200 and head["Cache-Control"] == "no-store"


# --- 5. what needs a login -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_admin_and_desk_send_an_anonymous_visitor_to_a_login(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"] == "/admin/login/?next=/admin/"
    assert client.get(response["Location"]).status_code == 200
    response = client.get("/organizar/")
    assert response.status_code == 302
    assert response["Location"] == "/entrar/?next=/organizar/"
    login = client.get(response["Location"])
    assert login.status_code == 200 and 'name="password"' in login.content.decode()
    assert_security_headers(login)


def test_a_public_page_never_sets_a_session_cookie_for_a_visitor(client, world):
    urls = [
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[DEMO]),
        reverse("tournaments:standings", args=[DEMO]),
        reverse("tournaments:bracket", args=[DEMO]),
        reverse("tournaments:jogos", args=[DEMO]),
        reverse("tournaments:sumula", args=[DEMO, _live_jogo_key(world["demo"])]),
        "/torneios/nao-existe/",
        "/saude/",
    ]
    for url in urls:
        for _ in range(2):  # the second time from the page cache
            response = client.get(url)
            assert response.status_code in (200, 404), url
            assert settings.SESSION_COOKIE_NAME not in response.cookies, url
            assert settings.CSRF_COOKIE_NAME not in response.cookies, url  # cached pages carry no token
    assert settings.SESSION_COOKIE_NAME not in client.cookies


# --- Server-Timing (config/timing.py) --------------------------------------------------------------------------

SERVER_TIMING = re.compile(r"app;dur=([0-9]+\.[0-9])")


def test_every_response_says_the_time_the_application_took(client, owner_client, world):
    tournament = world["demo"].slug
    responses = {
        "page": client.get(reverse("tournaments:standings", kwargs={"slug": tournament})),
        "404": client.get("/torneios/nao-existe/"),
        "api": client.get(f"/api/v1/torneios/{tournament}/jogos/"),
        "refused write": client.post(
            f"/api/v1/torneios/{tournament}/jogos/x/maos/", data="{}", content_type="application/json"
        ),
        "health": client.get("/saude/"),
    }
    for name, response in responses.items():
        match = SERVER_TIMING.fullmatch(response["Server-Timing"])
        assert match, (name, response["Server-Timing"])
        assert 0 <= float(match.group(1)) < 60_000, name


def test_server_timing_measures_the_whole_chain_and_keeps_a_metric_already_there(monkeypatch):
    from config import timing

    clock = iter([10.0, 10.0425])  # the request starts at 10 s and its response is back 42.5 ms later
    monkeypatch.setattr(timing, "perf_counter", lambda: next(clock))

    def view(request):
        response = HttpResponse("ok")
        response["Server-Timing"] = "db;dur=3.0"
        return response

    response = timing.ServerTimingMiddleware(view)(RequestFactory().get("/"))
    assert response["Server-Timing"] == "app;dur=42.5, db;dur=3.0"


def test_server_timing_tells_how_long_the_request_waited_in_the_worker(monkeypatch):
    """Under gunicorn the worker's pool says how long the request queued for a thread (config/workers.py)."""
    from config import timing

    clock = iter([10.0, 10.005])
    monkeypatch.setattr(timing, "perf_counter", lambda: next(clock))
    timing.queue_wait_set(0.0125)
    try:
        response = timing.ServerTimingMiddleware(lambda request: HttpResponse("ok"))(RequestFactory().get("/"))
    finally:
        timing.queue_wait_set(None)
    assert response["Server-Timing"] == "app;dur=5.0, queue;dur=12.5"


def test_server_timing_is_first_in_the_middleware():
    assert settings.MIDDLEWARE[0] == "config.timing.ServerTimingMiddleware"
