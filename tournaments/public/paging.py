"""The pages of a long public list (?pagina=N, with its search ``q`` and other parameters kept)."""

from __future__ import annotations

from urllib.parse import urlencode


def page_number(value: str | None) -> int:
    """``?pagina=`` as a page number: anything else (absent, not a number, too large) is page 1 or the last."""
    if value is None or not value.strip().isdigit() or len(value.strip()) > 6:
        return 1
    return max(1, int(value.strip()))


def page_link(*, pagina: int, **params: str) -> str:
    """The query string of page ``pagina``, keeping the parameters that have a value (in the order given)."""
    return "?" + urlencode({**{k: v for k, v in params.items() if v}, "pagina": pagina})
