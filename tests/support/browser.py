"""What the browser tests share: Debian's Chromium driven by Playwright, the viewports, screenshots.

Screenshots go to /tmp/zap-shots/ (look at them when the layout changes).
"""

import os
from pathlib import Path

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop

SHOTS = Path("/tmp/zap-shots")
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def shot(page, name: str, *, folder: Path = SHOTS) -> None:
    """A full-page screenshot to look at; ZAP_SHOTS=0 (.ci/run sets it: nobody looks at them there) takes none, since
    each costs Chromium a render and a PNG of the whole page and the browser tests take hundreds."""
    if os.environ.get("ZAP_SHOTS", "1") == "0":
        return
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
