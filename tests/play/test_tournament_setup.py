"""Online play set on the desk (issue 44): the event's "Jogos online" (none, all, some stages) and WO tolerance in
"Dados do torneio", and a hybrid event's mesas online marked one by one on the programação, audited; a marked jogo
gets its table at once, unmarked before anyone sits it is a physical mesa again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.desk import client_for, make_user
from tests.support.online_tournament import knockout_online_file
from tournaments.models import AuditEntry, Jogo, OnlineProfile, OnlineTable
from tournaments.online import tournament as online

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(load_file):
    return load_file(knockout_online_file(duplas=8, slug="copa-desk", online_setting=None))


@pytest.fixture
def organizer(event):
    return client_for(make_user("org", event, role="organizer"))


def _edit_data(client, event) -> dict:
    form = client.get(reverse("desk:edit", args=[event.slug])).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    return data | {
        "date": event.date.isoformat(),
        "start_time": event.start_time.strftime("%H:%M"),
        "preset": event.preset,
    }


def test_the_event_is_made_online_at_the_desk(organizer, event):
    page = organizer.get(reverse("desk:edit", args=[event.slug])).content.decode()
    assert "Jogos online" in page and "Tolerância para WO (minutos)" in page
    data = _edit_data(organizer, event)
    unchanged = organizer.post(reverse("desk:edit", args=[event.slug]), data)
    assert unchanged.status_code == 302
    assert not AuditEntry.objects.filter(action="tournament_edit").exists()  # nothing changed, nothing recorded
    assert not OnlineTable.objects.exists()
    response = organizer.post(
        reverse("desk:edit", args=[event.slug]),
        data | {"online_mode": "stages", "online_stages": ["mata"], "wo_tolerance_minutes": "20"},
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.online == ["mata"] and event.wo_tolerance_minutes == 20
    entry = AuditEntry.objects.get(action="tournament_edit")
    assert entry.after["online"] == ["mata"] and entry.after["wo_tolerance_minutes"] == 20
    # the jogos still to be played got their tables
    assert OnlineTable.objects.filter(jogo__tournament=event, kind=OnlineTable.TORNEIO).count() == 4


def test_wrong_online_choices_are_said_in_portuguese(organizer, event):
    data = _edit_data(organizer, event)
    no_stage = organizer.post(reverse("desk:edit", args=[event.slug]), data | {"online_mode": "stages"})
    assert no_stage.status_code == 200
    assert "Marque as fases jogadas online" in no_stage.content.decode()
    too_long = organizer.post(reverse("desk:edit", args=[event.slug]), data | {"wo_tolerance_minutes": "999"})
    assert too_long.status_code == 200 and "no máximo 240 minutos" in too_long.content.decode()
    event.refresh_from_db()
    assert event.online in ("", "none") and event.wo_tolerance_minutes == 15


def test_a_hybrid_events_mesa_online_is_marked_and_unmarked_on_the_programacao(organizer, event):
    jogo = Jogo.objects.filter(tournament=event).order_by("position").first()
    url = reverse("desk:jogo_online", args=[event.slug, jogo.pk])
    page = organizer.get(reverse("desk:schedule", args=[event.slug])).content.decode()
    assert "tornar online" in page
    assert organizer.post(url, {"online": "1"}).status_code == 302
    jogo.refresh_from_db()
    assert jogo.online and OnlineTable.objects.filter(jogo=jogo).exists()
    assert "tornar presencial" in organizer.get(reverse("desk:schedule", args=[event.slug])).content.decode()
    assert AuditEntry.objects.filter(action="jogo_online").count() == 1
    assert organizer.post(url, {"online": "0"}).status_code == 302
    jogo.refresh_from_db()
    assert not jogo.online and not OnlineTable.objects.filter(jogo=jogo).exists()
    # once someone sits, the mesa stays online
    organizer.post(url, {"online": "1"})
    profile = OnlineProfile.objects.create(guest_key="g1", display_name="Ana")
    online.seat_take_by_link(jogo=jogo, dupla=jogo.dupla_a, player=jogo.dupla_a.player1, profile=profile)
    refused = organizer.post(url, {"online": "0"})
    assert refused.status_code == 200 and "Já há jogadores sentados" in refused.content.decode()
    assert Jogo.objects.get(pk=jogo.pk).online
    bad = organizer.post(url, {"online": "talvez"})
    assert bad.status_code == 200 and "escolha marcar ou desmarcar" in bad.content.decode()


def test_only_the_events_staff_marks_a_mesa_online(client, event):
    jogo = Jogo.objects.filter(tournament=event).first()
    stranger = client_for(make_user("zé", None))
    response = stranger.post(reverse("desk:jogo_online", args=[event.slug, jogo.pk]), {"online": "1"})
    assert response.status_code in (403, 404)
    assert not Jogo.objects.get(pk=jogo.pk).online


def test_the_tables_open_at_the_rounds_time_and_the_tolerance_follows(organizer, event):
    import datetime as dt

    from django.utils import timezone

    from tournaments.draws.tables import round_time_set

    organizer.post(reverse("desk:edit", args=[event.slug]), _edit_data(organizer, event) | {"online_mode": "all"})
    table = OnlineTable.objects.filter(jogo__tournament=event, jogo__round=1).order_by("pk").first()
    user = AuditEntry.objects.filter(action="tournament_edit").first().user
    round_time_set(tournament=event, user=user, stage_key="mata", round_number=1, time="23:59")
    table.refresh_from_db()
    called = timezone.make_aware(dt.datetime.combine(event.date, dt.time(23, 59)))
    assert table.opens_at == max(called, table.created_at)
    assert table.deadline == table.opens_at + dt.timedelta(minutes=15)
    organizer.post(
        reverse("desk:edit", args=[event.slug]), _edit_data(organizer, event) | {"wo_tolerance_minutes": "5"}
    )
    table.refresh_from_db()
    assert table.deadline == table.opens_at + dt.timedelta(minutes=5)
