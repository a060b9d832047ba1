"""A draft attached to a circuit (issue 41 item 6, DOMAIN §7.3 with README "a new event is a draft that only its
staff see"): its name, date and slug reach no public page or file of the circuit (the ranking page, its
``?apos=`` selector, ranking.json / .csv / .pdf, export_circuit, the circuits list, atleta pages, /ranking/), its
places count in no ranking until it is published, and nobody but its own organizers may make it an etapa."""

import io
import json

import pypdfium2
import pytest
from django.core.management import call_command

from tests.circuits.support import circuit_file, etapa_file
from tests.support.desk import client_for, make_user
from tournaments.atletas.services import atletas_rename
from tournaments.circuits.file import circuit_import
from tournaments.circuits.selectors import circuit_standing
from tournaments.circuits.services import CircuitRefused, circuit_create, circuit_etapa_attach
from tournaments.models import Circuit, CircuitEtapa, Player, StaffRole, Tournament
from tournaments.permissions import etapa_candidates
from tournaments.setup.services import tournament_publish
from tournaments.writes import PRIVATE, tournament_write

pytestmark = pytest.mark.django_db

SECRET_NAME = "Etapa Sigilosa de Inverno"
SECRET_SLUG = "etapa-sigilosa"
SECRET_DATE = "2025-06-21"


@pytest.fixture
def season(load_file, django_capture_on_commit_callbacks):
    """Two published etapas and, after them, a finished draft with its own organizer, who attached it."""
    one = load_file(etapa_file("etapa-1", date="2025-03-01"))
    load_file(etapa_file("etapa-2", date="2025-04-05", order=("d2", "d3", "d1", "d4")))
    data = etapa_file(SECRET_SLUG, date=SECRET_DATE, order=("d4", "d3", "d2", "d1"))
    data["tournament"]["name"] = SECRET_NAME
    data["players"][1]["name"] = "BRUNO  LIMA"  # p2's latest registration (the same atleta), in the draft
    draft = load_file(data)
    Tournament.objects.filter(pk=draft.pk).update(published=False)
    draft.refresh_from_db()
    with tournament_write(tournament=draft, action="test.draft", kind=PRIVATE):  # as a draft's registrations do
        atletas_rename(ids=set(draft.players.values_list("atleta_id", flat=True)))
    organizer = make_user("dono", draft)
    with django_capture_on_commit_callbacks(execute=True):
        circuit = circuit_import(data=circuit_file(), user=organizer)
        circuit_etapa_attach(circuit=circuit, user=organizer, tournament=draft)
    circuit.refresh_from_db()
    return circuit, one, draft, organizer


def secret_absent(text: str) -> None:
    assert SECRET_NAME not in text and SECRET_SLUG not in text
    assert "21/06/2025" not in text and SECRET_DATE not in text


def points_of(circuit, key: str) -> int:
    standing = circuit_standing(circuit=circuit)
    return next(r.points for r in standing.rows if r.key == key)


def test_a_draft_etapa_is_nowhere_public(client, season):
    circuit, one, draft, _organizer = season
    p7 = Player.objects.get(tournament=one, key="p7").atleta
    assert CircuitEtapa.objects.filter(circuit=circuit, tournament=draft).exists()

    listing = client.get("/circuitos/").content.decode()
    assert "2 etapas" in listing
    secret_absent(listing)
    page = client.get("/circuitos/liga-teste/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "2 etapas" in html and 'value="etapa-1"' in html  # the ?apos= selector lists the published ones
    secret_absent(html)
    # p7 won the draft: 50 + 60 so far, not 150 more
    assert points_of(circuit, p7.key) == 110
    for path in ("ranking.json", "ranking.csv", "ranking.pdf"):
        response = client.get(f"/circuitos/liga-teste/{path}")
        assert response.status_code == 200
        if path.endswith(".pdf"):
            pdf = pypdfium2.PdfDocument(io.BytesIO(response.content))
            secret_absent("".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf))))
        else:
            secret_absent(response.content.decode("utf-8-sig"))
    data = json.loads(client.get("/circuitos/liga-teste/ranking.json").content)
    assert [e["tournament"] for e in data["etapas"]] == ["etapa-1", "etapa-2"]
    # the ranking "after" the draft is no ranking at all
    assert client.get("/circuitos/liga-teste/", {"apos": SECRET_SLUG}).status_code == 404
    assert client.get("/circuitos/liga-teste/ranking.json", {"apos": SECRET_SLUG}).status_code == 404
    assert client.get("/circuitos/liga-teste/ranking.csv", {"apos": SECRET_SLUG}).status_code == 404
    assert client.get("/circuitos/liga-teste/ranking.pdf", {"apos": SECRET_SLUG}).status_code == 404
    # export_circuit writes the same public file
    out = io.StringIO()
    call_command("export_circuit", "liga-teste", stdout=out)
    secret_absent(out.getvalue())
    # the atletas' pages and the Nível ranking
    for atleta in {p.atleta for p in Player.objects.filter(tournament=draft)}:
        secret_absent(client.get(f"/atletas/{atleta.key}/").content.decode())
    secret_absent(client.get("/ranking/").content.decode())
    # its own public page: a 404 for the public; its registrations name nobody (p2 keeps the published name)
    assert client.get(f"/torneios/{SECRET_SLUG}/").status_code == 404
    assert Player.objects.get(tournament=draft, key="p2").atleta.name == "Bruno Lima"
    assert "BRUNO LIMA" not in client.get("/ranking/").content.decode()


def test_the_desk_lists_the_draft_and_it_counts_once_published(client, season, django_capture_on_commit_callbacks):
    circuit, one, draft, organizer = season
    p7 = Player.objects.get(tournament=one, key="p7").atleta
    etag = client.get("/circuitos/liga-teste/")["ETag"]
    desk = client_for(organizer).get("/organizar/circuitos/liga-teste/").content.decode()
    assert SECRET_NAME in desk and "rascunho: fora das páginas públicas e do ranking" in desk
    with django_capture_on_commit_callbacks(execute=True):
        tournament_publish(tournament=draft, user=organizer)
    circuit.refresh_from_db()
    # the ranking moved to a new version: no 304 for the old page, the etapa and its points are in
    assert client.get("/circuitos/liga-teste/", HTTP_IF_NONE_MATCH=etag).status_code == 200
    html = client.get("/circuitos/liga-teste/").content.decode()
    assert SECRET_NAME in html and "3 etapas" in html and f'value="{SECRET_SLUG}"' in html
    assert points_of(circuit, p7.key) == 110 + 100
    assert Player.objects.get(tournament=draft, key="p2").atleta.name == "BRUNO LIMA"  # now the latest
    assert "3 etapas" in client.get("/circuitos/").content.decode()
    assert client.get("/circuitos/liga-teste/", {"apos": SECRET_SLUG}).status_code == 200


def test_a_draft_is_offered_to_its_own_organizers_alone(season, admin_user, load_file):
    circuit, _one, draft, organizer = season
    CircuitEtapa.objects.filter(tournament=draft).delete()
    other = make_user("outro", load_file(etapa_file("etapa-3", date="2025-07-01")))
    assert SECRET_SLUG in etapa_candidates(user=organizer).values_list("slug", flat=True)
    assert SECRET_SLUG not in etapa_candidates(user=other).values_list("slug", flat=True)
    assert SECRET_SLUG not in etapa_candidates(user=admin_user).values_list("slug", flat=True)
    assert "etapa-3" in etapa_candidates(user=admin_user).values_list("slug", flat=True)  # published: offered
    theirs = circuit_create(user=other, name="Liga do Outro", slug="liga-do-outro", template=Circuit.LIGA)
    for user, target in ((admin_user, circuit), (other, theirs)):
        with pytest.raises(CircuitRefused) as refused:
            circuit_etapa_attach(circuit=target, user=user, tournament=draft)
        assert "não há torneio com o endereço etapa-sigilosa" in str(refused.value)
        assert SECRET_NAME not in str(refused.value)
    # nor through a circuit file, unless it names the draft's organizer
    data = circuit_file(slug="outra-liga", etapas=["etapa-3", SECRET_SLUG])
    for user in (None, admin_user, other):
        with pytest.raises(CircuitRefused) as refused:
            circuit_import(data=data, user=user)
        assert refused.value.problems == [
            ("etapas[1].tournament", "não há torneio com o endereço etapa-sigilosa no site")
        ]
    StaffRole.objects.filter(tournament=draft).update(role=StaffRole.REFEREE)
    assert SECRET_SLUG not in etapa_candidates(user=organizer).values_list("slug", flat=True)
