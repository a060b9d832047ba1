"""The import links its players to atletas in bulk (``atletas_link_new``, before the players are written): it must
give exactly the atletas that linking each player one by one (``atletas_link``, as a registration does) gives,
by the rule of DOMAIN §7.1: the same name ignoring case, accents and repeated spaces, and the same birth date; an
identity an atleta took over in a join counts as its own; without a birth date, an atleta of one's own."""

import datetime

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.atleta import atleta_identity
from tournaments.atletas.services import atletas_link
from tournaments.models import Atleta, AtletaAlias, AtletaNivel, Player, Tournament
from tournaments.services import tournament_import
from tournaments.writes import tournament_write

pytestmark = pytest.mark.django_db

NAMES = ["José da Silva", "Ana Souza", "Fábio Nunes", "Maria Luísa Prado"]
# the same names as people type them: case, accents, spaces
TYPED = {
    "José da Silva": ["JOSE DA SILVA", "José  da Silva", "jose da silva"],
    "Ana Souza": ["ana souza", "Ana  Souza"],
    "Fábio Nunes": ["Fabio Nunes", "FÁBIO NUNES"],
    "Maria Luísa Prado": ["Maria Luisa Prado", "maria luísa  prado"],
}
DATES = [datetime.date(1980, 5, 1), datetime.date(1991, 12, 24), None]

person = st.tuples(
    st.sampled_from(NAMES).flatmap(lambda name: st.sampled_from([name, *TYPED[name]])), st.sampled_from(DATES)
)


def file_of(players: list[tuple[str, datetime.date | None]], *, slug: str, date: str) -> dict:
    return {
        "format": "truco-torneio",
        "version": 1,
        "tournament": {"name": f"Copa {slug}", "slug": slug, "date": date, "preset": "fenacef"},
        "players": [
            {"key": f"p{i}", "name": name} | ({"birth_date": birth.isoformat()} if birth else {})
            for i, (name, birth) in enumerate(players, start=1)
        ],
        "duplas": [],
        "stages": [],
        "jogos": [],
    }


def outcome(tournament: Tournament, before: set[int]) -> tuple:
    """Who is which atleta: an atleta already on the site by its key, a new one by its players; each atleta's name
    and identity; that every atleta has its Nível row and none is left without players."""
    players = list(Player.objects.filter(tournament=tournament).select_related("atleta").order_by("key"))
    groups: dict[int, list[str]] = {}
    for p in players:
        groups.setdefault(p.atleta_id, []).append(p.key)
    label = {
        a: ("no site", Atleta.objects.get(pk=a).key) if a in before else ("novo", ",".join(keys))
        for a, keys in groups.items()
    }
    atletas = sorted((label[p.atleta_id], p.atleta.name, p.atleta.name_search, p.atleta.identity) for p in players)
    every = set(Atleta.objects.values_list("pk", flat=True))
    return (
        [(p.key, label[p.atleta_id]) for p in players],
        atletas,
        every == set(AtletaNivel.objects.values_list("atleta_id", flat=True)),
        Atleta.objects.filter(players__isnull=True).count(),
        len(every - before),
    )


def bulk(players: list[tuple[str, datetime.date | None]]) -> Tournament:
    """The import: every player linked at once, before they are written."""
    return tournament_import(data=file_of(players, slug="nova", date="2025-06-01"))


def one_by_one(players: list[tuple[str, datetime.date | None]]) -> Tournament:
    """The same tournament, its players made and linked one at a time (as registrations are)."""
    tournament = tournament_import(data=file_of([], slug="nova", date="2025-06-01"))
    with tournament_write(tournament=tournament, action="test.players", kind="structure"):
        for i, (name, birth) in enumerate(players, start=1):
            player = Player.objects.create(tournament=tournament, key=f"p{i}", name=name, birth_date=birth, order=i)
            atletas_link(players=[player])
    return tournament


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    earlier=st.lists(person, max_size=6, unique=True),
    alias=st.booleans(),
    new=st.lists(person, min_size=1, max_size=10),
)
def test_the_bulk_link_gives_the_atletas_one_by_one_linking_gives(earlier, alias, new):
    with transaction.atomic():
        tournament_import(data=file_of(earlier, slug="antes", date="2024-04-27"))
        known = Atleta.objects.exclude(identity=None).order_by("pk").first()
        taken = set(Atleta.objects.values_list("identity", flat=True))
        free = [i for n in NAMES for d in DATES if (i := atleta_identity(name=n, birth_date=d)) and i not in taken]
        if alias and known is not None and free:  # a join on the desk gave this atleta another identity
            AtletaAlias.objects.create(atleta=known, identity=free[0])
        before = set(Atleta.objects.values_list("pk", flat=True))
        results = []
        for link in (bulk, one_by_one):
            with transaction.atomic():
                results.append(outcome(link(new), before))
                transaction.set_rollback(True)
        transaction.set_rollback(True)
    assert results[0] == results[1]


def test_an_import_matches_the_site_s_atletas_and_makes_one_for_a_repeated_person():
    """A few cases by hand: found by identity (case, accents, spaces), by a joined identity, a new one for two
    players of one identity (named after the latest), one each without a birth date."""
    born = datetime.date(1980, 5, 1)
    first = tournament_import(
        data=file_of([("José da Silva", born), ("Ana Souza", None)], slug="um", date="2024-01-06")
    )
    jose = Player.objects.get(tournament=first, key="p1").atleta
    AtletaAlias.objects.create(
        atleta=jose, identity=atleta_identity(name="José da Silva", birth_date=datetime.date(1980, 1, 5))
    )
    second = bulk(
        [
            ("José da Silva", born),
            ("JOSE  DA SILVA", datetime.date(1980, 1, 5)),
            ("Fábio Nunes", born),
            ("Fabio Nunes", born),
            ("Ana Souza", None),
        ]
    )
    atleta = {p.key: p.atleta for p in Player.objects.filter(tournament=second).select_related("atleta")}
    assert atleta["p1"] == atleta["p2"] == jose
    assert atleta["p3"] == atleta["p4"] != jose and atleta["p4"].name == "Fabio Nunes"
    assert atleta["p5"] != Player.objects.get(tournament=first, key="p2").atleta
    assert Atleta.objects.get(pk=jose.pk).name == "JOSE DA SILVA"  # the latest registration's name, spaces tidied
