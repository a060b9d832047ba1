"""Part c, the input fuzz: odd values in every form field, every API body and every URL argument.

A seeded generator (the same seed, the same requests) picks from values that broke the site before or could:
NUL, lone surrogates, invalid UTF-8, huge strings, deep nesting, duplicate JSON keys, wrong JSON types,
Infinity/NaN, multipart and urlencoded bodies sent to JSON endpoints, and ``%00`` and the like as URL keys. And every
number a form reads (a number input, or a field the page fills with a whole number) gets each number just beyond
what a column holds (``OUT_OF_RANGE``: a smallint, an integer, a bigint, both ways), which PostgreSQL refuses and
SQLite stores: ``make probe`` runs on both.
Forms are sent as the account that may use them (the organizer on the desk, anyone on the public forms), so the
odd value reaches the form's own checks; API writes as the organizer, and confirmations with the dupla's PIN.
Counts the requests and the answers of 500.
"""

from __future__ import annotations

import json
import random
from urllib.parse import quote

from .core import Recorder, Tally
from .matrix import api_bodies, harvest, send
from .urls import needed, site_urls
from .world import PIN

HUGE = "A" * 200_000
# just beyond each integer column's range, both ways (PostgreSQL's smallint, integer, bigint)
OUT_OF_RANGE = [str(n) for bits in (15, 31, 63) for n in (2**bits, -(2**bits) - 1)]
ODD_TEXT = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\u200b",
    "\u202e",
    "\t\n",
    HUGE,
    "9" * 400,
    "-1",
    "0",
    "1e309",
    "NaN",
    "<script>alert(1)</script>",
    "'\"; --",
    "../../etc/passwd",
    "%00",
    "\uff19",
    "None",
    "null",
    "[]",
    "\U0001f0cf" * 300,
    "2026-02-30",
    "99:99",
    "1" * 25,
    *OUT_OF_RANGE,
]
ODD_JSON = [
    "",
    "\x00",
    "a\x00b",
    "\ud800",
    "x\udfffy",
    "\u200b",
    HUGE,
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**40,
    float("inf"),
    float("nan"),
    [],
    {},
    [1, 2],
    {"a": 1},
    "12",
    "sim",
    [[12, 3]],
    [[12, "3"]],
    [[None]],
    [[12, 3, 4]],
    [[-12, 3]],
    [[10**30, 0]],
    *(int(n) for n in OUT_OF_RANGE),
    [[2**15, 0]],
]
# raw bodies for a JSON endpoint: (content type, bytes)
RAW_BODIES = [
    ("application/json", b"[" * 100_000 + b"]" * 100_000),
    ("application/json", b'{"a":' * 50_000 + b"1" + b"}" * 50_000),
    ("application/json", b'{"dupla": "d1", "dupla": "d2", "pin": "000000", "via": 1, "accept": true}'),
    ("application/json", b'{"id": "x", "id": "y", "to": 0, "points": 1}'),
    ("application/json", b'{"dupla": "\\u0000", "pin": "\\ud800", "via": 1, "accept": true}'),
    ("application/json", b'{"id": "\\udfff", "reason": "\\u0000", "to": 0, "points": 1}'),
    ("application/json", b'{"reason": "\\ud800", "partidas": [[12, 3], [12, 4]]}'),
    ("application/json", b'{"via": Infinity, "partidas": NaN}'),
    ("application/json", b"\xff\xfe\x00{"),
    ("application/json", b"\xed\xa0\x80"),
    ("application/json", b"null"),
    ("application/json", b"[]"),
    ("application/json", b'"texto"'),
    ("application/json", b"1e99999"),
    ("application/json", b"{" * 10),
    ("application/json", b""),
    ("application/json", b'{"' + b"k" * 100_000 + b'": 1}'),
    (
        "multipart/form-data; boundary=sonda",
        (b'--sonda\r\nContent-Disposition: form-data; name="id"\r\n\r\nx\r\n--sonda--\r\n'),
    ),
    ("multipart/form-data", b"--x\r\n"),
    (
        "multipart/form-data; boundary=sonda",
        (
            b'--sonda\r\nContent-Disposition: form-data; name="f"; '
            b'filename="a.json"\r\nContent-Type: application/json\r\n\r\n{}\r\n'
            b"--sonda--\r\n"
        ),
    ),
    ("application/x-www-form-urlencoded", b"id=x&to=0&points=%00&reason=%ED%A0%80"),
    ("text/plain", b'{"id": "x", "to": 0, "points": 1}'),
]
# odd URL arguments, already percent-encoded where the client would encode them
ODD_ARGS = [
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%C0%AF",
    "%FF",
    "..",
    "%2E%2E%2F",
    "%2F",
    "x" * 3000,
    "%20",
    "-1",
    "99999999999999999999999",
    "j1%00",
    "%E2%80%AE",
    "0",
    "%25",
    *OUT_OF_RANGE,
]


def _form_client(world, name: str):
    need = needed(name, "POST")
    return world.client(
        "organizer"
        if need in ("signed_in", "referee", "organizer")
        else "superuser"
        if need == "admin"
        else "anonymous"
    )


def _json_variants(rng: random.Random, body: dict, n: int):
    keys = list(body) or ["id"]
    for _ in range(n):
        variant = dict(body)
        for key in rng.sample(keys, k=min(len(keys), rng.choice((1, 1, 2)))):
            variant[key] = rng.choice(ODD_JSON)
        if rng.random() < 0.2:
            variant[rng.choice(["extra", "", "\x00", "via", "how", "scope"])] = rng.choice(ODD_JSON)
        if rng.random() < 0.1:
            variant.pop(rng.choice(keys), None)
        yield variant


def input_fuzz(world, recorder: Recorder, *, quick: bool = False, seed: int = 21) -> Tally:
    tally = Tally("input fuzz")
    rng = random.Random(seed)
    per_form, per_api, per_url = (3, 6, 1) if quick else (30, 50, 8)
    urls = site_urls(world, quick=quick)
    by_url = {u.url: u for u in urls}
    forms = harvest(world, recorder, urls)

    def record(client, method, url, body=None, content_type=None, who="?"):
        outcome = recorder.run(lambda: send(client, method, url, body, content_type))
        tally.requests += 1
        if outcome.error:
            shown = body if isinstance(body, str) else repr(body)
            tally.server_error(outcome.error, f"{who} {method} {url} {shown[:200]} -> {outcome.status}")

    # every form field, one odd value at a time (sometimes two)
    for path, bodies in forms.items():
        site_url = by_url.get(path)
        if site_url is None or (quick and site_url.name.startswith("admin:")):
            continue
        client = _form_client(world, site_url.name)
        sent: set[str] = set()  # the fields already sent numbers beyond a column
        for body in bodies:
            fields = [k for k in body if k != "csrfmiddlewaretoken"] or ["x"]
            for _ in range(per_form if quick else min(per_form, 6 * len(fields))):
                variant = dict(body)
                for field in rng.sample(fields, k=min(len(fields), rng.choice((1, 1, 2)))):
                    variant[field] = rng.choice(ODD_TEXT)
                record(client, "POST", path, variant, who=site_url.name)
            # the same form urlencoded by hand, with invalid UTF-8 and a NUL
            raw = "&".join(f"{quote(k)}=%ED%A0%80%00" for k in fields)
            record(client, "POST", path, raw, "application/x-www-form-urlencoded", who=site_url.name)
            # every number it reads (once per form and field), just beyond each column's range, the rest of the
            # form as the page filled it
            numbers = world.number_fields.get(path, set()) | {k for k in fields if _whole(body.get(k))}
            for field in sorted(numbers & set(fields) - sent):
                sent.add(field)
                for beyond in OUT_OF_RANGE[::3] if quick else OUT_OF_RANGE:
                    record(client, "POST", path, dict(body, **{field: beyond}), who=site_url.name)
                    tally.extra["numbers beyond a column"] = tally.extra.get("numbers beyond a column", 0) + 1

    # every API write: odd JSON values, then raw bodies
    organizer = world.client("organizer")
    anonymous = world.client("anonymous")
    api_urls = [u for u in urls if u.name.startswith("api:") and u.name not in ("api:jogos", "api:jogo")]
    for site_url in api_urls:
        client = anonymous if site_url.name == "api:confirmacao" else organizer
        for body in api_bodies(world, site_url.name, site_url.url):
            if site_url.name == "api:confirmacao":
                body = dict(body, pin=PIN)
            for variant in _json_variants(rng, body, per_api):
                text = json.dumps(variant, ensure_ascii=True)  # lone surrogates travel as \\ud800
                record(client, "POST", site_url.url, text, "application/json", who=site_url.name)
        raws = RAW_BODIES if not quick else rng.sample(RAW_BODIES, 6)
        for content_type, raw in raws:
            record(client, "POST", site_url.url, raw, content_type, who=site_url.name)
    for site_url in [u for u in urls if u.name in ("api:jogo", "api:jogos")]:
        for via in ["0", "-1", "%00", "1e9", "99999999999999999999", "\u0661"] if not quick else ["%00"]:
            record(anonymous, "GET", f"{site_url.url}?via={via}", who=site_url.name)

    # every URL argument replaced by an odd one, GET (and POST on the API) as the organizer and anonymous
    for site_url in urls:
        if not site_url.params or (quick and site_url.name.startswith("admin:")):
            continue
        for _ in range(per_url):
            odd = rng.choice(ODD_ARGS)
            url = _replace_arg(site_url, odd, rng)
            if url is None:
                continue
            for client in (organizer, anonymous):
                record(client, "GET", url, who=site_url.name)
                if site_url.name.startswith("api:"):
                    record(client, "POST", url, "{}", "application/json", who=site_url.name)
    # unknown URLs under the API and a very long one
    for url in ["/api/v1/nada/", "/api/v1/torneios/%00/jogos/", "/api/v1/" + "x" * 9000, "/torneios/" + "%00" * 10]:
        record(anonymous, "GET", url, who="unknown")
    return tally


def _whole(value) -> bool:
    """A value the page filled in as a whole number ("3", "-1")."""
    return isinstance(value, str) and value.lstrip("-").isdigit()


def _replace_arg(site_url, odd: str, rng: random.Random) -> str | None:
    """The URL with one of its arguments (chosen at random) replaced by ``odd``."""
    parts = site_url.url.split("/")
    candidates = [i for i, part in enumerate(parts) if part and i > 1 and part not in site_url.route]
    if not candidates:
        return None
    i = rng.choice(candidates)
    parts[i] = odd
    return "/".join(parts)
