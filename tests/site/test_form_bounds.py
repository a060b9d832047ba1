"""Every number a form of the site reads is bounded by the column that stores it (issue 41, item 3): the circuit
desk's "etapas que contam" answered 500 on PostgreSQL above 32,767 (a smallint), which SQLite stores.

The walk finds every form class of the site (each ``Form`` of the ``tournaments`` package, and each form the admin
builds), makes one of each, and for every whole number it reads (``IntegerField``, ``DecimalField``,
``FloatField``): the field names its column (``limits.column_integer`` / ``ColumnBoundsForm``), its bounds lie
within that column's range (the same on every database: Django's for PostgreSQL), and a value just beyond them is
refused by the field itself.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django import forms
from django.contrib.auth import get_user_model
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from tests.circuits.support import etapa_file
from tests.support.desk import client_for, make_user
from tests.support.forms import site_form_classes, site_forms
from tournaments.circuits.services import circuit_create, circuit_etapa_attach
from tournaments.models import Circuit, CircuitEtapa

pytestmark = pytest.mark.django_db


def _column_range(column: models.Field) -> tuple[int | Decimal, int | Decimal]:
    kind = column.get_internal_type()
    if kind == "DecimalField":
        top = Decimal(10) ** (column.max_digits - column.decimal_places) - Decimal(10) ** -column.decimal_places
        return -top, top
    return BaseDatabaseOperations.integer_field_ranges[kind]


def _problems(where: str, form: forms.BaseForm) -> list[str]:
    out = []
    for name, field in form.fields.items():
        if not isinstance(field, forms.IntegerField):  # DecimalField and FloatField are IntegerFields too
            continue
        column = getattr(field, "column", None)
        if column is None and getattr(field, "bounds_own", False):  # limits.unstored_integer: no column holds it
            low, high = field.min_value, field.max_value
            if low is None or high is None:
                out.append(f"{where}.{name}: stored nowhere and unbounded")
                continue
        elif column is None:
            out.append(f"{where}.{name}: no column named (limits.column_integer)")
            continue
        else:
            low, high = _column_range(column)
        if field.min_value is None or field.max_value is None or not low <= field.min_value <= field.max_value <= high:
            out.append(f"{where}.{name}: {field.min_value}..{field.max_value} beyond {column} ({low}..{high})")
            continue
        for beyond in (field.min_value - 1, field.max_value + 1, low - 1, high + 1):
            try:
                field.clean(str(beyond))
            except forms.ValidationError:
                continue
            out.append(f"{where}.{name}: {beyond} passes")
    return out


def test_the_walk_finds_the_sites_forms():
    names = {c.__name__ for c in site_form_classes()}
    assert {"CircuitRulesForm", "EtapaSetForm", "MesasForm", "MaoForm", "TournamentEditForm", "SignupForm"} <= names
    assert len(names) > 40


def test_every_number_a_form_reads_is_bounded_by_its_column():
    made = site_forms()
    problems = [p for where, form in made for p in _problems(where, form)]
    assert problems == []
    numbers = sum(isinstance(f, forms.IntegerField) for _w, form in made for f in form.fields.values())
    assert numbers > 25  # the walk reached the forms' numbers (the admin's too)


# --- the circuit desk on PostgreSQL: beyond a smallint, a message next to the field, nothing written --------------

SMALLINT_PLUS_ONE = str(2**15)


@pytest.fixture
def organizer(load_file):
    etapa = load_file(etapa_file("etapa-limites", date="2025-03-01"))
    user = make_user("org-limites", etapa)
    return user, etapa


@pytest.mark.parametrize("field", ["count_best", "qualify_top", "qualify_min_etapas", "qualify_alternates"])
def test_the_circuit_rules_refuse_a_number_beyond_the_column(organizer, field):
    user, _etapa = organizer
    circuit = circuit_create(user=user, name="Liga dos Limites", slug="liga-limites", template=Circuit.LIGA)
    before = Circuit.objects.filter(pk=circuit.pk).values().get()
    data = {"name": "Liga dos Limites", "key_0": "1", "points_0": "10", "others": "1", field: SMALLINT_PLUS_ONE}
    response = client_for(user).post(f"/organizar/circuitos/{circuit.slug}/", data)
    assert response.status_code == 200
    assert "menor ou igual a 32767" in " ".join(response.context["rules"].errors[field])
    assert Circuit.objects.filter(pk=circuit.pk).values().get() == before


def test_an_etapas_weight_beyond_the_column_is_refused(organizer):
    user, etapa = organizer
    circuit = circuit_create(user=user, name="Liga dos Limites", slug="liga-limites", template=Circuit.LIGA)
    c = client_for(user)
    response = c.post(
        f"/organizar/circuitos/{circuit.slug}/etapas/",
        {"etapa-tournament": etapa.slug, "etapa-weight": SMALLINT_PLUS_ONE},
    )
    assert response.status_code == 200 and "menor ou igual a 32767" in response.context["attach"].errors["weight"][0]
    assert not CircuitEtapa.objects.exists()
    attached = circuit_etapa_attach(circuit=circuit, user=user, tournament=etapa)
    response = c.post(
        f"/organizar/circuitos/{circuit.slug}/etapas/{attached.pk}/", {f"e{attached.pk}-weight": SMALLINT_PLUS_ONE}
    )
    assert response.status_code == 200
    attached.refresh_from_db()
    assert attached.weight == 1


def test_a_choice_of_rows_by_a_number_no_column_holds_is_refused(client):
    """The admin's choice of a group's permissions (a multiple choice of rows by id), posted as 2**63: a message on
    the field, not a 500 (SQLite refused the number in ``id IN (…)``; such a number matches no row: models/lookups.py)."""
    from django.contrib.auth.models import Group, Permission

    client.force_login(get_user_model().objects.create_superuser("raiz-grupos", password="senha-dos-grupos-1"))
    group = Group.objects.create(name="Comissão")
    response = client.post(f"/admin/auth/group/{group.pk}/change/", {"name": "Comissão", "permissions": [str(2**63)]})
    assert response.status_code == 200 and "permissions" in response.context["adminform"].form.errors
    some = Permission.objects.order_by("pk").first()
    assert list(Permission.objects.filter(pk__in=[2**63, -(2**63) - 1, some.pk])) == [some]
    assert not Permission.objects.filter(pk__in=[2**63]).exists()
