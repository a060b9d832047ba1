"""The tournament file reader's messages reach English pages in English, and pt-BR pages as they were.

``tournaments.interchange`` writes its problems with scoring's ``_`` (``scoring.messages.Text``); the web edge words
them in the visitor's language (``tournaments.wording.worded``): the desk's file upload and the API's body errors
(whose JSON rules are the file's). Every template the reader marks has an English translation in the catalogue.
"""

import html
import json
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

from scoring.errors import RuleViolation
from scoring.messages import Text
from tests.support.files import base_file
from tests.support.i18n import PLACEHOLDER, marked_plurals, marked_templates, plurals_missing
from tests.support.sumula import api, cup_setup
from tournaments.interchange.jsonfile import tournament_file_parse
from tournaments.interchange.reader import plan_read
from tournaments.models import Tournament
from tournaments.wording import worded

INTERCHANGE = Path(__file__).resolve().parents[2] / "tournaments" / "interchange"


def _templates() -> list[str]:
    return marked_templates(sorted(INTERCHANGE.glob("*.py")))


def test_every_reader_template_has_an_english_translation_with_the_same_placeholders():
    templates = _templates()
    assert len(templates) > 120, len(templates)
    catalog = trans_real.translation("en")._catalog
    missing = [t for t in templates if not catalog.get(t)]
    assert not missing, missing
    for template in templates:
        assert set(PLACEHOLDER.findall(catalog[template])) == set(PLACEHOLDER.findall(template)), template
    plurals = marked_plurals(sorted(INTERCHANGE.glob("*.py")))
    assert len(plurals) >= 3, plurals
    assert not plurals_missing(catalog, plurals)


def _file_with_problems() -> dict:
    """A file whose tournament and people are wrong: a bound (a worded 'what'), a date, a key said twice."""
    data = base_file(min_age=500, date="27/04/2024")
    data["players"][1]["key"] = "p1"
    return data


def test_the_readers_problems_are_texts_whose_portuguese_is_unchanged():
    _, errors = plan_read(json.loads(json.dumps(_file_with_problems())))
    lines = [str(e) for e in errors]
    assert lines == [
        "tournament.date: data inválida '27/04/2024': use AAAA-MM-DD",
        "tournament.min_age: a idade mínima deve ser um número inteiro entre 0 e 120",
        "players[1].key: chave 'p1' repetida: cada atleta tem uma chave única",
        "duplas[0].players[1]: atleta 'p2' não existe em players",
    ]
    for line in lines:
        assert isinstance(line, Text)
        with translation.override("pt-br"):
            assert worded(line) == line and type(worded(line)) is str
    with translation.override("en"):
        assert [worded(line) for line in lines] == [
            "tournament.date: invalid date '27/04/2024': use YYYY-MM-DD",
            "tournament.min_age: the minimum age must be a whole number between 0 and 120",
            "players[1].key: key 'p1' repeated: each player has a unique key",
            "duplas[0].players[1]: player 'p2' does not exist in players",
        ]
    with pytest.raises(RuleViolation) as refused:
        tournament_file_parse(raw=b'{"format": "truco-torneio", \xff}')
    (problem,) = refused.value.errors
    assert str(problem) == "arquivo: não está em UTF-8 (byte 28 inválido)"
    with translation.override("en"):
        assert worded(str(problem)) == "file: is not UTF-8 (invalid byte 28)"  # the place word too


# --- the pages and answers --------------------------------------------------------------------------------


def _english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _stages_wrong() -> dict:
    data = base_file()
    data["stages"][0]["groups"] = [
        {"key": "A", "duplas": ["d1", "d2"]},
        {"key": "A", "duplas": ["d3", "d4"]},
        {"key": "C", "duplas": ["d3", "zz"]},
    ]
    return data


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw, portuguese, english",
    [
        (
            json.dumps(_file_with_problems()).encode(),
            [
                "tournament.min_age: a idade mínima deve ser um número inteiro entre 0 e 120",
                "players[1].key: chave 'p1' repetida: cada atleta tem uma chave única",
            ],
            [
                "tournament.min_age: the minimum age must be a whole number between 0 and 120",
                "players[1].key: key 'p1' repeated: each player has a unique key",
            ],
        ),
        (
            json.dumps(_stages_wrong()).encode(),
            ["stages[0].groups[1].key: grupo 'A' repetido", "stages[0].groups[2].duplas[1]: dupla 'zz' não existe"],
            ["stages[0].groups[1].key: group 'A' repeated", "stages[0].groups[2].duplas[1]: dupla 'zz' does not exist"],
        ),
        (
            b'{"format": "truco-torneio", "version": }',
            ["JSON inválido na linha 1, coluna 40: esperava um valor"],
            ["invalid JSON at line 1, column 40: expected a value"],
        ),
        (
            b'{"format": "truco-torneio", \xff}',
            ["arquivo: não está em UTF-8 (byte 28 inválido)"],
            ["file: is not UTF-8 (invalid byte 28)"],
        ),
    ],
)
def test_the_desks_upload_lists_the_files_problems_in_the_visitors_language(raw, portuguese, english):
    organizer = User.objects.create_user("comissao", is_staff=True)
    for client, expected in ((Client(), portuguese), (_english(Client()), english)):
        client.force_login(organizer)
        response = client.post(reverse("desk:upload"), {"file": SimpleUploadedFile("t.json", raw)})
        assert response.status_code == 200 and not Tournament.objects.exists()
        listed = [html.unescape(li) for li in re.findall(r"<li>(.*?)</li>", response.content.decode(), re.S)]
        for line in expected:
            assert line in listed, listed


@pytest.fixture
def cup(load_file):
    return cup_setup(load_file)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw, portuguese, english",
    [
        (
            b'{"dupla": "d1", "via": }',
            "corpo JSON inválido na linha 1, coluna 24: esperava um valor",
            "invalid JSON body at line 1, column 24: expected a value",
        ),
        (
            b'{"dupla": "d1", "dupla": "d4"}',
            "'dupla': campo repetido neste objeto: cada campo aparece uma vez",
            "'dupla': field repeated in this object: each field appears once",
        ),
        (
            b'{"points": 1' + b"0" * 30 + b"}",
            "'points': número grande demais (31 algarismos)",
            "'points': number too big (31 digits)",
        ),
    ],
)
def test_the_api_answers_a_bodys_problem_in_the_visitors_language(cup, raw, portuguese, english):
    url = api(cup.slug, "j1", "confirmacao")
    for client, expected in ((Client(), portuguese), (_english(Client()), english)):
        response = client.post(url, data=raw, content_type="application/json")
        assert response.status_code == 400, response.content
        assert response.json() == {"errors": [expected]}
