"""What a person reads on a page or a PDF the site serves: the text, and the words a screen reader says (labels,
titles, alternatives, placeholders); never the markup, the addresses, the scripts or the styles. And the pages of
one tournament to read: the desk's (``desk_urls``) and the public ones (``public_urls``)."""

from html.parser import HTMLParser

from django.urls import URLPattern, URLResolver, reverse

from tests.support.printing import pdf_text
from tournaments.desk import urls as desk_urlconf
from tournaments.models import Dupla, Jogo, Registration, Tournament

SPOKEN = ("aria-label", "title", "alt", "placeholder")
UNREAD = ("script", "style", "template")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []
        self.unread = 0

    def handle_starttag(self, tag, attrs):
        if tag in UNREAD:
            self.unread += 1
        self.words += [value for name, value in attrs if name in SPOKEN and value]
        if tag == "option":
            self.words.append(" ")

    def handle_endtag(self, tag):
        if tag in UNREAD:
            self.unread -= 1

    def handle_data(self, data):
        if not self.unread:
            self.words.append(data)


def _workbook_text(content: bytes) -> str:
    """Every cell's text of every sheet, the sheets' names too (what a person reads opening the workbook)."""
    import io

    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(content), read_only=True)
    words = []
    for sheet in book.worksheets:
        words.append(sheet.title)
        words += [str(cell) for row in sheet.iter_rows(values_only=True) for cell in row if cell is not None]
    return " ".join(words)


def read_text(response) -> str:
    """The text a person reads in ``response`` (an HTML page, a PDF: every page's text, a workbook: its cells)."""
    if response["Content-Type"].startswith("application/pdf"):
        return "\n".join(pdf_text(response.content))
    if response["Content-Type"].startswith("application/vnd.openxmlformats-officedocument.spreadsheetml"):
        return _workbook_text(response.content)
    reader = _Reader()
    reader.feed(response.content.decode())
    return " ".join(reader.words)


def desk_urls(t: Tournament) -> list[str]:
    """Every page of the desk (organizer, referee, printing) that answers a GET for this tournament."""
    patterns: list[tuple[str, URLPattern]] = []

    def walk(items, namespace):
        for p in items:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern):
                patterns.append((namespace, p))

    walk(desk_urlconf.urlpatterns, "desk")
    ids = {
        "pk": Registration.objects.filter(tournament=t).values_list("pk", flat=True).first(),
        "dupla": Dupla.objects.filter(tournament=t).values_list("pk", flat=True).first(),
        "jogo": Jogo.objects.filter(tournament=t).values_list("pk", flat=True).first(),
    }
    keys = list(Jogo.objects.filter(tournament=t).values_list("key", flat=True))
    urls = []
    for namespace, p in patterns:
        names = set(p.pattern.converters) - {"slug"}
        if "slug" not in p.pattern.converters or str(p.pattern).startswith("circuitos/") or names - {*ids, "key"}:
            continue
        for key in keys if "key" in names else [None]:
            kwargs = {"slug": t.slug} | {n: ids[n] for n in names if n != "key"} | ({"key": key} if key else {})
            urls.append(reverse(f"{namespace}:{p.name}", kwargs=kwargs))
    return urls


def public_urls(t: Tournament) -> list[str]:
    """Every public page and PDF of this tournament, its jogos' and duplas' pages, and each dupla's private page."""
    base = f"/torneios/{t.slug}/"
    urls = [base + page for page in ("", "classificacao/", "chave/", "jogos/", "duplas/", "tv/")]
    urls += [base + "chave.pdf", base + "classificacao.pdf"]
    for key in Jogo.objects.filter(tournament=t).values_list("key", flat=True):
        urls += [f"{base}jogos/{key}/", f"{base}jogos/{key}/sumula.pdf"]
    for dupla in Dupla.objects.filter(tournament=t):
        urls += [f"{base}duplas/{dupla.key}/", f"/d/{dupla.token}/"]
    return urls
