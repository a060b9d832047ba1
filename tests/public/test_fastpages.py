"""The public pages' fast path (tournaments/public/fastpages.py): a page kept for everyone is answered without
the database while its tournament's stamp stands, and never after a write has committed.

These tests commit for real (``transaction=True``): the stamps are bumped once a write commits, as in production.
"""

import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.support.sumula import PIN, answer, api, cup_setup, jogo_between, post, sign, staff_user
from tournaments.caching import FAST_ALL, FAST_RESULTS, fast_stamp_key
from tournaments.models import StaffRole
from tournaments.public import fastpages
from tournaments.public.views import page_until as REAL_PAGE_UNTIL

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True, params=["memory", "redis"])
def _fast(request, settings):
    """Each test on this process's memory and on Redis (production's shared cache, a throwaway server)."""
    settings.ZAP_FAST_PAGES = True
    if request.param == "redis":
        settings.CACHES = {
            **settings.CACHES,
            "default": {
                "BACKEND": "tournaments.caching.SharedRedisCache",
                "LOCATION": request.getfixturevalue("redis_url"),
                "KEY_PREFIX": "zap-fast-pages",
                "TIMEOUT": 300,
            },
        }
    caches["default"].clear()
    yield
    caches["default"].clear()


@pytest.fixture(autouse=True)
def _far_from_the_minute_end(monkeypatch):
    """A kept page lasts until the end of the minute it was made in; a test that crosses that line would see the
    page made again. Here a page lasts ten minutes, except where a test asks for the real minute."""
    from tournaments.public import views

    monkeypatch.setattr(views, "page_until", lambda moment: moment.timestamp() + 600)


@pytest.fixture
def cup(load_file):
    return cup_setup(load_file)


@pytest.fixture
def ref(cup):
    client = Client()
    client.force_login(staff_user(cup, "arbitro-rapido", StaffRole.REFEREE))
    return client


def visit(path: str, client: Client | None = None, **headers):
    """GET ``path`` as an anonymous visitor; the response and the queries it made."""
    with CaptureQueriesContext(connection) as queries:
        response = (client or Client()).get(path, headers=headers)
    return response, len(queries.captured_queries)


def without_the_time(body: bytes) -> str:
    return re.sub(r"\d\d:\d\d", "HH:MM", body.decode())


def from_the_view(path: str, settings) -> str:
    """The page as the view makes it now, the fast path off."""
    settings.ZAP_FAST_PAGES = False
    try:
        response = Client().get(path)
        assert response.status_code == 200
        return without_the_time(response.content)
    finally:
        settings.ZAP_FAST_PAGES = True


PAGES = ["", "classificacao/", "chave/", "jogos/", "duplas/"]


@pytest.mark.parametrize("tab", PAGES)
def test_a_second_visit_reads_no_database(cup, tab):
    path = f"/torneios/{cup.slug}/{tab}"
    first, queries = visit(path)
    assert first.status_code == 200 and queries > 0
    second, queries = visit(path)
    assert second.status_code == 200 and queries == 0
    assert second.content == first.content
    assert second["ETag"] == first["ETag"] and second["Content-Language"] == first["Content-Language"]
    assert "Content-Security-Policy" in second  # the outer middlewares still answer every request


def test_the_list_of_events_too(cup):
    visit("/torneios/")
    second, queries = visit("/torneios/")
    assert second.status_code == 200 and queries == 0 and cup.name.encode() in second.content


def test_every_write_is_seen_at_once(cup, ref, settings):
    """Mãos (live writes), a decided jogo, confirmations and the signature: after each, every page is the view's
    own, never one kept from before."""
    key = jogo_between(cup, "d1", "d4")
    paths = [f"/torneios/{cup.slug}/{tab}" for tab in PAGES] + [f"/torneios/{cup.slug}/jogos/{key}/", "/torneios/"]

    def check():
        for path in paths:
            visit(path)  # kept (or served) before the next write
        for path in paths:
            response, _queries = visit(path)
            assert without_the_time(response.content) == from_the_view(path, settings), path

    check()
    response = post(ref, api(cup.slug, key, "maos"), {"id": "m-1", "to": 0, "points": 3})
    assert response.status_code == 201
    check()
    for n in range(3):  # the first partida, 12 x 0
        assert post(ref, api(cup.slug, key, "maos"), {"id": f"m-a{n}", "to": 0, "points": 3}).status_code == 201
    check()
    for n in range(4):  # the second: the jogo is decided (awaiting both confirmations)
        assert post(ref, api(cup.slug, key, "maos"), {"id": f"m-b{n}", "to": 0, "points": 3}).status_code == 201
    check()
    assert answer(Client(), cup.slug, key, "d1").status_code == 200
    assert answer(Client(), cup.slug, key, "d4", pin=PIN["d4"]).status_code == 200
    check()
    assert sign(ref, cup.slug, key).status_code == 200
    check()


def test_a_write_makes_the_next_visit_go_to_the_view(cup, ref):
    key = jogo_between(cup, "d1", "d4")
    path = f"/torneios/{cup.slug}/jogos/"
    visit(path)
    assert visit(path)[1] == 0
    assert post(ref, api(cup.slug, key, "maos"), {"id": "m-1", "to": 1, "points": 3}).status_code == 201
    assert visit(path)[1] > 0


def test_a_live_write_keeps_the_pages_without_live_scores(cup, ref):
    """A mão bumps the ``s`` stamp only: the classificação (results only) stays served from the fast path."""
    key = jogo_between(cup, "d1", "d4")
    path = f"/torneios/{cup.slug}/classificacao/"
    # the event's first mão starts it ("em andamento"): a results write, which every page follows
    assert post(ref, api(cup.slug, key, "maos"), {"id": "m-0", "to": 0, "points": 3}).status_code == 201
    visit(path)
    before = caches["default"].get(fast_stamp_key(scope=FAST_RESULTS, slug=cup.slug))
    assert post(ref, api(cup.slug, key, "maos"), {"id": "m-1", "to": 1, "points": 3}).status_code == 201
    assert caches["default"].get(fast_stamp_key(scope=FAST_RESULTS, slug=cup.slug)) == before
    assert visit(path)[1] == 0


def test_signed_in_visitors_and_other_methods_take_the_view(cup, ref):
    path = f"/torneios/{cup.slug}/classificacao/"
    visit(path)
    assert visit(path, client=ref)[1] > 0  # a session cookie: the view
    with CaptureQueriesContext(connection) as queries:
        response = Client().head(path)
    assert response.status_code == 200 and len(queries.captured_queries) > 0


def test_pages_made_of_made_up_parameters_are_not_kept(cup):
    path = f"/torneios/{cup.slug}/duplas/?q=Ana"
    visit(path)
    assert visit(path)[1] > 0


def test_a_draft_is_never_kept(cup, settings):
    cup.published = False
    cup.save(update_fields=["published"])
    caches["default"].clear()
    path = f"/torneios/{cup.slug}/"
    assert visit(path)[0].status_code == 404
    response, queries = visit(path)
    assert response.status_code == 404 and queries > 0  # asked the database again: nothing was kept


def test_the_minute_ends_and_the_page_is_made_again(cup, monkeypatch):
    from tournaments.public import views

    monkeypatch.setattr(views, "page_until", REAL_PAGE_UNTIL)
    path = f"/torneios/{cup.slug}/classificacao/"
    visit(path)
    assert visit(path)[1] == 0
    later = fastpages.time.time() + 61
    monkeypatch.setattr(fastpages.time, "time", lambda: later)
    assert visit(path)[1] > 0


def test_a_lost_stamp_never_matches_a_kept_page(cup):
    path = f"/torneios/{cup.slug}/jogos/"
    visit(path)
    caches["default"].delete(fast_stamp_key(scope=FAST_ALL, slug=cup.slug))
    assert visit(path)[1] > 0  # made again, under a new random stamp
    assert visit(path)[1] == 0


def test_not_modified_from_the_fast_path(cup):
    path = f"/torneios/{cup.slug}/classificacao/"
    first, _queries = visit(path)
    response, queries = visit(path, If_None_Match=first["ETag"])
    assert response.status_code == 304 and queries == 0 and response["ETag"] == first["ETag"]


def test_each_language_and_each_htmx_target_is_its_own_page(cup):
    path = f"/torneios/{cup.slug}/classificacao/"
    portuguese, _q = visit(path)
    english_client = Client()
    english_client.cookies["django_language"] = "en"
    english, _q = visit(path, client=english_client)
    assert english["Content-Language"] == "en" and english.content != portuguese.content
    again, queries = visit(path, client=english_client)
    assert queries == 0 and again.content == english.content
    assert visit(path)[0].content == portuguese.content
    partial, _q = visit(f"/torneios/{cup.slug}/", HX_Request="true", HX_Target="agora")
    whole, _q = visit(f"/torneios/{cup.slug}/")
    assert partial.content != whole.content and b"<html" not in partial.content


def test_off_without_a_shared_cache(cup, settings):
    settings.ZAP_FAST_PAGES = False
    path = f"/torneios/{cup.slug}/classificacao/"
    visit(path)
    assert visit(path)[1] > 0


def test_a_tournament_deleted_in_the_admin_is_gone_at_once(cup):
    from django.contrib.auth.models import User
    from django.urls import reverse

    path = f"/torneios/{cup.slug}/classificacao/"
    visit(path)
    assert visit(path)[1] == 0
    admin = Client()
    admin.force_login(User.objects.create_superuser("comissao-rapida", "c@example.com", "senha-forte-123"))
    response = admin.post(reverse("admin:tournaments_tournament_delete", args=[cup.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert visit(path)[0].status_code == 404
    assert visit("/torneios/")[0].content.count(cup.name.encode()) == 0


def test_a_coalesced_live_page_is_not_kept_past_its_second(cup, ref, settings):
    """During a busy round a live page may be a second old (``ZAP_LIVE_COALESCE_SECONDS``); the fast path must not
    keep such a page for the rest of the minute."""
    import time

    settings.ZAP_LIVE_COALESCE_SECONDS = 2
    key = jogo_between(cup, "d1", "d4")
    path = f"/torneios/{cup.slug}/jogos/"
    assert post(ref, api(cup.slug, key, "maos"), {"id": "m-0", "to": 0, "points": 3}).status_code == 201
    visit(path)
    assert post(ref, api(cup.slug, key, "maos"), {"id": "m-1", "to": 1, "points": 3}).status_code == 201
    visit(path)  # may be the page of the last seconds, before this mão
    time.sleep(2.1)
    response, _queries = visit(path)
    settings.ZAP_LIVE_COALESCE_SECONDS = 0
    assert without_the_time(response.content) == from_the_view(path, settings)


def test_live_pages_coalesce_mãos_like_the_view_but_never_results(cup, ref, settings):
    """With ``ZAP_LIVE_COALESCE_SECONDS`` a live page kept a moment ago is still served after a mão (as the view
    serves the live page of the last second); a result that moves (here the decided jogo, which the pages show as
    provisional and the engine counts once confirmed) is never held back."""
    import time

    settings.ZAP_LIVE_COALESCE_SECONDS = 30
    key = jogo_between(cup, "d1", "d4")
    path = f"/torneios/{cup.slug}/jogos/"
    assert post(ref, api(cup.slug, key, "maos"), {"id": "m-0", "to": 0, "points": 3}).status_code == 201
    visit(path)
    assert post(ref, api(cup.slug, key, "maos"), {"id": "m-1", "to": 1, "points": 3}).status_code == 201
    assert visit(path)[1] == 0  # a mão since: the page of a moment ago
    for n in range(7):  # 12 x 3, then 12 x 0: decided
        assert post(ref, api(cup.slug, key, "maos"), {"id": f"m-{n + 2}", "to": 0, "points": 3}).status_code == 201
    assert answer(Client(), cup.slug, key, "d1").status_code == 200
    assert answer(Client(), cup.slug, key, "d4").status_code == 200  # confirmed: it counts
    response, queries = visit(path)
    assert queries > 0
    settings.ZAP_LIVE_COALESCE_SECONDS = 0
    assert without_the_time(response.content) == from_the_view(path, settings)
    settings.ZAP_LIVE_COALESCE_SECONDS = 30
    kept_at = time.time()
    visit(path)
    assert (
        post(ref, api(cup.slug, jogo_between(cup, "d2", "d3"), "maos"), {"id": "x-0", "to": 0, "points": 3}).status_code
        == 201
    )
    assert visit(path)[1] == 0
    settings.ZAP_LIVE_COALESCE_SECONDS = time.time() - kept_at - 0.01  # the coalescing window has passed
    assert visit(path)[1] > 0


def test_stamps_on_redis_start_at_random_and_move_in_one_round_trip(redis_url):
    """On Redis (production) the stamps are bumped in one pipeline; a missing one starts at a random value."""
    from django.test import override_settings

    from tournaments.caching import EVERY_EVENT, fast_stamps_bump, fast_stamps_read

    config = {
        "default": {
            "BACKEND": "tournaments.caching.SharedRedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "zap-fast-test",
            "TIMEOUT": 300,
        }
    }
    with override_settings(CACHES=config):
        cache = caches["default"]
        cache.clear()
        try:
            first = fast_stamps_read(slug="copa")
            assert set(first) == {FAST_ALL, FAST_RESULTS} and all(isinstance(v, int) for v in first.values())
            fast_stamps_bump(slug="copa", results=False)  # a mão: the live stamp only
            after_mao = fast_stamps_read(slug="copa")
            assert after_mao[FAST_ALL] == first[FAST_ALL] + 1 and after_mao[FAST_RESULTS] == first[FAST_RESULTS]
            fast_stamps_bump(slug="copa", results=True)
            after_result = fast_stamps_read(slug="copa")
            assert after_result[FAST_ALL] == first[FAST_ALL] + 2
            assert after_result[FAST_RESULTS] == first[FAST_RESULTS] + 1
            assert isinstance(cache.get(fast_stamp_key(scope=FAST_RESULTS, slug=EVERY_EVENT)), int)
            cache.delete(fast_stamp_key(scope=FAST_ALL, slug="copa"))
            fast_stamps_bump(slug="copa", results=False)  # lost, then bumped: a new random start, never 1
            assert cache.get(fast_stamp_key(scope=FAST_ALL, slug="copa")) not in (None, 1, after_result[FAST_ALL])
        finally:
            cache.clear()


@pytest.mark.parametrize("path", ["/torneios/%00/", "/torneios/não-é-slug/", "/torneios/" + "x" * 150 + "/"])
def test_an_address_no_slug_can_be_goes_to_the_view(path):
    assert fastpages._slug(Client().get(path).wsgi_request.path) is None
    assert Client().get(path).status_code == 404
