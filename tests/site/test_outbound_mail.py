"""The e-mail the site sends for its users: the hourly limits (tournaments/mailquota.py: when a send fits, and when
a refused one will) and subjects that start with the site's words, never with an event's name (which anyone with
an account may choose)."""

import datetime as dt
from types import SimpleNamespace

from django.template.loader import render_to_string
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from tournaments.calls.messages import call_subject
from tournaments.mailquota import ACCOUNT, EVENT, WINDOW, Budget, Over, budgets_take, room_text

NOW = dt.datetime(2026, 5, 9, 15, 0, tzinfo=dt.UTC)
seconds_ago = st.integers(min_value=0, max_value=int(WINDOW.total_seconds()) - 1)


def _budget(ages: list[int], limit: int, scope: str = ACCOUNT) -> Budget:
    times = sorted(NOW - dt.timedelta(seconds=a) for a in ages)
    return Budget(scope=scope, limit=limit, now=NOW, times=times)


def _in_hour_before(times: list[dt.datetime], at: dt.datetime) -> int:
    return sum(1 for t in times if at - WINDOW < t <= at)


@given(st.lists(seconds_ago, max_size=40), st.integers(0, 30), st.integers(1, 8))
def test_room_is_the_first_moment_the_sends_fit_in_the_hour_before_it(ages, limit, need):
    budget = _budget(ages, limit)
    at = budget.room_at(need)
    if at is None:
        assert need > limit
        return
    assert at >= NOW
    assert _in_hour_before(budget.times, at) + need <= limit  # they fit then
    if at > NOW:  # and not a moment earlier
        assert _in_hour_before(budget.times, at - dt.timedelta(microseconds=1)) + need > limit
    over = budget.over(need)
    assert (over is None) == (at == NOW)
    if over is not None:
        assert (over.used, over.limit, over.until) == (len(ages), limit, at)


@given(st.lists(seconds_ago, max_size=30), st.lists(seconds_ago, max_size=30), st.integers(0, 20), st.integers(1, 5))
def test_sends_are_taken_from_every_budget_or_from_none(account_ages, event_ages, limit, need):
    account, event = _budget(account_ages, limit, ACCOUNT), _budget(event_ages, limit + 3, EVENT)
    before = (len(account.times), len(event.times))
    over = budgets_take([account, event], need)
    if over is None:
        assert (len(account.times), len(event.times)) == (before[0] + need, before[1] + need)
        assert account.over(0) is None and len(account.times) <= limit and len(event.times) <= limit + 3
    else:
        assert (len(account.times), len(event.times)) == before  # nothing taken
        refusing = [b for b in (account, event) if b.over(need) is not None]
        assert over.scope in {b.scope for b in refusing}
        # the limit that holds the sends longest is the one named
        latest = [b.room_at(need) for b in refusing]
        assert over.until is None if None in latest else over.until == max(latest)


def test_taking_the_last_place_refuses_the_next_until_the_oldest_leaves_the_hour():
    budget = _budget([3000, 60], limit=3)  # sent 50 and 1 minutes ago
    assert budgets_take([budget], 1) is None
    over = budgets_take([budget], 1)
    assert over == Over(scope=ACCOUNT, used=3, limit=3, until=NOW - dt.timedelta(seconds=3000) + WINDOW)
    assert budgets_take([budget], 4).until is None  # more than the limit itself: never


def test_room_text_says_the_minute_there_is_room_in_the_site_time():
    with timezone.override("America/Sao_Paulo"):
        at = dt.datetime(2026, 5, 9, 18, 42, 0, tzinfo=dt.UTC)
        assert room_text(Over(ACCOUNT, 3, 3, at)) == "às 15:42"
        # a moment after 15:42 there is room only from 15:43 on: never a minute early
        assert room_text(Over(ACCOUNT, 3, 3, at + dt.timedelta(seconds=1))) == "às 15:43"
        assert room_text(Over(ACCOUNT, 0, 0, None)) == "só com um limite maior: sozinho, o envio passa dele"


# a name has a word (the forms require one); any character, line breaks too
event_names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=200).filter(
    lambda name: len(name.split()) > 0
)


@given(event_names, st.integers(1, 999))
def test_a_calls_subject_starts_with_sua_vez_and_the_mesa_and_ends_with_the_event(name, mesa):
    jogo = SimpleNamespace(mesa=mesa, tournament=SimpleNamespace(name=name))
    subject = call_subject(jogo=jogo)
    assert subject.startswith(f"Sua vez: mesa {mesa} · ")
    assert subject.endswith(" ".join(name.split())) and len(subject.splitlines()) == 1


@given(event_names)
def test_an_invitations_subject_starts_with_the_sites_words(name):
    context = {"tournament": SimpleNamespace(name=name)}
    subject = " ".join(render_to_string("desk/staff/invite_subject.txt", context).split())
    assert subject.startswith("Convite para a equipe do torneio ")
    assert subject.endswith(" ".join(name.split()))  # the name as the subject's last words
