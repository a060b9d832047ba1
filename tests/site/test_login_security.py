"""Issue 21, item 6: login throttled per account too, the proxy header trusted only from the proxy,
password reset throttled, and no one-time link in the log."""

import email
import logging
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

User = get_user_model()


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def comissao(db):
    return User.objects.create_superuser("comissao", "c@example.com", "senha-forte-123")


def login(client, password, address, username="comissao"):
    return client.post(reverse("accounts:login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


# --- per account ---


def test_fifty_wrong_passwords_from_ten_addresses_lock_the_account(client, comissao):
    for n in range(50):
        login(client, "senha-errada", f"203.0.113.{n % 10 + 1}")
    response = login(client, "senha-forte-123", "198.51.100.77")  # a fresh address, the right password
    assert response.status_code == 429 and not logged_in(client)
    page = response.content.decode()
    assert "bloqueada" in page and "senha nova" in page and reverse("accounts:password_reset") in page


def test_a_few_failures_spread_over_addresses_do_not_lock_the_account(client, comissao):
    for n in range(4):
        login(client, "senha-errada", f"203.0.113.{n + 1}")
    response = login(client, "senha-forte-123", "198.51.100.77")
    assert response.status_code == 302 and logged_in(client)


def test_one_address_is_still_locked_after_five(client, comissao):
    for _ in range(5):
        login(client, "senha-errada", "203.0.113.9")
    response = login(client, "senha-forte-123", "203.0.113.9")
    assert response.status_code == 429 and "5 tentativas" in response.content.decode()
    assert login(client, "senha-forte-123", "203.0.113.10").status_code == 302  # another address: fine


# --- X-Forwarded-For only from the proxy ---


def test_a_forged_forwarded_header_from_a_direct_client_is_ignored(rf):
    from tournaments.web import client_ip

    forged = rf.get("/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="1.2.3.4")
    via_proxy = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4")
    with override_settings(TRUSTED_PROXY_COUNT=1, TRUSTED_PROXIES=["127.0.0.1", "::1"]):
        assert client_ip(forged) == "203.0.113.5"
        assert client_ip(via_proxy) == "1.2.3.4"
    with override_settings(TRUSTED_PROXY_COUNT=1, TRUSTED_PROXIES=["10.0.0.0/8"]):
        assert client_ip(rf.get("/", REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR="1.2.3.4")) == "1.2.3.4"
        assert client_ip(via_proxy) == "127.0.0.1"


def test_forged_headers_do_not_escape_the_lockout(client, comissao):
    with override_settings(TRUSTED_PROXY_COUNT=1, TRUSTED_PROXIES=["127.0.0.1"]):
        for n in range(6):
            client.post(
                reverse("accounts:login"),
                {"username": "comissao", "password": "senha-errada"},
                REMOTE_ADDR="203.0.113.5",
                HTTP_X_FORWARDED_FOR=f"10.9.9.{n}",
            )
        response = client.post(
            reverse("accounts:login"),
            {"username": "comissao", "password": "senha-forte-123"},
            REMOTE_ADDR="203.0.113.5",
            HTTP_X_FORWARDED_FOR="10.9.9.99",
        )
    assert response.status_code == 429


def test_trusted_proxies_default_to_loopback_and_are_checked():
    from tests.support.production import settings_run

    code = "import json, config.settings as s; print(json.dumps(s.TRUSTED_PROXIES))"
    run = settings_run(code, TRUSTED_PROXY_COUNT="1")
    assert run.returncode == 0, run.stderr and False
    assert run.stdout.strip() == '["127.0.0.1", "::1"]'
    run = settings_run(code, TRUSTED_PROXY_COUNT="1", TRUSTED_PROXIES="10.0.0.0/8,nada")
    assert run.returncode != 0 and "TRUSTED_PROXIES" in run.stderr


# --- password reset ---


def reset(client, email, address="203.0.113.5"):
    return client.post(reverse("accounts:password_reset"), {"email": email}, REMOTE_ADDR=address)


def test_password_reset_is_throttled_per_email_with_the_same_answer(client, comissao):
    answers = [reset(client, "c@example.com", f"203.0.113.{n}") for n in range(8)]
    assert all(r.status_code == 302 and r["Location"] == reverse("accounts:password_reset_done") for r in answers)
    assert len(mail.outbox) == 5


def test_password_reset_is_throttled_per_address(client, comissao, db):
    for n in range(5):
        User.objects.create_user(f"u{n}", f"u{n}@example.com", "x")
    for n in range(5):
        reset(client, f"u{n}@example.com")
    assert len(mail.outbox) == 5
    answer = reset(client, "c@example.com")
    assert answer.status_code == 302 and answer["Location"] == reverse("accounts:password_reset_done")
    assert len(mail.outbox) == 5  # the 6th from that address sent nothing
    reset(client, "c@example.com", address="198.51.100.1")
    assert len(mail.outbox) == 6


def test_without_email_host_the_reset_link_never_reaches_the_log(client, comissao, settings, caplog, tmp_path):
    from config.mail import UnsentMailBackend

    assert settings.MAILERS  # the test runner swaps the backend; the configured one is checked in a fresh process
    from tests.support.production import settings_run

    run = settings_run("import config.settings as s; print(s.MAILERS['default']['BACKEND'])", EMAIL_HOST="")
    assert run.stdout.strip() == "config.mail.UnsentMailBackend", run.stderr

    reset(client, "c@example.com")
    body = mail.outbox[0].body
    link = re.search(r"https?://\S+", body).group(0)
    token = link.rstrip("/").rsplit("/", 1)[-1]
    settings.ZAP_MAIL_DIR = ""
    with caplog.at_level(logging.DEBUG):
        assert UnsentMailBackend().send_messages(mail.outbox) == 1
    logged = caplog.text
    assert "e-mail não enviado" in logged
    assert link not in logged and token not in logged and "c@example.com" not in logged

    caplog.clear()
    settings.ZAP_MAIL_DIR = str(tmp_path / "mail")
    with caplog.at_level(logging.DEBUG):
        UnsentMailBackend().send_messages(mail.outbox)
    assert token not in caplog.text
    files = list((tmp_path / "mail").iterdir())
    assert len(files) == 1 and (files[0].stat().st_mode & 0o777) == 0o600
    assert ((tmp_path / "mail").stat().st_mode & 0o777) == 0o700
    kept = email.message_from_bytes(files[0].read_bytes()).get_payload(decode=True).decode()  # quoted-printable
    assert token in kept


def test_the_sumula_log_records_the_client_address_behind_the_proxy(settings, rf):
    """The súmula's device line asks the one client-address helper (a forged header from outside is ignored)."""
    from tournaments.web import request_device

    settings.TRUSTED_PROXY_COUNT, settings.TRUSTED_PROXIES = 1, ["127.0.0.1"]
    behind = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7", HTTP_USER_AGENT="Fone")
    assert request_device(behind) == "Fone · 203.0.113.7"
    direct = rf.get("/", REMOTE_ADDR="198.51.100.2", HTTP_X_FORWARDED_FOR="203.0.113.7", HTTP_USER_AGENT="Fone")
    assert request_device(direct) == "Fone · 198.51.100.2"
