"""Seeding an etapa's competition draw from its season (issue 25 point 5, DOMAIN §7.3): by the circuit ranking
after the previous etapa or by the força (OpenSkill), values checked by hand on a small circuit; the desk offers
the choice only to an etapa, and the draw's public record says which was used, never a força value."""

import copy
import re

import pytest
from django.urls import reverse

from scoring.forca import ForcaJogo, dupla_forca, forca_ratings
from tests.circuits.support import circuit_file, etapa_file
from tests.support.desk import client_for, make_tournament, make_user
from tests.support.files import _people
from tournaments.circuits.file import circuit_import
from tournaments.circuits.seeding import seeding_by_circuit, seeding_by_forca, seeding_source
from tournaments.draws.seeding import seeding_apply, seeding_count_default
from tournaments.models import AuditEntry, Draw, DrawRoll, Dupla, Player, Tournament
from tournaments.refusals import Refused

pytestmark = pytest.mark.django_db

# etapa 3's duplas: p1-p8 are the atletas of etapas 1 and 2 (the same names and birth dates); p9-p12 are new
ETAPA3 = {"e1": ("p1", "p3"), "e2": ("p2", "p9"), "e3": ("p5", "p7"), "e4": ("p4", "p10"), "e5": ("p6", "p8")}
ETAPA3["e6"] = ("p11", "p12")


def etapa3_file(slug="etapa-3", date="2025-05-10") -> dict:
    """The third etapa, not drawn yet: 6 duplas, registrations closed, the format a knockout (AABB)."""
    data = copy.deepcopy(etapa_file(slug, date=date, finished=False))
    players, _duplas = _people(6)
    data["players"] = players
    data["duplas"] = [{"key": k, "players": list(v)} for k, v in ETAPA3.items()]
    data["stages"] = []
    data["jogos"] = []
    return data


@pytest.fixture
def circuit(load_file):
    # etapa 1: d1 (p1 p2) 1st, d2 (p3 p4) 2nd, d3 (p5 p6) 3rd, d4 (p7 p8) 4th
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    # etapa 2: d2 1st, d1 2nd, d4 3rd, d3 4th
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    three = load_file(etapa3_file())
    Tournament.objects.filter(pk=three.pk).update(registration_closed=True, published=True)
    circuit_import(data=circuit_file(etapas=("etapa-1", "etapa-2", "etapa-3")))
    return Tournament.objects.get(pk=three.pk)


def atleta(tournament, key):
    return Player.objects.get(tournament=tournament, key=key).atleta.key


def seeds(tournament):
    return dict(Dupla.objects.filter(tournament=tournament, seed__isnull=False).values_list("key", "seed"))


def test_the_source_is_the_etapa_before(circuit):
    source = seeding_source(tournament=circuit)
    assert (source.circuit_name, source.previous_slug, source.previous_name) == (
        "Liga de Teste",
        "etapa-2",
        "Etapa etapa-2",
    )
    assert len(source.etapa_ids) == 2
    first = Tournament.objects.get(slug="etapa-1")
    assert seeding_source(tournament=first).previous_slug is None
    assert seeding_source(tournament=make_tournament("avulso")) is None


def test_by_circuit_ranking_by_hand(circuit):
    # after etapa 2: p1 p2 p3 p4 have 100 + 75 = 175 (rank 1); p5 p6 60 + 50 = 110 and p7 p8 50 + 60 = 110 (rank
    # 5); p9-p12 nothing. e1 (p1 p3) 350; e3 (p5 p7) 220 and e5 (p6 p8) 220 (same best rank 5: by key);
    # e2 (p2 p9) 175 and e4 (p4 p10) 175 (same best rank 1: by key); e6 0, nothing to go by
    rows = seeding_by_circuit(tournament=circuit, source=seeding_source(tournament=circuit))
    assert [(r.key, r.value, r.known) for r in rows] == [
        ("e1", 350, True),
        ("e3", 220, True),
        ("e5", 220, True),
        ("e2", 175, True),
        ("e4", 175, True),
        ("e6", 0, False),
    ]


def test_equal_points_are_ordered_by_the_better_single_rank(load_file):
    # points 8 / 5 / 3 / 0, etapa 2 weighs 2: d1 (p1 p2) 8 + 2 x 5 = 18, d2 (p3 p4) 5 + 2 x 8 = 21, d3 (p5 p6)
    # 3 + 0 = 3, d4 (p7 p8) 0 + 2 x 3 = 6; ranks: p3 p4 1, p1 p2 3, p7 p8 5, p5 p6 7
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    data = etapa3_file()
    players, _duplas = _people(5)
    data["players"] = players
    pairs = {"a1": ("p1", "p5"), "z1": ("p3", "p9"), "m1": ("p2", "p10"), "n1": ("p4", "p6"), "q1": ("p7", "p8")}
    data["duplas"] = [{"key": k, "players": list(v)} for k, v in pairs.items()]
    three = load_file(data)
    circuit_import(
        data=circuit_file(
            etapas=("etapa-1", {"tournament": "etapa-2", "weight": 2}, "etapa-3"),
            points={"1": 8, "2": 5, "3": 3, "others": 0},
        )
    )
    rows = seeding_by_circuit(tournament=three, source=seeding_source(tournament=three))
    # a1 (p1 p5) 18 + 3 = 21 with its best at rank 3; z1 (p3 p9) 21 + 0 = 21 with p3 at rank 1: z1 first,
    # although "a1" comes first by key; q1 (p7 p8) 6 + 6
    assert [(r.key, r.value) for r in rows] == [("n1", 24), ("z1", 21), ("a1", 21), ("m1", 18), ("q1", 12)]


def test_by_forca_by_hand(circuit):
    # the jogos of etapas 1 and 2 in order of play (round 1 by position, the final, then the third place; a
    # walkover counts, won by the dupla present), as the four atletas of each
    one, two, three = (Tournament.objects.get(slug=s) for s in ("etapa-1", "etapa-2", "etapa-3"))
    d = {n: (atleta(one, f"p{2 * n - 1}"), atleta(one, f"p{2 * n}")) for n in range(1, 5)}
    jogos = [
        (d[1], d[4]),  # etapa 1: d1 beats d4
        (d[2], d[3]),  # d2 beats d3
        (d[1], d[2]),  # final: d1
        (d[3], d[4]),  # third place: d4 absent
        (d[2], d[3]),  # etapa 2: d2 beats d3
        (d[1], d[4]),  # d1 beats d4
        (d[2], d[1]),  # final: d2
        (d[4], d[3]),  # third place: d3 absent
    ]
    ratings = forca_ratings(jogos=[ForcaJogo(duplas=(w, lo), winner=0) for w, lo in jogos])
    expected = {k: dupla_forca(ratings=ratings, atletas=[atleta(three, p) for p in v]) for k, v in ETAPA3.items()}
    rows = seeding_by_forca(tournament=circuit, source=seeding_source(tournament=circuit))
    assert {r.key: r.value for r in rows} == pytest.approx(expected)
    assert [r.key for r in rows] == sorted(expected, key=lambda k: (-expected[k], k))
    # d1 and d2 won 3 of 4 each, d3 and d4 1 of 4: e1 (p1 p3) is the strongest; e6 has nobody rated
    assert rows[0].key == "e1" and {r.key for r in rows if not r.known} == {"e6"}


def test_seeding_apply_sets_the_seeds_and_says_how(circuit):
    record = seeding_apply(tournament=circuit, user=None, method="circuit", count=4)
    assert seeds(circuit) == {"e1": 1, "e3": 2, "e5": 3, "e2": 4}
    assert record == {
        "method": "circuit",
        "circuit": "Liga de Teste",
        "circuit_slug": "liga-teste",
        "after": "Etapa etapa-2",
        "after_slug": "etapa-2",
        "seeded": ["e1", "e3", "e5", "e2"],
    }
    assert AuditEntry.objects.filter(tournament=circuit, action="seeding_apply").count() == 1
    # the default count for a knockout of 6 duplas (a bracket of 8): a quarter of it, 2
    seeding_apply(tournament=circuit, user=None, method="circuit")
    assert seeds(circuit) == {"e1": 1, "e3": 2}
    # never a dupla with nothing to go by, however many are asked for
    seeding_apply(tournament=circuit, user=None, method="forca", count=6)
    assert len(seeds(circuit)) == 5 and "e6" not in seeds(circuit)
    assert seeding_apply(tournament=circuit, user=None, method="current")["seeded"] == sorted(
        seeds(circuit), key=seeds(circuit).get
    )
    seeding_apply(tournament=circuit, user=None, method="none")
    assert seeds(circuit) == {}


def test_the_default_count_is_one_per_group_or_a_quarter_of_the_bracket():
    groups = make_tournament("grupos", preset="fenacef", fmt={"kind": "groups_knockout", "group_size": 4})
    assert seeding_count_default(tournament=groups, entrants=13) == 4  # 3 groups of 3 and 1 of 4
    assert seeding_count_default(tournament=groups, entrants=8) == 2
    knockout = make_tournament("chave", fmt={"kind": "knockout"})
    assert [seeding_count_default(tournament=knockout, entrants=n) for n in (2, 4, 6, 16, 17)] == [2, 2, 2, 4, 8]
    single = make_tournament("todos", fmt={"kind": "round_robin"})
    assert seeding_count_default(tournament=single, entrants=6) == 0


def test_seeding_refused_for_the_first_etapa_and_outside_a_circuit(load_file):
    with pytest.raises(Refused) as refused:
        seeding_apply(tournament=make_tournament("avulso"), user=None, method="circuit")
    assert "não é etapa de um circuito" in str(refused.value.messages)
    first = load_file(etapa3_file("etapa-0", date="2025-01-10"))
    load_file(etapa_file("etapa-1", date="2025-03-01"))
    circuit_import(data=circuit_file(etapas=("etapa-0", "etapa-1")))
    with pytest.raises(Refused) as refused:
        seeding_apply(tournament=first, user=None, method="forca")
    assert "primeira etapa do circuito Liga de Teste" in str(refused.value.messages)
    assert seeds(first) == {}
    # "nenhuma" and "pela ordem atual" need no earlier etapa
    assert seeding_apply(tournament=first, user=None, method="none") == {"method": "none", "seeded": []}


def _sortear(c, t, **data):
    response = c.post(reverse("desk:competition", args=[t.slug]), {"action": "preview", "token": "t1", **data})
    assert response.status_code == 200
    return response


def _publish(c, t, response):
    form = response.context["form"]
    data = {"action": "publish"} | {k: "" if v is None else v for k, v in form.initial.items()}
    return c.post(reverse("desk:competition", args=[t.slug]), data)


def test_the_desk_seeds_by_the_circuit_and_the_public_record_says_so(circuit):
    c = client_for(make_user("ana", circuit))
    page = c.get(reverse("desk:competition", args=[circuit.slug])).content.decode()
    assert "pelo ranking do circuito" in page and "pela força (OpenSkill)" in page
    # the força explained in one sentence (issue 41 item 13)
    assert (
        "pela força (OpenSkill): uma nota de cada atleta tirada dos jogos das etapas anteriores, que sobe mais ao "
        "vencer quem é forte e fica mais baixa para quem jogou pouco, somada nos dois da dupla"
    ) in page
    response = _sortear(c, circuit, seeding="circuit", seeds="2")
    assert seeds(circuit) == {"e1": 1, "e3": 2}
    assert "pelo ranking do circuito Liga de Teste, após a etapa Etapa etapa-2" in response.content.decode()
    assert DrawRoll.objects.get(tournament=circuit).shown["seeding"]["method"] == "circuit"
    assert _publish(c, circuit, response).status_code == 302
    draw = Draw.objects.get(tournament=circuit, kind=Draw.BRACKET)
    assert draw.result["seeding"]["method"] == "circuit" and draw.result["seeding"]["seeded"] == ["e1", "e3"]
    # seeds 1 and 2 at the two ends of the bracket (they can only meet in the final)
    order = draw.result["order"]
    assert order[0] == "e1" and order[len(order) // 2 :].count("e3") == 1
    desk = c.get(reverse("desk:competition", args=[circuit.slug])).content.decode()
    assert "cabeças de chave pelo ranking do circuito Liga de Teste" in desk
    public = c.get(reverse("tournaments:detail", args=[circuit.slug])).content.decode()
    assert "Cabeças de chave" in public
    assert "pelo ranking do circuito Liga de Teste, após a etapa Etapa etapa-2" in public


def test_the_draw_by_forca_says_so_and_shows_no_forca_value(circuit):
    c = client_for(make_user("ana", circuit))
    response = _sortear(c, circuit, seeding="forca")
    assert len(seeds(circuit)) == 2
    assert _publish(c, circuit, response).status_code == 302
    public = c.get(reverse("tournaments:detail", args=[circuit.slug])).content.decode()
    assert "pela força (OpenSkill) no circuito Liga de Teste, até a etapa Etapa etapa-2" in public
    three = Tournament.objects.get(slug="etapa-3")
    ratings = seeding_by_forca(tournament=three, source=seeding_source(tournament=three))
    for row in ratings:  # no força value (in any usual rounding) on the public page
        for shown in {f"{row.value:.1f}", f"{row.value:.2f}", f"{row.value:.3f}"} - {"0.0", "0.00", "0.000"}:
            assert not re.search(rf"(?<![\d.]){re.escape(shown)}(?!\d)", public)


def test_a_bad_choice_is_refused_and_records_no_roll(circuit):
    c = client_for(make_user("ana", circuit))
    bad = c.post(reverse("desk:competition", args=[circuit.slug]), {"action": "preview", "seeding": "ranking"})
    assert bad.status_code == 400 and not DrawRoll.objects.exists() and seeds(circuit) == {}
    assert "Cabeças de chave: escolha uma das opções." in bad.content.decode()


def test_a_tournament_in_no_circuit_is_not_offered_the_choice():
    t = make_tournament("avulso")
    from tests.support.desk import add_duplas

    add_duplas(t, 6, seeds=2)
    c = client_for(make_user("ana", t))
    page = c.get(reverse("desk:competition", args=[t.slug]))
    assert "seeding_form" not in page.context and "pelo ranking do circuito" not in page.content.decode()
    response = _sortear(c, t, seeding="circuit")  # ignored: the seeds stay as they are
    assert seeds(t) == {"d1": 1, "d2": 2}
    assert _publish(c, t, response).status_code == 302
    assert "seeding" not in Draw.objects.get(tournament=t, kind=Draw.BRACKET).result
    assert "Cabeças de chave" not in c.get(reverse("tournaments:detail", args=[t.slug])).content.decode()
