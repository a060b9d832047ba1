"""The domain's one refusal (``tournaments.refusals.Refused``) and how it leaves the site, once, at the edge
(``tournaments.web``): its status, the API's JSON, a form's errors."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django import forms

from scoring.errors import RuleError, RuleViolation
from tests.support.registrations import tournament_make
from tests.support.sumula import api, post
from tournaments.forms import RegistrationFields
from tournaments.refusals import Kind, Refused
from tournaments.registrations import services as registrations
from tournaments.registrations.checks import PersonIn
from tournaments.sumula import services as sumula
from tournaments.web import REFUSAL_STATUS, refusal_json, refusal_status, refusal_to_form


def test_every_kind_has_its_status():
    assert set(REFUSAL_STATUS) == set(Kind)
    assert {kind: refusal_status(Refused(kind, "x")) for kind in Kind} == {
        Kind.BAD_REQUEST: 400,
        Kind.FORBIDDEN: 403,
        Kind.NOT_FOUND: 404,
        Kind.CONFLICT: 409,
        Kind.INVALID: 422,
        Kind.LOCKED: 429,
    }


def test_the_short_constructors_and_the_rules():
    assert Refused.conflict("já foi").kind == Kind.CONFLICT and Refused.conflict("já foi").messages == ["já foi"]
    assert Refused.locked("espere").kind == Refused.LOCKED
    refused = Refused.from_rules(RuleViolation([RuleError("partidas[0]", "errado"), RuleError("", "sem lugar")]))
    assert refused.kind == Kind.INVALID
    assert refused.messages == ["partidas[0]: errado", "sem lugar"]
    assert [p.place for p in refused.problems] == ["partidas[0]", ""]
    assert str(refused) == "partidas[0]: errado\nsem lugar"


def test_the_api_answers_a_json_body_with_its_status():
    response = refusal_json(Refused.not_found("jogo X não encontrado", "e mais"))
    assert response.status_code == 404
    assert json.loads(response.content) == {"errors": ["jogo X não encontrado", "e mais"]}
    assert "não".encode() in response.content  # not escaped


@pytest.mark.django_db
def test_a_refusal_raised_by_a_service_reaches_the_api(cup, ref, j1, monkeypatch):
    def refuse(**kwargs):
        raise Refused.conflict("a súmula mudou")

    monkeypatch.setattr(sumula, "sumula_result_set", refuse)
    response = post(ref, api(cup.slug, j1, "resultado"), {"walkover": 0})
    assert response.status_code == 409
    assert response.json() == {"errors": ["a súmula mudou"]}


class _Form(forms.Form):
    name = forms.CharField(required=False)
    reason = forms.CharField(required=False)


def test_problems_land_on_their_fields_and_messages_above_the_form():
    form = _Form({"name": "", "reason": ""})
    assert form.is_valid()
    problems = [RuleError("reason", "diga o motivo"), RuleError("players[3].x", "sem campo")]
    refusal_to_form(form, Refused.invalid("reason: diga o motivo", "sem campo", problems=problems))
    assert form.errors == {"reason": ["diga o motivo"], "__all__": ["sem campo"]}
    form = _Form({})
    form.is_valid()
    refusal_to_form(form, Refused.conflict("já foi feito", "e mais isto"))
    assert form.non_field_errors() == ["já foi feito", "e mais isto"]


@pytest.mark.django_db
def test_a_registration_refusal_lands_on_the_partner_field():
    tournament = tournament_make()
    with pytest.raises(Refused) as refused:
        registrations.registration_add(
            tournament=tournament, players=[PersonIn("Ana Souza", date(1990, 1, 1)), PersonIn("Kid", date(2015, 1, 1))]
        )
    form = RegistrationFields({"name": "Ana Souza", "partner_name": "Kid"}, tournament=tournament)
    form.is_valid()
    refusal_to_form(form, refused.value)
    assert list(form.errors) == ["partner_birth_date"]
    assert refused.value.kind == Kind.INVALID and refusal_status(refused.value) == 422
