"""Scoring's rule messages reach English pages in English (issue 24, item 16), and pt-BR pages as they were.

Scoring writes its messages as translatable ``Text`` values (``scoring.messages``); the web edge words them in
the visitor's language (``tournaments.wording.worded``): the súmula API's errors, the referee's screen, the
desk's import errors. Every template scoring marks has an English translation in the catalogue.
"""

import json
import pickle
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from scoring.format import format_check, format_notes
from scoring.messages import Text
from scoring.partida import Mao, final_score_error, mao_gain
from scoring.rules import PRESETS
from tests.support.files import base_file
from tests.support.i18n import PLACEHOLDER, marked_plurals, marked_templates, plurals_missing
from tests.support.sumula import api, cup_setup, post, staff_user
from tournaments.models import Mesa, Tournament
from tournaments.wording import worded

ROOT = Path(__file__).resolve().parents[2]
# scoring, and the result reader below the file import and the API, which marks its messages the same way
MARKED = [*sorted((ROOT / "scoring").glob("*.py")), ROOT / "tournaments" / "result_form.py"]


def _scoring_templates() -> list[str]:
    return marked_templates(MARKED)


def test_every_scoring_template_has_an_english_translation_with_the_same_placeholders():
    templates = _scoring_templates()
    assert len(templates) > 90, len(templates)
    catalog = trans_real.translation("en")._catalog
    missing = [t for t in templates if not catalog.get(t)]
    assert not missing, missing
    for template in templates:
        assert set(PLACEHOLDER.findall(catalog[template])) == set(PLACEHOLDER.findall(template)), template
    plurals = marked_plurals(MARKED)
    assert len(plurals) >= 3, plurals
    assert not plurals_missing(catalog, plurals)


def test_a_message_whose_words_follow_a_number_is_worded_with_ngettext():
    """Issue 41 item 13: "1 ponto", "5 pontos" (not "ponto(s)"), in Portuguese and in English."""
    rules = PRESETS["fenacef"]
    one = mao_gain(score=(11, 3), mao=Mao(to=0, points=1, how="penalty", reason="x"), settings=rules)[1]
    five = mao_gain(score=(11, 3), mao=Mao(to=0, points=5, how="penalty", reason="x"), settings=rules)[1]
    assert one is None  # a penalty of 1 point is allowed
    assert str(five).startswith("penalidade de 5 pontos inválida com uma dupla em 11")
    with translation.override("en"):
        assert worded(five).startswith("invalid penalty of 5 points with a dupla on 11")
    with translation.override("pt-br"):
        assert worded(five) == five
    two = mao_gain(score=(11, 11), mao=Mao(to=0, points=2, how="penalty", reason="x"), settings=rules)[1]
    assert "penalidade de 2 pontos inválida na mão de ferro" in two
    from scoring.messages import ngettext

    for n, pt, en in [(1, "1 ponto", "1 point"), (0, "0 pontos", "0 points"), (7, "7 pontos", "7 points")]:
        text = ngettext("%(n)s ponto", "%(n)s pontos", n, n=n)  # the catalogue has it (the pages' plural)
        assert text == pt
        with translation.override("en"):
            assert worded(text) == en
        assert pickle.loads(pickle.dumps(text)) == text and pickle.loads(pickle.dumps(text)).number == n


def test_a_text_is_its_portuguese_and_worded_in_pt_br_stays_byte_identical():
    rules = PRESETS["fenacef"]
    texts = [
        mao_gain(score=(0, 0), mao=Mao(to=0, points=5), settings=rules)[1],
        mao_gain(score=(11, 3), mao=Mao(to=0, points=6), settings=rules)[1],
        final_score_error(score=(11, 14), settings=rules),
        *format_notes({"kind": "knockout", "bracket_method": "seeded"}, 6),
        *format_check({"kind": "groups_knockout", "group_size": 4, "per_group": 5, "best_others": 0}, 14),
    ]
    assert texts[0] == "uma mão vale 1, 3, 6, 9 ou 12; recebido 5"
    assert (
        texts[3]
        == "6 duplas no mata-mata; chave de 8 com 2 folgas para os cabeças de chave (passam direto à 2ª rodada)."
    )
    for text in texts:
        assert isinstance(text, Text)
        with translation.override("pt-br"):
            assert worded(text) == text and type(worded(text)) is str
        with translation.override("en"):
            assert worded(text) != text
    with translation.override("en"):
        assert worded(texts[0]) == "a hand is worth 1, 3, 6, 9 or 12; got 5"
        assert (
            worded(texts[3])
            == "6 duplas in the knockout; bracket of 8 with 2 byes for the seeds (straight through to round 2)."
        )
        assert worded("texto comum") == "texto comum"  # what is not a Text is left as it is


# --- the pages and answers --------------------------------------------------------------------------------


def _english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def cup(load_file):
    return cup_setup(load_file)


@pytest.mark.django_db
def test_the_sumula_api_answers_a_broken_rule_in_the_visitors_language(cup):
    referee = staff_user(cup, "arbitro")
    Mesa.objects.create(tournament=cup, number=1, referee=referee)  # j1 is played on mesa 1
    body = {"id": "bad", "to": 0, "points": 5}
    pt, en = Client(), _english(Client())
    for client in (pt, en):
        client.force_login(referee)
    response = post(pt, api(cup.slug, "j1", "maos"), body)
    assert response.status_code == 422
    assert response.json() == {"errors": ["partida 1, mão 1: uma mão vale 1, 3, 6, 9 ou 12; recebido 5"]}
    response = post(en, api(cup.slug, "j1", "maos"), body)
    assert response.status_code == 422
    assert response.json() == {"errors": ["game 1, hand 1: a hand is worth 1, 3, 6, 9 or 12; got 5"]}
    # the whole result at once: the rules' message in English too
    response = post(en, api(cup.slug, "j1", "resultado"), {"partidas": [[12, 12], [12, 0]]})
    assert response.status_code == 422
    assert any("impossible: the game ends when the first dupla reaches 12" in m for m in response.json()["errors"])


@pytest.mark.django_db
def test_the_referees_screen_shows_the_rule_in_the_visitors_language(cup):
    referee = staff_user(cup, "arbitra")
    Mesa.objects.create(tournament=cup, number=1, referee=referee)
    screen = f"/organizar/{cup.slug}/arbitragem/j1/"
    for client, words in (
        (Client(), "uma mão vale 1, 3, 6, 9 ou 12; recebido 5"),
        (_english(Client()), "a hand is worth 1, 3, 6, 9 or 12; got 5"),
    ):
        client.force_login(referee)
        response = client.post(screen, {"op": "mao", "how": "played", "to": "0", "points": "5"})
        assert response.status_code == 302
        page = client.get(response["Location"]).content.decode()
        alerts = [re.sub(r"<[^>]+>", "", m).strip() for m in re.findall(r'role="alert"[^>]*>(.*?)</div>', page, re.S)]
        assert any(words in a for a in alerts), alerts


@pytest.mark.django_db
def test_the_desks_import_lists_the_files_problems_in_the_visitors_language():
    organizer = User.objects.create_user("comissao", is_staff=True)
    data = base_file()
    data["jogos"][0]["partidas"] = [[12, 13]]
    upload = SimpleUploadedFile
    for client, words in (
        (
            Client(),
            "jogos[0].partidas[0]: placar 12 x 13 impossível: a partida acaba quando a primeira dupla chega a 12",
        ),
        (
            _english(Client()),
            "jogos[0].partidas[0]: score 12 x 13 impossible: the game ends when the first dupla reaches 12",
        ),
    ):
        client.force_login(organizer)
        response = client.post(reverse("desk:upload"), {"file": upload("t.json", json.dumps(data).encode())})
        assert response.status_code == 200 and not Tournament.objects.exists()
        assert words in response.content.decode(), response.content.decode()
