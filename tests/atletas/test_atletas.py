"""The atleta across tournaments (DOMAIN §7.1): the automatic rule, and every path that makes or renames players."""

import datetime
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.atleta import atleta_identity, name_normalize
from tests.support.files import base_file
from tournaments.atletas.services import nivel_rebuild
from tournaments.models import Atleta, Player, Registration
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.services import registration_add, registration_edit

# --- the rule (pure) ------------------------------------------------------------------------------------------

ACCENTED = "áàâãäéèêëíìîïóòôõöúùûüçñ"


def test_examples():
    assert name_normalize("  JOÃO   da  Silva ") == "joao da silva"
    assert name_normalize("Fábio\tNunes") == "fabio nunes"
    assert name_normalize("Ana") != name_normalize("Anna")
    day = datetime.date(1987, 3, 14)
    assert atleta_identity(name="José Souza", birth_date=day) == atleta_identity(name="jose  SOUZA", birth_date=day)
    assert atleta_identity(name="José Souza", birth_date=None) is None
    assert atleta_identity(name="   ", birth_date=day) is None
    assert atleta_identity(name="José Souza", birth_date=day) != atleta_identity(
        name="José Souza", birth_date=datetime.date(1987, 3, 15)
    )


words = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz" + ACCENTED, min_size=1, max_size=8), min_size=1, max_size=4
)


@given(words=words, data=st.data())
def test_case_accents_and_spaces_do_not_matter(words, data):
    """The same name typed with other case, accents (composed or not) and spaces is the same name."""
    name = " ".join(words)
    bare = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    gaps = [data.draw(st.sampled_from([" ", "  ", "\t", " \u00a0"])) for _ in words]
    typed = data.draw(st.sampled_from([" ", ""])) + "".join(g + w for g, w in zip(gaps, words, strict=True))
    variants = [name.upper(), name.title(), unicodedata.normalize("NFD", name), bare, typed]
    for variant in variants:
        assert name_normalize(variant) == name_normalize(bare)


@given(a=words, b=words)
def test_different_letters_stay_different(a, b):
    strip = lambda ws: "".join(  # noqa: E731
        c for c in unicodedata.normalize("NFD", "".join(ws)) if not unicodedata.combining(c)
    )
    if strip(a) != strip(b):
        assert name_normalize(" ".join(a)) != name_normalize(" ".join(b))


# --- joining across tournaments ------------------------------------------------------------------------------


def two_events(load_file, *, second_names=None, second_birth="1990-01-01"):
    first = load_file(base_file(slug="copa-1", date="2024-04-27"))
    data = base_file(slug="copa-2", date="2024-06-01")
    for i, p in enumerate(data["players"]):
        if second_names:
            p["name"] = second_names[i]
        if second_birth is None:
            p.pop("birth_date", None)
        else:
            p["birth_date"] = second_birth
    second = load_file(data)
    return first, second


@pytest.mark.django_db
def test_every_imported_player_has_an_atleta_with_a_public_key(load_file):
    first, _ = two_events(load_file)
    assert not Player.objects.filter(atleta__isnull=True).exists()
    keys = list(Atleta.objects.values_list("key", flat=True))
    assert all(k.startswith("a") and k[1:].isdigit() for k in keys)


@pytest.mark.django_db
def test_same_name_ignoring_case_accents_spaces_and_same_birth_date_join(load_file):
    names = [f"  ATLETA   {i} " for i in range(1, 9)]
    names[0] = "Atléta 1"
    first, second = two_events(load_file, second_names=names)
    for key in ("p1", "p2", "p8"):
        a = Player.objects.get(tournament=first, key=key)
        b = Player.objects.get(tournament=second, key=key)
        assert a.atleta_id == b.atleta_id
    assert Atleta.objects.count() == 8
    # the name of their most recent registration (the later tournament's)
    assert Atleta.objects.get(players__tournament=second, players__key="p1").name == "Atléta 1"


@pytest.mark.django_db
def test_no_join_without_birth_dates(load_file):
    two_events(load_file, second_birth=None)
    assert Atleta.objects.count() == 16


@pytest.mark.django_db
def test_no_join_with_another_birth_date(load_file):
    two_events(load_file, second_birth="1991-01-01")
    assert Atleta.objects.count() == 16


@pytest.mark.django_db
def test_registrations_and_their_edits_follow_the_rule(load_file):
    first = load_file(base_file(slug="copa-1"))
    other = load_file({**base_file(slug="copa-2"), "players": [], "duplas": [], "stages": [], "jogos": []})
    reg = registration_add(
        tournament=other, players=[PersonIn(name="atleta 1", birth_date=datetime.date(1990, 1, 1))], user=None
    )
    p = Player.objects.get(pk=reg.player1_id)
    assert p.atleta_id == Player.objects.get(tournament=first, key="p1").atleta_id
    # renamed to someone new: a new atleta (the old one keeps its other player)
    registration_edit(
        registration=reg, players=[PersonIn(name="Zeca Novo", birth_date=datetime.date(1990, 1, 1))], user=None
    )
    p.refresh_from_db()
    assert p.atleta_id != Player.objects.get(tournament=first, key="p1").atleta_id
    assert p.atleta.name == "Zeca Novo"
    alone = p.atleta_id
    # renamed again while alone in its atleta: the atleta follows, its key stays
    registration_edit(
        registration=reg, players=[PersonIn(name="Zeca Velho", birth_date=datetime.date(1990, 1, 1))], user=None
    )
    p.refresh_from_db()
    assert p.atleta_id == alone and p.atleta.name == "Zeca Velho"
    # a partner added later is linked too; no player is left without an atleta
    registration_edit(
        registration=Registration.objects.get(pk=reg.pk),
        players=[PersonIn(name="Zeca Velho", birth_date=datetime.date(1990, 1, 1)), PersonIn(name="Par Novo")],
        user=None,
    )
    assert not Player.objects.filter(atleta__isnull=True).exists()
    # and removed again: its atleta, with no player left, goes away
    partner_atleta = Registration.objects.get(pk=reg.pk).player2.atleta_id
    registration_edit(
        registration=Registration.objects.get(pk=reg.pk),
        players=[PersonIn(name="Zeca Velho", birth_date=datetime.date(1990, 1, 1))],
        user=None,
    )
    assert not Atleta.objects.filter(pk=partner_atleta).exists()


@pytest.mark.django_db
def test_a_manual_join_is_repointing_players_and_survives_a_contact_edit(load_file):
    """Not automatic (no birth dates), joined by re-pointing the players: an edit that changes neither the name
    nor the birth date keeps the join; a new name leaves it (it is someone else now)."""
    first = load_file(base_file(slug="copa-1"))
    other = load_file({**base_file(slug="copa-2"), "players": [], "duplas": [], "stages": [], "jogos": []})
    reg = registration_add(tournament=other, players=[PersonIn(name="Atleta 1")], user=None)
    a = Player.objects.get(tournament=first, key="p1")
    assert Player.objects.get(pk=reg.player1_id).atleta_id != a.atleta_id
    Player.objects.filter(pk=reg.player1_id).update(atleta_id=a.atleta_id)
    registration_edit(registration=reg, players=[PersonIn(name="Atleta 1", email="a1@example.com")], user=None)
    assert Player.objects.get(pk=reg.player1_id).atleta_id == a.atleta_id
    registration_edit(registration=reg, players=[PersonIn(name="Outro Nome")], user=None)
    assert Player.objects.get(pk=reg.player1_id).atleta_id != a.atleta_id
    assert Atleta.objects.get(pk=a.atleta_id).name == "Atleta 1"


@pytest.mark.django_db
def test_rebuild_links_players_made_outside_the_services(load_file):
    t = load_file(base_file(slug="copa-1"))
    Player.objects.create(tournament=t, key="p99", name="Atleta 1", birth_date=datetime.date(1990, 1, 1))
    nivel_rebuild()
    assert Player.objects.get(tournament=t, key="p99").atleta_id == Player.objects.get(tournament=t, key="p1").atleta_id
