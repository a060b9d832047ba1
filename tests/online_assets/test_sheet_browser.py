"""The contact sheet in Chromium: every card, back, avatar and level icon loads and draws at 1,366 px and in a
phone's hand of three cards at 390 px. Screenshots go to /tmp/shots-art/ (look at them after a change)."""

from pathlib import Path

import pytest

from tests.online_assets.art import AVATARS, BACKS, FACES, LEVELS
from tests.online_assets.sheet import sheet_html

SHOTS = Path("/tmp/shots-art")

pytestmark = pytest.mark.browser


def open_sheet(browser, *, hand: bool, width: int, tmp_path: Path):
    page_file = tmp_path / ("hand.html" if hand else "sheet.html")
    page_file.write_text(sheet_html(hand=hand))
    context = browser.new_context(viewport={"width": width, "height": 844}, device_scale_factor=2 if hand else 1)
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_load_state("load")
    return context, page


def broken_images(page) -> list[str]:
    return page.evaluate("() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")


def test_the_sheet_draws_every_image(browser, tmp_path):
    context, page = open_sheet(browser, hand=False, width=1366, tmp_path=tmp_path)
    assert broken_images(page) == []
    count = page.evaluate("() => document.images.length")
    assert count == 40 * len(FACES) + len(BACKS) + 3 * 4 + len(AVATARS) + len(LEVELS)
    # a card drawn at 5:7, as a real one
    ratio = page.evaluate("() => { const i = document.images[0]; return i.naturalHeight / i.naturalWidth; }")
    assert ratio == pytest.approx(350 / 250, rel=0.01)
    # the felts are painted (a gradient over the texture), not left transparent
    felts = page.evaluate("() => [...document.querySelectorAll('.felt')].map(e => getComputedStyle(e).backgroundImage)")
    assert len(felts) == 3 and all("trama.svg" in f and "gradient" in f for f in felts)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "sheet-1366.png"), full_page=True)
    context.close()


def test_a_hand_of_three_fits_a_phone(browser, tmp_path):
    context, page = open_sheet(browser, hand=True, width=390, tmp_path=tmp_path)
    assert broken_images(page) == []
    # three cards side by side, each wide enough to read its index, none past the screen's edge
    boxes = page.evaluate(
        "() => [...document.querySelectorAll('.hand')][0].querySelectorAll('img').length && "
        "[...[...document.querySelectorAll('.hand')][0].querySelectorAll('img')].map(i => i.getBoundingClientRect())"
        ".map(r => [r.left, r.right, r.width])"
    )
    assert len(boxes) == 3
    assert all(width >= 100 for _, _, width in boxes)
    assert boxes[0][0] >= 0 and boxes[-1][1] <= 390
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # the appearance on a container paints its .feltro, not the container
    painted = page.evaluate(
        "() => [document.querySelector('.conteiner'), document.querySelector('.conteiner .feltro')]"
        ".map(e => getComputedStyle(e).backgroundImage)"
    )
    assert painted[0] == "none" and "trama.svg" in painted[1] and "gradient" in painted[1]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "hand-390.png"), full_page=True)
    context.close()
