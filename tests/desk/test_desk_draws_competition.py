"""The draws at the desk (issue 6 §4), part 2: the competition draw (preview, publish, undo) and the tiebreak."""

import re
from itertools import combinations

import pytest
from django.urls import reverse

from scoring.bracket_draw import seeded_order
from tests.support.desk import add_duplas, client_for, make_tournament, make_user
from tournaments.draws import services
from tournaments.draws.plan import competition_plan
from tournaments.models import AuditEntry, Draw, Group, Jogo, Partida, Stage
from tournaments.refusals import Refused
from tournaments.writes import tournament_rebuild

pytestmark = pytest.mark.django_db

GK = {"kind": "groups_knockout", "group_size": 4, "per_group": 2, "best_others": 0, "bracket_method": "seeded"}


def _preview(c, t):
    response = c.post(reverse("desk:competition", args=[t.slug]), {"action": "preview"})
    assert response.status_code == 200
    return response, response.context["form"]


def _publish_data(form) -> dict:
    data = {"action": "publish"}
    for name, _field in form.fields.items():
        value = form.initial.get(name, "")
        data[name] = "" if value is None else value
    return data


def test_page_shows_the_format_its_problems_and_the_proposal():
    t = make_tournament(preset="fenacef", fmt=GK)
    add_duplas(t, 13)
    c = client_for(make_user("ana", t))
    page = c.get(reverse("desk:competition", args=[t.slug])).content.decode()
    assert "13 duplas não formam grupos iguais de 4. Proposta: 3 grupos de 3 e 1 de 4." in page
    assert "Sortear" in page
    t.format = GK | {"per_group": 3}
    t.save()
    page = c.get(reverse("desk:competition", args=[t.slug])).content.decode()
    assert "Classificadas por grupo: 3, mas o menor grupo terá 3 duplas" in page


def test_preview_writes_nothing_and_publish_writes_groups_with_their_schedule():
    t = make_tournament(preset="fenacef", fmt=GK)
    add_duplas(t, 13, seeds=4)
    user = make_user("ana", t)
    c = client_for(user)
    response, form = _preview(c, t)
    assert not Stage.objects.exists() and not Jogo.objects.exists() and not Draw.objects.exists()
    preview = response.context["preview"]
    assert sorted(len(g["duplas"]) for g in preview["groups"]) == [3, 3, 3, 4]
    seed = form.initial["seed"]
    assert str(seed) in response.content.decode()
    response = c.post(reverse("desk:competition", args=[t.slug]), _publish_data(form))
    assert response.status_code == 302
    groups_stage, knockout = Stage.objects.filter(tournament=t).order_by("order")
    assert (groups_stage.key, groups_stage.name, groups_stage.qualify_per_group) == ("grupos", "Fase de grupos", 2)
    assert (knockout.key, knockout.entrants) == ("mata", "previous")
    # the written groups are the previewed ones
    written = {
        g.key: [e.dupla.display_name for e in g.entries.select_related("dupla__player1", "dupla__player2")]
        for g in Group.objects.filter(stage=groups_stage)
    }
    assert written == {g["key"]: g["duplas"] for g in preview["groups"]}
    # seeds spread one per group
    seeded_groups = {g.key for g in Group.objects.filter(stage=groups_stage, duplas__seed__isnull=False)}
    assert seeded_groups == {"A", "B", "C", "D"}
    for group in Group.objects.filter(stage=groups_stage):
        jogos = list(Jogo.objects.filter(group=group))
        keys = [e.dupla_id for e in group.entries.all()]
        assert {frozenset((j.dupla_a_id, j.dupla_b_id)) for j in jogos} == {frozenset(p) for p in combinations(keys, 2)}
        assert len(jogos) == len(keys) * (len(keys) - 1) // 2  # every pair once
        for r in {j.round for j in jogos}:
            playing = [d for j in jogos if j.round == r for d in (j.dupla_a_id, j.dupla_b_id)]
            assert len(playing) == len(set(playing))  # at most once per round
    draw = Draw.objects.get(tournament=t, kind=Draw.GROUPS)
    assert draw.seed == seed and draw.performed_by == user and len(draw.result["groups"]) == 4
    assert AuditEntry.objects.filter(tournament=t, action="competition_publish").exists()
    # again: refused
    response = c.post(reverse("desk:competition", args=[t.slug]), _publish_data(form))
    assert response.status_code == 200 and "já foi publicado" in response.content.decode()
    assert Stage.objects.filter(tournament=t).count() == 2


def test_knockout_of_16_seeded_puts_seeds_at_the_standard_places_and_shows_on_the_public_bracket():
    t = make_tournament(fmt={"kind": "knockout", "bracket_method": "seeded"})
    duplas = add_duplas(t, 16, seeds=16)
    services.competition_publish(tournament=t, user=None, seed=5)
    draw = Draw.objects.get(tournament=t, kind=Draw.BRACKET)
    assert draw.result["order"] == seeded_order(entrants=[d.key for d in duplas])
    first_round = Jogo.objects.filter(tournament=t, round=1)
    assert first_round.count() == 8 and set(first_round.values_list("best_of", flat=True)) == {5}  # AABB: 5, then 3
    page = client_for(make_user("visitante")).get(reverse("tournaments:bracket", args=[t.slug])).content.decode()
    assert all(d.display_name in page for d in duplas)


def test_knockout_with_byes_gives_them_to_the_best_seeds():
    t = make_tournament(fmt={"kind": "knockout", "bracket_method": "seeded"})
    add_duplas(t, 6, seeds=6)
    services.competition_publish(tournament=t, user=None, seed=5)
    order = Draw.objects.get(tournament=t, kind=Draw.BRACKET).result["order"]
    byes = [order[i ^ 1] for i, k in enumerate(order) if k is None]
    assert sorted(byes) == ["d1", "d2"]
    assert Jogo.objects.filter(tournament=t, round=1).count() == 2
    page = client_for(make_user("ana", t)).get(reverse("desk:competition", args=[t.slug])).content.decode()
    # a bye is a "folga" in Portuguese, on the desk as on the bracket (walk review #21); the forms' random CSRF
    # tokens are left out of the search (one once held the letters "bye")
    words = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
    assert page.count("folga") >= 2 and "bye" not in words.lower() and "Refazer sorteio" in page


def test_random_bracket_is_reproducible_from_its_seed():
    orders = []
    for slug in ("um", "dois", "tres"):
        t = make_tournament(slug, fmt={"kind": "knockout", "bracket_method": "random"})
        add_duplas(t, 11)
        services.competition_publish(tournament=t, user=None, seed=99 if slug != "tres" else 100)
        stage = Stage.objects.get(tournament=t)
        assert (stage.draw_method, stage.draw_seed) == ("random", 99 if slug != "tres" else 100)
        orders.append(Draw.objects.get(tournament=t, kind=Draw.BRACKET).result["order"])
    assert orders[0] == orders[1] and orders[0] != orders[2]
    assert sorted(k for k in orders[0] if k) == sorted(f"d{i}" for i in range(1, 12))


def test_fixed_bracket_takes_the_organizers_order_and_refuses_a_bad_one():
    t = make_tournament(fmt={"kind": "knockout", "bracket_method": "fixed"})
    add_duplas(t, 3)
    c = client_for(make_user("ana", t))
    _response, form = _preview(c, t)
    assert form.positions == 4
    data = _publish_data(form) | {"pos_1": "d1", "pos_2": "d1", "pos_3": "d3", "pos_4": ""}
    response = c.post(reverse("desk:competition", args=[t.slug]), data)
    assert response.status_code == 200 and "aparece mais de uma vez" in response.content.decode()
    assert not Stage.objects.exists()
    data |= {"pos_1": "d3", "pos_2": "", "pos_3": "d1", "pos_4": "d2"}
    assert c.post(reverse("desk:competition", args=[t.slug]), data).status_code == 302
    assert Draw.objects.get(tournament=t, kind=Draw.BRACKET).result["order"] == ["d3", None, "d1", "d2"]
    assert Stage.objects.get(tournament=t).draw_method == "fixed"
    jogo = Jogo.objects.get(tournament=t, round=1)
    assert (jogo.dupla_a.key, jogo.dupla_b.key) == ("d1", "d2")


def test_publish_refused_with_too_few_duplas_or_registration_open_or_changed_duplas():
    t = make_tournament(fmt={"kind": "knockout"})
    add_duplas(t, 1)
    with pytest.raises(Refused) as exc:
        services.competition_publish(tournament=t, user=None, seed=1)
    assert "pelo menos 2 duplas" in exc.value.messages[0]
    t2 = make_tournament("aberto", fmt={"kind": "knockout"}, closed=False)
    add_duplas(t2, 4)
    with pytest.raises(Refused) as exc:
        services.competition_publish(tournament=t2, user=None, seed=1)
    assert "Encerre as inscrições" in exc.value.messages[0]
    t3 = make_tournament("mudou", fmt={"kind": "knockout"})
    duplas = add_duplas(t3, 4)
    check = competition_plan(tournament=t3, seed=1).check
    duplas[0].seed = 1
    duplas[0].save()
    with pytest.raises(services.PlanChanged):
        services.competition_publish(tournament=t3, user=None, seed=1, check=check)
    assert not Stage.objects.exists()


def test_round_robin_is_one_group_with_everyone():
    t = make_tournament(preset="online", fmt={"kind": "round_robin"})
    add_duplas(t, 5)
    services.competition_publish(tournament=t, user=None, seed=3)
    stage = Stage.objects.get(tournament=t)
    assert stage.kind == Stage.GROUPS and Group.objects.get(stage=stage).entries.count() == 5
    assert Jogo.objects.filter(tournament=t).count() == 10


def _play(jogo: Jogo, winner_is_a: bool) -> None:
    for n in (1, 2):
        Partida.objects.create(jogo=jogo, number=n, score_a=12 if winner_is_a else 5, score_b=5 if winner_is_a else 12)
    jogo.status = Jogo.HOMOLOGATED
    jogo.save()


def test_undo_deletes_the_draw_but_is_refused_after_a_result():
    t = make_tournament(preset="fenacef", fmt=GK)
    add_duplas(t, 8)
    c = client_for(make_user("ana", t))
    services.competition_publish(tournament=t, user=None, seed=3)
    url = reverse("desk:competition_undo", args=[t.slug])
    response = c.post(url, {"reason": ""})
    assert response.status_code == 200 and Stage.objects.filter(tournament=t).count() == 2
    assert c.post(url, {"reason": "duplas erradas"}).status_code == 302
    assert not Stage.objects.exists() and not Jogo.objects.exists()
    assert not Draw.objects.filter(kind__in=[Draw.GROUPS, Draw.BRACKET]).exists()
    assert AuditEntry.objects.get(tournament=t, action="competition_undo").after == {"reason": "duplas erradas"}
    services.competition_publish(tournament=t, user=None, seed=4)
    _play(Jogo.objects.filter(tournament=t).first(), True)
    response = c.post(url, {"reason": "de novo"})
    assert response.status_code == 200 and "já tem resultado" in response.content.decode()
    assert Stage.objects.filter(tournament=t).count() == 2 and Partida.objects.count() == 2


def test_tiebreak_sorteio_from_the_desk_when_a_three_way_tie_awaits():
    t = make_tournament(preset="online", fmt={"kind": "round_robin"})
    add_duplas(t, 3)
    user = make_user("ana", t)
    c = client_for(user)
    services.competition_publish(tournament=t, user=None, seed=3)
    beats = {frozenset(("d1", "d2")): "d1", frozenset(("d2", "d3")): "d2", frozenset(("d1", "d3")): "d3"}
    assert "Empates aguardando sorteio" not in c.get(reverse("desk:competition", args=[t.slug])).content.decode()
    for jogo in Jogo.objects.filter(tournament=t).select_related("dupla_a", "dupla_b"):
        winner = beats[frozenset((jogo.dupla_a.key, jogo.dupla_b.key))]
        _play(jogo, jogo.dupla_a.key == winner)
    tournament_rebuild(tournament=t)  # the results above were written straight to the database
    page = c.get(reverse("desk:competition", args=[t.slug])).content.decode()
    assert "Empates aguardando sorteio" in page
    response = c.post(reverse("desk:tiebreak", args=[t.slug]), {"stage": "grupos", "group": "A", "duplas": "d1,d2,d3"})
    assert response.status_code == 302
    draw = Draw.objects.get(tournament=t, kind=Draw.TIEBREAK)
    assert draw.method == "random" and draw.seed is not None and sorted(draw.result["order"]) == ["d1", "d2", "d3"]
    assert draw.group.key == "A" and draw.performed_by == user
    t.refresh_from_db()
    assert t.finished  # every place known now
    response = c.post(reverse("desk:tiebreak", args=[t.slug]), {"stage": "grupos", "group": "A", "duplas": "d1,d2,d3"})
    assert response.status_code == 200 and "não está aguardando sorteio" in response.content.decode()
    assert Draw.objects.filter(tournament=t, kind=Draw.TIEBREAK).count() == 1


def test_groups_then_knockout_the_bracket_appears_crossed_when_the_groups_end():
    t = make_tournament(preset="fenacef", fmt=GK, mesas=2)
    add_duplas(t, 8)
    services.competition_publish(tournament=t, user=None, seed=11)
    assert not Jogo.objects.filter(tournament=t, group__isnull=True).exists()
    for jogo in Jogo.objects.filter(tournament=t).select_related("dupla_a", "dupla_b"):
        _play(jogo, int(jogo.dupla_a.key[1:]) < int(jogo.dupla_b.key[1:]))  # the lower key always wins: no tie
    tournament_rebuild(tournament=t)
    semis = list(Jogo.objects.filter(tournament=t, group__isnull=True).select_related("dupla_a", "dupla_b"))
    assert len(semis) == 2 and sorted(j.mesa for j in semis) == [1, 2]
    group_of = {
        e.dupla.key: e.group.key
        for e in Group.objects.get(stage__tournament=t, key="A").entries.select_related("dupla", "group")
    }
    for j in semis:  # crossed: the two duplas of a group do not meet in the first round
        assert not (j.dupla_a.key in group_of and j.dupla_b.key in group_of)
    bracket = Draw.objects.get(tournament=t, kind=Draw.BRACKET)
    assert bracket.performed_by is None and len(bracket.result["order"]) == 4
