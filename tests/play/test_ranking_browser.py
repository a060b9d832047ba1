"""The ranking, a player's page and the replay in headless Chromium at 390 and 1366 px: the level icons and the
chart drawn, a display name with markup shown as text, the replay's step links walking the partida, no horizontal
scroll, no axe-core violation.

Screenshots: /tmp/zap-shots/ranking-*.png, jogador-*.png, replay-*.png (and /tmp/shots-T-RANK/)."""

from __future__ import annotations

import shutil
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.support.a11y import AXE_CONTEXT, assert_no_axe_violations
from tests.support.browser import SHOTS, shot
from tournaments.models import OnlineRating, OnlineRatingPoint, OnlineTable, PartidaLog
from tournaments.online import ranking

from .ranking_support import account, play_partida, table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
MARKUP = "<b>Zé</b>"
MINE = Path("/tmp/shots-T-RANK")


def snap(page, name: str) -> None:
    shot(page, name)
    MINE.mkdir(parents=True, exist_ok=True)
    shutil.copy(SHOTS / f"{name}.png", MINE / f"{name}.png")


def no_side_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"a página rola na horizontal ({overflow}px)"


def history(profile, results: list[bool]) -> None:
    """Counted partidas for ``profile`` (at a robots table's logs), walked as the ranking walks them."""
    out = StringIO()
    call_command("play_robots", "--partidas", str(len(results)), "--seed", str(profile.pk), stdout=out)
    table_id = int(out.getvalue().split()[0])
    start = timezone.now() + timedelta(minutes=1)
    before = OnlineRatingPoint.objects.filter(profile=profile).count()
    for i, (log, won) in enumerate(
        zip(PartidaLog.objects.filter(table_id=table_id).order_by("n"), results, strict=True)
    ):
        OnlineRatingPoint.objects.create(
            profile=profile,
            log=log,
            n=before + i + 1,
            seat=0,
            won=won,
            score=0,
            at=start + timedelta(minutes=i),
            maos=9,
            maos_won=5 if won else 3,
        )
    ranking.ranking_rebuild(profile_ids=[profile.pk])


@pytest.mark.parametrize("device", list(WIDTHS))
def test_ranking_player_and_replay_pages(browser, live_server, device, monkeypatch):
    # nobody listens to these tables: no notices to the live connections (Playwright's loop holds this thread)
    monkeypatch.setattr("tournaments.online.broadcast._send", lambda group, message: None)
    users, profiles = [], []
    for i, name in enumerate(("Ana Paula", "Bruno", "Carla", "Davi")):
        user, profile = account(f"conta{i}", first_name=name)
        users.append(user)
        profiles.append(profile)
    profiles[1].display_name = MARKUP
    profiles[1].save()
    table = table_of(profiles)
    log, _now = play_partida(table, profiles, seed=8)
    history(profiles[0], [True, True, False, True, True, True, False, True, True, True, True, False, True, True])
    assert OnlineRating.objects.get(pk=profiles[0].pk).played == 15

    context = browser.new_context(viewport=WIDTHS[device], locale="pt-BR", is_mobile=device == "phone", **AXE_CONTEXT)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/jogar/ranking/")
        rows = page.locator("table.ranking-table tbody tr")
        assert rows.count() == 4
        assert rows.first.locator("th").inner_text().strip() == "Ana Paula"
        assert page.get_by_text(MARKUP).count() == 1  # the markup as text
        assert page.locator("img.nivel-icone").first.evaluate("img => img.naturalWidth > 0")
        no_side_scroll(page)
        snap(page, f"ranking-{device}")
        assert_no_axe_violations(page, f"/jogar/ranking/ ({device})")

        rows.first.locator("a").click()
        page.wait_for_url("**/jogar/jogadores/conta0/")
        assert page.locator("svg.grafico-pontos:visible polyline").count() == 1
        assert page.locator("dl.numeros").inner_text().count("15") >= 1
        no_side_scroll(page)
        snap(page, f"jogador-{device}")
        assert_no_axe_violations(page, f"/jogar/jogadores/conta0/ ({device})")

        page.goto(f"{live_server.url}/jogar/mesas/{table.pk}/partidas/{log.n}/?passo=1")
        assert "Passo 1 de" in page.locator("#passo-titulo").inner_text()
        page.get_by_role("link", name="Próximo").click()
        assert "Passo 2 de" in page.locator("#passo-titulo").inner_text()
        assert page.locator(".conferencia-ok").count() >= 1
        no_side_scroll(page)
        snap(page, f"replay-{device}")
        assert_no_axe_violations(page, f"replay ({device})")
        assert errors == []
    finally:
        context.close()
    assert OnlineTable.objects.filter(pk=table.pk).exists()
