"""The súmula's sheet keeps its quiet numbers readable: the total of the side that did not score a mão is drawn in
a softer colour than ink, and that colour must still meet WCAG AA (4.5:1) on the sheet's white and on a pending
row's yellow. axe-core flags it only where it can see the background (a CI run caught three cells of a long
sheet), so the colours are checked here, every run."""

import re
from pathlib import Path

CSS = Path(__file__).resolve().parents[2] / "static" / "css"


def _rule_colour(css: str, selector: str, prop: str = "color") -> str:
    match = re.search(re.escape(selector) + r"\s*\{[^}]*?\b" + prop + r":\s*#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b", css)
    assert match, f"{selector} {{ {prop}: … }} não encontrado"
    digits = match.group(1)
    return "#" + (digits if len(digits) == 6 else "".join(d * 2 for d in digits))


def _variable(css: str, name: str) -> str:
    match = re.search(r"--" + name + r":\s*(#[0-9a-fA-F]{6})", css)
    assert match, f"--{name} não encontrada"
    return match.group(1)


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_is_computed_as_wcag_says():
    assert round(contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(contrast("#767676", "#ffffff"), 2) == 4.54  # the classic lightest grey that passes on white
    assert contrast("#a29d90", "#ffffff") < 4.5  # the sheet's old colour


def test_the_quiet_totals_on_the_sheet_meet_aa_on_white_and_on_a_pending_row():
    sumula = (CSS / "sumula.css").read_text()
    site = (CSS / "zap.css").read_text()
    quiet = _rule_colour(sumula, ".sheet-table td")
    backgrounds = {"branco": _rule_colour(sumula, ".sheet-table", "background"), "pendente": _variable(site, "warn-bg")}
    for where, background in backgrounds.items():
        assert contrast(quiet, background) >= 4.5, (where, quiet, background, round(contrast(quiet, background), 2))
