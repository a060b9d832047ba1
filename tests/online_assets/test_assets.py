"""The online table's drawn assets (static/img/online/, static/sounds/online/, static/css/online-art.css): every file
the table screen asks for exists, is well-formed and small, and is exactly what static/src/draw_online.py writes."""

import re
import wave
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.utils.text import slugify

from scoring.ranking import LEVELS as RANKING_LEVELS
from scoring.ranking import UNRANKED_LEVEL
from tests.online_assets.art import AVATARS, BACKS, FACES, SOUNDS, STATIC, draw
from truco.cards import DECK

SVG_NS = "{http://www.w3.org/2000/svg}"
SVG_LIMIT = 12 * 1024
WAV_LIMIT = 40 * 1024


def svg_paths() -> list[Path]:
    return sorted((STATIC / "img" / "online").rglob("*.svg"))


def test_the_deck_is_the_engines_forty_cards_in_each_face():
    assert sorted(draw.CARDS) == sorted(DECK) and len(DECK) == 40
    for face in FACES:
        folder = STATIC / "img" / "online" / "cards" / face
        assert sorted(path.stem for path in folder.glob("*.svg")) == sorted(DECK), face


@pytest.mark.parametrize("path", svg_paths(), ids=lambda path: str(path.relative_to(STATIC)))
def test_every_svg_is_small_well_formed_and_named(path):
    assert path.stat().st_size < SVG_LIMIT
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG_NS}svg"
    view = root.get("viewBox", "").split()
    assert len(view) == 4 and all(float(v) >= 0 for v in view) and float(view[2]) > 0 and float(view[3]) > 0
    assert root.get("role") == "img"
    title = root.find(f"{SVG_NS}title")
    assert title is not None and title.text and title.text.strip()
    assert root.get("aria-labelledby") == title.get("id")
    # every reference (<use href="#…">, url(#…)) names an element of the same file
    text = path.read_text()
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    refs = set(re.findall(r'href="#([^"]+)"', text)) | set(re.findall(r"url\(#([^)]+)\)", text))
    assert refs <= ids, refs - ids
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")  # nothing fetched from elsewhere


@pytest.mark.parametrize(
    ("card", "title"),
    [
        ("4p", "4 de paus"),
        ("Qc", "Dama de copas"),
        ("Je", "Valete de espadas"),
        ("Ko", "Rei de ouros"),
        ("Ae", "Ás de espadas"),
        ("3o", "3 de ouros"),
    ],
)
def test_a_cards_accessible_name_says_the_card_in_portuguese(card, title):
    for face in FACES:
        root = ET.parse(STATIC / "img" / "online" / "cards" / face / f"{card}.svg").getroot()
        assert root.find(f"{SVG_NS}title").text == title


def test_red_suits_are_red_and_black_suits_black():
    for face in FACES:
        for card in DECK:
            text = (STATIC / "img" / "online" / "cards" / face / f"{card}.svg").read_text()
            red, black = text.count(draw.RED), text.count(draw.BLACK)
            if card[1] in "co":
                assert red > 0, (face, card)
            else:
                assert black > 0, (face, card)


def test_backs_avatars_and_felt_texture_exist():
    folder = STATIC / "img" / "online"
    assert sorted(p.stem for p in (folder / "backs").glob("*.svg")) == sorted(BACKS)
    assert sorted(p.stem for p in (folder / "avatars").glob("*.svg")) == sorted(AVATARS)
    assert AVATARS[0] == "marreco" and len(set(AVATARS)) == 12
    assert (folder / "felts" / "trama.svg").is_file()


def test_the_avatar_list_of_the_people_module_is_drawn():
    people = pytest.importorskip("tournaments.online.people")
    keys = getattr(people, "AVATARS", None)
    if keys is None:
        pytest.skip("tournaments.online.people.AVATARS ainda não existe")
    assert set(keys) <= set(AVATARS)


def test_one_icon_per_level_of_the_ranking():
    names = [UNRANKED_LEVEL] + [name for name, _ in RANKING_LEVELS]
    folder = STATIC / "img" / "online" / "levels"
    assert sorted(p.stem for p in folder.glob("*.svg")) == sorted(slugify(name) for name in names)
    for name in names:
        title = ET.parse(folder / f"{slugify(name)}.svg").getroot().find(f"{SVG_NS}title").text
        assert title == f"Nível {name}"


@pytest.mark.parametrize("name", SOUNDS)
def test_every_sound_is_a_short_soft_wav(name):
    path = STATIC / "sounds" / "online" / f"{name}.wav"
    assert path.stat().st_size < WAV_LIMIT
    with wave.open(str(path)) as sound:
        assert (sound.getnchannels(), sound.getsampwidth(), sound.getframerate()) == (1, 2, 16000)
        frames = sound.getnframes()
        assert 0.02 <= frames / 16000 <= 1.5
        data = sound.readframes(frames)
    samples = memoryview(data).cast("h")
    peak = max(abs(s) for s in samples)
    assert 0.2 * 32767 < peak <= 0.55 * 32767  # audible, never loud, never clipped
    assert abs(samples[-1]) < 0.02 * 32767  # ends in silence: no click


def test_the_sound_folder_holds_exactly_the_sounds():
    assert sorted(p.name for p in (STATIC / "sounds" / "online").iterdir()) == sorted(f"{n}.wav" for n in SOUNDS)


def test_the_committed_files_are_what_the_generator_draws():
    files = draw.build()
    for relative, content in files.items():
        assert (STATIC / relative).read_bytes() == content, f"{relative}: rode static/src/draw_online.py"
    drawn = {STATIC / relative for relative in files}
    on_disk = set((STATIC / "img" / "online").rglob("*.*")) | set((STATIC / "sounds" / "online").rglob("*.*"))
    assert on_disk == drawn, on_disk ^ drawn


def test_the_felts_css_defines_the_three_appearances_and_its_images_exist():
    css_path = STATIC / "css" / "online-art.css"
    css = css_path.read_text()
    for name in ("feltro-verde", "feltro-azul", "feltro-vinho"):
        blocks = re.findall(r"\." + name + r"\s*\{([^}]*)\}", css)
        assert any("--feltro:" in block for block in blocks), name
    urls = re.findall(r'url\("?([^")]+)"?\)', css)
    assert urls
    for url in urls:
        assert (css_path.parent / url).resolve().is_file(), url
    assert "http" not in css
