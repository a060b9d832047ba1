"""The desk's setup: create from a starter, edit with validation, format, duplicate, the tournament file, the dashboard."""

import datetime as dt
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.support.files import base_file
from tournaments.models import AuditEntry, Jogo, StaffRole, Tournament
from tournaments.services import tournament_import

pytestmark = pytest.mark.django_db
PASSWORD = "senha-forte-123"


@pytest.fixture
def organizer(client):
    user = User.objects.create_user("comissao", password=PASSWORD, is_staff=True)  # staff: creates events
    client.force_login(user)
    return user


AHEAD = (timezone.localdate() + dt.timedelta(days=60)).isoformat()  # an event to come: no question about its date


def _create(client, **fields):
    data = {"starter": "aabb", "name": "Olimpíada AABB-SP 2024 - Truco", "date": AHEAD, "venue": "Bar Classe A"}
    return client.post(reverse("desk:new"), data | fields)


def test_anonymous_desk_goes_to_login(client):
    response = client.get(reverse("desk:home"))
    assert response.status_code == 302 and response["Location"].startswith("/entrar/?next=/organizar/")


def test_aabb_starter_makes_the_aabb_event_from_three_fields(client, organizer):
    response = _create(client)
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("desk:overview", args=[t.slug])
    assert (t.preset, t.min_age, t.max_duplas, t.public_signup) == ("aabb", 18, 16, True)
    assert t.category == "Mista, a partir de 18 anos" and t.venue == "Bar Classe A"
    # what the AABB regulation says besides the date and the venue (issue 24, item 14)
    assert (t.start_time.hour, t.start_time.minute, t.city) == (14, 0, "São Paulo/SP")
    assert t.regulation.startswith("Regulamento Específico Truco") and "Art. 8º" in t.regulation
    assert (
        t.format["kind"] == "knockout" and t.format["best_of_rounds"] == {"1": 5} and t.format["best_of_knockout"] == 3
    )
    assert StaffRole.objects.get(tournament=t).user == organizer
    assert AuditEntry.objects.filter(tournament=t, action="tournament_create", user=organizer).exists()
    page = client.get(reverse("desk:overview", args=[t.slug])).content.decode()
    assert "rascunho: só a equipe vê" in page and reverse("desk:publish", args=[t.slug]) in page
    client.post(reverse("desk:publish", args=[t.slug]))
    page = client.get(reverse("desk:overview", args=[t.slug])).content.decode()
    assert "inscrições abertas" in page and reverse("desk:registrations", args=[t.slug]) in page


# --- drafts (issue 24, item 5): a new event is seen only by its staff until the organizer publishes it ---


def _public_urls(t) -> list[str]:
    return [
        reverse("tournaments:detail", args=[t.slug]),
        reverse("tournaments:standings", args=[t.slug]),
        reverse("tournaments:bracket", args=[t.slug]),
        reverse("tournaments:jogos", args=[t.slug]),
        reverse("tournaments:duplas", args=[t.slug]),
        reverse("tournaments:tv", args=[t.slug]),
        reverse("tournaments:export", args=[t.slug]),
        reverse("tournaments:signup", args=[t.slug]),
        reverse("tournaments:bracket_pdf", args=[t.slug]),
        reverse("tournaments:standings_pdf", args=[t.slug]),
        reverse("api:jogos", args=[t.slug]),
    ]


def test_a_new_event_is_a_draft_only_its_staff_see_until_it_is_published(client, organizer):
    from django.test import Client

    _create(client)
    t = Tournament.objects.get()
    assert not t.published
    stranger = Client()
    for url in _public_urls(t):
        assert stranger.get(url).status_code == 404, url
    assert t.slug not in stranger.get(reverse("tournaments:list")).content.decode()
    # the staff see the public pages as the public will, with a notice, never cached
    page = client.get(reverse("tournaments:detail", args=[t.slug]))
    assert page.status_code == 200 and "Rascunho: só a equipe do torneio vê esta página" in page.content.decode()
    assert "no-cache" in page["Cache-Control"] and "private" in page["Cache-Control"]
    assert client.get(reverse("tournaments:standings", args=[t.slug])).status_code == 200
    # the public form takes no sign-up while a draft, even for the staff
    assert "Inscrições encerradas" in client.get(reverse("tournaments:signup", args=[t.slug])).content.decode()
    # publishing: a page that says what it does, then a POST, recorded
    confirm = client.get(reverse("desk:publish", args=[t.slug])).content.decode()
    assert "rascunho" in confirm and "Publicar o evento" in confirm and "Bar Classe A" in confirm
    response = client.post(reverse("desk:publish", args=[t.slug]))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.published
    assert AuditEntry.objects.filter(tournament=t, action="tournament_publish", user=organizer).exists()
    for url in _public_urls(t):
        assert stranger.get(url).status_code == 200, url
    assert t.slug in stranger.get(reverse("tournaments:list")).content.decode()
    assert "Rascunho" not in stranger.get(reverse("tournaments:detail", args=[t.slug])).content.decode()
    # once is enough: publishing again says so and changes nothing
    client.post(reverse("desk:publish", args=[t.slug]))
    assert AuditEntry.objects.filter(tournament=t, action="tournament_publish").count() == 1


def test_only_an_organizer_publishes(client, organizer, django_user_model):
    from django.test import Client

    from tournaments.roles import role_grant

    _create(client)
    t = Tournament.objects.get()
    referee = django_user_model.objects.create_user("arbitra-rascunho")
    role_grant(tournament=t, user=referee, role=StaffRole.REFEREE)
    other = Client()
    other.force_login(referee)
    assert other.get(reverse("tournaments:detail", args=[t.slug])).status_code == 200  # staff: sees the draft
    assert other.post(reverse("desk:publish", args=[t.slug])).status_code == 403
    t.refresh_from_db()
    assert not t.published


def test_new_tournament_form_says_what_is_missing(client, organizer):
    response = _create(client, name="", date="31/02/2024")
    assert response.status_code == 200 and not Tournament.objects.exists()
    errors = response.context["form"].errors
    assert "name" in errors and "date" in errors


def test_edit_validates_and_records_before_and_after(client, organizer):
    _create(client)
    t = Tournament.objects.get()
    url = reverse("desk:edit", args=[t.slug])
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data |= {"date": AHEAD, "start_time": "14:00", "preset": "aabb", "public_signup": "on"}
    bad = client.post(
        url,
        data | {"max_duplas": "1", "registration_opens": "2024-04-10T10:00", "registration_closes": "2024-04-01T10:00"},
    )
    assert bad.status_code == 200
    assert set(bad.context["form"].errors) == {"max_duplas", "registration_closes"}
    assert Tournament.objects.get().max_duplas == 16
    ok = client.post(url, data | {"max_duplas": "8", "third_place": "shared"})
    assert ok.status_code == 302
    t.refresh_from_db()
    assert t.max_duplas == 8 and t.settings == {"third_place": "shared"} and t.start_time.hour == 14
    entry = AuditEntry.objects.filter(action="tournament_edit").get()
    assert entry.before["max_duplas"] == 16 and entry.after["max_duplas"] == 8


def test_a_past_date_is_warned_and_saved_only_once_confirmed(client, organizer):
    """Issue 41 item 20: a date in the past was accepted without a word. Creating or moving an event to a past
    date warns at the date and shows a confirmation to tick; ticked, it is saved. An event already held keeps
    its date through other edits without the question."""
    past = timezone.localdate() - dt.timedelta(days=400)
    shown = past.strftime("%d/%m/%Y")
    warned = _create(client, date=past.isoformat())
    assert warned.status_code == 200 and not Tournament.objects.exists()
    page = warned.content.decode()
    assert f"Esta data já passou ({shown})" in page and 'type="checkbox" name="confirm_past_date"' in page
    assert 'type="checkbox" name="confirm_past_date"' not in client.get(reverse("desk:new")).content.decode()
    assert _create(client, date=past.isoformat(), confirm_past_date="on").status_code == 302
    t = Tournament.objects.get()
    assert t.date == past
    url = reverse("desk:edit", args=[t.slug])
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields and k != "confirm_past_date"}
    data |= {"date": past.isoformat(), "start_time": "14:00", "preset": "aabb", "public_signup": "on"}
    assert client.post(url, data | {"venue": "Outro bar"}).status_code == 302  # the date did not change
    earlier = past - dt.timedelta(days=7)
    moved = client.post(url, data | {"date": earlier.isoformat()})
    assert moved.status_code == 200 and "Esta data já passou" in moved.content.decode()
    assert Tournament.objects.get().date == past
    assert client.post(url, data | {"date": earlier.isoformat(), "confirm_past_date": "on"}).status_code == 302
    assert Tournament.objects.get().date == earlier


def test_rules_are_frozen_once_a_jogo_has_a_result(client, organizer):
    t = tournament_import(data=base_file())
    StaffRole.objects.create(tournament=t, user=organizer, role="organizer")
    assert Jogo.objects.filter(tournament=t).exclude(status="scheduled").exists()
    url = reverse("desk:edit", args=[t.slug])
    form = client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k in form.fields}
    data |= {"date": "2024-04-27", "start_time": "14:00", "preset": "aabb"}
    response = client.post(url, data)
    assert response.status_code == 200
    assert "o regulamento não pode mudar" in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).preset == "fenacef"


def test_format_is_saved_and_frozen_after_the_draw(client, organizer):
    _create(client, starter="blank")
    t = Tournament.objects.get()
    url = reverse("desk:format", args=[t.slug])
    response = client.post(
        url,
        {
            "kind": "groups_knockout",
            "group_size": "4",
            "per_group": "2",
            "best_others": "0",
            "best_of_groups": "3",
            "best_of_first": "5",
            "best_of_later": "3",
            "bracket_method": "seeded",
        },
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.format == {
        "kind": "groups_knockout",
        "bracket_method": "seeded",
        "best_of_knockout": 3,
        "best_of_rounds": {"1": 5},
        "best_of_groups": 3,
        "group_size": 4,
        "per_group": 2,
        "best_others": 0,
    }
    missing = client.post(url, {"kind": "knockout", "best_of_first": "5", "bracket_method": "random"})
    assert missing.status_code == 200 and "best_of_later" in missing.context["form"].errors


def test_duplicate_copies_setup_not_people(client, organizer):
    t = tournament_import(data=base_file())
    StaffRole.objects.create(tournament=t, user=organizer, role="organizer")
    response = client.post(reverse("desk:duplicate", args=[t.slug]))
    copy = Tournament.objects.exclude(pk=t.pk).get()
    assert response.status_code == 302 and copy.name == "Copa do Bar (cópia)"
    assert copy.preset == t.preset and not copy.duplas.exists() and not copy.stages.exists()
    assert (
        not copy.registration_closed
        and StaffRole.objects.filter(tournament=copy, user=organizer, role="organizer").exists()
    )


def test_tournament_file_download_and_upload(client, organizer):
    t = tournament_import(data=base_file())
    StaffRole.objects.create(tournament=t, user=organizer, role="organizer")
    response = client.get(reverse("desk:file", args=[t.slug]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["players"][0]["birth_date"] == "1990-01-01"  # the organizer's own copy keeps private data
    upload = client.post(reverse("desk:upload"), {"file": SimpleUploadedFile("t.json", response.content)})
    new = Tournament.objects.exclude(pk=t.pk).get()
    assert upload.status_code == 302 and upload["Location"] == reverse("desk:overview", args=[new.slug])
    assert new.duplas.count() == 4 and StaffRole.objects.get(tournament=new).user == organizer


def test_upload_of_a_bad_file_lists_problems_and_creates_nothing(client, organizer):
    data = base_file()
    data["jogos"][0]["partidas"] = [[12, 13]]
    response = client.post(reverse("desk:upload"), {"file": SimpleUploadedFile("t.json", json.dumps(data).encode())})
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "jogos[0].partidas[0]" in response.content.decode()
    broken = client.post(reverse("desk:upload"), {"file": SimpleUploadedFile("t.json", b"{nope")})
    assert broken.status_code == 200 and "JSON" in broken.content.decode()


def test_dashboard_lists_my_tournaments_only_with_state_and_next_step(client, organizer):
    mine = tournament_import(data=base_file(name="Minha Copa"))
    other = tournament_import(data=base_file(name="Copa dos Outros"))
    StaffRole.objects.create(tournament=mine, user=organizer, role="organizer")
    page = client.get(reverse("desk:home")).content.decode()
    assert "Minha Copa" in page and "Copa dos Outros" not in page
    assert "em andamento" in page
    assert client.get(reverse("desk:overview", args=[other.slug])).status_code == 404


def test_dashboard_queries_do_not_grow_with_tournaments(client, organizer):
    def count():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("desk:home")).status_code == 200
        return len(ctx)

    for i in range(2):
        _create(client, name=f"Copa {i}")
    few = count()
    for i in range(2, 12):
        _create(client, name=f"Copa {i}")
    assert count() == few


def test_audit_page_shows_who_and_what(client, organizer):
    _create(client)
    t = Tournament.objects.get()
    page = client.get(reverse("desk:audit", args=[t.slug])).content.decode()
    assert "Torneio criado a partir do modelo" in page and "comissao" in page
