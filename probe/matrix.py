"""Part a, the permission matrix, and part b, the CSRF set.

The matrix sends every URL of the site every method (GET, POST; DELETE too on the API, and everywhere in a full
run) as each of the six accounts. POST bodies are the forms the superuser's own GET of the site shows (every
form, every named submit button, with the values the page fills in), so a write that should be refused is a
real one; the API gets a valid body per endpoint. An ESCAPE is a request by an account without the role that
wrote data, or a private page (desk, referee, admin) answered 200 to such an account.

The CSRF set sends every POST and DELETE as a signed-in organizer (the superuser on the admin) with a client
that enforces CSRF checks and no token; ACCEPTED is a request that wrote data or answered 2xx/3xx. Writes the
contract authenticates by a PIN or a private link (no session) are exempt.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from .core import Recorder, Tally
from .urls import PIN_WRITES, may, private, site_urls
from .world import ACCOUNTS


class _Forms(HTMLParser):
    """The POST forms of a page: (action, [bodies]) — one body per named submit button (or one)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list = []
        self._form = None
        self._select = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            if (a.get("method") or "get").lower() == "post":
                self._form = {
                    "action": a.get("action") or "",
                    "fields": [],
                    "buttons": [],
                    "selects": {},
                    "numbers": [],
                }
            return
        form = self._form
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "image"):
                form["buttons"].append((name, a.get("value", "")))
            elif kind in ("checkbox", "radio"):
                if "checked" in a or (kind == "radio" and not any(n == name for n, _ in form["fields"])):
                    form["fields"].append((name, a.get("value", "on")))
            elif kind != "file":
                form["fields"].append((name, a.get("value", "")))
                if kind == "number":
                    form["numbers"].append(name)
        elif tag == "button" and name and (a.get("type") or "submit").lower() == "submit":
            form["buttons"].append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select = name
            form["selects"][name] = None
        elif tag == "option" and self._select:
            if form["selects"][self._select] is None or "selected" in a:
                form["selects"][self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            form["fields"].append((name, ""))

    def handle_data(self, data):
        if self._form is not None and self._textarea:
            name, _ = self._form["fields"][-1]
            self._form["fields"][-1] = (name, data)

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form" and self._form is not None:
            form = self._form
            fields = form["fields"] + [(n, v) for n, v in form["selects"].items() if v is not None]
            bodies = [fields + [b] for b in form["buttons"]] or [fields]
            self.forms.append((form["action"], bodies, form["numbers"]))
            self._form = None


def _as_dict(fields: list) -> dict:
    body: dict = {}
    for name, value in fields:
        body.setdefault(name, []).append(value)
    return {k: v if len(v) > 1 else v[0] for k, v in body.items()}


def api_bodies(world, name: str, url: str) -> list[dict]:
    """A valid body for each API write (the jogo's own duplas; the wrong PIN for a confirmation)."""
    key = url.rstrip("/").split("/jogos/", 1)[-1].split("/", 1)[0]
    a, b = world.jogo_duplas.get(key, world.duplas[:2])
    return {
        "api:maos": [{"id": "sonda-nova", "to": 0, "points": 1, "how": "played"}],
        "api:resultado": [{"partidas": [[12, 3], [12, 4]]}],
        "api:confirmacao": [{"dupla": a, "pin": "000000", "via": 1, "accept": True}],
        "api:homologacao": [{"via": 1, "reason": "Decisão da sonda."}, {"via": 2, "reason": "Decisão da sonda."}],
        "api:correcao": [{"reason": "Correção da sonda.", "via": 1, "partidas": [[3, 12], [4, 12]]}],
        "api:penalidade": [{"id": "sonda-pena", "scope": "partida", "lost_by": b, "reason": "Pena da sonda."}],
    }.get(name, [{}])


def harvest(world, recorder: Recorder, urls) -> dict:
    """Every POST form the superuser sees on every page: action path -> list of bodies (at most 4); the names of
    its number inputs go to ``world.number_fields`` (action path -> names).

    Kept on the world: each part asks for the same forms."""
    cached = world.forms_seen.get(len(urls))
    if cached is not None:
        return cached
    client = world.client("superuser")
    found: dict = {}
    for site_url in urls:
        if site_url.name.startswith("api:"):
            continue
        outcome = recorder.run(lambda: client.get(site_url.url))
        response = outcome.response
        if response is None or outcome.status != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = _Forms()
        try:
            parser.feed(response.content.decode("utf-8", "replace"))
        except Exception:
            continue
        for action, bodies, numbers in parser.forms:
            path = urlsplit(urljoin(site_url.url, action)).path
            world.number_fields.setdefault(path, set()).update(numbers)
            slot = found.setdefault(path, [])
            for body in bodies:
                body = _as_dict(body)
                if body not in slot and len(slot) < 4:
                    slot.append(body)
    world.forms_seen[len(urls)] = found
    return found


def requests_for(world, site_url, forms: dict, *, quick: bool):
    """(method, body, content type) for one URL: GET, its POST bodies, DELETE on the API (everywhere if full)."""
    yield "GET", None, None
    if site_url.name.startswith("api:"):
        for body in api_bodies(world, site_url.name, site_url.url):
            yield "POST", json.dumps(body), "application/json"
        yield "DELETE", None, None
        return
    for body in forms.get(site_url.url, [{}]):
        yield "POST", body, None
    if not quick:
        yield "DELETE", None, None


def send(client, method: str, url: str, body, content_type):
    if method == "GET":
        return client.get(url)
    if method == "DELETE":
        return client.delete(url)
    if content_type:
        return client.post(url, data=body, content_type=content_type)
    return client.post(url, data=body)


def _describe(account, method, url, body, outcome) -> str:
    shown = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False) if body else ""
    wrote = f" wrote {','.join(sorted(outcome.wrote))}" if outcome.wrote else ""
    return f"{account} {method} {url} {shown[:160]} -> {outcome.status}{wrote}"


def permission_matrix(world, recorder: Recorder, *, quick: bool = False) -> Tally:
    tally = Tally("permission matrix")
    urls = site_urls(world, quick=quick)
    forms = harvest(world, recorder, urls)
    tally.extra["urls"] = len(urls)
    tally.extra["patterns"] = len({u.name for u in urls})
    tally.extra["forms"] = sum(len(v) for v in forms.values())
    clients = {account: world.client(account) for account in ACCOUNTS}
    get_writes = written = 0
    for site_url in urls:
        for method, body, content_type in requests_for(world, site_url, forms, quick=quick):
            for account in ACCOUNTS:
                client = clients[account]
                outcome = recorder.run(lambda: send(client, method, site_url.url, body, content_type))
                tally.requests += 1
                if outcome.error:
                    tally.server_error(outcome.error, _describe(account, method, site_url.url, body, outcome))
                allowed = may(account, site_url.name, method, site_url.slug)
                if method == "GET" and outcome.wrote:
                    get_writes += 1
                if allowed:
                    written += bool(outcome.wrote) and method != "GET"
                    continue
                leaked = method == "GET" and outcome.status == 200 and private(site_url.name)
                if outcome.wrote or leaked:
                    tally.escape(_describe(account, method, site_url.url, body, outcome))
    tally.extra["GET requests that wrote data"] = get_writes
    tally.extra["writes by accounts with the role"] = written  # the bodies are real: the roles' writes land
    return tally


def csrf_set(world, recorder: Recorder, *, quick: bool = False) -> Tally:
    tally = Tally("CSRF set")
    urls = site_urls(world, quick=quick)
    forms = harvest(world, recorder, urls)
    organizer = world.client("organizer", csrf=True)
    superuser = world.client("superuser", csrf=True)
    exempt = 0
    for site_url in urls:
        client = superuser if site_url.name.startswith("admin:") else organizer
        for method, body, content_type in requests_for(world, site_url, forms, quick=False):
            if method == "GET":
                continue
            outcome = recorder.run(lambda: send(client, method, site_url.url, body, content_type))
            tally.requests += 1
            if outcome.error:
                tally.server_error(outcome.error, _describe("organizer/csrf", method, site_url.url, body, outcome))
            if site_url.name in PIN_WRITES:
                exempt += 1
                continue
            if outcome.wrote or 200 <= outcome.status < 400:
                tally.csrf_accepted += 1
                tally.escape_samples.append(_describe("organizer/csrf", method, site_url.url, body, outcome))
    tally.extra["exempt by contract (PIN / private link)"] = exempt
    return tally
