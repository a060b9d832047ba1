"""/ajuda/: the Markdown files of ``docs/`` as pages of the site, read-only.

``docs/README.md`` is the index (``/ajuda/``); every other ``docs/<slug>.md``
is ``/ajuda/<slug>/``. Links between the files (``arquivo-do-torneio.md#…``)
become links between the pages, and ``img/<name>.png`` is served from
``docs/img/`` by ``/ajuda/img/<name>.png``, with a version (the file's mtime)
in the address so the browser may keep it for a year. A page is rendered once
per version of its file (``_render`` is keyed by the mtime) and kept in the
process. No ``style`` attribute survives the rendering: the site's
Content-Security-Policy allows only its own stylesheets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from html import unescape as html_unescape
from pathlib import Path
from xml.etree.ElementTree import Element

import markdown
from django.conf import settings
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.treeprocessors import Treeprocessor

from tournaments.web import read_only

INDEX = "README"  # docs/README.md: the index, at /ajuda/
# the pages in the order a reader needs them; any other docs/*.md follows, by name
ORDER = ("organizar-um-evento", "inscricoes-csv", "arquivo-do-torneio", "api-sumula", "regulamentos")
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
IMAGE = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*\.png")
IMAGE_MAX_AGE = 365 * 24 * 3600  # an address with the image's current version never changes content
IMAGE_MAX_AGE_UNVERSIONED = 3600

_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:", re.IGNORECASE)
_DOC_LINK = re.compile(r"(?:\./)?(?P<slug>[A-Za-z0-9-]+)\.md(?P<fragment>#\S*)?")
_IMG_LINK = re.compile(r"(?:\./)?img/(?P<name>[^/?#]+)")


def docs_dir() -> Path:
    return Path(settings.BASE_DIR) / "docs"


@dataclass(frozen=True)
class Doc:
    slug: str
    title: str
    heading: str  # the HTML of the page's level-1 heading (the "nesta página" list goes after it)
    html: str  # the rest of the page
    sections: tuple[tuple[str, str], ...]  # (id, title) of each level-2 heading, for "nesta página"


# --- rendering ---------------------------------------------------------------------------------------------


def _link(url: str | None) -> str | None:
    """A link written between the Markdown files, as the site serves it; anything else unchanged."""
    if not url or url.startswith(("/", "#")) or _SCHEME.match(url):
        return url
    m = _DOC_LINK.fullmatch(url)
    if m:
        slug = m["slug"]
        base = reverse("help:index") if slug == INDEX else reverse("help:page", args=[slug])
        return base + (m["fragment"] or "")
    m = _IMG_LINK.fullmatch(url)
    if m:
        return reverse("help:image", args=[m["name"]])
    return url


class _SitePaths(Treeprocessor):
    """Links and images as the site serves them, tables and code that scroll on a phone (and take the
    keyboard's focus to do so), no ``style`` attribute, and the title (the first level-1 heading)."""

    def run(self, root: Element) -> None:
        self.md.zap_title = ""
        for el in root.iter():
            el.attrib.pop("style", None)  # e.g. table alignment: the CSP refuses inline styles
            if el.tag == "a":
                el.set("href", _link(el.get("href")) or "")
            elif el.tag == "img":
                el.set("src", _link(el.get("src")) or "")
                el.set("loading", "lazy")
            elif el.tag == "h1" and not self.md.zap_title:
                self.md.zap_title = "".join(el.itertext()).strip()
        for parent in list(root.iter()):
            for i, child in enumerate(list(parent)):
                if child.tag == "table":
                    wrapper = Element("div", {"class": "help-table", "tabindex": "0"})
                    wrapper.append(child)
                    parent[i] = wrapper


class _FocusableCode(Postprocessor):
    """Code blocks may scroll sideways: reachable from the keyboard. (Fenced code reaches the page as stored
    HTML, after the tree processors, so this works on the text.)"""

    def run(self, text: str) -> str:
        return re.sub(r"<pre(?=[\s>])", '<pre tabindex="0"', text)


class _SitePathsExtension(Extension):
    def extendMarkdown(self, md):
        # after "inline" (links exist) and before "prettify"; the toc extension runs later still (priority 5)
        md.treeprocessors.register(_SitePaths(md), "zap_site_paths", 15)
        # after "raw_html" (priority 30) has put the fenced code blocks back
        md.postprocessors.register(_FocusableCode(md), "zap_focusable_code", 5)


@lru_cache(maxsize=64)
def _render(path: str, mtime_ns: int) -> Doc:
    """One Markdown file as HTML; ``mtime_ns`` is part of the key, so an edited file is rendered again."""
    md = markdown.Markdown(
        extensions=["tables", "fenced_code", "toc", _SitePathsExtension()],
        extension_configs={"toc": {"toc_depth": "2-3"}},
        output_format="html",
    )
    source = Path(path).read_text(encoding="utf-8")
    html = md.convert(source)
    heading, rest = "", html
    if html.startswith("<h1"):
        end = html.find("</h1>") + len("</h1>")
        heading, rest = html[:end], html[end:]
    sections = tuple((t["id"], html_unescape(t["name"])) for t in md.toc_tokens)
    slug = Path(path).stem
    return Doc(slug=slug, title=md.zap_title or slug, heading=heading, html=rest, sections=sections)


def doc_get(slug: str) -> Doc | None:
    """The page ``slug`` (``README`` for the index), or None when there is no such file in docs/."""
    if slug != INDEX and not SLUG.fullmatch(slug):
        return None
    folder = docs_dir()
    path = folder / f"{slug}.md"
    try:
        if path.resolve().parent != folder.resolve():
            return None
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    if not path.is_file():
        return None
    return _render(str(path), mtime)


def docs_all() -> list[Doc]:
    """Every page but the index, in reading order."""
    slugs = sorted(
        (p.stem for p in docs_dir().glob("*.md") if p.stem != INDEX and SLUG.fullmatch(p.stem)),
        key=lambda s: (ORDER.index(s) if s in ORDER else len(ORDER), s),
    )
    return [doc for doc in (doc_get(s) for s in slugs) if doc is not None]


def _image_path(name: str) -> Path | None:
    if not IMAGE.fullmatch(name):
        return None
    folder = docs_dir() / "img"
    path = folder / name
    try:
        if path.resolve().parent != folder.resolve() or not path.is_file():
            return None
    except OSError:
        return None
    return path


def _image_version(path: Path) -> str:
    return format(path.stat().st_mtime_ns, "x")


def _png_size(path: Path) -> tuple[int, int] | None:
    """Width and height from a PNG's header (its first 24 bytes), or None when it is not a PNG."""
    with path.open("rb") as fh:
        head = fh.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _versioned(html: str) -> str:
    """Each image of the page with its file's version in the address (``?v=``: a new screenshot, a new
    address) and its size (the page keeps its place while lazy images load, so anchors land right).

    Done on every request, from the files as they are: screenshots may be taken again without the
    Markdown changing."""
    prefix = reverse("help:index") + "img/"

    def add(m: re.Match) -> str:
        path = _image_path(m["name"])
        if path is None:
            return m[0]
        size = _png_size(path)
        extra = f' width="{size[0]}" height="{size[1]}"' if size else ""
        return f'<img{m["before"]}src="{prefix}{m["name"]}?v={_image_version(path)}"{extra}{m["after"]}>'

    return re.sub(
        r'<img(?P<before>\s[^>]*?)src="' + re.escape(prefix) + r'(?P<name>[^"?#]+)"(?P<after>[^>]*)>', add, html
    )


# --- views ---------------------------------------------------------------------------------------------------


def _show(request, doc: Doc, *, is_index: bool):
    return render(
        request,
        "help/page.html",
        {
            "doc": doc,
            "heading": mark_safe(doc.heading),
            "body": mark_safe(_versioned(doc.html)),
            "docs": docs_all(),
            "is_index": is_index,
        },
    )


@read_only
def index(request):
    doc = doc_get(INDEX)
    if doc is None:
        raise Http404(_("A ajuda não está instalada neste servidor."))
    return _show(request, doc, is_index=True)


@read_only
def page(request, slug: str):
    if slug == INDEX:
        return redirect("help:index", permanent=True)
    doc = doc_get(slug)
    if doc is None:
        raise Http404(_("Página de ajuda não encontrada."))
    return _show(request, doc, is_index=False)


@read_only
def image(request, name: str):
    path = _image_path(name)
    if path is None:
        raise Http404(_("Imagem não encontrada."))
    current = request.GET.get("v") == _image_version(path)
    response = FileResponse(path.open("rb"), content_type="image/png")
    response["Cache-Control"] = (
        f"public, max-age={IMAGE_MAX_AGE}, immutable" if current else f"public, max-age={IMAGE_MAX_AGE_UNVERSIONED}"
    )
    return response
