"""The admin is no back door: no admin save leaves a tournament that the round trip rejects or a page cannot show.

Real admin forms are posted (superuser, the admin URLs, formset management
fields) with hostile and odd values for every model. Each post must either be
refused (a form error or an error message, 200/302, the database unchanged)
or be accepted and leave a tournament whose export is read back by the
importer without a problem, imported again, and whose every public page
answers 200 with every cache cold.

Results (partidas, mãos, a jogo's WO, penalty and súmula fields) are read-only
in the admin: a post that tries to change one (``LOCKED``) is answered 403, or
saved without its result part, and leaves every result row as it was.
"""

import datetime as dt
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import models
from django.urls import reverse

from tests.support.files import base_file
from tournaments.caching import pages_clear
from tournaments.interchange.reader import plan_read
from tournaments.interchange.writer import tournament_export
from tournaments.models import (
    Draw,
    Dupla,
    Group,
    GroupEntry,
    Jogo,
    Mao,
    Partida,
    Player,
    Registration,
    Stage,
    Tournament,
)
from tournaments.selectors import tournament_state_cache_clear
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db

DEMO = Path(__file__).resolve().parents[2] / "demo"
PAGES = ("", "classificacao/", "chave/", "jogos/", "exportar.json")
REFUSED, ACCEPTED, EITHER, LOCKED = "refused", "accepted", "either", "locked"


@pytest.fixture
def admin_client(client):
    client.force_login(User.objects.create_superuser("comissao", "comissao@example.com", "senha-forte-123"))
    return client


# --- building real admin posts ---------------------------------------------------------


def _value(field: models.Field, value):
    if isinstance(field, models.JSONField):
        return json.dumps(value)
    if value is None:
        return ""
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def form_data(obj, **changes) -> dict:
    """What the admin's change form posts for ``obj`` as stored, with ``changes`` (raw POST values)."""
    data = {}
    for field in obj._meta.concrete_fields:
        if field.primary_key or not field.editable:
            continue
        value = field.value_from_object(obj)
        if isinstance(field, models.BooleanField):
            if value:
                data[field.name] = "on"
            continue
        data[field.name] = _value(field, value)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)  # an unchecked box
        else:
            data[name] = value
    return data


def inline_data(prefix: str, fk: str, parent, rows: list, fields: tuple[str, ...]) -> dict:
    """An inline formset: ``rows`` are (instance or None, {field: raw value}) pairs; existing rows first."""
    existing = sum(1 for obj, _ in rows if obj is not None)
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(rows)),
        f"{prefix}-INITIAL_FORMS": str(existing),
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for i, (obj, changes) in enumerate(rows):
        row = {}
        if obj is not None:
            row = {name: v for name, v in form_data(obj).items() if name in fields}
            row["id"] = str(obj.pk)
        row[fk] = str(parent.pk)
        row.update(changes)
        data |= {f"{prefix}-{i}-{name}": v for name, v in row.items() if v is not None}
    return data


def change_url(obj) -> str:
    return reverse(f"admin:tournaments_{obj._meta.model_name}_change", args=[obj.pk])


def add_url(model) -> str:
    return reverse(f"admin:tournaments_{model._meta.model_name}_add")


PARTIDA_FIELDS = ("number", "mode", "score_a", "score_b", "lost_by", "penalty_reason")
MAO_FIELDS = ("order", "to", "points", "how", "reason", "scorer")
STAGE_FIELDS = (
    "order",
    "key",
    "name",
    "kind",
    "best_of",
    "best_of_rounds",
    "qualify_per_group",
    "qualify_best_others",
    "entrants",
    "draw_method",
    "draw_seed",
)


def group_jogo(t, group="A") -> Jogo:
    return Jogo.objects.get(tournament=t, group__key=group)


def jogo_post(jogo: Jogo, partida_rows=None, **changes):
    rows = partida_rows if partida_rows is not None else [(p, {}) for p in jogo.partidas.order_by("number")]
    return change_url(jogo), form_data(jogo, **changes) | inline_data("partidas", "jogo", jogo, rows, PARTIDA_FIELDS)


def partida_post(partida: Partida, mao_rows, **changes):
    return change_url(partida), form_data(partida, **changes) | inline_data(
        "maos", "partida", partida, mao_rows, MAO_FIELDS
    )


def tournament_post(t, **changes):
    stages = [(s, {}) for s in t.stages.order_by("order")]
    return change_url(t), form_data(t, **changes) | inline_data("stages", "tournament", t, stages, STAGE_FIELDS)


def stage_post(t, stage_key, **changes):
    return change_url(Stage.objects.get(tournament=t, key=stage_key)), form_data(
        Stage.objects.get(tournament=t, key=stage_key), **changes
    )


def bracket_draw(t) -> Draw:
    return Draw.objects.filter(tournament=t, kind=Draw.BRACKET).first()


def dupla(t, key) -> Dupla:
    return Dupla.objects.get(tournament=t, key=key)


def group_post(t, key, rows):
    group = Group.objects.get(stage__tournament=t, key=key)
    return change_url(group), form_data(group) | inline_data("entries", "group", group, rows, ("dupla", "order"))


# --- the cases: (name, post builder, expected outcome) on the base file (two groups, then a knockout) ------

RLO = "\u202e"
CASES = [
    # knockout stage: best-of per round, entrants, kind
    ("best_of_rounds lista", lambda t: stage_post(t, "mata", best_of_rounds="[1]"), REFUSED),
    ("best_of_rounds chave x", lambda t: stage_post(t, "mata", best_of_rounds='{"x": 3}'), REFUSED),
    ("best_of_rounds par", lambda t: stage_post(t, "mata", best_of_rounds='{"1": 4}'), REFUSED),
    ("best_of_rounds zero", lambda t: stage_post(t, "mata", best_of_rounds='{"1": 0}'), REFUSED),
    ("best_of_rounds rodada 0", lambda t: stage_post(t, "mata", best_of_rounds='{"0": 3}'), REFUSED),
    ("best_of_rounds texto", lambda t: stage_post(t, "mata", best_of_rounds='{"1": "5"}'), REFUSED),
    ("best_of_rounds null", lambda t: stage_post(t, "mata", best_of_rounds="null"), EITHER),
    ("best_of_rounds válido", lambda t: stage_post(t, "mata", best_of_rounds='{"1": 5}'), ACCEPTED),
    ("best_of par", lambda t: stage_post(t, "mata", best_of="4"), REFUSED),
    ("best_of enorme", lambda t: stage_post(t, "grupos", best_of="99999"), REFUSED),
    ("entrants número", lambda t: stage_post(t, "mata", entrants="42"), REFUSED),
    ("entrants null", lambda t: stage_post(t, "mata", entrants="null"), EITHER),
    ("entrants repetidos", lambda t: stage_post(t, "mata", entrants='["d1", "d1"]'), REFUSED),
    ("entrants desconhecidos", lambda t: stage_post(t, "mata", entrants='["d1", "zz"]'), REFUSED),
    ("entrants objeto", lambda t: stage_post(t, "mata", entrants='{"a": 1}'), REFUSED),
    ("entrants em fase de grupos", lambda t: stage_post(t, "grupos", entrants='["d1", "d2"]'), REFUSED),
    ("fase de grupos vira chave", lambda t: stage_post(t, "grupos", kind="knockout"), REFUSED),
    ("classificados demais", lambda t: stage_post(t, "grupos", qualify_per_group="5"), REFUSED),
    ("nenhum classificado", lambda t: stage_post(t, "grupos", qualify_per_group="0"), REFUSED),
    ("chave da fase vazia", lambda t: stage_post(t, "mata", key="   "), REFUSED),
    ("chave da fase repetida", lambda t: stage_post(t, "mata", key="grupos"), REFUSED),
    ("sorteio aleatório sem semente", lambda t: stage_post(t, "mata", draw_method="random", draw_seed=""), EITHER),
    ("semente enorme", lambda t: stage_post(t, "mata", draw_seed=str(10**30)), REFUSED),
    # draws
    (
        "sorteio com 'ordem'",
        lambda t: (
            change_url(bracket_draw(t)),
            form_data(bracket_draw(t), result='{"ordem": ["d1", "d4", "d3", "d2"]}'),
        ),
        REFUSED,
    ),
    (
        "sorteio com dupla desconhecida",
        lambda t: (
            change_url(bracket_draw(t)),
            form_data(bracket_draw(t), result='{"order": ["d1", "zz", "d3", "d2"]}'),
        ),
        REFUSED,
    ),
    (
        "sorteio com dupla repetida",
        lambda t: (
            change_url(bracket_draw(t)),
            form_data(bracket_draw(t), result='{"order": ["d1", "d1", "d3", "d2"]}'),
        ),
        REFUSED,
    ),
    ("sorteio lista", lambda t: (change_url(bracket_draw(t)), form_data(bracket_draw(t), result="[]")), REFUSED),
    ("sorteio null", lambda t: (change_url(bracket_draw(t)), form_data(bracket_draw(t), result="null")), REFUSED),
    (
        "sorteio sem d2",
        lambda t: (
            change_url(bracket_draw(t)),
            form_data(bracket_draw(t), result='{"order": ["d1", "d4", "d3", null]}'),
        ),
        REFUSED,
    ),
    (
        "desempate entre não empatadas",
        lambda t: (
            add_url(Draw),
            {
                "tournament": t.pk,
                "kind": "tiebreak",
                "stage": Stage.objects.get(tournament=t, key="grupos").pk,
                "group": Group.objects.get(stage__tournament=t, key="A").pk,
                "method": "fixed",
                "seed": "",
                "result": '{"order": ["d2", "d1"]}',
                "performed_by": "",
                "note": "",
            },
        ),
        REFUSED,
    ),
    # duplas
    ("cabeça de chave negativa", lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), seed="-1")), REFUSED),
    (
        "cabeça de chave enorme",
        lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), seed=str(10**12))),
        REFUSED,
    ),
    ("cabeça de chave válida", lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), seed="1")), ACCEPTED),
    (
        "motivo sem desclassificação",
        lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), disqualified_reason="brigou")),
        REFUSED,
    ),
    (
        "desclassificada com motivo",
        lambda t: (
            change_url(dupla(t, "d3")),
            form_data(dupla(t, "d3"), disqualified="on", disqualified_reason="conduta"),
        ),
        ACCEPTED,
    ),
    (
        "dupla com o mesmo atleta duas vezes",
        lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), player2=str(dupla(t, "d1").player1_id))),
        REFUSED,
    ),
    (
        "dupla com atleta de outra dupla",
        lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), player2=str(dupla(t, "d2").player1_id))),
        REFUSED,
    ),
    ("chave de dupla repetida", lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), key="d2")), REFUSED),
    (
        "nome de dupla RTL",
        lambda t: (change_url(dupla(t, "d1")), form_data(dupla(t, "d1"), name=f"Os {RLO}oriéZ")),
        ACCEPTED,
    ),
    # players and registrations
    (
        "atleta sem chave",
        lambda t: (
            change_url(Player.objects.get(tournament=t, key="p1")),
            form_data(Player.objects.get(tournament=t, key="p1"), key=""),
        ),
        REFUSED,
    ),
    (
        "chave de atleta repetida",
        lambda t: (
            change_url(Player.objects.get(tournament=t, key="p1")),
            form_data(Player.objects.get(tournament=t, key="p1"), key="p2"),
        ),
        REFUSED,
    ),
    (
        "inscrição de atleta já em dupla",
        lambda t: (
            add_url(Registration),
            {
                "tournament": t.pk,
                "order": "1",
                "player1": Player.objects.get(tournament=t, key="p1").pk,
                "player2": "",
                "status": "waiting",
            },
        ),
        REFUSED,
    ),
    # jogos: mesa; walkover, penalty and the partidas inline are read-only (changed through the súmula)
    ("WO com partidas", lambda t: jogo_post(group_jogo(t), walkover="a"), LOCKED),
    (
        "WO sem partidas",
        lambda t: jogo_post(
            group_jogo(t), [(p, {"DELETE": "on"}) for p in group_jogo(t).partidas.order_by("number")], walkover="a"
        ),
        LOCKED,
    ),
    ("WO e perda do jogo", lambda t: jogo_post(group_jogo(t, "B"), [], lost_by="a", penalty_reason="x"), LOCKED),
    ("perda do jogo sem motivo", lambda t: jogo_post(group_jogo(t, "B"), [], walkover="", lost_by="a"), LOCKED),
    ("mesa zero", lambda t: jogo_post(group_jogo(t), mesa="0"), REFUSED),
    ("mesa negativa", lambda t: jogo_post(group_jogo(t), mesa="-3"), REFUSED),
    ("mesa enorme", lambda t: jogo_post(group_jogo(t), mesa=str(10**12)), REFUSED),
    ("mesa válida", lambda t: jogo_post(group_jogo(t), mesa="7"), ACCEPTED),
    (
        "placar 12 x 12",
        lambda t: jogo_post(
            group_jogo(t),
            [
                (p, {"score_a": "12", "score_b": "12"} if p.number == 1 else {})
                for p in group_jogo(t).partidas.order_by("number")
            ],
        ),
        LOCKED,
    ),
    (
        "placar 24 x 3",
        lambda t: jogo_post(
            group_jogo(t),
            [
                (p, {"score_a": "24", "score_b": "3"} if p.number == 1 else {})
                for p in group_jogo(t).partidas.order_by("number")
            ],
        ),
        LOCKED,
    ),
    (
        "placar 22 x 11",
        lambda t: jogo_post(
            group_jogo(t),
            [
                (p, {"score_a": "22", "score_b": "11"} if p.number == 1 else {})
                for p in group_jogo(t).partidas.order_by("number")
            ],
        ),
        LOCKED,
    ),
    (
        "placar negativo",
        lambda t: jogo_post(
            group_jogo(t),
            [
                (p, {"score_a": "-12", "score_b": "3"} if p.number == 1 else {})
                for p in group_jogo(t).partidas.order_by("number")
            ],
        ),
        LOCKED,
    ),
    (
        "partida depois do jogo decidido",
        lambda t: jogo_post(
            group_jogo(t),
            [(p, {}) for p in group_jogo(t).partidas.order_by("number")]
            + [
                (
                    None,
                    {
                        "number": "4",
                        "mode": "score",
                        "score_a": "12",
                        "score_b": "0",
                        "lost_by": "",
                        "penalty_reason": "",
                    },
                )
            ],
        ),
        LOCKED,
    ),
    (
        "partidas numeradas com salto",
        lambda t: jogo_post(
            group_jogo(t), [(p, {"number": str(p.number * 2)}) for p in group_jogo(t).partidas.order_by("number")]
        ),
        LOCKED,
    ),
    (
        "perda da partida sem dupla",
        lambda t: jogo_post(
            group_jogo(t),
            [
                (p, {"mode": "penalty", "score_a": "", "score_b": ""} if p.number == 3 else {})
                for p in group_jogo(t).partidas.order_by("number")
            ],
        ),
        LOCKED,
    ),
    (
        "resultado que muda quem lidera o grupo",
        lambda t: jogo_post(
            group_jogo(t),
            [
                (p, {"score_a": "3", "score_b": "12"} if p.number == 3 else {})
                for p in group_jogo(t).partidas.order_by("number")
            ],
        ),
        LOCKED,
    ),
    # partidas recorded mão by mão: read-only too (the partida admin answers 403)
    (
        "mão de 5 pontos",
        lambda t: partida_post(
            group_jogo(t).partidas.get(number=1),
            [(None, {"order": "0", "to": "0", "points": "5", "how": "played", "reason": ""})],
            mode="maos",
            score_a="",
            score_b="",
        ),
        LOCKED,
    ),
    (
        "mão para a dupla 2",
        lambda t: partida_post(
            group_jogo(t).partidas.get(number=1),
            [(None, {"order": "0", "to": "2", "points": "12", "how": "played", "reason": ""})],
            mode="maos",
            score_a="",
            score_b="",
        ),
        LOCKED,
    ),
    (
        "mão depois do fim da partida",
        lambda t: partida_post(
            group_jogo(t).partidas.get(number=1),
            [
                (None, {"order": "0", "to": "0", "points": "12", "how": "played", "reason": ""}),
                (None, {"order": "1", "to": "1", "points": "1", "how": "played", "reason": ""}),
            ],
            mode="maos",
            score_a="",
            score_b="",
        ),
        LOCKED,
    ),
    (
        "mãos que não terminam a partida",
        lambda t: partida_post(
            group_jogo(t).partidas.get(number=1),
            [(None, {"order": "0", "to": "0", "points": "3", "how": "played", "reason": ""})],
            mode="maos",
            score_a="",
            score_b="",
        ),
        LOCKED,
    ),
    (
        "mãos válidas",
        lambda t: partida_post(
            group_jogo(t).partidas.get(number=1),
            [(None, {"order": "0", "to": "0", "points": "12", "how": "played", "reason": ""})],
            mode="maos",
            score_a="",
            score_b="",
        ),
        LOCKED,
    ),
    (
        "mãos numa partida de placar",
        lambda t: partida_post(
            group_jogo(t).partidas.get(number=1),
            [(None, {"order": "0", "to": "0", "points": "12", "how": "played", "reason": ""})],
        ),
        LOCKED,
    ),
    # groups
    (
        "dupla em dois grupos",
        lambda t: group_post(
            t,
            "A",
            [(e, {}) for e in GroupEntry.objects.filter(group__stage__tournament=t, group__key="A")]
            + [(None, {"dupla": str(dupla(t, "d3").pk), "order": "9"})],
        ),
        REFUSED,
    ),
    (
        "grupo esvaziado",
        lambda t: group_post(
            t,
            "A",
            [(e, {"DELETE": "on"}) for e in GroupEntry.objects.filter(group__stage__tournament=t, group__key="A")],
        ),
        REFUSED,
    ),
    # the tournament itself
    ("ajustes desconhecidos", lambda t: tournament_post(t, settings='{"foo": 1}'), REFUSED),
    ("ajustes lista", lambda t: tournament_post(t, settings="[]"), REFUSED),
    ("ajustes null", lambda t: tournament_post(t, settings="null"), EITHER),
    ("mão de ferro 2", lambda t: tournament_post(t, settings='{"mao_de_ferro_value": 2}'), REFUSED),
    ("terceiro lugar inválido", lambda t: tournament_post(t, settings='{"third_place": "moeda"}'), REFUSED),
    ("mão de ferro 3", lambda t: tournament_post(t, settings='{"mao_de_ferro_value": 3}'), ACCEPTED),
    ("limite de 0 duplas", lambda t: tournament_post(t, max_duplas="0"), REFUSED),
    ("limite abaixo das duplas", lambda t: tournament_post(t, max_duplas="3"), REFUSED),
    ("idade mínima 500", lambda t: tournament_post(t, min_age="500"), REFUSED),
    ("idade mínima acima dos atletas", lambda t: tournament_post(t, min_age="60"), REFUSED),
    ("regulamento desconhecido", lambda t: tournament_post(t, preset="xx"), REFUSED),
    ("nome RTL", lambda t: tournament_post(t, name=f"Copa {RLO}raB od"), ACCEPTED),
    (
        "melhor de par na inline de fases",
        lambda t: (
            change_url(t),
            form_data(t)
            | inline_data(
                "stages",
                "tournament",
                t,
                [(s, {"best_of_rounds": "[1]"} if s.key == "mata" else {}) for s in t.stages.order_by("order")],
                STAGE_FIELDS,
            ),
        ),
        REFUSED,
    ),
]


def snapshot(t) -> str:
    """Every stored row of the tournament (what a refused post must leave untouched)."""
    rows = {
        "tournament": list(
            Tournament.objects.filter(pk=t.pk).values(
                "name",
                "slug",
                "date",
                "start_time",
                "venue",
                "category",
                "min_age",
                "max_duplas",
                "preset",
                "settings",
                "regulation",
                "allow_self_scoring",
            )
        )
    }
    for model, path in (
        (Player, "tournament"),
        (Registration, "tournament"),
        (Dupla, "tournament"),
        (Stage, "tournament"),
        (Group, "stage__tournament"),
        (GroupEntry, "group__stage__tournament"),
        (Jogo, "tournament"),
        (Partida, "jogo__tournament"),
        (Mao, "partida__jogo__tournament"),
        (Draw, "tournament"),
    ):
        rows[model.__name__] = list(model.objects.filter(**{path: t}).order_by("pk").values())
    return repr(rows)


def results_snapshot(t) -> str:
    """Every stored result of the tournament: partidas, mãos and the jogos' result and súmula fields."""
    fields = (
        "id",
        "status",
        "walkover",
        "lost_by",
        "penalty_reason",
        "via",
        "via_reason",
        "counted_via",
        "confirmations",
        "signed_by",
        "signed_at",
        "signed_reason",
        "version",
    )
    return repr(
        (
            list(Partida.objects.filter(jogo__tournament=t).order_by("pk").values()),
            list(Mao.objects.filter(partida__jogo__tournament=t).order_by("pk").values()),
            list(Jogo.objects.filter(tournament=t).order_by("pk").values(*fields)),
        )
    )


def assert_round_trip_and_pages(client, t) -> None:
    """The export is read back without a problem, imports again, and every page answers 200 with cold caches."""
    t.refresh_from_db()
    tournament_state_cache_clear()
    data = json.loads(json.dumps(tournament_export(tournament=t, include_private=True)))
    _, errors = plan_read(data)
    assert [str(e) for e in errors] == []
    again = tournament_import(data=data)
    assert again.pk != t.pk
    for suffix in PAGES:
        tournament_state_cache_clear()
        cache.clear()
        pages_clear()
        response = client.get(f"/torneios/{t.slug}/{suffix}")
        assert response.status_code == 200, (suffix, response.status_code)


def outcome(response) -> str:
    """'refused' when the admin answered with the problems (form errors or an error message), else 'accepted'."""
    assert response.status_code in (200, 302), response.status_code
    if response.status_code == 200:
        context = response.context
        errors = context.get("errors") if context is not None else None
        assert errors, "a 200 answer to a post must be the form with its problems"
        return REFUSED
    if any(m.level_tag == "error" for m in get_messages(response.wsgi_request)):
        return REFUSED
    return ACCEPTED


def _run_case(admin_client, t, build, expected):
    url, data = build(t)
    before = snapshot(t)
    results_before = results_snapshot(t)
    response = admin_client.post(url, data)
    if expected == LOCKED:
        assert response.status_code in (200, 302, 403), response.status_code
        assert results_snapshot(t) == results_before, "a result changed through the admin"
        if response.status_code == 403:
            assert snapshot(t) == before
        assert_round_trip_and_pages(admin_client, t)
        return response
    got = outcome(response)
    if got == REFUSED:
        assert snapshot(t) == before, "a refused post changed the database"
    if expected != EITHER:
        messages = response.context.get("errors") if response.status_code == 200 else None
        assert got == expected, f"expected {expected}, got {got}: {messages}"
    assert_round_trip_and_pages(admin_client, t)
    return response


@pytest.mark.parametrize("name,build,expected", CASES, ids=[c[0] for c in CASES])
def test_admin_post_is_refused_or_round_trips(admin_client, name, build, expected):
    t = tournament_import(data=base_file())
    _run_case(admin_client, t, build, expected)


def test_refusal_names_the_problem_in_portuguese(admin_client):
    t = tournament_import(data=base_file())
    url, data = stage_post(t, "mata", best_of_rounds="[1]")
    response = admin_client.post(url, data)
    assert response.status_code == 200
    text = response.content.decode()
    assert "melhor de" in text and "rodada" in text
    url, data = bracket_draw(t) and (change_url(bracket_draw(t)), form_data(bracket_draw(t), result='{"ordem": []}'))
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert "ordem sorteada" in response.content.decode()


def test_whole_tournament_check_refuses_what_no_single_form_sees(admin_client):
    """The min age is valid on its own; with the players' birth dates the file could not be imported."""
    t = tournament_import(data=base_file())
    url, data = tournament_post(t, min_age="60")
    response = admin_client.post(url, data)
    assert response.status_code == 200
    text = response.content.decode()
    assert "no arquivo do torneio" in text and "a categoria exige a partir de 60 anos" in text
    t.refresh_from_db()
    assert t.min_age is None


def test_a_partida_cannot_be_deleted(admin_client):
    """Deleting the deciding partida would leave group A undecided: partidas are never deleted in the admin."""
    t = tournament_import(data=base_file())
    partida = group_jogo(t).partidas.get(number=3)
    before = snapshot(t)
    response = admin_client.post(reverse("admin:tournaments_partida_delete", args=[partida.pk]), {"post": "yes"})
    assert response.status_code == 403
    assert snapshot(t) == before
    assert_round_trip_and_pages(admin_client, t)


def test_the_bulk_delete_action_is_not_offered_for_partidas(admin_client):
    t = tournament_import(data=base_file())
    ids = [str(p.pk) for p in Partida.objects.filter(jogo__tournament=t)]
    before = snapshot(t)
    html = admin_client.get(reverse("admin:tournaments_partida_changelist")).content.decode()
    assert "delete_selected" not in html
    response = admin_client.post(
        reverse("admin:tournaments_partida_changelist"),
        {"action": "delete_selected", "_selected_action": ids, "post": "yes"},
    )
    assert response.status_code in (200, 302, 403)
    assert snapshot(t) == before
    assert_round_trip_and_pages(admin_client, t)


def test_deleting_a_stage_with_results_is_refused(admin_client):
    """A stage's jogos go with it; those with results are not deleted through the admin."""
    t = tournament_import(data=base_file())
    stage = Stage.objects.get(tournament=t, key="grupos")
    before = snapshot(t)
    response = admin_client.post(reverse("admin:tournaments_stage_delete", args=[stage.pk]), {"post": "yes"})
    assert response.status_code in (200, 403)
    assert snapshot(t) == before


DEMO_CASES = [
    ("best_of_rounds lista", lambda t: stage_post(t, "eliminatoria", best_of_rounds="[1]"), REFUSED),
    ("best_of_rounds par", lambda t: stage_post(t, "eliminatoria", best_of_rounds='{"1": 4}'), REFUSED),
    (
        "sorteio com 'ordem'",
        lambda t: (change_url(bracket_draw(t)), form_data(bracket_draw(t), result='{"ordem": ["x"]}')),
        REFUSED,
    ),
    ("ajustes desconhecidos", lambda t: tournament_post(t, settings='{"foo": 1}'), REFUSED),
    (
        "mão de 5 pontos",
        lambda t: (
            lambda p: partida_post(p, [(m, {"points": "5"} if m.order == 0 else {}) for m in p.maos.order_by("order")])
        )(Partida.objects.filter(jogo__tournament=t, mode="maos").order_by("pk").first()),
        LOCKED,
    ),
    (
        "mão removida do fim",
        lambda t: (
            lambda p: partida_post(
                p,
                [
                    (m, {"DELETE": "on"} if m == p.maos.order_by("order").last() else {})
                    for m in p.maos.order_by("order")
                ],
            )
        )(Partida.objects.filter(jogo__tournament=t, mode="maos").order_by("pk").first()),
        LOCKED,
    ),
    (
        "placar 24 x 3",
        lambda t: (
            lambda j: jogo_post(
                j,
                [
                    (p, {"mode": "score", "score_a": "24", "score_b": "3"} if p.number == 1 else {})
                    for p in j.partidas.order_by("number")
                ],
            )
        )(Jogo.objects.filter(tournament=t, partidas__isnull=False).order_by("pk").first()),
        LOCKED,
    ),
    ("nome RTL", lambda t: tournament_post(t, name=f"{RLO}Torneio"), ACCEPTED),
]


@pytest.mark.parametrize("demo", ["aabb-2024", "fenacef-2023"])
@pytest.mark.parametrize("name,build,expected", DEMO_CASES, ids=[c[0] for c in DEMO_CASES])
def test_admin_post_on_demo_events(admin_client, demo, name, build, expected):
    t = tournament_import(data=json.loads((DEMO / f"{demo}.json").read_text(encoding="utf-8")))
    _run_case(admin_client, t, build, expected)
