"""Long Brazilian names on the wall bracket (chave.pdf) and the dupla cards (issue 24, item 2): every dupla's name
and both its players' names are printed whole (wrapped, never cut with "…"), on the page of the dupla's jogo."""

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client

from tests.support.printing import (
    assert_pdf,
    flat,
    footer_pages,
    long_names_knockout_file,
    pdf_text,
    qr_texts,
    save_png,
)
from tournaments.models import Dupla

pytestmark = pytest.mark.django_db


def chave(slug: str) -> list[str]:
    data = assert_pdf(Client().get(f"/torneios/{slug}/chave.pdf"), f"{slug}-chave.pdf")
    save_png(data, slug)
    return [flat(t) for t in pdf_text(data)]


def whole(name: str, text: str) -> bool:
    """``name`` printed whole in ``text``, a word on its own ("… Esquina 3" is not "… Esquina 36")."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def names_of(dupla: Dupla) -> list[str]:
    return [n for n in (dupla.name, dupla.player1.name, dupla.player2.name) if n]


def duplas(tournament) -> list[Dupla]:
    return list(tournament.duplas.select_related("player1", "player2").order_by("order", "id"))


@pytest.mark.parametrize("size", [32, 16])
def test_a_bracket_of_long_names_prints_every_dupla_and_player_whole(load_file, size):
    tournament = load_file(long_names_knockout_file(size, slug=f"nomes-longos-{size}"))
    [page] = chave(tournament.slug)
    assert "…" not in page
    assert "Os Invencíveis do Bar do Zé da Esquina" in page
    assert "Fernanda Aparecida Saldanha de Oliveira / Maria das Graças Nascimento Albuquerque" in page
    for dupla in duplas(tournament):
        for name in names_of(dupla):
            assert whole(name, page), (dupla.key, name)
    for n in range(1, size // 2 + 1):
        assert whole(f"mesa {n}", page) and not whole(f"j{n}", page), n  # the mesa, never the key


def test_the_long_names_stay_whole_in_the_later_rounds(load_file):
    data = long_names_knockout_file(4, slug="nomes-longos-final", played=2)
    tournament = load_file(data)
    [page] = chave(tournament.slug)
    assert "…" not in page
    final = page.rsplit("Final", 1)[1]  # the final's places: the two winners of the semifinals
    assert "Os Invencíveis do Bar do Zé da Esquina" in final
    assert "Zap de Copas da Vila Madalena Paulistana" in final


def test_a_bracket_of_64_long_names_prints_each_dupla_on_the_page_of_its_section(load_file):
    tournament = load_file(long_names_knockout_file(64, slug="nomes-longos-64", played=0))
    pages = chave(tournament.slug)
    assert footer_pages(pages) == [(1, 3), (2, 3), (3, 3)]
    for i, dupla in enumerate(duplas(tournament)):
        own, other = (pages[0], pages[1]) if i < 32 else (pages[1], pages[0])
        for name in names_of(dupla):
            assert whole(name, own), (dupla.key, name)
            if name[-1].isdigit():  # "Os Invencíveis do Bar do Zé da Esquina" begins its namesake "… Esquina 36"
                assert not whole(name, other), (dupla.key, name)
    assert all("…" not in p for p in pages)
    assert "vencedor da página 1" in pages[2] and "vencedor da página 2" in pages[2]


def test_the_cards_print_long_names_whole(load_file, tmp_path):
    tournament = load_file(long_names_knockout_file(8, slug="cartoes-longos", played=0))
    target = tmp_path / "cartoes.pdf"
    out = io.StringIO()
    call_command("dupla_pins", tournament.slug, "--reset", "--pdf", str(target), stdout=out, stderr=io.StringIO())
    data = target.read_bytes()
    save_png(data, "cartoes-nomes-longos")
    [page] = [flat(t) for t in pdf_text(data)]
    assert "…" not in page
    pins = dict(line.split(",") for line in out.getvalue().splitlines())
    for dupla in duplas(tournament):
        for name in names_of(dupla):
            assert whole(name, page), (dupla.key, name)
        assert f"{pins[dupla.key][:3]} {pins[dupla.key][3:]}" in page
    assert len(qr_texts(data)) == 8  # the QR codes still read
