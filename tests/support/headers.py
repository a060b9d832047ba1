"""What every page of the site must send: the security headers, and no code the Content-Security-Policy refuses."""

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit


def _csp(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"sem Content-Security-Policy: {response.request['PATH_INFO']}"
    directives = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def assert_security_headers(response, *, referrer: str = "same-origin") -> None:
    path = response.request["PATH_INFO"]
    directives = _csp(response)
    header = response.headers["Content-Security-Policy"]
    assert directives["script-src"] == ["'self'"], (path, header)
    assert directives["style-src"] == ["'self'"], (path, header)
    assert directives["default-src"] == ["'self'"], (path, header)
    assert directives["object-src"] == ["'none'"] and directives["base-uri"] == ["'none'"], (path, header)
    form_action = ["'self'"]
    if re.fullmatch(r"/organizar/[^/]+/chamadas/(?:rodada/|[0-9]+/(?:whatsapp/)?)?", path):
        # the desk's calls page: its WhatsApp buttons post here and are redirected to wa.me (issue 24 item 13)
        form_action = ["'self'", "https://wa.me", "https://*.whatsapp.com"]
    assert directives["frame-ancestors"] == ["'none'"] and directives["form-action"] == form_action, (path, header)
    assert "unsafe-inline" not in header and "unsafe-eval" not in header and "nonce-" not in header, (path, header)
    assert "Content-Security-Policy-Report-Only" not in response.headers, path
    assert response.headers.get("X-Content-Type-Options") == "nosniff", path
    assert response.headers.get("Referrer-Policy") == referrer, path
    assert response.headers.get("X-Frame-Options") == "DENY", path
    assert response.headers.get("Cross-Origin-Opener-Policy") == "same-origin", path


SAFE_SCRIPT_TYPES = {"application/json"}


class InlineCodeFinder(HTMLParser):
    """Everything in a page that a policy without 'unsafe-inline' (or with only 'self') refuses."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []

    def _say(self, what: str, tag: str, attrs) -> None:
        shown = " ".join(f'{k}="{v}"' if v is not None else k for k, v in attrs)
        self.problems.append(f"{what}: <{tag} {shown}>"[:200])

    @staticmethod
    def _foreign(url: str | None) -> bool:
        """An address on another origin (or a scheme the policy refuses)."""
        if not url:
            return False
        url = url.strip()
        if url.lower().startswith("javascript:"):
            return True
        parts = urlsplit(url)
        return bool(parts.netloc) or parts.scheme not in ("", "http", "https", "mailto", "tel", "data")

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name, value in attrs:
            if name == "style":
                self._say("atributo style", tag, attrs)
            elif re.fullmatch(r"on[a-z]+", name):
                self._say(f"atributo {name}", tag, attrs)
            elif name.startswith("hx-on") or name.startswith("data-hx-on"):
                self._say(f"atributo {name} (htmx avalia código)", tag, attrs)
            elif name in ("hx-vals", "hx-vars") and (value or "").lstrip().startswith(("js:", "javascript:")):
                self._say(f"atributo {name} com código", tag, attrs)
            elif name in ("href", "action", "formaction", "src") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self._say(f"{name} javascript:", tag, attrs)
        if tag == "script":
            kind = (values.get("type") or "").strip().lower()
            if "src" in values:
                if self._foreign(values["src"]):
                    self._say("script de outra origem", tag, attrs)
            elif kind not in SAFE_SCRIPT_TYPES:
                self._say("script inline", tag, attrs)
        elif tag == "style":
            self._say("elemento style", tag, attrs)
        elif tag == "link" and "stylesheet" in (values.get("rel") or "").lower().split():
            if self._foreign(values.get("href")):
                self._say("folha de estilo de outra origem", tag, attrs)
        elif tag in ("img", "source", "iframe", "embed", "object", "frame"):
            if tag in ("iframe", "embed", "object", "frame"):
                self._say(f"elemento {tag}", tag, attrs)
            src = values.get("src") or values.get("data")
            if src and not src.startswith("data:") and self._foreign(src):
                self._say("imagem de outra origem", tag, attrs)
        elif tag == "form" and self._foreign(values.get("action")):
            self._say("formulário para outra origem", tag, attrs)
        elif tag == "base":
            self._say("elemento base", tag, attrs)


def inline_code(html: str) -> list[str]:
    finder = InlineCodeFinder()
    finder.feed(html)
    finder.close()
    return finder.problems
