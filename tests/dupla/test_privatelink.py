"""/d/<token>/: a dupla's own page, opened by its private link: its jogos and group tables, nothing private."""

import math

import pytest
from django.urls import reverse

from tests.support.files import groups_file, knockout_file
from tests.support.sumula import cup_setup, jogo_between
from tournaments.dupla.presenters import dupla_page_present
from tournaments.models import Dupla, Jogo, Player, new_private_token
from tournaments.staff.pins import pins_reset
from tournaments.sumula.commands import ResultSet
from tournaments.sumula.services import Actor, sumula_result_set
from tournaments.writes import tournament_rebuild

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(load_file):
    cup = load_file(groups_file(slug="copa-link"))
    for number, jogo in enumerate(Jogo.objects.filter(tournament=cup, group__key="A").order_by("id"), start=1):
        jogo.mesa, jogo.round = number, (number + 1) // 2
        jogo.save(update_fields=["mesa", "round"])
    tournament_rebuild(tournament=cup)
    return cup


def _page(client, dupla):
    return client.get(reverse("privatelink:dupla", kwargs={"token": dupla.token}))


def test_the_token_has_128_bits_and_the_url_is_under_d():
    token = new_private_token()
    assert len(token) == 22 and math.log2(64) * 22 >= 128
    assert reverse("privatelink:dupla", kwargs={"token": token}) == f"/d/{token}/"


def test_the_page_shows_the_dupla_its_jogos_and_its_group(client, cup):
    d1 = Dupla.objects.get(tournament=cup, key="d1")
    response = _page(client, d1)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Os Zapeiros" in html and "Ana Souza" in html and "Bruno Lima" in html  # name and players
    # its three group jogos: the opponents, mesas, rounds and scores from its own side
    for opponent in ("Manilha Velha", "Truco Ladrão", "Seis Nele"):
        assert f"<strong><bdi>{opponent}</bdi></strong>" in html
    assert "12 x 5, 12 x 8" in html and "12 x 7, 9 x 12, 12 x 3" in html
    assert "Rodada 1" in html and "Rodada 2" in html and html.count('class="mesa-n"') == 3
    assert "Casal Copas" not in html.split("Seus jogos")[1].split("grupo-titulo")[0]  # group B plays elsewhere
    # the table of group A, with its row marked, and no table of group B
    assert "Grupo A" in html and "Grupo B" not in html and "is-me" in html
    assert "vitória" in html


def test_the_scores_are_seen_from_the_dupla_side(client, cup):
    d2 = Dupla.objects.get(tournament=cup, key="d2")
    html = _page(client, d2).content.decode()
    assert "5 x 12, 8 x 12" in html  # d1 x d2 was 12 x 5, 12 x 8
    assert "derrota" in html


def test_a_walkover_says_who_was_absent(client, cup):
    d4 = Dupla.objects.get(tournament=cup, key="d4")
    d3 = Dupla.objects.get(tournament=cup, key="d3")
    assert "sua dupla ausente" in _page(client, d4).content.decode()
    assert "a dupla adversária ausente" in _page(client, d3).content.decode()


def test_nothing_private_and_not_cached_publicly(client, cup):
    pins = pins_reset(tournament=cup)
    d1 = Dupla.objects.get(tournament=cup, key="d1")
    other = Dupla.objects.get(tournament=cup, key="d2")
    response = _page(client, d1)
    html = response.content.decode()
    assert '<meta name="robots" content="noindex' in html
    assert response["Referrer-Policy"] == "no-referrer"
    cache = response["Cache-Control"]
    assert "private" in cache and "public" not in cache
    assert "noindex" in response["X-Robots-Tag"]
    for player in Player.objects.filter(tournament=cup):
        assert player.email not in html and player.phone not in html
        assert player.birth_date.strftime("%d/%m/%Y") not in html and player.birth_date.isoformat() not in html
    assert pins["d1"] not in html and d1.pin_hash not in html
    assert other.token not in html  # no other dupla's link


def test_the_page_has_a_place_for_confirming_sumulas(client, cup):
    html = _page(client, Dupla.objects.get(tournament=cup, key="d1")).content.decode()
    assert 'id="confirmar"' in html and "PIN" in html


@pytest.mark.parametrize("token", ["x" * 22, "nao-existe", "A" * 40])
def test_a_wrong_token_is_404(client, cup, token):
    assert client.get(f"/d/{token}/").status_code == 404


def test_only_get_and_head(client, cup):
    d1 = Dupla.objects.get(tournament=cup, key="d1")
    url = reverse("privatelink:dupla", kwargs={"token": d1.token})
    assert client.head(url).status_code == 200
    assert client.post(url).status_code == 405


def test_a_finished_knockout_shows_the_final_place(client, load_file):
    ko = load_file(knockout_file(finished=True, slug="ko-link"))
    champion = Dupla.objects.get(tournament=ko, key="d1")
    html = _page(client, champion).content.decode()
    assert "Colocação final" in html and "ouro" in html
    assert "Final" in html and "Semifinais" in html


def test_before_the_draw_the_page_says_no_jogos_yet(client, load_file):
    data = groups_file(slug="sem-jogos")
    data["stages"], data["jogos"] = [], []
    early = load_file(data)
    html = _page(client, Dupla.objects.get(tournament=early, key="d1")).content.decode()
    assert "Os jogos aparecem aqui depois do sorteio" in html


def test_queries_are_few(client, cup, django_assert_max_num_queries):
    d1 = Dupla.objects.get(tournament=cup, key="d1")
    _page(client, d1)
    # the dupla, its decided jogos, the appeals on them, the call to its mesa ("Sua vez"); the derived views
    # come from the state cache
    with django_assert_max_num_queries(5):
        _page(client, d1)


# --- a replaced link (a new PIN card): 410, and it confirms nothing -------------------------------------------


def test_an_old_link_after_a_single_reset_answers_410_and_cannot_confirm(load_file):
    from django.test import Client

    from tests.support.sumula import api, cup_setup, db_snapshot, jogo_between, post, staff_user
    from tournaments.models import AuditEntry, StaffRole
    from tournaments.staff.pins import pin_reset

    sumula_cup = cup_setup(load_file, slug="copa-link-trocado")
    key = jogo_between(sumula_cup, "d1", "d4")
    referee = Client()
    referee.force_login(staff_user(sumula_cup, "arbitro", StaffRole.REFEREE))
    assert post(referee, api(sumula_cup.slug, key, "resultado"), {"partidas": [[12, 3], [12, 4]]}).status_code == 200
    d1 = Dupla.objects.get(tournament=sumula_cup, key="d1")
    old = d1.token
    other_token = Dupla.objects.get(tournament=sumula_cup, key="d4").token
    pin_reset(tournament=sumula_cup, dupla=d1, by=None)
    assert AuditEntry.objects.filter(tournament=sumula_cup, action="pin_reset").exists()
    client = Client()
    page = client.get(f"/d/{old}/")
    html = page.content.decode()
    assert page.status_code == 410 and "Este link foi substituído: peça o cartão novo à organização." in html
    assert "Os Zapeiros" not in html and "Ana Souza" not in html  # nothing of the dupla
    before = db_snapshot()
    for via in ("1", ""):
        r = client.post(
            reverse("privatelink:answer", kwargs={"token": old, "key": key}),
            {"resposta": "confirmar", "via": via},
            HTTP_ORIGIN="null",
        )
        assert r.status_code == 410
    assert db_snapshot() == before
    assert client.get(f"/d/{other_token}/").status_code == 200  # the other duplas keep their links
    d1.refresh_from_db()
    r = client.post(
        reverse("privatelink:answer", kwargs={"token": d1.token, "key": key}),
        {"resposta": "confirmar", "via": "1"},
        HTTP_ORIGIN="null",
    )
    assert r.status_code == 302 and db_snapshot() != before


def test_a_token_never_issued_is_still_404(client, cup):
    pins_reset(tournament=cup)
    assert client.get(f"/d/{'y' * 22}/").status_code == 404


def test_a_walkover_is_not_put_to_the_absent_dupla_for_confirmation(client, load_file):
    """Issue 41 item 16: the private page of a dupla absent from a WO asked it to confirm the súmula; only the
    present dupla is asked."""
    cup = cup_setup(load_file)
    key = jogo_between(cup, "d1", "d2")
    data = ResultSet.from_json({"walkover": "d2", "walkover_reason": "não compareceu"})
    sumula_result_set(tournament=cup, key=key, data=data, actor=Actor(method="command"))
    present, absent = (Dupla.objects.get(tournament=cup, key=k) for k in ("d1", "d2"))
    assert [j["key"] for j in dupla_page_present(dupla=present)["to_confirm"]] == [key]
    assert dupla_page_present(dupla=absent)["to_confirm"] == []
    assert "answer-item" not in _page(client, absent).content.decode()
