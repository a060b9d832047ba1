"""The results engine by part and the one write path (tournaments/engine.py, tournaments/writes.py)."""

from __future__ import annotations

import ast
import json
import pkgutil
from importlib import import_module
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import tournaments
from tests.support.sumula import PIN, answer, api, cup_setup, jogo_between, jogo_duplas, post, staff_user
from tournaments.engine import parts_of
from tournaments.models import Dupla, Jogo, ResultPart, StaffRole, Tournament, TournamentChange
from tournaments.selectors import tournament_live_version, tournament_state_get, tournament_state_load
from tournaments.staff.pins import pin_hash_make
from tournaments.writes import UnguardedWrite, tournament_rebuild, write_guard

pytestmark = pytest.mark.django_db


def two_groups_file(slug: str = "dois-grupos") -> dict:
    """Two groups of three (best of 1), then a final of the two group winners: nothing played."""
    players = [{"key": f"p{i}", "name": f"Jogador {i}"} for i in range(1, 13)]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Dois Grupos", "slug": slug, "date": "2026-11-28", "preset": "fenacef"},
        "players": players,
        "duplas": [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 7)],
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 1,
                "groups": [{"key": "A", "duplas": ["d1", "d2", "d3"]}, {"key": "B", "duplas": ["d4", "d5", "d6"]}],
                "qualify": {"per_group": 1, "best_others": 0},
            },
            {"key": "final", "kind": "knockout", "best_of": 1, "entrants": "previous", "draw": {"method": "seeded"}},
        ],
        "jogos": [],
    }


@pytest.fixture
def event(load_file):
    tournament = load_file(two_groups_file())
    for dupla in Dupla.objects.filter(tournament=tournament):
        dupla.pin_hash = pin_hash_make(PIN.get(dupla.key, "135790"))
        dupla.save(update_fields=["pin_hash"])
    return tournament


@pytest.fixture
def referee(event, client):
    client.force_login(staff_user(event, "arbitro", StaffRole.REFEREE))
    return client


def _pin(dupla: str) -> str:
    return PIN.get(dupla, "135790")


def _count(client, tournament: Tournament, winner: str, loser: str) -> str:
    """Record a 12 x 0 partida won by ``winner`` in its jogo against ``loser``, and both duplas confirm it."""
    key = jogo_between(tournament, winner, loser)
    first = jogo_duplas(tournament, key)[0]
    response = post(
        client,
        api(tournament.slug, key, "resultado"),
        {"id": f"r-{key}", "partidas": [[12, 0] if first == winner else [0, 12]]},
    )
    assert response.status_code in (200, 201), response.content
    jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=tournament, key=key)
    for dupla in (jogo.dupla_a.key, jogo.dupla_b.key):
        response = answer(client, tournament.slug, key, dupla, pin=_pin(dupla))
        assert response.status_code == 200, response.content
    return key


def _versions(tournament: Tournament) -> dict[str, int]:
    return dict(ResultPart.objects.filter(tournament=tournament).values_list("key", "version"))


def test_a_counted_result_gives_a_new_version_to_the_parts_it_touches_only(event, referee):
    before = _versions(event)
    assert {"g:grupos:A", "g:grupos:B", "s:grupos", "k:final", "c"} <= set(before)
    version = Tournament.objects.get(pk=event.pk).results_version
    key = _count(referee, event, "d1", "d2")
    t = Tournament.objects.get(pk=event.pk)
    assert t.results_version == version + 1  # one version: the second confirmation (the first counts nothing)
    change = TournamentChange.objects.get(tournament=event, version=t.results_version)
    assert change.action == "sumula.answer"
    assert change.jogos == [Jogo.objects.get(tournament=event, key=key).pk]
    assert "g:grupos:A" in change.parts and "g:grupos:B" not in change.parts
    after = _versions(event)
    assert after["g:grupos:A"] == t.results_version
    assert after["g:grupos:B"] == before["g:grupos:B"]  # the other group's table is the same: same version
    assert after["k:final"] == before["k:final"]  # nobody qualified yet: the bracket did not change


def test_the_state_after_a_write_equals_a_full_rebuild_in_another_process(event, referee):
    tournament_state_get(tournament=event)  # this process holds the state of the first version
    _count(referee, event, "d1", "d2")
    _count(referee, event, "d5", "d4")
    t = Tournament.objects.get(pk=event.pk)
    with CaptureQueriesContext(connection) as queries:
        advanced = tournament_state_get(tournament=t)
    # advanced from the log: the changes since, then the two jogos read again (no whole load)
    assert len(queries) <= 4, [q["sql"] for q in queries]
    rebuilt = tournament_state_load(tournament=t)
    assert advanced.version == rebuilt.version == t.results_version
    assert parts_of(advanced.view) == parts_of(rebuilt.view)
    assert advanced.records == rebuilt.records and advanced.view.stats == rebuilt.view.stats
    assert [j.id for j in advanced.jogo_rows] == [j.id for j in rebuilt.jogo_rows]


def test_the_knockout_follows_the_groups_through_the_engine(event, referee):
    for pair in (("d1", "d2"), ("d1", "d3"), ("d2", "d3"), ("d4", "d5"), ("d4", "d6"), ("d5", "d6")):
        _count(referee, event, *pair)
    final = Jogo.objects.filter(tournament=event, stage__key="final")
    assert final.count() == 1 and {final[0].dupla_a.key, final[0].dupla_b.key} == {"d1", "d4"}
    t = Tournament.objects.get(pk=event.pk)
    assert parts_of(tournament_state_get(tournament=t).view) == parts_of(tournament_state_load(tournament=t).view)


def test_a_mao_never_touches_the_tournament_row(event, referee):
    key = jogo_between(event, "d1", "d2")
    version = Tournament.objects.get(pk=event.pk).results_version
    live = tournament_live_version(tournament=event)
    changes = TournamentChange.objects.count()
    with CaptureQueriesContext(connection) as queries:
        response = post(referee, api(event.slug, key, "maos"), {"id": "m-1", "to": 0, "points": 3})
    assert response.status_code == 201, response.content
    table = Tournament._meta.db_table
    locks = [q["sql"] for q in queries if "FOR UPDATE" in q["sql"].upper()]  # none on SQLite: no row locks
    assert all(f'FROM "{table}"' not in sql and f'OF "{table}"' not in sql for sql in locks), locks
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith("UPDATE") and f'"{table}"' in q["sql"]]
    assert (
        Tournament.objects.get(pk=event.pk).results_version == version and TournamentChange.objects.count() == changes
    )
    assert tournament_live_version(tournament=event) == live + 1


def test_a_registration_gives_a_version_without_recomputing_the_parts(event):
    from tournaments.registrations.services import PersonIn, registration_add

    before = _versions(event)
    version = Tournament.objects.get(pk=event.pk).results_version
    organizer = staff_user(event, "org", StaffRole.ORGANIZER)
    registration_add(tournament=event, players=[PersonIn(name="Zeca Um"), PersonIn(name="Zico Dois")], user=organizer)
    t = Tournament.objects.get(pk=event.pk)
    assert t.results_version == version + 1  # the event page lists who registered
    assert TournamentChange.objects.get(tournament=event, version=t.results_version).parts == []
    assert _versions(event) == before


def test_polled_pages_and_the_jogos_list_answer_304(event, referee, client):
    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    first = client.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    _count(referee, event, "d1", "d2")  # a new version: a new tag, the new table
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag

    listing = api(event.slug)
    first = referee.get(listing)
    assert first.status_code == 200 and first["ETag"]
    assert referee.get(listing, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    post(referee, api(event.slug, jogo_between(event, "d4", "d5"), "maos"), {"id": "m-9", "to": 0, "points": 1})
    fresh = referee.get(listing, HTTP_IF_NONE_MATCH=first["ETag"])
    assert (
        fresh.status_code == 200
        and json.loads(fresh.content)["live_version"] > json.loads(first.content)["live_version"]
    )


def test_a_rebuild_is_a_structural_write(event):
    version = Tournament.objects.get(pk=event.pk).results_version
    write = tournament_rebuild(tournament=event, action="test")
    assert write.version == version + 1
    assert TournamentChange.objects.get(tournament=event, version=write.version).jogos is None
    assert set(_versions(event).values()) == {write.version}


# --- the one write path ---------------------------------------------------------------------------------


def test_the_guard_refuses_a_site_write_outside_the_path(event):
    source = "def rename(pk):\n    Dupla.objects.filter(pk=pk).update(name='fora do caminho')\n"
    namespace = {"Dupla": Dupla}
    exec(compile(source, str(Path(tournaments.__file__).parent / "fake_service.py"), "exec"), namespace)
    dupla = Dupla.objects.filter(tournament=event).first()
    with connection.execute_wrapper(write_guard), pytest.raises(UnguardedWrite, match="fake_service.py"):
        with transaction.atomic():
            namespace["rename"](dupla.pk)
    # the test's own setup may write directly
    with connection.execute_wrapper(write_guard):
        Dupla.objects.filter(pk=dupla.pk).update(name="da configuração do teste")


ORM_WRITES = {"save", "create", "bulk_create", "bulk_update", "update", "delete", "get_or_create", "update_or_create"}
# the path itself: the engine writes versions, the change log and the bracket's jogos inside a write
# the engine and the write path themselves, and the stored derived state (no data of the tournament's: a copy
# of what the engine computed, which tests/engine/test_snapshots.py checks is never read when it does not fit)
NOT_SERVICES = {"tournaments.engine", "tournaments.writes", "tournaments.snapshots"}
# online play's own rows (tables ``online_*``: tables, seats, events, chat, conduct, profiles, the online ranking):
# no tournament's data, one locked table row orders them (docs/arquitetura.md, "Por onde passa uma jogada
# online"); what they write of a tournament (a súmula's mãos, a WO, an answer, a jogo marked online) goes through
# the súmula's services or opens ``tournament_write`` itself, and ``write_guard`` checks it at run time
NOT_SERVICES |= {
    "tournaments.online.chat",
    "tournaments.online.conduct",
    "tournaments.online.people",
    "tournaments.online.ranking",
    "tournaments.online.services",
    "tournaments.online.tournament",
}
GUARDS = {"tournament_write", "tournament_rebuild", "write_required", "circuit_write"}  # circuit_write opens one
NOT_TOURNAMENT_WRITES = {
    # the account made on accepting an invitation (an auth user); the role comes from invitation_accept
    "tournaments.accounts.views.invitation",
    # the atletas' Nível: derived rows recomputed from the database after a write commits (like a state snapshot)
    "tournaments.atletas.services.nivel_follow",
    "tournaments.atletas.services.nivel_later",
    "tournaments.atletas.services._nivel_thread",
    "tournaments.atletas.services.nivel_update",
}


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def _calls(node: ast.AST) -> set[str]:
    out = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            out.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    return out


def _chain(node: ast.AST) -> list[str]:
    """The names along an attribute chain, innermost first: ``Jogo.objects.filter(x).update`` -> [Jogo, objects,
    filter, update]."""
    out = []
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            out.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Name):
            out.append(node.id)
            return out[::-1]
        else:
            return out[::-1]


NOT_MODELS = {
    "canvas",
    "c",
    "pdf",
    "doc",
    "digest",
    "hasher",
    "session",
    "request",
    "cache",
    "caches",
    "response",
    "self",
    "super",
    "form",
    "formset",
    "wb",
    "workbook",
    "data",
    "out",
    "acc",
    "seen",
    "kwargs",
    "params",
    "context",
    "result",
    "found",
    "counts",
    "totals",
    "merged",
    "rows",
    "extra",
    "settings",
    "headers",
}


def _orm_writes(node: ast.AST) -> bool:
    """Whether ``node`` writes with the ORM: a manager or queryset write (``Model.objects….update()``), or a
    model instance saved or deleted (``jogo.save()``)."""
    for sub in ast.walk(node):
        if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr in ORM_WRITES):
            continue
        chain = _chain(sub.func)
        if "objects" in chain or any(part.endswith("_set") for part in chain):
            return True
        if sub.func.attr in ("save", "delete") and len(chain) == 2 and chain[0] not in NOT_MODELS:
            return True
    return False


def _site_modules():
    for info in pkgutil.walk_packages(tournaments.__path__, "tournaments."):
        if ".migrations" in info.name or ".management" in info.name:
            continue
        yield import_module(info.name)


def test_every_write_service_goes_through_the_one_path():
    """Walk every function of the site's modules: one that writes with the ORM (itself or through a helper of
    its module) must open ``tournament_write``, or be a helper called only by functions of its module that do.
    The test suite runs under ``write_guard`` too, which fails any such write at run time."""
    offenders = []
    for module in _site_modules():
        if module.__name__ in NOT_SERVICES or not hasattr(module, "__file__"):
            continue
        tree = ast.parse(Path(module.__file__).read_text())
        functions = _functions(tree)
        if not functions:
            continue
        guarded = {name for name, node in functions.items() if _calls(node) & GUARDS}
        # writes outside the path: a function that writes with the ORM, or calls a helper of its module that
        # does, unless it opens a write (or requires one) itself
        loose = {name for name, node in functions.items() if _orm_writes(node) and name not in guarded}
        grew = True
        while grew:
            grew = False
            for name, node in functions.items():
                if name not in loose and name not in guarded and _calls(node) & loose:
                    loose.add(name)
                    grew = True
        callers = {name: {other for other, node in functions.items() if name in _calls(node)} for name in functions}
        # a private helper is fine when every caller in its module opens a write, or is such a helper
        covered = set(guarded)
        grew = True
        while grew:
            grew = False
            for name in loose - covered:
                if name.startswith("_") and callers[name] and callers[name] <= covered:
                    covered.add(name)
                    grew = True
        for name in sorted(loose - covered):
            if f"{module.__name__}.{name}" in NOT_TOURNAMENT_WRITES:
                continue
            offenders.append(f"{module.__name__}.{name}")
    assert not offenders, "writes outside writes.tournament_write: " + ", ".join(offenders)


def test_the_admin_and_the_file_import_go_through_the_engine(admin_client, event):
    """An admin edit is a write like any other: the engine gives it a version and logs it."""
    version = Tournament.objects.get(pk=event.pk).results_version
    dupla = Dupla.objects.filter(tournament=event).order_by("id").first()
    url = reverse("admin:tournaments_dupla_change", args=[dupla.pk])
    page = admin_client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, (list, dict))}
    data.update({"name": "Renomeada no Admin"})
    response = admin_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Dupla.objects.get(pk=dupla.pk).name == "Renomeada no Admin"
    t = Tournament.objects.get(pk=event.pk)
    assert t.results_version > version
    assert TournamentChange.objects.filter(tournament=event, version=t.results_version, jogos__isnull=True).exists()


def test_a_server_process_loads_the_site_before_its_first_request(caplog):
    """config/warmup.py (run by config/wsgi.py in production): the URLconf, the public templates, both catalogues."""
    import logging

    from django.template.loader import get_template

    from config.warmup import TEMPLATE_FOLDERS, server_warm

    with caplog.at_level(logging.WARNING, "config.warmup"):
        server_warm()
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert "tournaments" in TEMPLATE_FOLDERS and get_template("tournaments/standings.html") is not None


def test_after_the_warm_up_a_page_builds_no_url_tables(monkeypatch):
    """reverse() builds a resolver per namespace and language on first use (7 ms on a process's first page):
    the warm-up builds them, so reversing a name of each audience in either language builds nothing."""
    from django.urls import resolvers
    from django.utils import translation

    from config.warmup import server_warm

    server_warm()
    built = []
    original = resolvers.URLResolver._populate
    monkeypatch.setattr(resolvers.URLResolver, "_populate", lambda self: (built.append(self), original(self)))
    for language in ("pt-br", "en"):
        with translation.override(language):
            reverse("tournaments:standings", kwargs={"slug": "copa"})
            reverse("tournaments:list")
    assert built == []


def test_work_put_in_the_background_during_a_request_starts_after_its_response():
    """Pickling a state holds the interpreter's lock: the page being served does not wait for it."""
    import threading

    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from tournaments.caching import background_run, shares_wait

    ran = threading.Event()
    request_finished.disconnect(close_old_connections)  # as Django's test client does
    try:
        request_started.send(sender=None)
        try:
            background_run(ran.set, name="test")
            assert not ran.wait(0.2)  # the response is not sent yet
        finally:
            request_finished.send(sender=None)
        assert ran.wait(5)
    finally:
        request_finished.connect(close_old_connections)
    ran.clear()
    background_run(ran.set, name="test")  # outside a request: at once
    shares_wait()
    assert ran.is_set()


def test_after_a_counted_result_a_page_renders_only_the_group_that_changed(event, referee, client):
    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    first = client.get(url)
    tables = [t.name for t in first.templates].count("tournaments/_standings_table.html")
    assert tables == 2  # groups A and B, rendered once each
    _count(referee, event, "d1", "d2")  # group A changes; B keeps its version
    again = client.get(url)
    assert [t.name for t in again.templates].count("tournaments/_standings_table.html") == 1
    html = again.content.decode()
    assert html.count('class="card group-card"') == 2  # B's table comes from its kept fragment
    from django.core.cache import caches

    caches["default"].clear()
    from tournaments.selectors import tournament_state_cache_clear

    tournament_state_cache_clear()
    from tests.support.engine import page_normalized

    fresh = client.get(url).content
    assert page_normalized(fresh) == page_normalized(again.content)  # the same page as from nothing


def test_the_kept_group_tables_of_a_page_are_read_in_one_round_trip(event, referee, client, monkeypatch):
    """{% partprefetch %}: after a counted result, the page asks the cache server for its groups' fragments at
    once (one ``get_many``), never one ``get`` per group; the changed group is rendered, the other comes kept."""
    from django.core.cache import caches

    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    client.get(url)
    _count(referee, event, "d1", "d2")  # group A changes; B keeps its version
    cache, gets, many = caches["default"], [], []
    real_get, real_many = cache.get, cache.get_many

    def get_many(keys, *args, **kwargs):
        many.append(list(keys))
        monkeypatch.setattr(cache, "get", real_get)  # a local memory cache's get_many asks get for each key
        try:
            return real_many(keys, *args, **kwargs)
        finally:
            monkeypatch.setattr(cache, "get", get)

    def get(key, *args, **kwargs):
        gets.append(key)
        return real_get(key, *args, **kwargs)

    monkeypatch.setattr(cache, "get", get)
    monkeypatch.setattr(cache, "get_many", get_many)
    again = client.get(url)
    assert [t.name for t in again.templates].count("tournaments/_standings_table.html") == 1
    assert again.content.decode().count('class="card group-card"') == 2
    assert not [k for k in gets if k.startswith("frag:")]
    assert [len(keys) for keys in many if keys and keys[0].startswith("frag:")] == [2]


def test_a_cached_page_is_compressed_once_per_version_and_minute(event, referee, client, monkeypatch):
    import gzip

    from tournaments import web

    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    calls = []
    original = web._GZIP.process_response
    monkeypatch.setattr(web._GZIP, "process_response", lambda req, resp: calls.append(1) or original(req, resp))
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    second = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == second["Content-Encoding"] == "gzip"
    assert second.content == first.content and gzip.decompress(second.content).startswith(b"<!doctype html>")
    assert second["ETag"] == first["ETag"] and "Accept-Encoding" in second["Vary"]
    assert len(calls) == 1  # the second hit reused the compressed body
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    _count(referee, event, "d1", "d2")
    third = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert third["ETag"] != first["ETag"] and len(calls) == 2
    assert client.get(url).content == gzip.decompress(third.content)  # uncompressed: the same page


def test_live_scores_are_coalesced_for_a_moment_but_results_never(event, referee, client, settings):
    import time

    settings.ZAP_LIVE_COALESCE_SECONDS = 0.5
    url = reverse("tournaments:jogos", kwargs={"slug": event.slug})
    key = jogo_between(event, "d4", "d5")
    before = client.get(url).content
    post(referee, api(event.slug, key, "maos"), {"id": "c-1", "to": 0, "points": 3})
    assert client.get(url).content == before  # the scores of the last half second
    time.sleep(0.6)
    assert client.get(url).content != before  # then the mão
    shown = client.get(url).content
    _count(referee, event, "d1", "d2")  # a result that counts: at once, whatever the moment
    assert client.get(url).content != shown


def test_the_live_page_of_the_last_second_is_kept_in_the_process_and_never_older(settings):
    """A spectator's poll reads the coalesced live page from the process's copy (0.5 MB for a large event's
    jogos page), else the shared cache's, and every copy ends with the second it was made for."""
    import time

    from tournaments.caching import page_put
    from tournaments.public import views

    settings.ZAP_LIVE_COALESCE_SECONDS = 0.3
    views._recent_put("recent:test", b"key\npage")
    assert views._recent_get("recent:test") == b"key\npage"
    views._RECENT.clear()  # another process: the shared cache's copy, until the same moment
    assert views._recent_get("recent:test") == b"key\npage"
    time.sleep(0.35)
    assert views._recent_get("recent:test") is None
    page_put("recent:old", b"%.3f\n" % (time.time() - 1) + b"key\nold", timeout=60)  # a copy past its second
    assert views._recent_get("recent:old") is None


def test_the_list_of_events_is_cached_until_an_event_moves_on(
    event, referee, client, django_assert_max_num_queries, django_capture_on_commit_callbacks
):
    url = reverse("tournaments:list")
    first = client.get(url).content.decode()
    assert "a começar" in first
    with django_assert_max_num_queries(1):  # the events' versions; the page itself from the cache
        assert client.get(url).content.decode() == first
    with django_capture_on_commit_callbacks(execute=True):  # as in production: what follows the commit runs
        post(referee, api(event.slug, jogo_between(event, "d1", "d2"), "maos"), {"id": "l-1", "to": 0, "points": 1})
    assert "em andamento" in client.get(url).content.decode()  # its first jogo at the table: a new version
    assert "Dois Grupos" in client.get(url + "?q=dois").content.decode()  # a search is never cached


def test_a_value_fragment_is_rendered_once_per_value_and_language():
    """{% valuecache %} (a jogo's line on the jogos page): the same value and language give the kept HTML, any
    change of the value or the language renders it again."""
    from django.template import Context, Template
    from django.utils import translation

    renders = []

    class Counted:
        def __init__(self, text):
            self.text = text

        def __str__(self):
            renders.append(self.text)
            return self.text

    page = Template(
        '{% load i18n parts %}{% valuecache j %}<li>{{ j.name }} {% translate "Mesa" %}'
        "{{ seen }}</li>{% endvaluecache %}"
    )
    with translation.override("pt-br"):
        first = page.render(Context({"j": {"name": "Os Ases"}, "seen": Counted("")}))
        again = page.render(Context({"j": {"name": "Os Ases"}, "seen": Counted("")}))
        other = page.render(Context({"j": {"name": "Os Reis"}, "seen": Counted("")}))
    with translation.override("en"):
        english = page.render(Context({"j": {"name": "Os Ases"}, "seen": Counted("")}))
    assert first == again == "<li>Os Ases Mesa</li>" and len(renders) == 3  # the second came from the memo
    assert other == "<li>Os Reis Mesa</li>" and english == "<li>Os Ases Table</li>"


@pytest.mark.django_db(transaction=True)
def test_the_warm_up_loads_the_events_under_way(load_file, monkeypatch):
    """config/warmup.states_warm (in each gunicorn worker as it starts): the states of the events not finished
    are loaded, so no worker pays for its first page of one; a finished event is left alone."""
    from config.warmup import states_warm
    from tournaments import selectors
    from tournaments.models import Tournament

    live = cup_setup(load_file, slug="copa-em-andamento")
    done = cup_setup(load_file, slug="copa-encerrada")
    Tournament.objects.filter(pk=done.pk).update(finished=True)
    selectors.tournament_state_cache_clear()  # a server starting: nothing of its own
    assert states_warm(limit=4) == 1

    def no_build(*, tournament):
        raise AssertionError(f"built {tournament.slug}")

    monkeypatch.setattr(selectors, "tournament_state_load", no_build)
    assert selectors.tournament_state_get(tournament=Tournament.objects.get(pk=live.pk)).version == live.results_version
    with pytest.raises(AssertionError, match="built copa-encerrada"):
        selectors.tournament_state_get(tournament=Tournament.objects.get(pk=done.pk))


@pytest.mark.django_db(transaction=True)
def test_an_event_that_cannot_load_does_not_stop_the_server_from_starting(load_file, monkeypatch, caplog):
    import logging

    from config.warmup import states_warm
    from tournaments import selectors

    cup_setup(load_file, slug="copa-que-falha")
    selectors.tournament_state_cache_clear()

    def broken(*, tournament):
        raise ValueError("dados inesperados")

    monkeypatch.setattr(selectors, "tournament_state_load", broken)
    with caplog.at_level(logging.ERROR, "config.warmup"):
        assert states_warm(limit=4) == 0
    assert any("copa-que-falha" in r.getMessage() for r in caplog.records)
