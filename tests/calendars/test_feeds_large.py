"""The event feed of a 1,024-dupla event (synthetic file: 256 groups, the knockout played): every jogo in it, read
back by ``icalendar``, and the time it takes (wall and CPU), printed: made from scratch (the process's URLs
loaded, the entries not written yet), made again after one result (each
jogo's entry is kept as written: only the changed ones are written again), and served from the cache."""

import json
import time

import icalendar
import pytest

from tournaments.caching import pages_clear
from tournaments.calendars import feeds
from tournaments.selectors import tournament_state_get
from tournaments.services import tournament_import
from tournaments.synthetic import synthetic_tournament

pytestmark = pytest.mark.django_db

DUPLAS = 1024


def test_the_feed_of_a_1024_dupla_event(client):
    data = synthetic_tournament(duplas=DUPLAS, seed=3)
    data["tournament"]["city"] = "Cuiabá/MT"
    data["stages"][0]["round_times"] = {"1": "09:00", "2": "10:00", "3": "11:00"}
    tournament = tournament_import(data=json.loads(json.dumps(data)))
    url = f"/torneios/{tournament.slug}/agenda.ics"
    assert client.get("/torneios/nao-existe/agenda.ics").status_code == 404  # the process's URLs and views loaded
    pages_clear()
    feeds.agenda_entries_clear()
    started, started_cpu = time.perf_counter(), time.process_time()
    tournament_state_get(tournament=tournament)  # the event's state, as its pages have it already
    state, state_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    started, started_cpu = time.perf_counter(), time.process_time()
    response = client.get(url)
    cold, cold_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    assert response.status_code == 200
    calendar = icalendar.Calendar.from_ical(response.content)
    jogos = [e for e in calendar.events if ".jogo." in str(e["UID"])]
    expected = tournament.jogos.count()
    assert len(jogos) == expected > 2000
    timed = [e for e in jogos if getattr(e.start, "tzinfo", None) is not None]
    assert len(timed) == 1536 and {e.start.tzinfo.key for e in timed} == {"America/Cuiaba"}  # 256 groups x 6
    pages_clear()  # as after a result: the feed made again, its entries as written
    started, started_cpu = time.perf_counter(), time.process_time()
    assert client.get(url).status_code == 200
    again, again_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    started = time.perf_counter()
    assert client.get(url).status_code == 200
    cached = time.perf_counter() - started
    print(
        f"\nagenda.ics, {DUPLAS} duplas, {expected} jogos, {len(response.content) // 1024} KB: "
        f"{cold * 1000:.0f} ms from scratch, CPU {cold_cpu * 1000:.0f} ms (the state read before: {state * 1000:.0f} ms, "
        f"CPU {state_cpu * 1000:.0f} ms), {again * 1000:.0f} ms again (entries kept, CPU {again_cpu * 1000:.0f} ms), "
        f"{cached * 1000:.1f} ms cached"
    )
    assert again < cold
