"""/ajuda/: the user documentation of docs/*.md served as pages of the site.

Every page answers with its title, the index lists every page, every link and image of a page resolves
(anchors included), nothing outside docs/ (or docs/img/) can be reached, the HTML carries no inline style
or script (the Content-Security-Policy would refuse it), and the examples the pages quote still work.
"""

from __future__ import annotations

import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client

from tests.support.headers import assert_security_headers, inline_code
from tests.support.registrations import tournament_make
from tournaments.public import help as help_views

DOCS = Path(settings.BASE_DIR) / "docs"
SLUGS = sorted(p.stem for p in DOCS.glob("*.md") if p.stem != "README")
PAGES = ["/ajuda/", *(f"/ajuda/{slug}/" for slug in SLUGS)]

pytestmark = pytest.mark.django_db


def _title(slug: str) -> str:
    first = next(
        line for line in (DOCS / f"{slug}.md").read_text(encoding="utf-8").splitlines() if line.startswith("# ")
    )
    return first[2:].strip()


class Links(HTMLParser):
    """Every href and src of a page, the ids it defines, and the links inside the rendered document itself."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self.ids: set[str] = set()
        self.doc_urls: list[str] = []
        self._depth = 0  # > 0 inside <article class="help-doc">

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"])
        if tag == "article" and "help-doc" in (values.get("class") or ""):
            self._depth = 1
        elif self._depth and tag == "article":
            self._depth += 1
        for name in ("href", "src"):
            if values.get(name):
                self.urls.append(values[name])
                if self._depth:
                    self.doc_urls.append(values[name])

    def handle_endtag(self, tag):
        if self._depth and tag == "article":
            self._depth -= 1


def _parse(html: str) -> Links:
    parser = Links()
    parser.feed(html)
    parser.close()
    return parser


def _get(client: Client, url: str):
    response = client.get(url)
    return response, (response.content.decode() if response.get("Content-Type", "").startswith("text/html") else "")


# --- the pages -------------------------------------------------------------------------------------------------


def test_there_are_docs_to_serve():
    assert {"organizar-um-evento", "arquivo-do-torneio", "inscricoes-csv", "api-sumula", "regulamentos"} <= set(SLUGS)
    assert (DOCS / "README.md").is_file()


def test_the_index_lists_every_doc(client):
    response, html = _get(client, "/ajuda/")
    assert response.status_code == 200
    assert "<h1" in html and "Ajuda do Zap" in html
    for slug in SLUGS:
        assert f'href="/ajuda/{slug}/"' in html, slug
        assert _title(slug) in html, slug
    # the README itself (not only the side menu) links to every page
    index = help_views.doc_get("README")
    for slug in SLUGS:
        assert f'href="/ajuda/{slug}/"' in index.html, f"docs/README.md não aponta para {slug}.md"


@pytest.mark.parametrize("slug", SLUGS)
def test_each_doc_page_answers_with_its_title(client, slug):
    response, html = _get(client, f"/ajuda/{slug}/")
    assert response.status_code == 200
    title = _title(slug)
    assert re.search(r"<title>[^<]*" + re.escape(title), html), title
    assert re.search(r"<h1[^>]*>" + re.escape(title) + "</h1>", html), title
    assert 'aria-current="page"' in html
    assert "/static/css/help.css" in html


def test_the_readme_page_is_the_index(client):
    response = client.get("/ajuda/README/")
    assert response.status_code == 301 and response["Location"] == "/ajuda/"


@pytest.mark.parametrize("url", PAGES)
def test_every_link_and_image_of_a_page_resolves(client, url):
    response, html = _get(client, url)
    assert response.status_code == 200
    page = _parse(html)
    targets: dict[str, Links] = {url: page}
    for link in page.doc_urls:
        parts = urlsplit(link)
        assert parts.scheme in ("", "http", "https", "mailto"), link
        if parts.scheme or parts.netloc:
            continue  # another site: not ours to check
        assert link.startswith(("/ajuda/", "#")), f"{url}: link relativo que não foi reescrito: {link}"
    for link in page.urls:
        parts = urlsplit(link)
        if parts.scheme or parts.netloc or not (parts.path.startswith("/ajuda/") or link.startswith("#")):
            continue
        path = parts.path or url
        if path not in targets:
            answer, body = _get(client, path + (f"?{parts.query}" if parts.query else ""))
            assert answer.status_code == 200, f"{url}: {link} responde {answer.status_code}"
            if path.startswith("/ajuda/img/"):
                assert answer["Content-Type"] == "image/png", link
                assert b"".join(answer.streaming_content)[:8] == b"\x89PNG\r\n\x1a\n", link
                continue
            targets[path] = _parse(body)
        if parts.fragment:
            assert parts.fragment in targets[path].ids, f"{url}: âncora inexistente: {link}"


@pytest.mark.parametrize("url", PAGES)
def test_no_inline_style_or_script_and_the_security_headers(client, url):
    response, html = _get(client, url)
    assert response.status_code == 200
    assert_security_headers(response)
    assert inline_code(html) == []
    assert not re.search(r"\sstyle\s*=", html, re.IGNORECASE)
    assert "<script" not in html.lower()


def test_the_pages_are_read_only(client):
    for url in ("/ajuda/", "/ajuda/api-sumula/", "/ajuda/img/entrar.png"):
        response = client.post(url)
        assert response.status_code == 405, url
        assert "GET" in response["Allow"]
        assert client.head(url).status_code == 200, url


# --- what cannot be reached ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/ajuda/nao-existe/",
        "/ajuda/Regulamentos/",
        "/ajuda/regulamentos.md/",
        "/ajuda/capturas/",
        "/ajuda/img/",
        "/ajuda/img/nao-existe.png",
        "/ajuda/img/..%2Fsettings.png",
        "/ajuda/img/../settings.png",
        "/ajuda/img/%2e%2e%2fREADME.md",
        "/ajuda/img/..%2F..%2Fconfig%2Fsettings.py",
        "/ajuda/img/capturas.py",
        "/ajuda/img/..%5Cregulamentos.md",
        "/ajuda/..%2Fconfig%2Fsettings/",
        "/ajuda/%2e%2e/",
        "/ajuda/img/.png",
        "/ajuda/img/ENTRAR.png",
        "/ajuda/img/entrar.PNG",
        "/ajuda/img/entrar.png%00.md",
    ],
)
def test_unknown_pages_and_paths_outside_the_docs_are_404(client, url):
    assert client.get(url).status_code == 404, url


def test_a_symlink_out_of_the_docs_is_not_followed(client, settings, tmp_path):
    docs = tmp_path / "docs"
    (docs / "img").mkdir(parents=True)
    (docs / "README.md").write_text("# Ajuda\n\n[Fora](fora.md)\n", encoding="utf-8")
    secret = tmp_path / "segredo.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\n segredo")
    (docs / "img" / "fora.png").symlink_to(secret)
    (docs / "fora.md").symlink_to(tmp_path / "segredo.md")
    (tmp_path / "segredo.md").write_text("# Segredo\n", encoding="utf-8")
    settings.BASE_DIR = tmp_path
    assert client.get("/ajuda/").status_code == 200
    assert client.get("/ajuda/img/fora.png").status_code == 404
    assert client.get("/ajuda/fora/").status_code == 404


# --- the rendering ------------------------------------------------------------------------------------------------


def test_links_images_tables_and_edits(client, settings, tmp_path):
    """Links between the files become links between the pages; images get a version; tables lose their
    alignment styles; an edited file is rendered again."""
    docs = tmp_path / "docs"
    (docs / "img").mkdir(parents=True)
    png = (DOCS / "img" / "entrar.png").read_bytes()
    (docs / "img" / "tela-1.png").write_bytes(png)
    (docs / "README.md").write_text("# Índice\n\n[Guia](guia.md) e [a seção](guia.md#uma-secao).\n", encoding="utf-8")
    page = docs / "guia.md"
    page.write_text(
        "# Guia\n\n## Uma seção\n\n[volta](README.md) · [aqui](#uma-secao) · "
        "[fora](https://exemplo.org/)\n\n![Tela](img/tela-1.png)\n\n"
        '| a | b |\n|:--|--:|\n| 1 | 2 |\n\n```json\n{"a": 1}\n```\n',
        encoding="utf-8",
    )
    settings.BASE_DIR = tmp_path
    response, html = _get(client, "/ajuda/guia/")
    assert response.status_code == 200
    assert 'href="/ajuda/"' in html and 'href="#uma-secao"' in html and 'href="https://exemplo.org/"' in html
    assert 'id="uma-secao"' in html
    match = re.search(r'<img [^>]*src="(/ajuda/img/tela-1\.png\?v=[0-9a-f]+)"[^>]*>', html)
    assert match and 'width="390"' in match[0] and 'loading="lazy"' in match[0]
    image = client.get(match[1])
    assert (
        image.status_code == 200
        and "immutable" in image["Cache-Control"]
        and "max-age=31536000" in image["Cache-Control"]
    )
    assert "immutable" not in client.get("/ajuda/img/tela-1.png")["Cache-Control"]  # an address without version
    assert "<table>" in html and "style=" not in html
    assert re.search(r'<div class="help-table" tabindex="0">\s*<table>', html)  # scrolls: keyboard-reachable
    assert '<pre tabindex="0"><code class="language-json">' in html
    _, index = _get(client, "/ajuda/")
    assert 'href="/ajuda/guia/"' in index and 'href="/ajuda/guia/#uma-secao"' in index
    # an edit shows at once (the rendering is kept per version of the file)
    stat = page.stat()
    page.write_text("# Guia novo\n\nOutro texto.\n", encoding="utf-8")
    os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    _, html = _get(client, "/ajuda/guia/")
    assert "Guia novo" in html and "Outro texto." in html


# --- the examples the pages quote -----------------------------------------------------------------------------


def _blocks(slug: str, language: str) -> list[str]:
    text = (DOCS / f"{slug}.md").read_text(encoding="utf-8")
    return re.findall(r"^```" + language + r"\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def test_the_example_tournament_file_imports_as_the_page_says(load_file):
    from tournaments.models import Jogo

    example = json.loads(_blocks("arquivo-do-torneio", "json")[0])
    tournament = load_file(example)
    assert tournament.slug == "copa-do-bairro"
    jogos = {j.key: j for j in Jogo.objects.filter(tournament=tournament).select_related("dupla_a", "dupla_b")}
    assert set(jogos) == {"semi-1", "semi-2", "j1", "j2"}
    assert (jogos["j1"].dupla_a.key, jogos["j1"].dupla_b.key) == ("d1", "d2")
    assert {jogos["j2"].dupla_a.key, jogos["j2"].dupla_b.key} == {"r1", "r2"} and jogos["j2"].third_place
    assert jogos["semi-2"].status == "homologated" and jogos["j1"].status == "scheduled"


def test_the_example_registration_csv_gives_what_the_page_says():
    from tournaments.registrations.csv_import import csv_preview

    good, bad = [b for b in _blocks("inscricoes-csv", "text") if not b.startswith("$")][:2]
    tournament = tournament_make(slug="teste-csv", max_duplas=3, min_age=18)
    preview = csv_preview(tournament=tournament, content=good.encode("utf-8"))
    assert preview.problems == []
    assert (len(preview.rows), preview.accepted, preview.waiting) == (5, 4, 1)
    assert any("camiseta" in n for n in preview.notices)
    preview = csv_preview(tournament=tournament, content=bad.encode("utf-8"))
    documented = [
        line
        for block in _blocks("inscricoes-csv", "text")
        if block.startswith("$ ")
        for line in block.splitlines()
        if line.startswith("linha ")
    ]
    assert preview.problems == documented
