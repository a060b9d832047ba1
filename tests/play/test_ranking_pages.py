"""The online ranking's pages (INTERCHANGE "Online play", URLs): /jogar/ranking/ (order, shared ranks, search,
pages, no private data), /jogar/jogadores/<username>/ (level, statistics, chart, the e-mail-like username kept out
of the address), and linking an account to an atleta: staff or the organizer of a circuit the atleta played, each
refusal in Portuguese, the atleta page then showing the online ranking next to the Nível."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.ranking import player_level
from tests.circuits.support import etapa_file
from tests.support.desk import make_user
from tournaments.circuits.services import circuit_create, circuit_etapa_attach
from tournaments.models import AccountAtleta, Circuit, OnlineRating, Player
from tournaments.online import people, ranking

pytestmark = pytest.mark.django_db

User = get_user_model()


def rated(username: str, *, name: str, score: int, won: int = 1, played: int = 3, email: str = "") -> object:
    user = User.objects.create_user(username=username, email=email or f"{username}@exemplo.com.br", first_name=name)
    profile = people.profile_for_user(user=user)
    OnlineRating.objects.create(
        profile=profile,
        score=score,
        level=player_level(score=score),
        played=played,
        won=won,
        updated_at=timezone.now(),
    )
    return profile


def test_the_ranking_orders_shares_ranks_searches_and_pages(client):
    rated("ana", name="Ana", score=600, won=3)
    rated("bia", name="Bia", score=600, won=2)
    rated("caio", name="Caio", score=400)
    rated("davi", name="Davi", score=0, won=0)
    User.objects.create_user(username="sem-partida", first_name="Zeca")  # no counted partida: not listed
    page = ranking.ranking_page()
    assert [(r.rank, r.name, r.level) for r in page.rows] == [
        (1, "Ana", "Coringa"),
        (1, "Bia", "Coringa"),
        (3, "Caio", "Blefador"),
        (4, "Davi", "Fichinha"),
    ]
    html = client.get("/jogar/ranking/").content.decode()
    assert "Zeca" not in html and "@exemplo" not in html  # no account without a partida, no e-mail
    assert html.count("img/online/levels/coringa.svg") == 2
    # search: every word in the name, the rank still the ranking's
    found = ranking.ranking_page(q="  caio ")
    assert [(r.rank, r.name) for r in found.rows] == [(3, "Caio")] and found.query == "caio"
    assert "Nenhum jogador" in client.get("/jogar/ranking/", {"q": "ninguém"}).content.decode()
    # pages of 2: the last page for anything past it, page 1 for nonsense
    second = ranking.ranking_page(page=2, per_page=2)
    assert [r.name for r in second.rows] == ["Caio", "Davi"] and second.pages == 2
    assert ranking.ranking_page(page=99, per_page=2).number == 2
    for bad in ("abc", "-1", "0", "9" * 30):
        assert client.get("/jogar/ranking/", {"pagina": bad}).status_code == 200
    assert client.post("/jogar/ranking/").status_code == 405


def test_the_ranking_first_page_in_three_queries(client, django_assert_max_num_queries):
    for i in range(60):
        rated(f"u{i}", name=f"Jogador {i}", score=i * 10)
    with django_assert_max_num_queries(3):  # count, the page's accounts, their names
        page = ranking.ranking_page()
    assert len(page.rows) == 50 and page.rows[0].score == 590 and page.pages == 2


def test_a_players_page(client):
    profile = rated("ana.souza", name="Ana", score=520, won=2, played=3)
    response = client.get("/jogar/jogadores/ana.souza/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Coringa" in html and "520" in html and "1º no ranking" in html
    assert "ana.souza@exemplo.com.br" not in html
    # an unknown or inactive account is a 404
    assert client.get("/jogar/jogadores/ninguem/").status_code == 404
    User.objects.filter(pk=profile.user_id).update(is_active=False)
    assert client.get("/jogar/jogadores/ana.souza/").status_code == 404


def test_a_username_that_is_an_e_mail_is_never_in_the_address(client):
    profile = rated("maria@exemplo.com.br", name="Maria", score=100)
    assert "@" not in ranking.ranking_page().rows[0].slug
    html = client.get("/jogar/ranking/").content.decode()
    assert "maria@exemplo" not in html and f"/jogar/jogadores/~{profile.pk}/" in html
    assert client.get(f"/jogar/jogadores/~{profile.pk}/").status_code == 200
    assert client.get("/jogar/jogadores/maria@exemplo.com.br/").status_code == 404
    # a plain username is not reachable by number
    other = rated("joao", name="João", score=10)
    assert client.get(f"/jogar/jogadores/~{other.pk}/").status_code == 404
    assert client.get("/jogar/jogadores/~abc/").status_code == 404


def test_a_guest_has_no_page_and_no_markup_runs(client):
    rated("pato", name="Pato", score=50)
    profile = OnlineRating.objects.get().profile
    profile.display_name = '<script>alert("x")</script>'
    profile.save()
    html = client.get("/jogar/ranking/").content.decode() + client.get("/jogar/jogadores/pato/").content.decode()
    assert '<script>alert("x")' not in html and "&lt;script&gt;" in html
    guest = people.profile_for_guest(guest_key=None, display_name="Visita", avatar="tatu")
    assert client.get(f"/jogar/jogadores/{guest.display_name}/").status_code == 404
    assert client.get(f"/jogar/jogadores/~{guest.pk}/").status_code == 404


@pytest.fixture
def etapas(load_file):
    return load_file(etapa_file("etapa-online", date="2025-03-01"))


def test_staff_or_a_circuit_organizer_links_an_account_to_an_atleta(client, etapas):
    profile = rated("ana", name="Ana", score=600)
    atleta = Player.objects.get(tournament=etapas, key="p1").atleta
    stranger = make_user("estranho")
    organizer = make_user("org-liga", etapas)
    circuit = circuit_create(user=organizer, name="Liga", slug="liga-online", template=Circuit.LIGA)
    circuit_etapa_attach(circuit=circuit, user=organizer, tournament=etapas)
    staff = User.objects.create_user(username="equipe", is_staff=True)
    url = "/jogar/jogadores/ana/atleta/"

    # anonymous or a stranger: refused in Portuguese, nothing linked
    response = client.post(url, {"acao": "ligar", "atleta": atleta.key, "motivo": "é ela"}, follow=True)
    assert "Só a equipe do site" in response.content.decode() and not AccountAtleta.objects.exists()
    client.force_login(stranger)
    assert "Ligar ao atleta" not in client.get("/jogar/jogadores/ana/").content.decode()
    client.post(url, {"acao": "ligar", "atleta": atleta.key, "motivo": "é ela"})
    assert not AccountAtleta.objects.exists()

    # the circuit's organizer: a bad code, no reason, then linked
    client.force_login(organizer)
    assert "Ligar ao atleta" in client.get("/jogar/jogadores/ana/").content.decode()
    html = client.post(url, {"acao": "ligar", "atleta": "a999999", "motivo": "x"}, follow=True).content.decode()
    assert "Não há atleta com o código" in html
    html = client.post(url, {"acao": "ligar", "atleta": atleta.key, "motivo": " "}, follow=True).content.decode()
    assert "Diga o motivo" in html
    response = client.post(url, {"acao": "ligar", "atleta": atleta.key, "motivo": "mesma pessoa"})
    assert response.status_code == 303 and response["Location"].endswith("/jogar/jogadores/ana/#atleta")
    link = AccountAtleta.objects.get()
    assert (link.user_id, link.atleta_id, link.by_id, link.reason) == (
        profile.user_id,
        atleta.pk,
        organizer.pk,
        "mesma pessoa",
    )
    # linked twice: refused; the atleta page shows both rankings; the player page the Nível
    html = client.post(url, {"acao": "ligar", "atleta": atleta.key, "motivo": "de novo"}, follow=True).content.decode()
    assert "já está ligada" in html
    atleta_page = client.get(f"/atletas/{atleta.key}/").content.decode()
    assert "Ranking online" in atleta_page and "/jogar/jogadores/ana/" in atleta_page and "600 pontos" in atleta_page
    assert f"/atletas/{atleta.key}/" in client.get("/jogar/jogadores/ana/").content.decode()

    # the site's staff unlinks; the row stays as the link's history
    client.force_login(staff)
    client.post(url, {"acao": "desligar"})
    link.refresh_from_db()
    assert link.ended_at is not None and link.ended_by_id == staff.pk
    assert "Ranking online" not in client.get(f"/atletas/{atleta.key}/").content.decode()
    assert "Escolha ligar ou desligar" in client.post(url, {"acao": "x"}, follow=True).content.decode()


def test_the_benchmark_command_runs_and_prints_its_number():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("bench_ranking", "--accounts", "12", "--repeat", "2", "--any-database", stdout=out)
    text = out.getvalue()
    assert "RANKING_FIRST_VISIT_MS=" in text and "12 contas" in text
    assert OnlineRating.objects.filter(played__gt=0).count() == 12
