"""Names drop the bidi controls (issue 41, item 9): U+202E and the other bidi controls disguise a name ("‮ogeiD" is
shown as "Diego"), so every name the site stores (players, duplas, events, their venue, city and category,
equipes, circuits, stages, atletas, accounts' display names) is kept as ``scoring.text.name_clean`` gives it,
whatever writes it: a form, the tournament file, a registration CSV, the admin, a service.

The rule lives in one place (``name_clean``); the name columns say so (``models.fields.NameField``: on save,
and their forms' fields), and so do the readers that check a name before saving it (the file's ``text_read``, a
registration's ``PersonIn``, the plain forms' ``NameFormField``), so a name of bidi controls alone is an empty
one there, not an empty name saved.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from scoring.errors import RuleViolation
from scoring.text import BIDI_CONTROLS
from tests.support.desk import client_for, make_user
from tests.support.files import base_file
from tests.support.forms import site_forms
from tests.support.registrations import csv_bytes, tournament_make
from tournaments.circuits.services import CircuitRefused, circuit_create
from tournaments.models import Circuit, Dupla, Player, Tournament
from tournaments.models.fields import NameField
from tournaments.registrations.services import registrations_import_csv
from tournaments.roles import display_name
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

RLO, PDF, RLI, PDI = "\u202e", "\u202c", "\u2067", "\u2069"
DISGUISED = f"{RLO}ogeiD{PDF} {RLI}Souza{PDI}"  # what a page would show reversed
CLEAN = "ogeiD Souza"
# a column holding a name, by its label (a new one must be a NameField too)
NAME_LABELS = {"nome", "local", "cidade", "categoria", "equipe"}
# a form's field that reads a name, by its field's name
NAME_FIELD = re.compile(r"^(partner_)?(name|nome|team\d?|venue|city|category)$")


def _has_bidi(text: str) -> bool:
    return bool(BIDI_CONTROLS & set(text))


def test_every_name_column_is_a_name_field():
    names = {
        f"{m.__name__}.{f.name}"
        for m in apps.get_app_config("tournaments").get_models()
        for f in m._meta.concrete_fields
        if isinstance(f, NameField)
    }
    assert {
        "Tournament.name",
        "Tournament.venue",
        "Tournament.city",
        "Tournament.category",
        "Player.name",
        "Player.team",
        "Dupla.name",
        "Stage.name",
        "Circuit.name",
        "CircuitAtleta.team",
        "Atleta.name",
    } <= names
    unnamed = [
        f"{m.__name__}.{f.name}"
        for m in apps.get_app_config("tournaments").get_models()
        for f in m._meta.concrete_fields
        if str(f.verbose_name) in NAME_LABELS and not isinstance(f, NameField)
    ]
    assert unnamed == []


def test_every_form_field_that_reads_a_name_drops_the_bidi_controls():
    fields = [
        (where, name, field)
        for where, form in site_forms()
        if not where.startswith("admin auth.")  # Django's accounts (a permission group's name is no one's)
        for name, field in form.fields.items()
        if NAME_FIELD.match(name) and hasattr(field, "max_length")
    ]
    assert len(fields) > 15  # the desk's, the sign-up's, the accounts', the admin's
    assert [f"{where}.{name}" for where, name, field in fields if field.clean(DISGUISED) != CLEAN] == []
    required = [field for _w, _n, field in fields if field.required]
    assert required and all(_refused(field, f" {RLO}{PDF} ") for field in required)  # bidi alone: empty


def _refused(field, value) -> bool:
    from django import forms

    try:
        field.clean(value)
    except forms.ValidationError:
        return True
    return False


def test_the_tournament_file_drops_them_and_refuses_a_name_of_them_alone():
    data = base_file(name=f"Copa {DISGUISED}", venue=DISGUISED, city=DISGUISED, category=DISGUISED)
    data["players"][0]["name"] = DISGUISED
    data["players"][1]["team"] = DISGUISED
    data["duplas"][0]["name"] = DISGUISED
    data["stages"][0]["name"] = DISGUISED
    t = tournament_import(data=json.loads(json.dumps(data)))
    assert (t.name, t.venue, t.city, t.category) == (f"Copa {CLEAN}", CLEAN, CLEAN, CLEAN)
    t = Tournament.objects.get(pk=t.pk)
    assert (t.name, t.venue, t.city, t.category) == (f"Copa {CLEAN}", CLEAN, CLEAN, CLEAN)
    assert Player.objects.get(tournament=t, key="p1").name == CLEAN
    assert Player.objects.get(tournament=t, key="p2").team == CLEAN
    assert Dupla.objects.get(tournament=t, key="d1").name == CLEAN
    assert t.stages.get(key="grupos").name == CLEAN
    assert not _has_bidi(Player.objects.get(tournament=t, key="p1").atleta.name)
    blank = base_file(name="Copa Vazia")
    blank["players"][0]["name"] = f"{RLO}{PDF}"
    with pytest.raises(RuleViolation) as refused:
        tournament_import(data=blank)
    assert any("players[0].name" in str(e) and "obrigatório" in str(e) for e in refused.value.errors)


def test_registrations_drop_them_from_the_form_the_csv_and_the_sign_up():
    t = tournament_make()
    registrations_import_csv(tournament=t, content=csv_bytes([f"{DISGUISED};14/03/1987;;;;;;"]))
    assert Player.objects.get(tournament=t).name == CLEAN
    response = Client().post(
        f"/torneios/{t.slug}/inscricao/",
        {
            "kind": "individual",
            "name": f"Ana {RLO}Lima",
            "birth_date": "1990-01-01",
            "email": "",
            "phone": "(11) 98888-7777",
            "website": "",
        },
    )
    assert response.status_code in (200, 302)
    assert Player.objects.filter(tournament=t, name="Ana Lima").exists()
    assert not any(_has_bidi(n) for n in Player.objects.values_list("name", flat=True))


def test_the_desk_the_accounts_and_the_admin_drop_them():
    organizer = get_user_model().objects.create_user("comissao-bidi", password="senha-forte-123", is_staff=True)
    c = client_for(organizer)
    c.post("/organizar/novo/", {"starter": "blank", "name": DISGUISED, "date": "2030-05-01", "venue": DISGUISED})
    t = Tournament.objects.get(created_by=organizer)
    assert (t.name, t.venue) == (CLEAN, CLEAN)
    c.post("/conta/", {"name": DISGUISED})
    organizer.refresh_from_db()
    assert organizer.first_name == CLEAN and display_name(organizer) == CLEAN
    # whatever wrote the account's name (Django's own admin of accounts): it is shown without them
    get_user_model().objects.filter(pk=organizer.pk).update(first_name=DISGUISED)
    organizer.refresh_from_db()
    assert display_name(organizer) == CLEAN
    # a write that goes around every form (a service, the shell): the row still gets the name clean
    Tournament.objects.filter(pk=t.pk).update(city=DISGUISED)
    assert Tournament.objects.get(pk=t.pk).city == CLEAN


def test_a_circuit_name_of_bidi_controls_alone_is_refused():
    user = make_user("org-circuito-bidi", tournament_make(slug="etapa-bidi"))
    with pytest.raises(CircuitRefused):
        circuit_create(user=user, name=f"{RLO}{PDF}", slug="liga-bidi")
    circuit = circuit_create(user=user, name=DISGUISED, slug="liga-bidi")
    assert Circuit.objects.get(pk=circuit.pk).name == CLEAN


def test_the_registrations_command_too(tmp_path):
    t = tournament_make(slug="copa-comando-bidi")
    path = tmp_path / "inscricoes.csv"
    path.write_bytes(csv_bytes([f"Bruno {RLO}Lima;14/03/1987;;;;;;"]))
    call_command("import_registrations", t.slug, str(path), stdout=io.StringIO())
    assert Player.objects.get(tournament=t).name == "Bruno Lima"
