"""Joining and splitting atletas on the desk (DOMAIN §7.1, §8): the services, their refusals and audit, the Nível
and a circuit's ranking following at once, the likely matches, the desk pages; no birth date on a public page."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.atletas.test_nivel import rebuilt, stored
from tests.circuits.support import circuit_file, etapa_file
from tests.support.files import knockout_file
from tournaments.atletas.joins import AtletaRefused, atleta_name_choose, atleta_split, atletas_distinct, atletas_join
from tournaments.atletas.matches import atletas_likely_matches, dates_note
from tournaments.circuits.file import circuit_import
from tournaments.circuits.selectors import circuit_standing
from tournaments.models import (
    Atleta,
    AtletaAudit,
    AtletaNivel,
    AuditEntry,
    Circuit,
    CircuitExclusion,
    Player,
    Tournament,
)
from tournaments.permissions import may_join_atletas

pytestmark = pytest.mark.django_db

OTHER_BIRTH = "1990-01-01"


@pytest.fixture
def people(db):
    User = get_user_model()
    return {
        "admin": User.objects.create_superuser("raiz", password="senha-do-teste-1"),
        "org": User.objects.create_user("liga", password="senha-do-teste-1"),
        "stranger": User.objects.create_user("outro", password="senha-do-teste-1"),
    }


@pytest.fixture
def season(load_file, people, django_capture_on_commit_callbacks):
    """Two finished etapas of one circuit organized by ``org``: the same eight people, but p1's birth date in
    etapa 2 differs, so p1 is two atletas. Etapa 1: d1 (p1, p2) 1st; etapa 2: d1 2nd (d2 wins)."""
    with django_capture_on_commit_callbacks(execute=True):
        one = load_file(etapa_file("etapa-1", date="2025-03-01"))
        data = etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4"))
        data["players"][0]["birth_date"] = OTHER_BIRTH
        two = load_file(data)
        circuit = circuit_import(data=circuit_file(), user=people["org"])
    return one, two, circuit


def atleta_of(t, key):
    return Player.objects.select_related("atleta").get(tournament=t, key=key).atleta


def test_join_then_split_round_trip(season, people, django_capture_on_commit_callbacks):
    one, two, circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    assert keep.pk != other.pk and keep.name == other.name
    before = circuit_standing(circuit=Circuit.objects.get(pk=circuit.pk))
    rows = {r.key: r for r in before.rows}
    assert rows[keep.key].points == 100 and rows[other.key].points == 75 and len(before.rows) == 9
    versions = {t.pk: Tournament.objects.get(pk=t.pk).results_version for t in (one, two)}

    with django_capture_on_commit_callbacks(execute=True):
        joined = atletas_join(user=people["org"], keep=keep, other=other, reason="data digitada errada")
    assert joined.pk == keep.pk
    assert not Atleta.objects.filter(pk=other.pk).exists()
    assert atleta_of(two, "p1").pk == keep.pk
    # the circuit's ranking follows at once: one row with both etapas' points
    after = circuit_standing(circuit=Circuit.objects.get(pk=circuit.pk))
    assert len(after.rows) == 8
    row = next(r for r in after.rows if r.key == keep.key)
    assert row.points == 175 and row.etapas == 2 and set(row.results) == {"etapa-1", "etapa-2"}
    assert other.key not in {r.key for r in after.rows}
    # etapa 2's pages (its dupla page links the atleta) got a new version; etapa 1 had nothing move
    assert Tournament.objects.get(pk=two.pk).results_version == versions[two.pk] + 1
    assert Tournament.objects.get(pk=one.pk).results_version == versions[one.pk]
    # audited: site-level and in the tournament touched
    record = AtletaAudit.objects.get()
    assert (record.action, record.atleta_key, record.other_key, record.user) == (
        "join",
        keep.key,
        other.key,
        people["org"],
    )
    assert record.reason == "data digitada errada"
    assert record.before["other"]["players"] == [{"tournament": "etapa-2", "player": "p1", "name": other.name}]
    assert len(record.after["players"]) == 2
    assert AuditEntry.objects.filter(tournament=two, action="atletas_join").count() == 1
    # the Nível follows: what is stored is what a fresh computation gives
    assert stored() == rebuilt()
    assert AtletaNivel.objects.get(atleta=keep).played == 4  # two jogos in each etapa

    with django_capture_on_commit_callbacks(execute=True):
        new = atleta_split(user=people["org"], atleta=keep, players=[Player.objects.get(tournament=two, key="p1")])
    assert new.pk != keep.pk and new.key == f"a{new.pk}"
    assert atleta_of(two, "p1").pk == new.pk and atleta_of(one, "p1").pk == keep.pk
    # each keeps the identity its players carry (no clash): the automatic joining finds them again
    assert Atleta.objects.get(pk=keep.pk).identity.startswith("1987-03-14|")
    assert Atleta.objects.get(pk=new.pk).identity.startswith(OTHER_BIRTH + "|")
    split_rows = {r.key: r for r in circuit_standing(circuit=Circuit.objects.get(pk=circuit.pk)).rows}
    assert split_rows[keep.key].points == 100 and split_rows[new.key].points == 75
    assert stored() == rebuilt()
    assert AtletaAudit.objects.filter(action="split", atleta_key=keep.key, other_key=new.key).count() == 1
    assert AuditEntry.objects.filter(tournament=two, action="atleta_split").count() == 1


def test_an_exclusion_passes_to_the_atleta_kept(season, people):
    one, two, circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    CircuitExclusion.objects.create(circuit=circuit, atleta=other, reason="desclassificado")
    atletas_join(user=people["admin"], keep=keep, other=other)
    assert CircuitExclusion.objects.filter(circuit=circuit, atleta=keep).exists()
    assert keep.key not in {r.key for r in circuit_standing(circuit=Circuit.objects.get(pk=circuit.pk)).rows}


def test_refusals(season, people):
    one, two, _circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    with pytest.raises(AtletaRefused, match="ele mesmo"):
        atletas_join(user=people["admin"], keep=keep, other=keep)
    # two players of one tournament are two people
    with pytest.raises(AtletaRefused, match="mesmo torneio"):
        atletas_join(user=people["admin"], keep=keep, other=atleta_of(one, "p2"))
    # no right: a stranger, and the circuit's organizer for an atleta who never played its etapas
    with pytest.raises(AtletaRefused, match="não pode juntar"):
        atletas_join(user=people["stranger"], keep=keep, other=other)
    with pytest.raises(AtletaRefused, match="não pode separar"):
        atleta_split(user=people["stranger"], atleta=keep, players=[Player.objects.get(tournament=one, key="p1")])
    with pytest.raises(AtletaRefused, match="Deixe ao menos um"):
        atleta_split(user=people["org"], atleta=other, players=list(Player.objects.filter(atleta=other)))
    with pytest.raises(AtletaRefused, match="Marque"):
        atleta_split(user=people["org"], atleta=other, players=[])
    with pytest.raises(AtletaRefused, match="não é"):
        atleta_split(user=people["org"], atleta=other, players=[Player.objects.get(tournament=one, key="p1")])
    # nothing written by any of them
    assert not AtletaAudit.objects.exists()
    assert atleta_of(two, "p1").pk == other.pk


def test_only_a_circuit_of_theirs_lets_an_organizer_join(season, people, load_file):
    one, two, _circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    assert may_join_atletas(user=people["org"], atletas=[keep, other])
    assert may_join_atletas(user=people["admin"], atletas=[keep, other])
    assert not may_join_atletas(user=people["stranger"], atletas=[keep, other])
    data = knockout_file(slug="outro-torneio")
    data["players"][0]["birth_date"] = "1970-07-07"
    elsewhere = atleta_of(load_file(data), "p1")
    assert elsewhere.pk not in (keep.pk, other.pk)
    # played no etapa of the organizer's circuit: a superuser's call
    assert not may_join_atletas(user=people["org"], atletas=[keep, elsewhere])
    assert may_join_atletas(user=people["admin"], atletas=[keep, elsewhere])


def test_likely_matches(season, people, load_file):
    one, two, _circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    matches = atletas_likely_matches(user=people["org"])
    assert [(m.keep.key, m.other.key) for m in matches] == [(keep.key, other.key)]
    (m,) = matches
    assert m.note == "datas de nascimento diferentes"
    assert [p.tournament_slug for p in m.keep.played] == ["etapa-1"]
    assert [p.tournament_slug for p in m.other.played] == ["etapa-2"]
    assert m.keep.played[0].partner and m.keep.has_birth_date
    assert atletas_likely_matches(user=people["org"], q="zzz") == []
    assert len(atletas_likely_matches(user=people["org"], q=keep.name.upper())) == 1
    assert atletas_likely_matches(user=people["stranger"]) == []
    # a namesake without a birth date in a tournament of no circuit: the superuser sees the pairs, the
    # organizer does not (it played none of their etapas)
    data = knockout_file(slug="sem-data")
    data["players"][0].pop("birth_date")
    lone = atleta_of(load_file(data), "p1")
    everyone = atletas_likely_matches(user=people["admin"])
    assert {frozenset((x.keep.key, x.other.key)) for x in everyone} == {
        frozenset((keep.key, other.key)),
        frozenset((keep.key, lone.key)),
        frozenset((other.key, lone.key)),
    }
    assert {x.note for x in everyone if lone.key in (x.keep.key, x.other.key)} == {
        "um deles não tem data de nascimento"
    }
    assert len(atletas_likely_matches(user=people["org"])) == 1
    # a pair a split parted is not offered again
    atletas_join(user=people["admin"], keep=keep, other=other)
    atleta_split(user=people["admin"], atleta=keep, players=[Player.objects.get(tournament=two, key="p1")])
    assert all(lone.key in (x.keep.key, x.other.key) for x in atletas_likely_matches(user=people["admin"]))


def test_dates_note_says_how_they_differ_not_what_they_are():
    import datetime as dt

    d = dt.date
    assert dates_note(a=[d(1987, 3, 14)], b=[d(1978, 3, 14)]) == "datas de nascimento diferentes só no ano"
    assert dates_note(a=[d(1987, 3, 4)], b=[d(1987, 4, 3)]) == "datas de nascimento com dia e mês trocados"
    assert dates_note(a=[d(1987, 3, 14)], b=[d(1987, 3, 15)]) == "datas de nascimento diferentes só no dia"
    assert dates_note(a=[None], b=[None]) == "nenhum dos dois tem data de nascimento"
    assert dates_note(a=[d(1987, 3, 14)], b=[d(1990, 1, 1)]) == "datas de nascimento diferentes"


# --- the desk ---------------------------------------------------------------------------------------------------


def test_desk_pages_join_and_split(client, season, people):
    one, two, _circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    url = reverse("desk:atletas")
    assert client.get(url).status_code == 302  # login first
    client.force_login(people["stranger"])
    assert client.get(url).status_code == 403
    assert client.get(reverse("desk:atleta", args=[keep.key])).status_code == 403
    assert client.post(reverse("desk:atletas_join"), {"keep": keep.key, "other": other.key}).status_code == 403
    client.force_login(people["org"])
    html = client.get(url).content.decode()
    assert "é a mesma pessoa" in html and keep.key in html and other.key in html
    assert "1987" not in html and "1990" not in html  # no birth date, only how they compare
    assert "datas de nascimento diferentes" in html
    response = client.post(reverse("desk:atletas_join"), {"keep": keep.key, "other": other.key, "reason": "typo"})
    assert response.status_code == 302
    assert atleta_of(two, "p1").pk == keep.pk
    page = client.get(response["Location"]).content.decode()
    assert "juntados" in page
    # a join refused: a message, nothing changed
    response = client.post(
        reverse("desk:atletas_join"), {"keep": keep.key, "other": atleta_of(one, "p2").key}, follow=True
    )
    assert "mesmo torneio" in response.content.decode()
    # the atleta's page: its registrations with "separar", the history
    page = client.get(reverse("desk:atleta", args=[keep.key])).content.decode()
    assert "Separar" in page and "Etapa etapa-2" in page
    assert "1987" not in page
    moved = Player.objects.get(tournament=two, key="p1")
    response = client.post(reverse("desk:atleta", args=[keep.key]), {"players": [moved.pk]})
    assert response.status_code == 302
    assert atleta_of(two, "p1").pk != keep.pk
    response = client.post(reverse("desk:atleta", args=[keep.key]), {"players": []}, follow=True)
    assert "Marque os registros" in response.content.decode()
    assert client.get(reverse("desk:atleta", args=["a999999"])).status_code == 404


def test_public_pages_never_show_a_birth_date(client, season, people):
    one, two, _circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    atletas_join(user=people["org"], keep=keep, other=other)
    for url in (f"/atletas/{keep.key}/", "/ranking/", f"/ranking/?q={keep.name}"):
        html = client.get(url).content.decode()
        assert keep.name in html
        for text in ("1987", "1990", "14/03", "01/01/1990", "exemplo.com.br", "98888"):
            assert text not in html, (url, text)
    # the key that went away leads to the atleta it joined
    response = client.get(f"/atletas/{other.key}/")
    assert response.status_code == 301 and response["Location"] == f"/atletas/{keep.key}/"


def test_an_admin_edit_that_keeps_name_and_birth_date_keeps_the_join(admin_client, season, people):
    one, two, _circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    atletas_join(user=people["admin"], keep=keep, other=other)
    player = Player.objects.get(tournament=two, key="p1")
    url = reverse("admin:tournaments_player_change", args=[player.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, (list, dict))}
    data.update({"phone": "+55 11 90000-0000"})
    assert admin_client.post(url, data).status_code == 302
    assert Player.objects.get(pk=player.pk).phone == "+55 11 90000-0000"
    assert atleta_of(two, "p1").pk == keep.pk


def test_likely_matches_take_a_few_queries_over_ten_thousand_atletas(season, people, django_assert_max_num_queries):
    """The names are grouped in SQL: the queries do not grow with the atletas, only the names shown are read."""
    import time

    Atleta.objects.bulk_create(
        [Atleta(key=f"x{i}", name=f"Pessoa {i % 9000}", name_search=f"pessoa {i % 9000}") for i in range(10_000)]
    )
    started = time.perf_counter()
    with django_assert_max_num_queries(6):
        matches = atletas_likely_matches(user=people["admin"])
    assert time.perf_counter() - started < 2
    # 1,000 names held by two atletas each (without registrations) and p1's pair: the first 100 names shown
    assert len(matches) == 100
    with django_assert_max_num_queries(7):
        assert len(atletas_likely_matches(user=people["org"])) == 1


def test_no_tournament_takes_the_desks_address(load_file):
    data = knockout_file(slug="atletas")
    data["tournament"]["name"] = "Atletas"
    t = load_file(data)
    assert t.slug == "atletas-2"


def test_not_the_same_person_leaves_the_likely_matches(client, season, people):
    one, two, circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    pair = frozenset((keep.key, other.key))
    assert pair in {frozenset((x.keep.key, x.other.key)) for x in atletas_likely_matches(user=people["org"])}
    url = reverse("desk:atletas_distinct")
    client.force_login(people["stranger"])
    assert client.post(url, {"keep": keep.key, "other": other.key}).status_code == 403
    client.force_login(people["org"])
    assert (
        'formaction="/organizar/circuitos/atletas/diferentes/"' in client.get(reverse("desk:atletas")).content.decode()
    )
    version = Circuit.objects.get(pk=circuit.pk).version
    response = client.post(url, {"keep": keep.key, "other": other.key, "reason": "pai e filho"}, follow=True)
    page = response.content.decode()
    assert "são pessoas diferentes" in page and "Pessoas diferentes:" in page  # the message, the history
    assert pair not in {frozenset((x.keep.key, x.other.key)) for x in atletas_likely_matches(user=people["org"])}
    entry = AtletaAudit.objects.get(action=AtletaAudit.DISTINCT)
    assert {entry.atleta_key, entry.other_key} == set(pair) and entry.reason == "pai e filho"
    assert entry.user == people["org"]
    # nothing else moved: both atletas stand, the circuit's ranking is as it was
    assert atleta_of(two, "p1").pk == other.pk and Circuit.objects.get(pk=circuit.pk).version == version
    # marked once: again is refused with a message; joining them stays possible
    response = client.post(url, {"keep": other.key, "other": keep.key}, follow=True)
    assert "já estão marcados como pessoas diferentes" in response.content.decode()
    assert AtletaAudit.objects.filter(action=AtletaAudit.DISTINCT).count() == 1
    with pytest.raises(AtletaRefused):
        atletas_distinct(user=people["org"], one=keep, other=keep)
    atletas_join(user=people["org"], keep=keep, other=other)
    assert atleta_of(two, "p1").pk == keep.pk


def test_the_desk_lives_under_the_circuits_and_old_links_land(client, season, people):
    one, _two, _circuit = season
    assert reverse("desk:atletas") == "/organizar/circuitos/atletas/"
    client.force_login(people["org"])
    response = client.get("/organizar/atletas/", {"q": "ana"})
    assert response.status_code == 301 and response["Location"] == "/organizar/circuitos/atletas/?q=ana"
    key = atleta_of(one, "p1").key
    response = client.get(f"/organizar/atletas/{key}/")
    assert response.status_code == 301 and response["Location"] == f"/organizar/circuitos/atletas/{key}/"
    # "atletas" is no circuit's address: its desk would be the atletas'
    from tournaments.circuits.services import CircuitRefused, circuit_create

    with pytest.raises(CircuitRefused, match="reservado"):
        circuit_create(user=people["admin"], name="Atletas", slug="atletas")


def test_a_join_keeps_the_other_identity_for_later_registrations(season, people, load_file):
    """p1's birth date was typed two ways (etapas 1 and 2). Once joined, a third etapa typed the second way joins
    the same atleta by itself (nothing to join again); a split hands that identity back with its players."""
    from tournaments.models import AtletaAlias

    one, two, _circuit = season
    keep, other = atleta_of(one, "p1"), atleta_of(two, "p1")
    atletas_join(user=people["org"], keep=keep, other=other)
    assert AtletaAlias.objects.filter(atleta=keep).count() == 1
    data = etapa_file("etapa-3", date="2025-05-10")
    data["players"][0]["birth_date"] = OTHER_BIRTH
    three = load_file(data)
    assert atleta_of(three, "p1").pk == keep.pk
    assert not any(keep.key in (m.keep.key, m.other.key) for m in atletas_likely_matches(user=people["admin"]))
    # the second way is another person after all: the split takes the identity with its players
    apart = atleta_split(
        user=people["org"],
        atleta=keep,
        players=[Player.objects.get(tournament=t, key="p1") for t in (two, three)],
    )
    assert not AtletaAlias.objects.filter(atleta=keep).exists()
    data = etapa_file("etapa-4", date="2025-06-10")
    data["players"][0]["birth_date"] = OTHER_BIRTH
    four = load_file(data)
    assert atleta_of(four, "p1").pk == apart.pk
    assert atleta_of(one, "p1").pk == keep.pk


# --- issue 41 item 11: typos, any two from the search, the name shown -----------------------------------------


@pytest.fixture
def typos(load_file, people, django_capture_on_commit_callbacks):
    """Two etapas of ``org``'s circuit, the same people but two of them registered another way in etapa 2: p3 with
    a typo (and a double space), p5 under another surname. Both keep the birth date: the automatic rule cannot
    join them (the names differ)."""
    with django_capture_on_commit_callbacks(execute=True):
        data = etapa_file("etapa-1", date="2025-03-01")
        data["players"][2]["name"] = "Marcos Antônio Ribeiro"
        one = load_file(data)
        data = etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4"))
        data["players"][2]["name"] = "Marcos  Antonio Riberio"
        data["players"][4]["name"] = "Elisa Costa"
        two = load_file(data)
        circuit = circuit_import(data=circuit_file(), user=people["org"])
    return one, two, circuit


def test_a_typo_with_the_same_birth_date_is_suggested(typos, people):
    one, two, _circuit = typos
    marcos, riberio = atleta_of(one, "p3"), atleta_of(two, "p3")
    assert marcos.pk != riberio.pk
    assert riberio.name == "Marcos Antonio Riberio"  # the double space tidied
    matches = atletas_likely_matches(user=people["org"])
    assert [(m.keep.key, m.other.key) for m in matches] == [(marcos.key, riberio.key)]
    assert "erro de digitação" in matches[0].note
    assert matches[0].names == ("Marcos Antônio Ribeiro", "Marcos Antonio Riberio")
    assert len(atletas_likely_matches(user=people["org"], q="marcos")) == 1
    assert atletas_likely_matches(user=people["org"], q="elisa") == []  # another surname: no typo
    assert atletas_likely_matches(user=people["stranger"]) == []


def test_a_typo_with_another_birth_date_is_not_suggested(load_file, people):
    data = etapa_file("etapa-1", date="2025-03-01")
    data["players"][2]["name"] = "Marcos Antônio Ribeiro"
    load_file(data)
    data = etapa_file("etapa-2", date="2025-04-05")
    data["players"][2].update(name="Marcos Antonio Riberio", birth_date="1960-01-01")
    load_file(data)
    assert atletas_likely_matches(user=people["admin"]) == []


def test_any_two_from_the_search_are_joined_with_the_name_chosen(client, typos, people):
    one, two, circuit = typos
    elisa, costa = atleta_of(one, "p5"), atleta_of(two, "p5")
    client.force_login(people["org"])
    html = client.get(reverse("desk:atletas"), {"q": "elisa"}).content.decode()
    assert "Juntar os dois marcados" in html
    assert f'name="atletas" value="{elisa.key}"' in html and f'name="atletas" value="{costa.key}"' in html
    # one, or three, is no pair
    response = client.get(reverse("desk:atletas_join"), {"atletas": [elisa.key], "q": "elisa"}, follow=True)
    assert "Marque dois atletas para juntar (você marcou 1)" in response.content.decode()
    page = client.get(reverse("desk:atletas_join"), {"atletas": [costa.key, elisa.key], "q": "elisa"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "Elisa Rocha" in html and "Elisa Costa" in html and "1987" not in html
    assert f'name="keep" value="{elisa.key}"' in html  # the older atleta's key stays
    assert 'value="Elisa Rocha"' in html and 'value="Elisa Costa"' in html
    # a name none of their registrations has is refused, nothing joined
    response = client.post(
        reverse("desk:atletas_join"), {"keep": elisa.key, "other": costa.key, "name": "Elisa Hacker"}, follow=True
    )
    assert "não é de nenhuma inscrição" in response.content.decode()
    assert atleta_of(two, "p5").pk == costa.pk
    # the organizer keeps the older name although the newest registration says "Elisa Costa"
    response = client.post(
        reverse("desk:atletas_join"), {"keep": elisa.key, "other": costa.key, "name": "Elisa Rocha", "reason": "casou"}
    )
    assert response.status_code == 302
    joined = atleta_of(two, "p5")
    assert joined.pk == elisa.pk and joined.name == "Elisa Rocha" and joined.chosen_name == "Elisa Rocha"
    record = AtletaAudit.objects.get(action=AtletaAudit.JOIN)
    assert record.reason == "casou" and record.user == people["org"]
    row = next(r for r in circuit_standing(circuit=Circuit.objects.get(pk=circuit.pk)).rows if r.key == elisa.key)
    assert row.name == "Elisa Rocha" and row.etapas == 2
    # a stranger picks nothing
    client.force_login(people["stranger"])
    assert client.get(reverse("desk:atletas_join"), {"atletas": [elisa.key, costa.key]}).status_code == 403


def test_the_organizer_chooses_the_name_an_atleta_shows(client, typos, people, django_capture_on_commit_callbacks):
    one, two, circuit = typos
    marcos, riberio = atleta_of(one, "p3"), atleta_of(two, "p3")
    with django_capture_on_commit_callbacks(execute=True):
        atletas_join(user=people["org"], keep=marcos, other=riberio)
    marcos.refresh_from_db()
    assert marcos.name == "Marcos Antonio Riberio"  # DOMAIN §7.1: the most recent registration's, typo and all
    client.force_login(people["org"])
    page = client.get(reverse("desk:atleta", args=[marcos.key])).content.decode()
    assert 'value="Marcos Antônio Ribeiro"' in page and "Mostrar este nome" in page
    version = Circuit.objects.get(pk=circuit.pk).version
    url = reverse("desk:atleta_name", args=[marcos.key])
    response = client.post(url, {"name": "Marcos Antônio Ribeiro", "reason": "erro de digitação"}, follow=True)
    assert "Nome mostrado: Marcos Antônio Ribeiro" in response.content.decode()
    marcos.refresh_from_db()
    assert marcos.name == "Marcos Antônio Ribeiro"
    # the rankings follow at once: the circuit moved to a new version, the public pages say the chosen name
    assert Circuit.objects.get(pk=circuit.pk).version > version
    assert "<bdi>Marcos Antônio Ribeiro</bdi>" in client.get("/circuitos/liga-teste/").content.decode()
    assert "<bdi>Marcos Antônio Ribeiro</bdi>" in client.get(f"/atletas/{marcos.key}/").content.decode()
    assert "Marcos Antônio Ribeiro" in client.get("/ranking/").content.decode()
    record = AtletaAudit.objects.get(action=AtletaAudit.NAME)
    assert record.before["name"] == "Marcos Antonio Riberio" and record.after["name"] == "Marcos Antônio Ribeiro"
    assert record.user == people["org"] and record.reason == "erro de digitação"
    # a later registration does not undo the choice; a name of no registration is refused; "" gives the rule back
    response = client.post(url, {"name": "Outro Nome"}, follow=True)
    assert "não é de nenhuma inscrição" in response.content.decode()
    client.post(url, {"name": ""})
    marcos.refresh_from_db()
    assert marcos.name == "Marcos Antonio Riberio" and marcos.chosen_name == ""
    assert AtletaAudit.objects.filter(action=AtletaAudit.NAME).count() == 2
    # the choice goes with the registration that carries it: split away, the rule is back
    atleta_name_choose(user=people["org"], atleta=marcos, name="Marcos Antônio Ribeiro")
    atleta_split(user=people["org"], atleta=marcos, players=[Player.objects.get(tournament=one, key="p3")])
    marcos.refresh_from_db()
    assert marcos.name == "Marcos Antonio Riberio" and marcos.chosen_name == ""
    client.force_login(people["stranger"])
    assert client.post(url, {"name": ""}).status_code == 403
    with pytest.raises(AtletaRefused, match="não pode mudar o nome"):
        atleta_name_choose(user=people["stranger"], atleta=marcos, name="")
