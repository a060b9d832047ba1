"""The embeds (/embed/…): what each shows, that they alone may be framed by another site, their themes, their cache
(as the pages they mirror: ETag and 304, a handful of queries), no site chrome, no private data; and the
"incorporar" box that gives their code on the event and circuit pages."""

import html
import re

import pytest
from django.db import connection
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext

from tests.circuits.support import circuit_file, etapa_file
from tests.support.files import BIRTH, demo_file, knockout_file
from tests.support.headers import assert_security_headers, inline_code
from tournaments.circuits.file import circuit_import
from tournaments.models import Player

pytestmark = pytest.mark.django_db

EMBEDS = ("classificacao", "chave", "proximos", "ao-vivo")


@pytest.fixture
def events(load_file):
    demo = load_file(demo_file(load_file))  # groups done, a knockout with a partida being played
    finished = load_file(knockout_file())  # over: champion, medals
    return demo, finished


@pytest.fixture
def season(load_file):
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    return circuit_import(data=circuit_file())


def csp(response) -> dict[str, list[str]]:
    return {p.split()[0]: p.split()[1:] for p in response["Content-Security-Policy"].split(";") if p.strip()}


def private_absent(body: str) -> None:
    """No birth date, e-mail or phone of any player of any event reaches the body."""
    seen = 0
    for p in Player.objects.all():
        for value in (p.birth_date and p.birth_date.isoformat(), p.birth_date and p.birth_date.strftime("%d/%m/%Y")):
            assert not value or value not in body
        assert not p.email or p.email not in body
        assert not p.phone or p.phone not in body
        seen += 1
    assert seen >= 8 and BIRTH not in body and "exemplo.com.br" not in body and "98888" not in body


@pytest.mark.parametrize("kind", EMBEDS)
def test_only_the_embeds_may_be_framed_by_another_site(client, events, kind):
    response = client.get(f"/embed/torneios/copa-demo/{kind}/")
    assert response.status_code == 200
    policy = csp(response)
    assert policy["frame-ancestors"] == ["*"]
    assert "X-Frame-Options" not in response
    # everything else in the policy is the site's: scripts, styles and images from here only, no inline code
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert inline_code(response.content.decode()) == []
    # the page it mirrors (and any other page) still refuses every frame
    mirrored = {"classificacao": "classificacao/", "chave": "chave/", "proximos": "jogos/", "ao-vivo": ""}[kind]
    page = client.get(f"/torneios/copa-demo/{mirrored}")
    assert page.status_code == 200
    assert_security_headers(page)  # frame-ancestors 'none', X-Frame-Options DENY


def test_the_ancestors_follow_the_setting(client, events, settings):
    settings.ZAP_EMBED_ANCESTORS = ["https://federacao.example.org", "https://*.clube.example.com"]
    response = client.get("/embed/torneios/copa-demo/classificacao/")
    assert csp(response)["frame-ancestors"] == ["https://federacao.example.org", "https://*.clube.example.com"]


def test_what_each_embed_shows(client, events):
    body = client.get("/embed/torneios/copa-demo/classificacao/").content.decode()
    assert "Grupo A" in body and "Grupo B" in body and "Os Zapeiros" in body
    assert "decidido por confronto direto" in body  # the tiebreak notes, as on the page
    assert 'class="topbar"' not in body and "site-head" not in body and "footer-links" not in body  # no chrome
    assert 'hx-trigger="every 30s"' in body  # refreshes itself while the event goes on
    assert "embed-height.js" in body

    body = client.get("/embed/torneios/copa-demo/chave/").content.decode()
    assert "Quartas de final" in body and "Final" in body and "Dupla Espadilha" in body

    body = client.get("/embed/torneios/copa-demo/ao-vivo/").content.decode()
    assert "1 jogo na mesa" in body
    assert re.search(r"partida 2:.*6 x 1", body, flags=re.S)  # the partida being played, live
    assert "Últimos resultados" in body

    body = client.get("/embed/torneios/copa-demo/proximos/").content.decode()
    main = re.sub(r"<[^>]+>", " ", body.split("<main", 1)[1].split("</main>", 1)[0])
    assert "Semifinais" in main and "Os Zapeiros" in main and "Dupla Espadilha" in main and "Mesa" in main
    assert "Truco Ladrão" not in main  # out in the quarterfinals: no next jogo

    body = client.get("/embed/torneios/aabb-demo/classificacao/").content.decode()
    assert "Classificação final" in body and "ouro" in body and "bronze" in body
    assert "hx-trigger" not in body  # over: nothing to refresh
    body = client.get("/embed/torneios/aabb-demo/chave/").content.decode()
    assert "Campeã" in body and "Os Zapeiros" in body


def test_no_private_data_in_any_embed(client, events, season):
    for slug in ("copa-demo", "aabb-demo", "etapa-1"):
        for kind in EMBEDS:
            response = client.get(f"/embed/torneios/{slug}/{kind}/")
            assert response.status_code == 200, (slug, kind)
            private_absent(response.content.decode())
    private_absent(client.get("/embed/circuitos/liga-teste/ranking/").content.decode())


def test_themes(client, events):
    auto = client.get("/embed/torneios/copa-demo/classificacao/").content.decode()
    assert '<html lang="pt-BR" class="embed">' in auto and 'content="light dark"' in auto
    dark = client.get("/embed/torneios/copa-demo/classificacao/?tema=escuro").content.decode()
    assert 'class="embed tema-escuro"' in dark and '<meta name="color-scheme" content="dark">' in dark
    assert 'hx-get="/embed/torneios/copa-demo/classificacao/?tema=escuro"' in dark  # the poll keeps the theme
    light = client.get("/embed/torneios/copa-demo/chave/?tema=claro").content.decode()
    assert 'class="embed tema-claro"' in light
    # a made-up theme: the page follows the visitor's system, and is not kept in the cache
    odd = client.get("/embed/torneios/copa-demo/classificacao/?tema=<b>x</b>")
    assert odd.status_code == 200 and b"<b>x" not in odd.content and b'class="embed"' in odd.content
    assert renders(client, "/embed/torneios/copa-demo/classificacao/?tema=<b>x</b>") == 2  # never kept
    assert renders(client, "/embed/torneios/copa-demo/classificacao/?tema=escuro") == 0  # kept since the first


def renders(client, url: str) -> int:
    """How many times the embed's template is rendered for two visits of ``url``."""
    seen = []

    def count(sender, template, **kwargs):
        if template.name and template.name.startswith("embed/standings.html"):
            seen.append(template.name)

    template_rendered.connect(count)
    try:
        client.get(url)
        client.get(url)
    finally:
        template_rendered.disconnect(count)
    return len(seen)


def test_embeds_are_cached_like_their_pages(client, events):
    url = "/embed/torneios/copa-demo/classificacao/"
    first = client.get(url)
    etag = first["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    with CaptureQueriesContext(connection) as queries:
        kept = client.get(url)
    assert kept.status_code == 200 and kept.content == first.content
    assert len(queries) <= 3, [q["sql"] for q in queries]
    # an htmx poll of the live part gets the part alone
    part = client.get(url, headers={"HX-Request": "true", "HX-Target": "embed-corpo"})
    assert part.status_code == 200 and b"<html" not in part.content and b'id="embed-corpo"' in part.content
    assert csp(part)["frame-ancestors"] == ["*"]


def test_unknown_event_or_circuit_is_a_404(client, events):
    assert client.get("/embed/torneios/nao-existe/classificacao/").status_code == 404
    assert client.get("/embed/circuitos/nao-existe/ranking/").status_code == 404
    assert client.post("/embed/torneios/copa-demo/classificacao/").status_code == 405


def test_the_circuit_embed(client, season):
    response = client.get("/embed/circuitos/liga-teste/ranking/?tema=escuro")
    assert response.status_code == 200
    assert csp(response)["frame-ancestors"] == ["*"] and "X-Frame-Options" not in response
    body = response.content.decode()
    assert "Liga de Teste" in body and "tema-escuro" in body
    names = re.findall(r'<th scope="row" class="c-dupla"><a [^>]*><bdi>([^<]+)</bdi>', body)
    assert len(names) == 8  # the 8 atletas of the two etapas
    assert 'target="_blank"' in body  # an atleta's page opens outside the frame
    assert client.get(
        "/embed/circuitos/liga-teste/ranking/", headers={"If-None-Match": response["ETag"]}
    ).status_code in (
        200,
        304,
    )


def test_the_incorporar_box(client, events, season, settings):
    settings.SITE_URL = "https://zap.example.org"
    body = client.get("/torneios/copa-demo/").content.decode()
    assert "Incorporar no seu site" in body
    codes = [
        html.unescape(c) for c in re.findall(r'<textarea[^>]*class="incorporar-code"[^>]*>([^<]*)</textarea>', body)
    ]
    assert len(codes) == 4
    for kind, code in zip(EMBEDS, codes, strict=True):
        assert f'<iframe src="https://zap.example.org/embed/torneios/copa-demo/{kind}/"' in code
        assert 'e.origin!=="https://zap.example.org"' in code and '"zap:altura"' in code
    assert inline_code(body) == []  # the code is text on our page, never an iframe or a script of ours
    body = client.get("/circuitos/liga-teste/").content.decode()
    codes = [html.unescape(c) for c in re.findall(r'class="incorporar-code"[^>]*>([^<]*)</textarea>', body)]
    assert len(codes) == 1 and "https://zap.example.org/embed/circuitos/liga-teste/ranking/" in codes[0]
