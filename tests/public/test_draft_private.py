"""A draft's public side, previewed by its staff, is kept by no shared cache (issue 41, item 9): every public
address of an event (its pages, exportar.json, chave.pdf and the other sheets, a súmula, the API's reads) answers
a draft's staff with ``Cache-Control: private`` and ``no-store``; the same addresses of a published event are the
public's (no ``private``: the shared caches may keep them)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.support.sumula import cup_setup, staff_user
from tournaments.models import Dupla, Jogo, StaffRole, Tournament

pytestmark = pytest.mark.django_db


def _public_urls(tournament: Tournament) -> dict[str, str]:
    """name → address of every named GET address of one event: the ``tournaments`` namespace (pages, sheets, the
    file, the súmula, the sign-up) and the API's reads, each argument filled with the event's own rows."""
    jogo = Jogo.objects.filter(tournament=tournament).order_by("id").first()
    dupla = Dupla.objects.filter(tournament=tournament).order_by("id").first()
    out: dict[str, str] = {}

    def walk(patterns, namespace=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name and namespace in ("tournaments", "api"):
                params = set(p.pattern.converters)
                if "slug" not in params or params - {"slug", "key"}:
                    continue  # the list of events, a mão's or the signup's own token
                name = f"{namespace}:{p.name}"
                key = dupla.key if name == "tournaments:dupla" else jogo.key
                kwargs = {"slug": tournament.slug} | ({"key": key} if "key" in params else {})
                out[name] = reverse(name, kwargs=kwargs)

    walk(get_resolver().url_patterns)
    return out


def test_every_public_address_of_a_draft_is_private_for_its_staff(load_file, client):
    t = cup_setup(load_file, slug="copa-rascunho")
    Tournament.objects.filter(pk=t.pk).update(published=False)
    client.force_login(staff_user(t, "comissao-rascunho", StaffRole.ORGANIZER))
    urls = _public_urls(t)
    assert {"tournaments:export", "tournaments:bracket_pdf", "tournaments:sumula", "api:jogos", "api:jogo"} <= set(urls)
    answered = {}
    for name, url in urls.items():
        response = client.get(url)
        answered[name] = response.status_code
        if response.status_code in (200, 302):
            control = response.get("Cache-Control", "")
            assert "private" in control and "no-store" in control, (name, control)
    assert answered["tournaments:export"] == answered["tournaments:bracket_pdf"] == 200
    assert answered["api:jogos"] == answered["api:jogo"] == 200
    assert Client().get(urls["tournaments:export"]).status_code == 404  # the public: no such event


def test_the_same_addresses_of_a_published_event_are_the_publics(load_file, client):
    t = cup_setup(load_file, slug="copa-publicada")
    client.force_login(staff_user(t, "comissao-publicada", StaffRole.ORGANIZER))
    for name, url in _public_urls(t).items():
        response = client.get(url)
        if response.status_code == 200 and name != "tournaments:signup":  # the sign-up form: never cached
            assert "private" not in response.get("Cache-Control", ""), name
