"""Calendar feeds (iCalendar, RFC 5545, written with the ``icalendar`` library): an event's schedule
(``/torneios/<slug>/agenda.ics``) and a dupla's own jogos (``/d/<token>/agenda.ics``), so a phone's calendar
shows each jogo with its mesa and time and reminds the players.

- **What**: the event itself (its date and start, at its venue) and one entry per jogo the schedule has made
  (its duplas, its stage, group and round, its mesa, the time the organizer gave its round; a round without a
  time: an all-day entry on the event's date, "horário a definir"), with the link to its public súmula.
- **When**: the venue's wall-clock times, in the event's zone (``zones.event_zone``: Manaus is UTC-4), written
  with the zone's name and its VTIMEZONE, so a phone anywhere shows the right moment.
- **Stable**: each entry's UID is the tournament (its id and creation time) and the jogo's key (and, in a
  dupla's feed, the dupla's key): the same jogo keeps its UID when its mesa or time moves, so a subscribed
  calendar moves the entry instead of adding another. ``SEQUENCE`` is the tournament's results version, which
  every change a page shows moves: it only grows.
- **Public data only**: names of duplas and players, mesas, times, results; never a birth date, a contact, a PIN
  or the dupla's private link (the feed's own address is private; nothing in it is).

Each entry is written once per content (``_vevent_lines``, kept per process): a result changes one jogo's entry,
and the feed of a 1,024-dupla event is made again from the others as written.
"""

from __future__ import annotations

import datetime
import functools
import html
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import icalendar
from django.utils.translation import gettext as _

from ..presenters.jogo import jogo_item_maker
from ..round_times import round_time_of
from .zones import event_zone

if TYPE_CHECKING:
    from ..models import Tournament
    from ..rows import JogoRow
    from ..state import TournamentState

__all__ = [
    "AgendaItem",
    "agenda_entries_clear",
    "agenda_ics",
    "agenda_items",
    "agenda_kept",
    "dupla_agenda",
    "event_agenda",
]

PRODID = "-//Zap//Agenda de truco//PT-BR"
REFRESH = datetime.timedelta(minutes=30)  # how often a subscribed calendar is asked to read the feed again
PER_PARTIDA = datetime.timedelta(minutes=20)  # a jogo's length when the next round's time does not say it
SHORTEST = datetime.timedelta(minutes=30)
LONGEST = datetime.timedelta(hours=3)
EVENT_LENGTH = datetime.timedelta(hours=4)  # the event's own entry, when no jogo's time says how long it runs


@dataclass(frozen=True, slots=True)
class AgendaItem:
    """One calendar entry, in ready values: ``start``/``end`` a datetime in the event's zone, or a date (an
    all-day entry; ``end`` the day after, as iCalendar counts it)."""

    uid: str
    start: datetime.datetime | datetime.date
    end: datetime.datetime | datetime.date
    summary: str
    location: str
    description: str
    url: str


def _plain(text: str) -> str:
    """A presenter's label as plain text (some are made for HTML: escaped)."""
    return html.unescape(str(text or ""))


def _uid_base(state: TournamentState, site_url: str) -> tuple[str, str]:
    tournament = state.tournament
    host = urlsplit(site_url).hostname or "zap"
    return f"{tournament.pk}.{int(tournament.created_at.timestamp())}", host


def _round_ends(state: TournamentState) -> dict[tuple[int, int], datetime.time]:
    """(stage id, round) -> the time the stage's next round is called (a jogo runs until then at most)."""
    out: dict[tuple[int, int], datetime.time] = {}
    for model in state.stage_models.values():
        times = sorted(
            (int(n), datetime.time.fromisoformat(t)) for n, t in (model.round_times or {}).items() if str(n).isdigit()
        )
        for i, (number, time) in enumerate(times):
            later = [t for _n, t in times[i + 1 :] if t > time]
            if later:
                out[(model.id, number)] = later[0]
    return out


def agenda_items(state: TournamentState, *, site_url: str, dupla: str | None = None) -> list[AgendaItem]:
    """The event's entry and one per jogo (only ``dupla``'s jogos when given), in the order of the schedule."""
    tournament = state.tournament
    zone = event_zone(city=tournament.city)
    base, host = _uid_base(state, site_url)
    mine = f".dupla.{dupla}" if dupla else ""
    place = ", ".join(p for p in (tournament.venue, tournament.city) if p)
    site = site_url.rstrip("/")
    event_url = f"{site}/torneios/{tournament.slug}/"
    items: list[AgendaItem] = []
    if tournament.date is None:
        return items  # no date, no calendar entry: the feed stays valid and empty until the date is set
    day = tournament.date
    next_day = day + datetime.timedelta(days=1)
    make = jogo_item_maker(state)
    stage_of = {m.id: m for m in state.stage_models.values()}
    ends = _round_ends(state)
    key_of = state.dupla_key_by_id()
    rows: Iterable[JogoRow] = state.jogo_rows
    if dupla:
        rows = [r for r in rows if dupla in (key_of.get(r.dupla_a_id), key_of.get(r.dupla_b_id))]
    last_end: datetime.datetime | None = None
    jogos: list[AgendaItem] = []
    # the entries' words, translated once (not 3 lookups a jogo in the language's catalogs)
    vs_text, against_text, mesa_text = _("%(a)s x %(b)s"), _("contra %(b)s"), _("Mesa %(n)s")
    opponent_text, no_mesa_text = _("Adversário: %(n)s (%(p)s)"), _("Mesa a definir")
    no_time_text = _("Horário a definir: acompanhe a programação do evento.")
    status_text = _("Situação: %(s)s")
    plain = functools.lru_cache(maxsize=None)(_plain)  # the same names, stages and groups, jogo after jogo
    for row in sorted(rows, key=lambda r: (r.entry_order is None, r.entry_order or 0, r.id)):
        item = make(row)
        time_text = round_time_of(stage_of.get(row.stage_id), row.round)
        if dupla and key_of.get(row.dupla_b_id) == dupla:
            me, them = item.b, item.a
        else:
            me, them = item.a, item.b
        if dupla:
            vs = against_text % {"b": plain(them.name)}
        else:
            vs = vs_text % {"a": plain(me.name), "b": plain(them.name)}
        mesa = mesa_text % {"n": row.mesa} if row.mesa else ""
        summary = " · ".join(p for p in (mesa, vs) if p)
        where = " · ".join(p for p in (plain(item.stage_title), plain(item.group), plain(item.round_title)) if p)
        lines = [tournament.name, where]
        if dupla:
            lines.append(opponent_text % {"n": plain(them.name), "p": plain(them.players)})
        else:
            lines.append(plain(me.name) + " (" + plain(me.players) + ")")
            lines.append(plain(them.name) + " (" + plain(them.players) + ")")
        lines.append(mesa or no_mesa_text)
        start: datetime.datetime | datetime.date
        end: datetime.datetime | datetime.date
        if time_text:
            start = datetime.datetime.combine(day, datetime.time.fromisoformat(time_text), tzinfo=zone)
            until = ends.get((row.stage_id, row.round or 0))
            length = (
                datetime.datetime.combine(day, until, tzinfo=zone) - start
                if until is not None
                else PER_PARTIDA * (row.best_of or 1)
            )
            end = start + min(max(length, SHORTEST), LONGEST)
            last_end = end if last_end is None or end > last_end else last_end
        else:
            start, end = day, next_day
            lines.append(no_time_text)
        status = plain(item.status.label)
        result = plain(item.score_text)
        lines.append(status_text % {"s": status} + (f" ({result})" if result else ""))
        url = f"{site}{item.sumula_url}"
        lines.append(url)
        jogos.append(
            AgendaItem(
                uid=f"{base}.jogo.{row.key}{mine}@{host}",
                start=start,
                end=end,
                summary=summary,
                location=" · ".join(p for p in (mesa, place) if p),
                description="\n".join(p for p in lines if p),
                url=url,
            )
        )
    start_event: datetime.datetime | datetime.date = day
    end_event: datetime.datetime | datetime.date = next_day
    if tournament.start_time is not None:
        start_event = datetime.datetime.combine(day, tournament.start_time, tzinfo=zone)
        end_event = max(start_event + EVENT_LENGTH, last_end or start_event)
    about = [p for p in (tournament.category, place) if p]
    items.append(
        AgendaItem(
            uid=f"{base}.torneio{mine}@{host}",
            start=start_event,
            end=end_event,
            summary=tournament.name,
            location=place,
            description="\n".join([*about, event_url]),
            url=event_url,
        )
    )
    return items + jogos


@functools.lru_cache(maxsize=16384)
def _vevent_lines(item: AgendaItem) -> bytes:
    """An entry's content lines (folded, escaped), without BEGIN/END and the lines every feed writes anew.

    The values are typed and escaped by the library; a value many entries share (a round's start and end, a
    mesa's location) is written once per process (``_shared_line``), a value of this entry only (its UID, summary,
    description, link) through the library's value type alone, without a property object and its parameters per
    line (what ``Event.add``/``content_lines`` cost: 3/4 of a 2,048-jogo feed's first build)."""
    parts = [  # in the library's order: its canonical ones first, then the others by name
        _text_line(b"SUMMARY", item.summary),
        _shared_line("dtstart", item.start),
        _shared_line("dtend", item.end),
        _text_line(b"UID", item.uid),
        _text_line(b"DESCRIPTION", item.description),
    ]
    if item.location:
        parts.append(_shared_line("location", item.location))
    parts += [
        _shared_line("transp", "OPAQUE"),
        _folded_bytes(b"URL:" + icalendar.vUri(item.url).to_ical()),
    ]
    return b"".join(parts)


def _shared_line(name: str, value: datetime.datetime | datetime.date | str) -> bytes:
    """One property as the library writes it in a VEVENT (its parameters, such as a time's TZID or a date's
    VALUE=DATE), folded: kept per value, its type and its zone (14:45 in Manaus equals 15:45 in São Paulo)."""
    return _shared_line_kept(name, type(value).__name__, str(getattr(value, "tzinfo", None)), value)


@functools.lru_cache(maxsize=4096)
def _shared_line_kept(name: str, kind: str, zone: str, value: datetime.datetime | datetime.date | str) -> bytes:
    event = icalendar.Event()
    event.add(name, value)
    lines = [line for line in event.content_lines() if line]
    assert len(lines) == 3 and lines[0] == "BEGIN:VEVENT" and lines[-1] == "END:VEVENT"
    return _folded(lines[1])


def _text_line(name: bytes, value: str) -> bytes:
    """A TEXT property without parameters, its value escaped by the library (RFC 5545 §3.3.11), folded."""
    return _folded_bytes(name + b":" + icalendar.vText(value).to_ical())


def _folded(line: str) -> bytes:
    """A content line folded at 75 octets (RFC 5545 §3.1), never inside a character's UTF-8 bytes: what the
    library's own folding does, a character at a time (5 s of the 7 a 2,048-jogo feed took)."""
    return _folded_bytes(line.encode())


def _folded_bytes(raw: bytes) -> bytes:
    """``_folded`` of a line already in UTF-8."""
    if len(raw) <= 75:
        return raw + b"\r\n"
    parts = []
    start, width = 0, 75
    while len(raw) - start > width:
        cut = start + width
        while raw[cut] & 0xC0 == 0x80:  # a continuation byte: cut before its character
            cut -= 1
        parts.append(raw[start:cut])
        start, width = cut, 74  # the next lines start with a space
    parts.append(raw[start:])
    return b"\r\n ".join(parts) + b"\r\n"


@functools.lru_cache(maxsize=16)
def _vtimezone(key: str) -> bytes:
    return icalendar.Timezone.from_tzid(key).to_ical()


def agenda_entries_clear() -> None:
    """Forget the entries (and zones) written by this process: the next feed is written from scratch (benchmarks)."""
    _vevent_lines.cache_clear()
    _shared_line_kept.cache_clear()
    _vtimezone.cache_clear()


def agenda_ics(*, name: str, items: list[AgendaItem], zone: ZoneInfo, sequence: int, stamp: datetime.datetime) -> bytes:
    """The feed: a VCALENDAR (its name, zone and how often to read it again), the zone's VTIMEZONE, the entries."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", zone.key)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    head = calendar.to_ical()
    end = b"END:VCALENDAR\r\n"
    assert head.endswith(end)
    stamp_line = icalendar.vDDDTypes(stamp.astimezone(datetime.UTC)).to_ical()
    common = b"DTSTAMP:" + stamp_line + b"\r\nSEQUENCE:" + str(max(sequence, 0)).encode() + b"\r\n"
    parts = [head[: -len(end)]]
    if any(isinstance(i.start, datetime.datetime) for i in items):
        parts.append(_vtimezone(zone.key))
    for item in items:
        parts += [b"BEGIN:VEVENT\r\n", common, _vevent_lines(item), b"END:VEVENT\r\n"]
    parts.append(end)
    return b"".join(parts)


def event_agenda(state: TournamentState, *, site_url: str, stamp: datetime.datetime) -> bytes:
    """The event's whole schedule as a feed."""
    tournament = state.tournament
    return agenda_ics(
        name=tournament.name,
        items=agenda_items(state, site_url=site_url),
        zone=event_zone(city=tournament.city),
        sequence=state.version,
        stamp=stamp,
    )


def dupla_agenda(state: TournamentState, *, dupla: str, site_url: str, stamp: datetime.datetime) -> bytes:
    """A dupla's jogos (and the event's entry) as a feed, named for the dupla."""
    tournament = state.tournament
    ref = state.duplas[dupla]
    name = ref.name or f"{ref.player1.name} / {ref.player2.name}"
    return agenda_ics(
        name=f"{tournament.name} · {name}",
        items=agenda_items(state, site_url=site_url, dupla=dupla),
        zone=event_zone(city=tournament.city),
        sequence=state.version,
        stamp=stamp,
    )


def agenda_kept(*, tournament: Tournament, dupla: str | None = None) -> tuple[str, bytes]:
    """The feed of the event (or of its ``dupla``, a key of its duplas) with its cache key: kept in the shared
    cache per results version and language, like the event's pages (a phone asking again costs one query)."""
    from django.conf import settings
    from django.utils import timezone, translation

    from ..caching import page_get, page_key, page_put
    from ..selectors import tournament_state_get

    key = page_key(tournament=tournament, name=f"agenda.ics:{dupla or ''}", language=translation.get_language())
    body = page_get(key)
    if body is None:
        state = tournament_state_get(tournament=tournament)
        stamp = timezone.now()
        if dupla is None:
            body = event_agenda(state, site_url=settings.SITE_URL, stamp=stamp)
        else:
            body = dupla_agenda(state, dupla=dupla, site_url=settings.SITE_URL, stamp=stamp)
        page_put(key, body)
    return key, body
