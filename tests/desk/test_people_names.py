"""Who did something is named as the person, not as the login (review of the AABB walk, item 23): "assinada por"
on the referee's súmula, "Feito por" on the pairing draw, "por" on the calls, the desk's history. Through one
helper (``roles.display_name``, ``{{ user|pessoa }}``): the name the person gave, else the username."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.support.event_states import event_during_make
from tournaments.calls.services import jogo_call
from tournaments.models import Jogo

pytestmark = pytest.mark.django_db

ORGANIZER, REFEREE = "comissao-regional", "arbitro-regional"
NAMES = {ORGANIZER: "Helena Prado", REFEREE: "Rogério Lima"}


def _named(*usernames: str) -> None:
    for username in usernames:
        get_user_model().objects.filter(username=username).update(first_name=NAMES[username])


def _hints(html: str) -> list[str]:
    """The 'who' lines of a page: every <p class="hint">, <dd> and list item's text."""
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(r'<(?:p class="hint"|dd|li)[^>]*>(.*?)</(?:p|dd|li)>', html)]


@pytest.fixture
def during():
    return event_during_make()


def _organizer_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=ORGANIZER))
    return client


def _signed(t) -> Jogo:
    return Jogo.objects.filter(tournament=t, status=Jogo.HOMOLOGATED).order_by("id").first()


def test_the_desk_names_people_by_the_name_they_gave(during):
    t = during
    _named(ORGANIZER, REFEREE)
    client = _organizer_client()
    called = Jogo.objects.filter(tournament=t, status=Jogo.SCHEDULED).order_by("id").first()
    jogo_call(tournament=t, jogo_id=called.pk, user=get_user_model().objects.get(username=ORGANIZER))

    sumula = client.get(f"/organizar/{t.slug}/arbitragem/{_signed(t).key}/").content.decode()
    assert "assinada por Rogério Lima" in sumula and f"assinada por {REFEREE}" not in sumula

    pairing = client.get(f"/organizar/{t.slug}/sorteios/duplas/").content.decode()
    assert "<dt>Feito por</dt><dd>Helena Prado</dd>" in pairing

    calls = client.get(f"/organizar/{t.slug}/chamadas/").content.decode()
    assert "por Helena Prado" in calls and f"por {ORGANIZER}" not in calls

    history = client.get(f"/organizar/{t.slug}/historico/").content.decode()
    lines = [h for h in _hints(history) if re.search(r"\d{2}/\d{2}/\d{4} \d{2}:\d{2}", h)]
    assert lines and all(h.endswith("· Helena Prado") for h in lines), lines
    assert not any(ORGANIZER in h or REFEREE in h for h in lines), lines


def test_without_a_name_the_username_is_shown(during):
    t = during
    client = _organizer_client()
    sumula = client.get(f"/organizar/{t.slug}/arbitragem/{_signed(t).key}/").content.decode()
    assert f"assinada por {REFEREE}" in sumula
    pairing = client.get(f"/organizar/{t.slug}/sorteios/duplas/").content.decode()
    assert f"<dt>Feito por</dt><dd>{ORGANIZER}</dd>" in pairing


def test_the_public_sumula_names_no_account(during, client):
    t = during
    _named(ORGANIZER, REFEREE)
    html = client.get(f"/torneios/{t.slug}/jogos/{_signed(t).key}/").content.decode()
    assert "Homologada pelo árbitro em" in html
    for secret in (REFEREE, ORGANIZER, "Rogério Lima", "Helena Prado", "@"):
        assert secret not in html, secret
