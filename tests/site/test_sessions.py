"""Sessions (config/sessions.py): Django's database sessions, read with one plain query; the same rows, so a
session made by Django's own engine stays signed in and an expired or unknown one is anonymous."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.sessions import SessionStore

pytestmark = pytest.mark.django_db

WHO = "/conta/"  # a page only a signed-in account sees (anyone else is sent to /entrar/)


@pytest.fixture
def user():
    return User.objects.create_user(username="arbitra", password="senha-do-teste-1", first_name="Ana")


def django_session(user) -> str:
    """A signed-in session written by Django's own database engine (as the site kept them before)."""
    store = DjangoStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    assert store.session_key is not None
    return store.session_key


def visit(key: str):
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    return client.get(WHO)


def test_the_site_uses_this_engine():
    assert settings.SESSION_ENGINE == "config.sessions"


def test_a_session_written_by_djangos_engine_stays_signed_in(user):
    response = visit(django_session(user))
    assert response.status_code == 200
    assert response.wsgi_request.user == user


def test_what_this_engine_writes_djangos_engine_reads(user):
    store = SessionStore()
    store["quem"] = "árbitra"
    store.create()
    assert DjangoStore(store.session_key).load() == {"quem": "árbitra"}
    assert SessionStore(store.session_key).load() == {"quem": "árbitra"}


def test_an_expired_session_is_anonymous_and_gets_a_new_key_when_saved(user):
    key = django_session(user)
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    response = visit(key)
    assert response.status_code == 302 and response["Location"].startswith("/entrar/")
    store = SessionStore(key)
    assert store.load() == {} and store.session_key is None
    store["x"] = 1
    store.save()
    assert store.session_key not in (None, key)


@pytest.mark.parametrize("key", ["nao-existe-0123456789abcdef", "curta", "x" * 41, "'; DROP TABLE django_session; --"])
def test_an_unknown_or_malformed_key_is_anonymous(user, key):
    django_session(user)
    response = visit(key)
    assert response.status_code == 302 and response["Location"].startswith("/entrar/")
    assert Session.objects.count() == 1


def test_reading_a_session_is_one_query(user):
    key = django_session(user)
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(key).load()[SESSION_KEY] == str(user.pk)
    assert len(queries) == 1 and "django_session" in queries[0]["sql"]
