"""Calendar feeds (issue 45 point 4, tournaments/calendars/): /torneios/<slug>/agenda.ics and /d/<token>/agenda.ics
read back with the ``icalendar`` library: every jogo with its duplas, mesa and time, the times in the event's
zone (Manaus: UTC-4), stable UIDs when the schedule moves (a round's new time, mesas spread again), a dupla's
feed with its jogos only, private headers on the dupla's, 304s, no private data anywhere, and the links on the
event page and the dupla's page."""

import datetime
import json
from zoneinfo import ZoneInfo

import icalendar
import pytest

from tournaments.calendars.zones import event_zone, state_of
from tournaments.draws.tables import mesas_save, round_time_set
from tournaments.models import Dupla, Tournament

pytestmark = pytest.mark.django_db

MANAUS = ZoneInfo("America/Manaus")
DAY = datetime.date(2025, 6, 14)
FEED = "/torneios/copa-manaus/agenda.ics"


def event_file(**tournament):
    """One group of 4 duplas (the site schedules 3 rounds of 2 jogos on 2 mesas; d1 x d2 played already), rounds
    1 and 2 with their times, round 3 without; players with birth dates and contacts."""
    players = [
        {
            "key": f"p{i}",
            "name": f"Atleta {i}",
            "birth_date": f"19{70 + i}-0{i}-1{i}",
            "email": f"atleta{i}@exemplo.com.br",
            "phone": f"92 9{i}{i}{i}4-5678",
        }
        for i in range(1, 9)
    ]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {
            "name": "Copa Manaus",
            "slug": "copa-manaus",
            "date": DAY.isoformat(),
            "start_time": "13:30",
            "venue": "Bar do Zé",
            "city": "Manaus/AM",
            "category": "Livre",
            "preset": "fenacef",
            **tournament,
        },
        "players": players,
        "duplas": [
            {"key": "d1", "players": ["p1", "p2"], "name": "Os Zapeiros"},
            {"key": "d2", "players": ["p3", "p4"], "name": "Truqueiros"},
            {"key": "d3", "players": ["p5", "p6"]},
            {"key": "d4", "players": ["p7", "p8"], "name": "Manilhas, & Cia; <b>"},
        ],
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": "A", "duplas": ["d1", "d2", "d3", "d4"]}],
                "qualify": {"per_group": 2, "best_others": 0},
                "round_times": {"1": "14:00", "2": "14:45"},
            }
        ],
        "jogos": [{"stage": "grupos", "group": "A", "duplas": ["d1", "d2"], "partidas": [[12, 7], [12, 3]]}],
    }


@pytest.fixture
def event(load_file):
    return load_file(event_file())


def read(client, url=FEED, **headers):
    response = client.get(url, **headers)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response, body, icalendar.Calendar.from_ical(body)


def by_summary(calendar):
    return {str(e["SUMMARY"]): e for e in calendar.events}


def jogos(calendar):
    return [e for e in calendar.events if ".jogo." in str(e["UID"])]


def test_the_event_feed_has_the_event_and_every_jogo_with_mesa_and_time(event, client):
    _response, body, calendar = read(client)
    assert str(calendar["X-WR-CALNAME"]) == "Copa Manaus" and str(calendar["METHOD"]) == "PUBLISH"
    events = list(calendar.events)
    assert len(events) == 1 + 6
    head = next(e for e in events if ".torneio@" in str(e["UID"]))
    assert str(head["SUMMARY"]) == "Copa Manaus" and str(head["LOCATION"]) == "Bar do Zé, Manaus/AM"
    assert head.start == datetime.datetime(2025, 6, 14, 13, 30, tzinfo=MANAUS)
    assert "http://127.0.0.1:8000/torneios/copa-manaus/" in str(head["DESCRIPTION"])
    rounds = {}
    for e in jogos(calendar):
        rounds.setdefault(e.start, []).append(e)
    # rounds 1 and 2 at their times, until the next round's; round 3 (no time given) all day, "a definir"
    first = rounds[datetime.datetime(2025, 6, 14, 14, 0, tzinfo=MANAUS)]
    second = rounds[datetime.datetime(2025, 6, 14, 14, 45, tzinfo=MANAUS)]
    third = rounds[DAY]
    assert len(first) == len(second) == len(third) == 2
    assert {e.end for e in first} == {datetime.datetime(2025, 6, 14, 14, 45, tzinfo=MANAUS)}
    assert {e.end for e in second} == {datetime.datetime(2025, 6, 14, 15, 45, tzinfo=MANAUS)}  # best of 3: 60 min
    assert {e.end for e in third} == {DAY + datetime.timedelta(days=1)}
    assert all("Horário a definir" in str(e["DESCRIPTION"]) for e in third)
    # each jogo: its mesa and its duplas in the summary, the mesa and the venue as its place, its súmula's link
    summaries = {str(e["SUMMARY"]) for e in jogos(calendar)}
    assert "Mesa 1 · Os Zapeiros x Manilhas, & Cia; <b>" in summaries
    played = next(e for e in jogos(calendar) if "Os Zapeiros x Truqueiros" in str(e["SUMMARY"]))
    assert str(played["LOCATION"]).startswith("Mesa ") and str(played["LOCATION"]).endswith("Bar do Zé, Manaus/AM")
    assert "Grupo A · Rodada 3" in str(played["DESCRIPTION"]) and "(12 x 7, 12 x 3)" in str(played["DESCRIPTION"])
    assert str(played["URL"]).startswith("http://127.0.0.1:8000/torneios/copa-manaus/jogos/j")
    # the times are written in the event's zone, with its VTIMEZONE: a phone in São Paulo shows 15:00
    text = body.decode()
    assert "DTSTART;TZID=America/Manaus:20250614T140000" in text
    assert [str(tz["TZID"]) for tz in calendar.walk("VTIMEZONE")] == ["America/Manaus"]
    assert first[0].start.astimezone(ZoneInfo("America/Sao_Paulo")).time() == datetime.time(15, 0)
    assert len({str(e["UID"]) for e in events}) == 7


def test_uids_stay_when_the_schedule_moves_and_the_sequence_grows(event, client):
    _r, _b, before = read(client)
    was = {str(e["UID"]): (e.start, str(e["LOCATION"])) for e in before.events}
    sequence = int(str(before.events[0]["SEQUENCE"]))
    round_time_set(tournament=event, user=None, stage_key="grupos", round_number=1, time="15:10")
    mesas_save(tournament=event, user=None, count=1, referees={})  # the jogos not begun move to mesa 1
    _r, _b, after = read(client)
    now = {str(e["UID"]): (e.start, str(e["LOCATION"])) for e in after.events}
    assert set(now) == set(was)  # the same entries: a phone moves them instead of adding others
    moved_time = [u for u in now if now[u][0] != was[u][0]]
    assert len(moved_time) == 2 and all(
        now[u][0] == datetime.datetime(2025, 6, 14, 15, 10, tzinfo=MANAUS) for u in moved_time
    )
    moved_mesa = [u for u in now if now[u][1] != was[u][1]]
    assert moved_mesa and all(now[u][1].startswith("Mesa 1 ·") for u in moved_mesa)
    assert all(int(str(e["SEQUENCE"])) > sequence for e in after.events)


def test_a_duplas_feed_has_its_jogos_only_and_is_private(event, client):
    dupla = Dupla.objects.get(tournament=event, key="d1")
    response, _body, calendar = read(client, f"/d/{dupla.token}/agenda.ics")
    assert "private" in response["Cache-Control"] and "no-cache" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "no-referrer" and "noindex" in response["X-Robots-Tag"]
    assert str(calendar["X-WR-CALNAME"]) == "Copa Manaus · Os Zapeiros"
    mine = jogos(calendar)
    assert len(mine) == 3 and len(list(calendar.events)) == 4
    assert {str(e["SUMMARY"]).split(" · ")[-1] for e in mine} == {
        "contra Truqueiros",
        "contra Atleta 5 / Atleta 6",
        "contra Manilhas, & Cia; <b>",
    }
    assert all(str(e["UID"]).split("@")[0].endswith(".dupla.d1") for e in calendar.events)
    _r, _b, whole = read(client)
    assert not {str(e["UID"]) for e in calendar.events} & {str(e["UID"]) for e in whole.events}
    # a link that is no dupla's: 404
    assert client.get("/d/nao-e-um-link-de-dupla-valido/agenda.ics").status_code == 404


def test_no_private_data_in_any_feed(event, client):
    dupla = Dupla.objects.get(tournament=event, key="d2")
    bodies = [read(client)[1], read(client, f"/d/{dupla.token}/agenda.ics")[1]]
    for body in bodies:
        text = body.decode()
        for i in range(1, 9):
            assert (
                f"atleta{i}@exemplo" not in text and f"9{i}{i}{i}4-5678" not in text and f"19{70 + i}-0{i}" not in text
            )
        assert dupla.token not in text and "/d/" not in text  # the private link never leaves its owner's address
    assert "Atleta 5" in bodies[0].decode()


def test_an_unchanged_feed_is_a_304_and_a_change_renews_it(event, client):
    response, _b, _c = read(client)
    etag = response["ETag"]
    assert client.get(FEED, HTTP_IF_NONE_MATCH=etag).status_code == 304
    round_time_set(tournament=event, user=None, stage_key="grupos", round_number=3, time="16:00")
    again, _b, calendar = read(client, HTTP_IF_NONE_MATCH=etag)
    assert again["ETag"] != etag
    assert len([e for e in jogos(calendar) if isinstance(e.start, datetime.datetime)]) == 6


def test_a_draft_has_no_public_feed_and_an_event_without_date_an_empty_one(load_file, client):
    event = load_file(event_file())
    Tournament.objects.filter(pk=event.pk).update(published=False)
    assert client.get(FEED).status_code == 404
    load_file(json.loads(json.dumps(event_file(slug="sem-data", date=None))))
    _r, _b, calendar = read(client, "/torneios/sem-data/agenda.ics")
    assert list(calendar.events) == [] and str(calendar["VERSION"]) == "2.0"


def test_the_zone_comes_from_the_events_state():
    assert state_of("Manaus/AM") == "AM" and state_of("Rio Branco - AC") == "AC" and state_of("Cuiabá (MT)") == "MT"
    assert state_of("Campinas") == "" and state_of("") == "" and state_of("Porto/XX") == ""
    assert event_zone(city="Rio Branco - AC").key == "America/Rio_Branco"
    assert event_zone(city="Campinas/SP").key == "America/Sao_Paulo"
    assert event_zone(city="Lisboa").key == "America/Sao_Paulo"  # the site's zone


def test_the_event_page_and_the_duplas_page_link_their_feeds(event, client):
    page = client.get("/torneios/copa-manaus/").content.decode()
    assert 'href="/torneios/copa-manaus/agenda.ics"' in page
    assert 'href="webcal://127.0.0.1:8000/torneios/copa-manaus/agenda.ics"' in page
    dupla = Dupla.objects.get(tournament=event, key="d1")
    private = client.get(f"/d/{dupla.token}/").content.decode()
    assert f'href="/d/{dupla.token}/agenda.ics"' in private
    assert f'href="webcal://127.0.0.1:8000/d/{dupla.token}/agenda.ics"' in private
