"""Many phones writing to the súmulas at once (docs/contrato.md "Súmula API"): nothing lost, nothing doubled.

Each write locks its jogo's row (``select_for_update``), so it needs a
database with row locks: PostgreSQL. The threads go through the Django test
client against the API's URLs (each thread its own client, signed in as the
referee), so the whole path runs: view, service, lock, rules, storage.
"""

import random
from collections import Counter

import pytest
from django.db import connection
from django.test import Client

from scoring.jogo import jogo_evaluate
from tests.support.sumula import api, post, staff_user
from tests.support.threads import run_together
from tournaments.models import Jogo, Mao, StaffRole, SumulaEvent, Tournament
from tournaments.selectors import tournament_live_version, tournament_settings
from tournaments.sumula.records import jogo_record_load

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 50


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(
            f"needs row locks and concurrent writers (PostgreSQL); this run uses {connection.vendor}: "
            "run with DATABASE_URL=postgres://…"
        )


def five_duplas_file(slug: str) -> dict:
    """One group of five duplas (best of 3): ten jogos to play at once."""
    names = ["Ana", "Bruno", "Carla", "Davi", "Elisa", "Fábio", "Gabi", "Hugo", "Iara", "João"]
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": "Copa Simultânea", "slug": slug, "date": "2026-11-28", "preset": "fenacef"},
        "players": [{"key": f"p{i}", "name": n} for i, n in enumerate(names, start=1)],
        "duplas": [{"key": f"d{i}", "players": [f"p{2 * i - 1}", f"p{2 * i}"]} for i in range(1, 6)],
        "stages": [
            {
                "key": "grupos",
                "kind": "groups",
                "best_of": 3,
                "groups": [{"key": "A", "duplas": [f"d{i}" for i in range(1, 6)]}],
                "qualify": {"per_group": 2, "best_others": 0},
            }
        ],
        "jogos": [],
    }


def referee_clients(tournament, n: int) -> list[Client]:
    user = staff_user(tournament, "arbitro", StaffRole.REFEREE)
    clients = []
    for _ in range(n):
        c = Client()
        c.force_login(user)
        clients.append(c)
    return clients


def stored(jogo: Jogo):
    """The jogo's record as stored, its result, and the rule problems ``scoring`` finds in it."""
    entry, _partidas, _maos = jogo_record_load(jogo=jogo)
    if entry is None:
        return None, None, []
    result, problems = jogo_evaluate(entry=entry, settings=tournament_settings(tournament=jogo.tournament))
    return entry, result, problems


def test_fifty_threads_post_maos_to_ten_jogos_none_lost_none_doubled(load_file):
    tournament = load_file(five_duplas_file("copa-simultanea"))
    keys = sorted(Jogo.objects.filter(tournament=tournament).values_list("key", flat=True))
    assert len(keys) == 10
    rng = random.Random(20261128)
    # ten mãos per jogo; each dupla's points stay below 11 in any order (no mão de onze, no end of partida),
    # so every order of arrival is valid and the totals are known
    plan: dict[str, list[dict]] = {}
    for key in keys:
        maos = [{"to": 0, "points": p} for p in (1, 3, 1, 3, 1)] + [{"to": 1, "points": p} for p in (3, 3, 1, 1)]
        maos.append({"to": None})
        plan[key] = [m | {"id": f"{key}-m{k}"} for k, m in enumerate(maos)]
    sends = [(key, m) for key in keys for m in plan[key] for _copy in range(2)]  # every mão sent twice
    rng.shuffle(sends)
    share = [sends[i::THREADS] for i in range(THREADS)]
    assert all(share)
    clients = referee_clients(tournament, THREADS)

    def worker(client, items):
        def go():
            out = []
            for key, mao in items:
                r = post(client, api(tournament.slug, key, "maos"), mao)
                body = r.json()
                out.append((key, mao["id"], r.status_code, body))
            return out

        return go

    answers = [a for part in run_together([worker(c, s) for c, s in zip(clients, share, strict=False)]) for a in part]
    assert len(answers) == len(sends) == 200
    statuses = Counter(status for _k, _id, status, _b in answers)
    assert set(statuses) <= {200, 201}, [b for _k, _id, s, b in answers if s not in (200, 201)][:3]
    created = Counter(id_ for _k, id_, status, _b in answers if status == 201)
    assert statuses[201] == 100 and set(created.values()) == {1}  # each mão created once, its copy 200
    for key, id_, status, body in answers:
        ids = [m["id"] for p in body["partidas"] for m in p["maos"]]
        assert id_ in ids, (key, id_, status)  # the answer shows the mão, whether new or a retry

    for key in keys:
        jogo = Jogo.objects.get(tournament=tournament, key=key)
        rows = list(Mao.objects.filter(partida__jogo=jogo).order_by("order"))
        assert sorted(m.key for m in rows) == sorted(m["id"] for m in plan[key]), key
        assert [m.order for m in rows] == list(range(10)), key
        _entry, result, problems = stored(jogo)
        assert problems == [], (key, problems)
        assert len(result.partidas) == 1 and result.partidas[0].score == (9, 8), (key, result)
        assert jogo.status == "in_progress" and jogo.version == 10, (key, jogo.status, jogo.version)
        assert SumulaEvent.objects.filter(jogo=jogo, action="mao").count() == 10
        s = Client().get(api(tournament.slug, key)).json()
        assert s["current"] == [9, 8] and len(s["partidas"][0]["maos"]) == 10
    before = Tournament.objects.get(pk=tournament.pk)
    assert tournament_live_version(tournament=before) == 100  # each mão bumped its own jogo's version only


MAO_CHOICES = (
    [{"points": p} for p in (1, 3, 3, 6, 6, 9, 12)]
    + [{"points": p, "how": "ran"} for p in (1, 3, 6)]
    + [{"how": "refused"}, {"to": None}, {"points": 1}]
)


def test_devices_racing_on_one_jogo_never_break_the_rules(load_file):
    """Three phones per jogo enter at once, each its own idea of the mãos: the rules hold for what is stored."""
    tournament = load_file(five_duplas_file("copa-corrida"))
    keys = sorted(Jogo.objects.filter(tournament=tournament).values_list("key", flat=True))
    devices = [(key, d) for key in keys for d in range(3)]
    clients = referee_clients(tournament, len(devices))

    def device(client, key, d):
        def go():
            rng = random.Random(f"{key}-{d}")
            sent: list[tuple[str, int, dict]] = []
            for n in range(80):
                body = {"to": rng.choice((0, 1))} | rng.choice(MAO_CHOICES) | {"id": f"{key}-dev{d}-{n}"}
                if sent and rng.random() < 0.2:  # a queued retry of an earlier entry
                    body = dict(sent[rng.randrange(len(sent))][2])
                r = post(client, api(tournament.slug, key, "maos"), body)
                sent.append((body["id"], r.status_code, body))
                if r.status_code == 409:
                    break
            return key, sent

        return go

    results = run_together([device(c, key, d) for c, (key, d) in zip(clients, devices, strict=False)])
    created: dict[str, set[str]] = {key: set() for key in keys}
    for key, sent in results:
        for id_, status, _body in sent:
            assert status in (200, 201, 409, 422), (key, id_, status)
            if status == 201:
                assert id_ not in created[key], f"{id_} created twice"
                created[key].add(id_)
    for key in keys:
        jogo = Jogo.objects.get(tournament=tournament, key=key)
        entry, result, problems = stored(jogo)
        assert problems == [], (key, problems)
        stored_ids = set(Mao.objects.filter(partida__jogo=jogo).values_list("key", flat=True))
        assert stored_ids == created[key], key
        assert jogo.version == len(created[key])
        for i, p in enumerate(result.partidas):
            a, b = p.score
            assert not (a >= 12 and b >= 12), (key, i, p.score)
            if p.finished:
                assert min(a, b) <= 11 and max(a, b) <= 22
            else:
                assert i == len(result.partidas) - 1, (key, "an unfinished partida before the last")
        if result.finished:
            assert jogo.status == "awaiting_confirmation" and max(result.partidas_won) == 2
            assert len(result.partidas) == len(entry.partidas)
        else:
            assert jogo.status == "in_progress"
    # most jogos ended: the race reached the interesting part (mão de onze, ferro, the end of the jogo)
    assert sum(Jogo.objects.get(tournament=tournament, key=k).status == "awaiting_confirmation" for k in keys) >= 5


def test_confirmations_and_signatures_at_once_make_the_knockout_jogo_once(load_file):
    """Every group jogo confirmed at the same moment: the tournament is recomputed without a lost update."""
    from tests.support.sumula import PIN, cup_file
    from tournaments.models import Dupla
    from tournaments.staff.pins import pin_hash_make

    tournament = load_file(cup_file("copa-final-simultanea"))
    for dupla in Dupla.objects.filter(tournament=tournament):
        dupla.pin_hash = pin_hash_make(PIN[dupla.key])
        dupla.save(update_fields=["pin_hash"])
    keys = sorted(Jogo.objects.filter(tournament=tournament).values_list("key", flat=True))
    [ref] = referee_clients(tournament, 1)
    order = ["d1", "d2", "d3", "d4"]
    for key in keys:
        jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=tournament, key=key)
        first = order.index(jogo.dupla_a.key) < order.index(jogo.dupla_b.key)
        r = post(
            ref,
            api(tournament.slug, key, "resultado"),
            {"partidas": [[12, 4], [12, 4]] if first else [[4, 12], [4, 12]]},
        )
        assert r.status_code == 200
    answers = []
    for key in keys:
        jogo = Jogo.objects.select_related("dupla_a", "dupla_b").get(tournament=tournament, key=key)
        for dupla in (jogo.dupla_a.key, jogo.dupla_b.key):
            answers.append((key, dupla))

    def confirm(key, dupla):
        def go():
            c = Client()
            return post(
                c,
                api(tournament.slug, key, "confirmacao"),
                {"dupla": dupla, "pin": PIN[dupla], "via": 1, "accept": True},
            ).status_code

        return go

    statuses = run_together([confirm(k, d) for k, d in answers])
    assert statuses == [200] * len(answers)
    assert set(Jogo.objects.filter(tournament=tournament, stage__key="grupos").values_list("status", flat=True)) == {
        "confirmed"
    }
    finals = list(Jogo.objects.filter(tournament=tournament, stage__key="final"))
    assert len(finals) == 1 and {finals[0].dupla_a.key, finals[0].dupla_b.key} == {"d1", "d2"}
    assert finals[0].key


def test_a_burst_of_wrong_pins_at_once_still_gets_only_five_checked(load_file):
    """Guesses sent in parallel must not slip past the lockout: the sixth wrong PIN locks, however they arrive."""
    from tests.support.sumula import cup_setup
    from tournaments.models import PinFailure

    tournament = cup_setup(load_file, slug="copa-rajada")
    key = Jogo.objects.get(tournament=tournament, dupla_a__key="d1", dupla_b__key="d4").key
    [ref] = referee_clients(tournament, 1)
    assert post(ref, api(tournament.slug, key, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200
    guesses = [f"{n:06d}" for n in range(500000, 500030)]

    def guess(pin, n):
        def go():
            c = Client(REMOTE_ADDR=f"10.9.{n // 250}.{n % 250 + 1}")
            return post(
                c, api(tournament.slug, key, "confirmacao"), {"dupla": "d1", "pin": pin, "via": 1, "accept": True}
            ).status_code

        return go

    statuses = Counter(run_together([guess(pin, n) for n, pin in enumerate(guesses)]))
    assert statuses == Counter({403: 5, 429: 25}), statuses
    assert PinFailure.objects.filter(dupla__tournament=tournament, dupla__key="d1").count() == 6


def test_confirmations_and_signatures_racing_a_correction_never_land_on_the_new_via(load_file):
    """Issue 21: the duplas confirm and the referee signs the via they saw while another referee corrects it.
    Whatever the order, an answer or a signature is written on the via it names, or refused (409): the new
    via starts with no confirmation and no signature, and only what was written on the old via is in its
    history."""
    from tests.support.sumula import PIN, cup_setup
    from tournaments.models import SumulaVia

    tournament = cup_setup(load_file, slug="copa-corrida-via")
    key = Jogo.objects.get(tournament=tournament, dupla_a__key="d1", dupla_b__key="d4").key
    corrector, signer = referee_clients(tournament, 2)
    assert post(corrector, api(tournament.slug, key, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200
    outcomes = Counter()
    for via in range(1, 9):

        def confirm(dupla, via=via):
            return lambda: (
                post(
                    Client(),
                    api(tournament.slug, key, "confirmacao"),
                    {"dupla": dupla, "pin": PIN[dupla], "via": via, "accept": True},
                ).status_code
            )

        def correct(via=via):
            return lambda: (
                post(
                    corrector,
                    api(tournament.slug, key, "correcao"),
                    {"reason": f"correção {via}", "partidas": [[12, via], [12, 5]]},
                ).status_code
            )

        def sign_it(via=via):
            return lambda: (
                post(
                    signer, api(tournament.slug, key, "homologacao"), {"via": via, "reason": "decisão do árbitro"}
                ).status_code
            )

        workers = [confirm("d1"), confirm("d4"), correct()] + ([sign_it()] if via % 2 else [])
        statuses = run_together(workers)
        assert statuses[2] == 200  # the correction always lands
        assert all(s in (200, 409) for s in statuses), statuses
        outcomes.update(statuses[:2] + statuses[3:])
        jogo = Jogo.objects.get(tournament=tournament, key=key)
        assert jogo.via == via + 1
        assert jogo.confirmations == {} and jogo.signed_at is None and jogo.status == "awaiting_confirmation"
        old = SumulaVia.objects.get(jogo=jogo, via=via)
        written = {side for side, dupla in (("a", 0), ("b", 1)) if statuses[dupla] == 200}
        assert set(old.confirmations) == written, (statuses, old.confirmations)
    assert set(outcomes) <= {200, 409}
