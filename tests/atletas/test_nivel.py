"""The Nível (DOMAIN §7.2): kept per atleta, updated after the writes that change counted jogos, always equal to a
full recompute."""

import pytest
from django.core.management import call_command

from scoring.ranking import UNRANKED_LEVEL, player_level, score_walk
from tests.support.sumula import cup_file, jogo_between, jogo_duplas, result_counted
from tournaments.atletas.services import nivel_jogos
from tournaments.models import Atleta, AtletaNivel, Jogo, Player
from tournaments.sumula.commands import Correction, ResultSet
from tournaments.sumula.services import Actor, sumula_answer, sumula_correct, sumula_result_set


def stored() -> dict[str, tuple]:
    return {
        n.atleta.key: (n.score, n.level, n.played, n.won, n.walkovers_lost)
        for n in AtletaNivel.objects.select_related("atleta")
    }


def rebuilt() -> dict[str, tuple]:
    """What a full recompute gives, without touching the stored rows."""
    ids = dict(Atleta.objects.values_list("pk", "key"))
    out = {}
    for atleta_id, seq in nivel_jogos(atleta_ids=ids).items():
        path = score_walk(results=seq)
        score = path[-1] if path else None
        out[ids[atleta_id]] = (
            score,
            player_level(score=score) if path else UNRANKED_LEVEL,
            len(seq),
            sum(w for w, _ in seq),
            sum(1 for w, wo in seq if wo and not w),
        )
    return out


def between(t, a, b) -> str:
    return jogo_between(t, a, b)


def won_by(t, winner, loser):
    """The partidas of a 2 x 0 for ``winner`` in the jogo's order of sides."""
    first = jogo_duplas(t, jogo_between(t, winner, loser))[0]
    return ((12, 3), (12, 5)) if first == winner else ((3, 12), (5, 12))


def nivel_of(t, player_key) -> AtletaNivel:
    return AtletaNivel.objects.get(atleta__players__tournament=t, atleta__players__key=player_key)


@pytest.fixture
def two_cups(load_file, django_capture_on_commit_callbacks):
    """Two cups with the same eight people (birth dates given: they are the same atletas)."""
    out = []
    for slug, date in (("copa-a", "2026-01-10"), ("copa-b", "2026-02-10")):
        data = cup_file(slug)
        data["tournament"]["date"] = date
        for p in data["players"]:
            p["birth_date"] = "1990-05-05"
        with django_capture_on_commit_callbacks(execute=True):
            out.append(load_file(data))
    return out


@pytest.mark.django_db
def test_nobody_played_everyone_is_marreco(two_cups):
    assert Atleta.objects.count() == 8
    assert {v[1] for v in stored().values()} == {UNRANKED_LEVEL}
    assert {v[0] for v in stored().values()} == {None}


@pytest.mark.django_db
def test_confirmations_and_a_correction_keep_the_stored_nivel_equal_to_a_rebuild(
    two_cups, django_capture_on_commit_callbacks
):
    a, b = two_cups
    actor = Actor(method="command")
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(a, between(a, "d1", "d2"), partidas=won_by(a, "d1", "d2"))
        result_counted(a, between(a, "d3", "d4"), partidas=won_by(a, "d4", "d3"))
        result_counted(b, between(b, "d1", "d3"), partidas=won_by(b, "d1", "d3"))
    assert stored() == rebuilt()
    ana = nivel_of(a, "p1")  # d1 won both: two jogos, two wins, across the two cups
    assert (ana.played, ana.won) == (2, 2)
    assert ana.score == score_walk(results=[(True, False), (True, False)])[-1]
    # a result typed in but not yet confirmed does not count
    key = between(b, "d2", "d4")
    with django_capture_on_commit_callbacks(execute=True):
        sumula_result_set(tournament=b, key=key, data=ResultSet.from_json({"walkover": "d2"}), actor=actor)
    assert nivel_of(b, "p3").played == 1
    assert stored() == rebuilt()
    with django_capture_on_commit_callbacks(execute=True):
        jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=b, key=key)
        for dupla in (jogo.dupla_a, jogo.dupla_b):
            sumula_answer(
                tournament=b,
                key=key,
                dupla=dupla,
                via=jogo.via,
                accept=True,
                reason=None,
                actor=Actor(dupla=dupla, method="pin"),
            )
    bia = nivel_of(b, "p3")  # d2 lost by walkover in b, lost in a
    assert (bia.played, bia.won, bia.walkovers_lost) == (2, 0, 1)
    assert stored() == rebuilt()
    # the correction of a counted jogo gives it to the other dupla: it walks the path again once confirmed
    key = between(a, "d1", "d2")
    with django_capture_on_commit_callbacks(execute=True):
        sumula_correct(
            tournament=a,
            key=key,
            data=Correction.from_json(
                {"partidas": [list(p) for p in won_by(a, "d2", "d1")], "reason": "súmula trocada"}
            ),
            actor=actor,
        )
        jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=a, key=key)
        for dupla in (jogo.dupla_a, jogo.dupla_b):
            sumula_answer(
                tournament=a,
                key=key,
                dupla=dupla,
                via=jogo.via,
                accept=True,
                reason=None,
                actor=Actor(dupla=dupla, method="pin"),
            )
    ana = nivel_of(a, "p1")
    assert (ana.played, ana.won) == (2, 1)
    assert ana.score == score_walk(results=[(False, False), (True, False)])[-1]
    assert stored() == rebuilt()
    # the rebuild command changes nothing: the stored values were already right
    before = stored()
    call_command("nivel_rebuild", stdout=open("/dev/null", "w"))
    assert stored() == before


@pytest.mark.django_db
def test_rebuild_puts_right_what_changed_behind_the_services_back(two_cups, django_capture_on_commit_callbacks):
    a, _ = two_cups
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(a, between(a, "d1", "d2"))
    AtletaNivel.objects.update(score=999, level="ZAP", played=40)
    call_command("nivel_rebuild", stdout=open("/dev/null", "w"))
    assert stored() == rebuilt()
    assert nivel_of(a, "p1").played == 1


@pytest.mark.django_db
def test_a_draft_tournament_does_not_count(load_file, django_capture_on_commit_callbacks):
    data = cup_file("rascunho")
    with django_capture_on_commit_callbacks(execute=True):
        t = load_file(data)
    t.published = False
    t.save(update_fields=["published"])
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(t, between(t, "d1", "d2"))
    assert nivel_of(t, "p1").played == 0
    assert Player.objects.filter(tournament=t, atleta__isnull=True).count() == 0


@pytest.mark.django_db
def test_deleting_a_tournament_walks_its_atletas_again(two_cups, django_capture_on_commit_callbacks):
    a, b = two_cups
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(a, between(a, "d1", "d2"), partidas=won_by(a, "d1", "d2"))
        result_counted(b, between(b, "d1", "d2"), partidas=won_by(b, "d1", "d2"))
    assert nivel_of(b, "p1").played == 2
    with django_capture_on_commit_callbacks(execute=True):
        a.delete()
    assert nivel_of(b, "p1").played == 1
    assert stored() == rebuilt()


@pytest.mark.django_db
def test_in_a_request_the_nivel_waits_for_the_response(
    two_cups, django_capture_on_commit_callbacks, settings, monkeypatch
):
    """Inside a request the recomputation is handed to a background thread (started once the response has gone);
    run later, it gives what a full rebuild gives."""
    from tournaments.atletas import services

    settings.ZAP_NIVEL_BACKGROUND = True
    later = []
    monkeypatch.setattr(services, "in_request", lambda: True)
    monkeypatch.setattr(services, "background_run", lambda target, *args, name: later.append((target, args)))
    monkeypatch.setattr(services.connection, "close", lambda: None)  # the test's own connection stays open
    a, _ = two_cups
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(a, between(a, "d1", "d2"), partidas=won_by(a, "d1", "d2"))
    assert later and nivel_of(a, "p1").played == 0  # not yet
    for target, args in later:
        target(*args)
    assert nivel_of(a, "p1").played == 1
    assert stored() == rebuilt()


@pytest.mark.django_db
def test_an_update_adds_missing_rows_skips_gone_atletas_and_stamps_what_it_changes(
    two_cups, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.atletas.services import nivel_update

    a, _ = two_cups
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(a, between(a, "d1", "d2"), partidas=won_by(a, "d1", "d2"))
    p1 = nivel_of(a, "p1")
    AtletaNivel.objects.filter(pk=p1.pk).delete()  # as before the Nível existed
    before = {n.pk: n.updated_at for n in AtletaNivel.objects.all()}
    with CaptureQueriesContext(connection) as queries:
        changed = nivel_update(atleta_ids=[p1.pk, 999_999])  # 999999: no such atleta (deleted meanwhile)
    assert changed == 1 and not AtletaNivel.objects.filter(pk=999_999).exists()
    again = AtletaNivel.objects.get(pk=p1.pk)
    assert (again.played, again.won) == (1, 1) and again.score is not None
    assert stored() == rebuilt()
    assert all(AtletaNivel.objects.get(pk=pk).updated_at == at for pk, at in before.items())  # nobody else
    # rows added, locked, the counted jogos (players, tournaments) and kept, one UPDATE per row that changed
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].startswith(("INSERT", "UPDATE"))]
    assert len(writes) == 3 and len(queries) <= 10, [q["sql"][:80] for q in queries.captured_queries]
    assert nivel_update(atleta_ids=[p1.pk]) == 0  # nothing changed: nothing written


@pytest.mark.django_db
def test_a_result_computes_its_own_tournament_and_reads_the_others_as_kept(
    two_cups, django_capture_on_commit_callbacks, monkeypatch
):
    """A confirmation in one event never loads the state of the other events its atletas played (a circuit's
    earlier etapas): their counted jogos are kept per atleta and tournament (AtletaJogos)."""
    from tournaments.atletas import services
    from tournaments.models import AtletaJogos

    a, b = two_cups
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(a, between(a, "d1", "d2"), partidas=won_by(a, "d1", "d2"))
        result_counted(b, between(b, "d3", "d4"), partidas=won_by(b, "d3", "d4"))
    loaded = []
    real = services.tournament_state_get
    monkeypatch.setattr(
        services,
        "tournament_state_get",
        lambda *, tournament: loaded.append(tournament.slug) or real(tournament=tournament),
    )
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(b, between(b, "d1", "d2"), partidas=won_by(b, "d2", "d1"))
    assert loaded == ["copa-b"]
    ana = nivel_of(b, "p1")  # won in a (January), lost in b (February): in that order
    assert (ana.played, ana.won) == (2, 1)
    assert ana.score == score_walk(results=[(True, False), (False, False)])[-1]
    assert stored() == rebuilt()
    kept = AtletaJogos.objects.get(atleta=ana.atleta, tournament=a)
    assert kept.jogos == [[True, False]]
    # a kept row that went missing (the first deploy of this table) is computed from its tournament once
    AtletaJogos.objects.filter(tournament=a).delete()
    loaded.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result_counted(b, between(b, "d1", "d3"), partidas=won_by(b, "d1", "d3"))
    assert loaded == ["copa-a", "copa-b"] and stored() == rebuilt()
    assert AtletaJogos.objects.filter(tournament=a).count() == 4  # the atletas of d1 and d3
