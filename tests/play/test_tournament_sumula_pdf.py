"""The filled súmula of a jogo played online (issue 44): the PDF says the jogo was played online, that the table
filled it, and links the replay of each partida; the confirmations say they came from the table."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from pypdf import PdfReader

from tests.support.online_tournament import clock_run, knockout_online_file
from tournaments.models import Jogo, OnlineTable, PartidaLog

pytestmark = pytest.mark.django_db


def _pdf_text(body: bytes) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def test_the_pdf_says_online_and_links_each_partidas_replay(load_file):
    event = load_file(knockout_online_file(duplas=4, slug="copa-pdf"))
    clock_run(event, now=timezone.now())
    jogo = Jogo.objects.filter(tournament=event, round=1).order_by("position").first()
    table = OnlineTable.objects.get(jogo=jogo)
    played = PartidaLog.objects.filter(table=table).count()
    assert played >= 2
    response = Client().get(f"/torneios/{event.slug}/jogos/{jogo.key}/sumula.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = " ".join(_pdf_text(response.content).split())
    assert f"Jogo disputado online (mesa online {table.pk})" in text
    assert "preenchida pela própria mesa" in text
    for n in range(1, played + 1):
        assert f"{settings.SITE_URL}/jogar/mesas/{table.pk}/partidas/{n}/".replace(" ", "") in text.replace(" ", "")
    assert "confirmou na mesa online" in text


def test_a_physical_jogo_says_nothing_of_it(load_file):
    data = knockout_online_file(duplas=4, slug="copa-pdf-fisica", online_setting=None)
    data["jogos"] = [{"stage": "mata", "duplas": ["d1", "d4"], "partidas": [[12, 3], [12, 5]]}]
    event = load_file(data)
    jogo = Jogo.objects.get(
        tournament=event, key=Jogo.objects.filter(tournament=event).exclude(status="scheduled").first().key
    )
    text = _pdf_text(Client().get(f"/torneios/{event.slug}/jogos/{jogo.key}/sumula.pdf").content)
    assert "disputado online" not in text and "mesa online" not in text and "/jogar/mesas/" not in text
