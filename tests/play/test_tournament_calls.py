""" "Sua vez" for a jogo played online (issue 44): the call (WhatsApp text and e-mail) sends each player to the
dupla's private link, where they take their seat, and names the jogo's table; a physical jogo's call is unchanged."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import timezone

from tests.support.online_tournament import knockout_online_file
from tournaments.calls.messages import call_subject, call_text
from tournaments.models import Jogo

pytestmark = pytest.mark.django_db


def test_the_call_of_an_online_jogo_points_at_its_table(load_file):
    event = load_file(knockout_online_file(duplas=4, slug="copa-chamada"))
    jogo = Jogo.objects.filter(tournament=event).select_related("dupla_a", "dupla_b", "stage", "tournament").first()
    text = call_text(jogo=jogo, dupla=jogo.dupla_a, at=timezone.now())
    assert "mesa online" in text
    assert f"{settings.SITE_URL}/d/{jogo.dupla_a.token}/#mesa-online" in text
    assert f"{settings.SITE_URL}/torneios/{event.slug}/jogos/{jogo.key}/mesa/" in text
    assert "vá à mesa" not in text
    assert call_subject(jogo=jogo).startswith("Sua vez: mesa online · ")


def test_a_physical_jogos_call_is_unchanged(load_file):
    event = load_file(knockout_online_file(duplas=4, slug="copa-chamada-fisica", online_setting=None))
    jogo = Jogo.objects.filter(tournament=event).select_related("dupla_a", "dupla_b", "stage", "tournament").first()
    text = call_text(jogo=jogo, dupla=jogo.dupla_b, at=timezone.now())
    assert f"vá à mesa {jogo.mesa}" in text and "/mesa/" not in text and "mesa online" not in text
