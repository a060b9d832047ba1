"""Production fails closed: no development key, HTTPS settings from the environment, throttled logins,
read-only pages that answer only GET and HEAD."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from tests.support.files import base_file
from tests.support.production import settings_run
from tournaments.services import tournament_import

BASE_DIR = Path(__file__).resolve().parents[2]
STRONG_KEY = "k" * 20 + "-production-secret-key-0123456789-abcdefghijklmnop"


# --- settings from the environment (each read in a fresh process, as a server would) ---


READ = (
    "import json, config.settings as s; print(json.dumps({n: getattr(s, n, None) for n in ("
    "'SECRET_KEY', 'DEBUG', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', "
    "'SECURE_HSTS_PRELOAD', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_PROXY_SSL_HEADER', "
    "'CSRF_TRUSTED_ORIGINS', 'SITE_URL')}))"
)


def settings_read(**env: str) -> dict:
    run = settings_run(READ, **env)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize(
    "env", [{}, {"DEBUG": "0"}, {"SECRET_KEY": "django-insecure-zap-development-key"}, {"SECRET_KEY": "   "}]
)
def test_without_a_secret_key_and_debug_off_the_server_does_not_start(env):
    for server in ("import config.wsgi", "import config.asgi"):
        run = settings_run(server, **env)
        assert run.returncode != 0
        assert "ImproperlyConfigured" in run.stderr and "SECRET_KEY não definida" in run.stderr
    # the commands still run, never with the key committed in the repository: a throwaway random one
    first, second = settings_read(**env)["SECRET_KEY"], settings_read(**env)["SECRET_KEY"]
    assert first != second and "insecure" not in first and len(first) >= 50


def test_the_commands_of_the_contract_run_without_a_secret_key(tmp_path):
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'zap.sqlite3'}"}
    bare = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "ZAP_DEV"}}
    for args in (
        ["migrate", "-v0"],
        ["import_tournament", str(BASE_DIR / "demo" / "aabb-2024.json")],
        ["export_tournament", "aabb-2024", "-o", str(tmp_path / "out.json")],
    ):
        run = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env={**bare, **env},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, (args, run.stderr)
    assert json.loads((tmp_path / "out.json").read_text())["tournament"]["slug"] == "aabb-2024"


def test_the_development_key_only_with_debug_or_zap_dev():
    assert settings_read(DEBUG="1")["SECRET_KEY"] == "django-insecure-zap-development-key"
    assert settings_read(ZAP_DEV="1")["SECRET_KEY"] == "django-insecure-zap-development-key"
    assert settings_read(SECRET_KEY=STRONG_KEY)["SECRET_KEY"] == STRONG_KEY


def test_local_defaults_keep_plain_http_working():
    s = settings_read(SECRET_KEY=STRONG_KEY)
    assert s["DEBUG"] is False
    assert s["SITE_URL"] == "http://127.0.0.1:8000"
    assert (
        s["SECURE_SSL_REDIRECT"],
        s["SECURE_HSTS_SECONDS"],
        s["SESSION_COOKIE_SECURE"],
        s["CSRF_COOKIE_SECURE"],
    ) == (False, 0, False, False)
    assert s["SECURE_PROXY_SSL_HEADER"] is None
    assert s["CSRF_TRUSTED_ORIGINS"] == ["http://127.0.0.1:8000"]


def test_https_settings_come_from_the_environment():
    s = settings_read(
        SECRET_KEY=STRONG_KEY,
        SITE_URL="https://truco.example.org/",
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_SECONDS="31536000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="on",
        SECURE_PROXY_SSL_HEADER="HTTP_X_FORWARDED_PROTO,https",
        CSRF_TRUSTED_ORIGINS="https://www.example.org, https://admin.example.org",
    )
    assert s["SITE_URL"] == "https://truco.example.org"
    assert s["SECURE_SSL_REDIRECT"] is True and s["SECURE_HSTS_SECONDS"] == 31536000
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and s["SECURE_HSTS_PRELOAD"] is True
    assert s["SESSION_COOKIE_SECURE"] is True and s["CSRF_COOKIE_SECURE"] is True  # SITE_URL is https
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["CSRF_TRUSTED_ORIGINS"] == [
        "https://truco.example.org",
        "https://www.example.org",
        "https://admin.example.org",
    ]
    # each can be turned off explicitly
    s = settings_read(SECRET_KEY=STRONG_KEY, SITE_URL="https://truco.example.org", SESSION_COOKIE_SECURE="0")
    assert s["SESSION_COOKIE_SECURE"] is False and s["CSRF_COOKIE_SECURE"] is True


@pytest.mark.parametrize(
    "env, message",
    [
        ({"SECURE_HSTS_SECONDS": "um ano"}, "SECURE_HSTS_SECONDS"),
        ({"SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto"}, "SECURE_PROXY_SSL_HEADER"),
        ({"CSRF_TRUSTED_ORIGINS": "truco.example.org"}, "CSRF_TRUSTED_ORIGINS"),
        ({"SITE_URL": "truco.example.org"}, "SITE_URL"),
    ],
)
def test_a_malformed_setting_is_refused_with_its_name(env, message):
    run = settings_run(READ, SECRET_KEY=STRONG_KEY, **env)
    assert run.returncode != 0 and message in run.stderr.strip().splitlines()[-1]


def test_check_deploy_is_clean_in_a_production_environment():
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        # DJANGO_ALLOW_ASYNC_UNSAFE: set in this process by the browser tests, never in production
        env={
            **{k: v for k, v in os.environ.items() if k not in {"ZAP_DEV", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}},
            "SECRET_KEY": STRONG_KEY,
            "SITE_URL": "https://truco.example.org",
            "ALLOWED_HOSTS": "truco.example.org",
            "SECURE_SSL_REDIRECT": "1",
            "SECURE_HSTS_SECONDS": "31536000",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
            "SECURE_HSTS_PRELOAD": "1",
            "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
            "REDIS_URL": "redis://127.0.0.1:6379/0",
            "TRUSTED_PROXY_COUNT": "1",
        },  # README, "Deployment"
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues" in run.stdout


# --- behind a TLS proxy ---


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["truco.example.org"])
def test_admin_login_behind_a_tls_proxy_needs_the_proxy_header_setting():
    User.objects.create_superuser("comissao", "c@example.com", "senha-forte-123")

    def login() -> int:
        # what the proxy passes on: the browser's Host, and the scheme it spoke in X-Forwarded-Proto
        client = Client(enforce_csrf_checks=True, headers={"Host": "truco.example.org", "X-Forwarded-Proto": "https"})
        client.get(reverse("admin:login"))
        token = client.cookies["csrftoken"].value
        return client.post(
            reverse("admin:login"),
            {"username": "comissao", "password": "senha-forte-123", "csrfmiddlewaretoken": token, "next": "/admin/"},
            headers={"Origin": "https://truco.example.org", "Referer": "https://truco.example.org/admin/login/"},
        ).status_code

    with override_settings(SECURE_PROXY_SSL_HEADER=None):
        assert login() == 403  # the browser spoke https, Django sees http: the origin does not match
    with override_settings(SECURE_PROXY_SSL_HEADER=None, CSRF_TRUSTED_ORIGINS=["https://truco.example.org"]):
        assert login() == 302  # trusting the origin is one way out
    with override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https")):
        assert login() == 302  # telling Django the proxy's header is the other


# --- login throttling (django-axes) ---


@pytest.fixture
def comissao(db):
    return User.objects.create_superuser("comissao", "c@example.com", "senha-forte-123")


def admin_login(client, password: str, username: str = "comissao"):
    return client.post(reverse("admin:login"), {"username": username, "password": password, "next": "/admin/"})


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_right_password_logs_in(client, comissao):
    response = admin_login(client, "senha-forte-123")
    assert response.status_code == 302 and logged_in(client)


def test_after_30_wrong_passwords_the_right_one_does_not_log_in(client, comissao):
    for _ in range(30):
        response = admin_login(client, "senha-errada")
        assert response.status_code in (200, 429)
        assert not logged_in(client)
    response = admin_login(client, "senha-forte-123")
    assert not logged_in(client)
    assert response.status_code == 429
    page = response.content.decode()
    assert "Acesso bloqueado temporariamente" in page and "15 minutos" in page and "5 tentativas" in page


def test_lockout_starts_after_five_failures_and_ends_after_the_cool_off(client, comissao):
    for _ in range(4):
        assert admin_login(client, "senha-errada").status_code == 200  # the form again, with its error
    assert admin_login(client, "senha-errada").status_code == 429  # the 5th: locked out
    assert admin_login(client, "senha-forte-123").status_code == 429 and not logged_in(client)
    # another username from the same address is not locked out
    User.objects.create_superuser("arbitro", "a@example.com", "outra-senha-456")
    assert admin_login(client, "outra-senha-456", username="arbitro").status_code == 302
    client.logout()
    # 15 minutes later the lockout is over
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16))
    assert admin_login(client, "senha-forte-123").status_code == 302 and logged_in(client)


def test_test_client_login_still_works(client, comissao):
    assert client.login(username="comissao", password="senha-forte-123")
    assert not client.login(username="comissao", password="senha-errada")


# --- read-only pages: GET and HEAD only ---


@pytest.fixture
def public_urls(db):
    t = tournament_import(data=base_file())
    urls = ["/", reverse("tournaments:list")]
    urls += [
        reverse(f"tournaments:{name}", kwargs={"slug": t.slug})
        for name in ("detail", "standings", "bracket", "jogos", "export")
    ]
    return urls


def test_read_only_pages_answer_get_and_head(client, public_urls):
    for url in public_urls:
        assert client.get(url).status_code in (200, 302), url
        assert client.head(url).status_code in (200, 302), url


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "TRACE", "OPTIONS"])
def test_read_only_pages_refuse_other_methods(public_urls, method):
    client = Client(enforce_csrf_checks=True)  # as a browser or curl would: no CSRF token
    for url in public_urls:
        response = client.generic(method, url)
        assert response.status_code == 405, (method, url)
        assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD"}, (method, url)


def test_the_lockout_counts_the_clients_address_behind_trusted_proxies(rf):
    from tournaments.web import client_ip

    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 200.1.2.3")
    with override_settings(TRUSTED_PROXY_COUNT=0):
        assert client_ip(request) == "10.0.0.1"  # no proxy trusted: the header may be forged
    with override_settings(TRUSTED_PROXY_COUNT=1, TRUSTED_PROXIES=["10.0.0.1"]):
        assert client_ip(request) == "200.1.2.3"  # what our proxy saw, not what the client claimed before it
    with override_settings(TRUSTED_PROXY_COUNT=1, TRUSTED_PROXIES=["10.0.0.1"]):
        assert client_ip(rf.get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


# --- absolute links on a development server (issue 24, item 7) ---

MIDDLEWARE_READ = "import config.settings as s; print('config.devsite.DevSiteUrlMiddleware' in s.MIDDLEWARE)"


def test_on_a_development_server_without_site_url_links_follow_the_address_served():
    assert settings_run(MIDDLEWARE_READ, DEBUG="1").stdout.strip() == "True"
    # production (DEBUG off), or a SITE_URL given: links start with SITE_URL, whatever the request's host
    assert settings_run(MIDDLEWARE_READ, SECRET_KEY=STRONG_KEY).stdout.strip() == "False"
    assert settings_run(MIDDLEWARE_READ, DEBUG="1", SITE_URL="http://127.0.0.1:8000").stdout.strip() == "False"


def test_the_development_middleware_takes_the_scheme_host_and_port_of_the_request(rf, settings):
    from config.devsite import DevSiteUrlMiddleware
    from tournaments.staff.selectors import private_link

    settings.ALLOWED_HOSTS = ["192.168.0.12"]
    seen = []
    middleware = DevSiteUrlMiddleware(lambda request: seen.append(settings.SITE_URL) or "ok")
    assert middleware(rf.get("/torneios/", HTTP_HOST="192.168.0.12:8001")) == "ok"
    assert seen == ["http://192.168.0.12:8001"]

    from tournaments.models import Dupla, new_private_token

    dupla = Dupla(token=new_private_token())
    assert private_link(dupla=dupla) == f"http://192.168.0.12:8001/d/{dupla.token}/"
