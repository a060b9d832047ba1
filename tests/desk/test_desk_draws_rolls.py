"""The draws at the desk (issue 24 item 4): the pairing draw previewed, every preview shown recorded as a roll, the
public record of the rolls, and the undo of a pairing draw while nothing depends on it."""

import itertools
import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.desk import add_duplas, add_individuals, client_for, make_tournament, make_user
from tournaments.draws import services
from tournaments.draws.pairing import pairing_preview
from tournaments.interchange.writer import tournament_export
from tournaments.models import AuditEntry, Draw, DrawRoll, Dupla, Player, Registration, Stage, Tournament
from tournaments.refusals import Refused

pytestmark = pytest.mark.django_db


def _registrations(t: Tournament) -> list[tuple]:
    return list(
        Registration.objects.filter(tournament=t)
        .order_by("pk")
        .values_list("pk", "order", "status", "present", "player1_id", "player2_id", "withdrawn_at")
    )


def _roll_and_confirm(t: Tournament, user, token: str) -> Draw:
    roll, _preview = services.pairing_roll(tournament=t, user=user, token=token)
    return services.pairing_confirm(tournament=t, user=user, token=roll.token)


# --- the pairing preview ---------------------------------------------------------------------------


def test_a_pairing_preview_writes_nothing_and_confirming_writes_exactly_the_preview():
    t = make_tournament(max_duplas=16)
    add_individuals(t, 9)
    before = _registrations(t)
    preview = pairing_preview(tournament=t, seed=31337)
    assert len(preview.duplas) == 4 and len(preview.waiting_list) == 1
    assert not Dupla.objects.exists() and not Draw.objects.exists() and not DrawRoll.objects.exists()
    assert _registrations(t) == before and not AuditEntry.objects.exists()
    roll, shown = services.pairing_roll(tournament=t, user=None, token="a", seed=31337)
    assert shown == preview and roll.shown == preview.shown and roll.seed == 31337
    assert not Dupla.objects.exists() and not Draw.objects.exists()  # the roll is recorded, nothing of the event
    draw = services.pairing_confirm(tournament=t, user=None, token="a")
    assert draw.seed == 31337 and draw.result["duplas"] == [list(d) for d in preview.duplas]
    written = [[d.player1.key, d.player2.key] for d in t.duplas.select_related("player1", "player2").order_by("order")]
    assert written == [list(d) for d in preview.duplas]


def test_confirming_after_the_registrations_changed_writes_nothing_and_shows_the_new_preview():
    t = make_tournament()
    add_individuals(t, 6)
    user = make_user("ana", t)
    c = client_for(user)
    url = reverse("desk:pairing", args=[t.slug])
    c.post(url, {"action": "preview", "token": "t1"})
    roll = DrawRoll.objects.get()
    add_individuals(t, 2, start=20)  # two late entries, registered at the desk meanwhile
    with pytest.raises(services.PairingChanged):
        services.pairing_confirm(tournament=t, user=user, token=roll.token)
    response = c.post(url, {"action": "confirm", "roll": roll.token})
    page = response.content.decode()
    assert response.status_code == 200 and "as inscrições que aguardam mudaram desde a prévia" in page
    assert not Dupla.objects.exists() and not Draw.objects.exists()
    fresh = response.context["roll"]  # the new preview: the same seed, what it makes now, a roll of its own
    assert fresh.seed == roll.seed and fresh.number == 2 and fresh.shown != roll.shown
    assert len(fresh.shown["duplas"]) == 4 and "Confirmar estas duplas" in page
    c.post(url, {"action": "confirm", "roll": fresh.token})
    assert Draw.objects.get().result["duplas"] == fresh.shown["duplas"]


def test_a_roll_published_already_or_unknown_is_refused():
    t = make_tournament()
    add_individuals(t, 4)
    _roll_and_confirm(t, None, "x")
    with pytest.raises(Refused) as exc:
        services.pairing_confirm(tournament=t, user=None, token="x")
    assert "esta prévia não vale mais" in exc.value.messages[0]
    with pytest.raises(Refused):
        services.pairing_confirm(tournament=t, user=None, token="never-shown")


# --- rolls counted once per preview shown ----------------------------------------------------------


def test_rolls_are_counted_once_per_preview_shown_and_a_reload_is_the_same_roll():
    t = make_tournament()
    add_individuals(t, 8)
    user = make_user("ana", t)
    c = client_for(user)
    url = reverse("desk:pairing", args=[t.slug])
    first = c.post(url, {"action": "preview", "token": "t1"}).context["roll"]
    again = c.post(url, {"action": "preview", "token": "t1"}).context["roll"]  # the browser's reload: same form
    assert again == first and DrawRoll.objects.count() == 1
    page = c.post(url, {"action": "preview", "token": "t2"})  # "Sortear de novo": the token of the page shown
    second = page.context["roll"]
    third = c.post(url, {"action": "preview", "token": page.context["token"]}).context["roll"]
    assert [r.number for r in (first, second, third)] == [1, 2, 3]
    assert list(DrawRoll.objects.order_by("id").values_list("number", flat=True)) == [1, 2, 3]
    assert all(r.shown_by == user and r.kind == DrawRoll.PAIRING for r in DrawRoll.objects.all())
    assert AuditEntry.objects.filter(action="draw_roll").count() == 3
    c.post(url, {"action": "confirm", "roll": second.token})
    draw = Draw.objects.get()
    assert draw.seed == second.seed
    rolls = list(DrawRoll.objects.order_by("number"))
    assert all(r.closed and r.draw == draw for r in rolls) and [r.published for r in rolls] == [False, True, False]
    # a new series after the publish: the late entries' draw starts again at 1
    add_individuals(t, 2, start=50)
    assert c.post(url, {"action": "preview", "token": "t9"}).context["roll"].number == 1


def test_competition_previews_are_rolls_and_publishing_closes_the_series():
    t = make_tournament(fmt={"kind": "knockout", "draw": "random"})
    add_duplas(t, 8)
    user = make_user("ana", t)
    c = client_for(user)
    url = reverse("desk:competition", args=[t.slug])
    first = c.post(url, {"action": "preview", "token": "c1"})
    assert "1º sorteio exibido" in first.content.decode()
    assert c.post(url, {"action": "preview", "token": "c1"}).context["roll"] == first.context["roll"]  # reload
    second = c.post(url, {"action": "preview", "token": first.context["token"]})
    assert "2º sorteio exibido" in second.content.decode() and DrawRoll.objects.count() == 2
    assert not Stage.objects.exists()  # previews write nothing of the event
    form = second.context["form"]
    data = {"action": "publish"} | {k: "" if v is None else v for k, v in form.initial.items()}
    assert c.post(url, data).status_code == 302
    draw = Draw.objects.get(tournament=t, kind=Draw.BRACKET)
    rolls = list(DrawRoll.objects.order_by("number"))
    assert [(r.number, r.published, r.draw_id) for r in rolls] == [(1, False, draw.pk), (2, True, draw.pk)]
    assert draw.seed == rolls[1].seed


def test_publishing_a_seed_no_preview_showed_is_refused():
    t = make_tournament(fmt={"kind": "knockout", "draw": "random"})
    add_duplas(t, 4)
    roll, _plan = services.competition_roll(tournament=t, user=None, token="r")
    with pytest.raises(Refused) as exc:
        services.competition_publish(tournament=t, user=None, seed=roll.seed + 1, roll=roll.token)
    assert "esta prévia não vale mais" in exc.value.messages[0] and not Stage.objects.exists()


# --- the public record -----------------------------------------------------------------------------


def test_the_public_record_says_how_many_rolls_were_shown_and_which_was_published(client):
    t = make_tournament(max_duplas=8, published=True)
    add_individuals(t, 8)
    ana = make_user("ana", t)
    for token in ("a", "b", "c"):
        services.pairing_roll(tournament=t, user=ana, token=token)
    services.pairing_confirm(tournament=t, user=ana, token="c")
    page = client.get(reverse("tournaments:detail", args=[t.slug])).content.decode()
    assert "3 sorteios exibidos; publicado o 3º" in page
    client.cookies["django_language"] = "en"
    page = client.get(reverse("tournaments:detail", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3 draws shown; no. 3 published" in page


def test_the_public_record_shows_an_undone_pairing_draw_with_its_reason(client):
    t = make_tournament(published=True)
    add_individuals(t, 4)
    draw = _roll_and_confirm(t, None, "a")
    services.pairing_undo(tournament=t, user=None, draw=draw.pk, reason="Faltou uma inscrição")
    page = client.get(reverse("tournaments:detail", args=[t.slug])).content.decode()
    assert "sorteio das duplas desfeito: Faltou uma inscrição" in page
    assert "1 sorteio exibido; publicado o 1º" in page


# --- undoing a pairing draw ------------------------------------------------------------------------


def test_undo_restores_the_registrations_and_is_recorded():
    t = make_tournament()
    add_individuals(t, 7)
    user = make_user("ana", t)
    before = _registrations(t)
    draw = _roll_and_confirm(t, user, "a")
    with pytest.raises(Refused) as exc:
        services.pairing_undo(tournament=t, user=user, draw=draw.pk, reason="  ")
    assert "diga o motivo" in exc.value.messages[0]
    services.pairing_undo(tournament=t, user=user, draw=draw.pk, reason="Sorteio com a lista errada")
    assert _registrations(t) == before and not Dupla.objects.exists()
    draw.refresh_from_db()
    assert draw.undone_at is not None and draw.undone_by == user and draw.undo_reason == "Sorteio com a lista errada"
    entry = AuditEntry.objects.get(action="pairing_undo")
    assert "Sorteio com a lista errada" in entry.summary and entry.user == user
    # drawn again: the keys start over, the undone draw stays in the record
    again = _roll_and_confirm(t, user, "b")
    assert sorted(t.duplas.values_list("key", flat=True)) == ["r1", "r2", "r3"]
    assert Draw.objects.filter(kind=Draw.PAIRING).count() == 2 and again.undone_at is None


@pytest.mark.parametrize(
    "change, blocked",
    [
        (lambda t, d: Dupla.objects.filter(key="r1").update(name="Os Bons"), "duplas editadas depois do sorteio"),
        (lambda t, d: Dupla.objects.filter(key="r2").update(seed=1), "(nome ou cabeça de chave): Atleta "),
        (lambda t, d: Dupla.objects.filter(key="r1").update(disqualified=True), "duplas desclassificadas: Atleta "),
        (lambda t, d: Dupla.objects.filter(key="r2").update(pin_hash="x"), "já receberam o PIN"),
        (lambda t, d: services.competition_publish(tournament=t, user=None, seed=1), "o sorteio da chave já foi"),
        (lambda t, d: services.pairing_run(tournament=t, user=None, seed=2), "mais recente"),
    ],
)
def test_undo_is_refused_while_something_depends_on_the_draw_and_says_what(change, blocked):
    t = make_tournament(fmt={"kind": "knockout"})
    add_individuals(t, 4)
    draw = _roll_and_confirm(t, None, "a")
    add_individuals(t, 4, start=30)  # late entries: a second pairing draw is possible
    change(t, draw)
    snapshot = (_registrations(t), list(Dupla.objects.order_by("pk").values()))
    with pytest.raises(Refused) as exc:
        services.pairing_undo(tournament=t, user=None, draw=draw.pk, reason="motivo")
    assert any(blocked in m for m in exc.value.messages), exc.value.messages
    assert all(m.startswith("Desfazer o sorteio das duplas:") for m in exc.value.messages)
    assert (_registrations(t), list(Dupla.objects.order_by("pk").values())) == snapshot
    assert Draw.objects.get(pk=draw.pk).undone_at is None


def test_undo_refused_when_the_players_were_swapped():
    t = make_tournament()
    add_individuals(t, 4)
    draw = _roll_and_confirm(t, None, "a")
    r1, r2 = Dupla.objects.order_by("key")
    services.duplas_swap(tournament=t, user=None, player_a=r1.player1_id, player_b=r2.player1_id, reason="pedido")
    with pytest.raises(Refused) as exc:
        services.pairing_undo(tournament=t, user=None, draw=draw.pk, reason="motivo")
    r1, r2 = Dupla.objects.order_by("key")  # each named by its players (now swapped), never by its key
    swapped = f"duplas com atletas trocados depois do sorteio: {r1.display_name}; {r2.display_name}."
    assert swapped in exc.value.messages[0]


EXAMPLES = itertools.count()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    sizes=st.lists(st.sampled_from([1, 2]), min_size=2, max_size=12),
    absent=st.sets(st.integers(0, 11)),
    max_duplas=st.one_of(st.none(), st.integers(1, 8)),
    seed=st.integers(0, 2**31 - 1),
)
def test_undo_restores_any_set_of_registrations_exactly(sizes, absent, max_duplas, seed):
    t = make_tournament(f"prop-{next(EXAMPLES)}", max_duplas=max_duplas)
    for i, size in enumerate(sizes):
        players = [
            Player.objects.create(tournament=t, key=f"p{i}-{j}", name=f"Atleta {i} {j}", order=2 * i + j)
            for j in range(size)
        ]
        Registration.objects.create(
            tournament=t,
            order=i + 1,
            player1=players[0],
            player2=players[1] if size == 2 else None,
            present=False if i in absent else None,
        )
    before = _registrations(t)
    try:
        roll, _preview = services.pairing_roll(tournament=t, user=None, token="t", seed=seed)
    except Refused:
        return  # nothing to pair (every one absent, or one individual alone)
    draw = services.pairing_confirm(tournament=t, user=None, token=roll.token)
    assert Dupla.objects.filter(tournament=t).count() == len(draw.result["duplas"])
    services.pairing_undo(tournament=t, user=None, draw=draw.pk, reason="teste")
    assert _registrations(t) == before
    assert not Dupla.objects.filter(tournament=t).exists()


# --- the pages without JavaScript, and who may ------------------------------------------------------


def test_the_undo_form_on_the_page_undoes_and_a_refusal_says_why():
    t = make_tournament(fmt={"kind": "knockout"})
    add_individuals(t, 4)
    c = client_for(make_user("ana", t))
    url = reverse("desk:pairing", args=[t.slug])
    preview = c.post(url, {"action": "preview", "token": "a"})
    c.post(url, {"action": "confirm", "roll": preview.context["roll"].token})
    draw = Draw.objects.get()
    page = c.get(url).content.decode()
    assert "Desfazer o sorteio das duplas" in page and f'name="draw" value="{draw.pk}"' in page
    undo = reverse("desk:pairing_undo", args=[t.slug])
    response = c.post(undo, {"draw": draw.pk, "reason": ""})
    assert response.status_code == 200 and Dupla.objects.count() == 2  # the form asks for the reason
    Dupla.objects.filter(key="r1").update(name="Os Bons")
    response = c.post(undo, {"draw": draw.pk, "reason": "lista errada"})
    page = response.content.decode()
    assert (
        "duplas editadas depois do sorteio (nome ou cabeça de chave): Os Bons." in page and Dupla.objects.count() == 2
    )
    Dupla.objects.filter(key="r1").update(name="")
    response = c.post(undo, {"draw": draw.pk, "reason": "lista errada"}, follow=True)
    assert "Sorteio das duplas desfeito" in response.content.decode() and not Dupla.objects.exists()
    assert Registration.objects.filter(status=Registration.WAITING).count() == 4


def test_referees_and_strangers_may_neither_preview_confirm_nor_undo():
    t = make_tournament()
    add_individuals(t, 4)
    draw = _roll_and_confirm(t, None, "a")
    add_individuals(t, 2, start=40)
    services.pairing_roll(tournament=t, user=None, token="open")
    referee = client_for(make_user("beto", t, role="referee"))
    stranger = client_for(make_user("fulano"))
    before = (_registrations(t), list(DrawRoll.objects.values()), list(Draw.objects.values()), Dupla.objects.count())
    for c, status in ((referee, 403), (stranger, 404), (Client(), 302)):
        for action in ({"action": "preview", "token": "z"}, {"action": "confirm", "roll": "open"}):
            assert c.post(reverse("desk:pairing", args=[t.slug]), action).status_code == status
        undo = {"draw": draw.pk, "reason": "x"}
        assert c.post(reverse("desk:pairing_undo", args=[t.slug]), undo).status_code == status
        assert c.post(reverse("desk:competition", args=[t.slug]), {"action": "preview"}).status_code == status
    after = (_registrations(t), list(DrawRoll.objects.values()), list(Draw.objects.values()), Dupla.objects.count())
    assert after == before


def test_the_tournament_file_leaves_rolls_and_undos_out():
    """docs/contrato.md: the file's format does not change; a roll or an undone draw is not in it."""
    t = make_tournament()
    add_individuals(t, 6)
    before = tournament_export(tournament=t)
    services.pairing_roll(tournament=t, user=None, token="a")
    assert tournament_export(tournament=t) == before  # a preview shown changes nothing of the file
    draw = services.pairing_confirm(tournament=t, user=None, token="a")
    drawn = tournament_export(tournament=t)
    assert len(drawn["duplas"]) == 3 and "roll" not in json.dumps(drawn)
    services.pairing_undo(tournament=t, user=None, draw=draw.pk, reason="lista errada")
    assert tournament_export(tournament=t) == before
