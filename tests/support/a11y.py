"""Accessibility checks in the browser tests: axe-core (tests/axe/, pinned in its package-lock.json) run in the page.

    context = browser.new_context(bypass_csp=True, ...)   # see AXE_CONTEXT below
    page.goto(url)
    assert_no_axe_violations(page, "evento")

axe-core comes from the npm registry: ``make axe-deps`` (``npm ci --prefix tests/axe``, run by ``make test``
through ``browser-deps``). Without it the tests that use it are skipped with that hint.
"""

from __future__ import annotations

from pathlib import Path

import pytest

AXE_JS = Path(__file__).resolve().parents[1] / "axe" / "node_modules" / "axe-core" / "axe.min.js"

# WCAG 2.0 and 2.1, levels A and AA, and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

# The site sends a strict Content-Security-Policy (script-src 'self', no inline scripts). ``add_script_tag(path=…)``
# puts the file's text in an inline <script>, which that policy refuses (add_script_tag raises), so axe never
# loads. The contexts that run axe therefore open with ``bypass_csp=True`` (pass these options to
# ``browser.new_context``); tests/site/test_csp_browser.py checks the policy itself with contexts that do not bypass it.
# (Checked with Debian's Chromium 156 and Playwright 1.65: without the bypass, add_script_tag raises "Executing
# inline script violates the following Content Security Policy directive 'script-src 'self''".)
AXE_CONTEXT = {"bypass_csp": True}

HTML_MAX = 200  # characters of a node's HTML kept in a report
TARGETS_SHOWN = 5  # nodes listed per violation in an assertion message

_RUN = """
async ([include, tags]) => {
  const context = include ? {include: include} : document;
  const results = await axe.run(context, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, tags: v.tags,
    nodes: v.nodes.map((n) => ({
      target: n.target, html: n.html, summary: n.failureSummary,
      related: [...n.any, ...n.all, ...n.none].flatMap((c) => c.relatedNodes || []).map((r) => r.target),
    })),
  }));
}
"""


def _shorten(text: str, limit: int) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _target(target) -> str:
    """axe's target: a list of selectors (one per shadow root or iframe); joined for reading."""
    if isinstance(target, list):
        return " >>> ".join(_target(t) for t in target)
    return str(target)


def axe_inject(page) -> None:
    """Put axe-core in the page once (a context made with ``AXE_CONTEXT``: the site's CSP refuses it otherwise)."""
    if not AXE_JS.exists():
        pytest.skip("axe-core não instalado (make axe-deps)")
    if page.evaluate("typeof window.axe === 'undefined'"):
        try:
            page.add_script_tag(path=str(AXE_JS))
        except Exception as error:  # playwright's Error: "Executing inline script violates … 'script-src 'self''"
            raise RuntimeError(
                "axe-core não carregou na página (a Content-Security-Policy recusa o script "
                "inline): abra o contexto com bypass_csp=True (AXE_CONTEXT)"
            ) from error


def axe_violations(page, *, include: list | str | None = None) -> list[dict]:
    """The page's axe violations (WCAG 2.0/2.1 A and AA, best practices): id, impact, help, help_url and nodes,
    each node with its ``target`` (the CSS selector, joined across frames), its ``html`` (shortened), axe's
    ``summary`` of what to fix and the ``related`` nodes' selectors (e.g. the other landmark of the same name).

    ``include``: a CSS selector (or axe's list of selectors) to check only part of the page.
    """
    axe_inject(page)
    if isinstance(include, str):
        include = [include]
    raw = page.evaluate(_RUN, [include, AXE_TAGS])
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "help_url": v["helpUrl"],
            "nodes": [
                {
                    "target": _target(n["target"]),
                    "html": _shorten(n["html"], HTML_MAX),
                    "summary": _shorten(n.get("summary") or "", 400),
                    "related": list(dict.fromkeys(_target(t) for t in n.get("related") or []))[:TARGETS_SHOWN],
                }
                for n in v["nodes"]
            ],
        }
        for v in raw
    ]


def violations_text(violations: list[dict], where: str) -> str:
    """One readable block: each rule with its impact, help and up to ``TARGETS_SHOWN`` offending nodes."""
    lines = [f"{where}: {len(violations)} violação(ões) do axe-core"]
    for v in violations:
        lines.append(f"  - {v['id']} [{v['impact']}] {v['help']} ({len(v['nodes'])} elemento(s)) {v['help_url']}")
        for node in v["nodes"][:TARGETS_SHOWN]:
            lines.append(f"      {node['target']}  {node['html']}")
            if node["related"]:
                lines.append(f"        (com: {', '.join(node['related'])})")
        if len(v["nodes"]) > TARGETS_SHOWN:
            lines.append(f"      … e mais {len(v['nodes']) - TARGETS_SHOWN}")
    return "\n".join(lines)


def assert_no_axe_violations(page, where: str, *, include: list | str | None = None) -> None:
    """Fail with every violation of the page listed (rule, impact, help, up to 5 selectors each)."""
    violations = axe_violations(page, include=include)
    if violations:
        raise AssertionError(violations_text(violations, where))
