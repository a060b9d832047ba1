"""The pages of online play (/jogar/): the lobby, "jogar agora", a new table hidden until confirmed, a sala, the
table page and its seat forms. Each answers 200, 303, 400, 403, 404 as it should, refuses bad input in Portuguese,
shows a spectator no card, and escapes what people typed."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.support.online import guest, seated_table
from tournaments.models import OnlineTable, TableSeat
from tournaments.online import chat, selectors, services
from tournaments.play.identity import GUEST_SESSION_KEY

pytestmark = pytest.mark.django_db

TABLE_URL = re.compile(r"^/jogar/mesas/(\d+)/$")


def _client_for(session_key: str) -> Client:
    client = Client()
    client.cookies["sessionid"] = session_key
    return client


def _config(response) -> dict:
    """The table page's mesa-config (json_script)."""
    html = response.content.decode()
    found = re.search(r'<script id="mesa-config" type="application/json">(.*?)</script>', html, re.S)
    assert found, "a página da mesa não tem mesa-config"
    return json.loads(found.group(1))


def _new_table(client: Client, **fields) -> OnlineTable:
    data = {"nome": "Ana", "aparencia": "azul", "cartas": "grande", "verso": "zap", "senha": ""} | fields
    response = client.post("/jogar/mesas/nova/", data)
    assert response.status_code == 303, response.content.decode()[:2000]
    found = TABLE_URL.match(response["Location"])
    assert found
    return OnlineTable.objects.get(pk=int(found.group(1)))


# --- the lobby and "jogar agora" -------------------------------------------------------------------------------


def test_lobby_shows_jogar_agora_the_salas_and_the_table_form():
    response = Client().get("/jogar/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Jogar agora" in html
    assert 'action="/jogar/agora/"' in html
    assert 'name="nome"' in html
    for key in ("verde", "azul", "vinho", "classico", "grande", "vermelho", "zap"):
        assert f'value="{key}"' in html
    assert "/static/img/online/backs/zap.svg" in html
    assert "Nenhum salão aberto ainda" in html


def test_jogar_agora_seats_a_guest_and_answers_303_to_the_table():
    client = Client()
    response = client.post("/jogar/agora/", {"nome": "Ana"})
    assert response.status_code == 303
    found = TABLE_URL.match(response["Location"])
    assert found
    table = OnlineTable.objects.get(pk=int(found.group(1)))
    assert table.auto_start and table.status == OnlineTable.OPEN
    seat = TableSeat.objects.get(table=table)
    assert seat.profile is not None and seat.profile.display_name == "Ana"
    assert client.session[GUEST_SESSION_KEY] == seat.profile.guest_key

    page = client.get(response["Location"])
    assert page.status_code == 200
    config = _config(page)
    assert config["seat"] == seat.seat
    assert config["ws"] == f"/ws/mesas/{table.pk}/"
    assert config["table"] == table.pk

    # a second visitor lands at the same table; the lobby shows its sala with the seats left
    other = Client()
    again = other.post("/jogar/agora/", {"nome": "Bruno"})
    assert again["Location"] == response["Location"]
    lobby = other.get("/jogar/").content.decode()
    assert "Salão 1" in lobby and "2 lugares livres" in lobby


def test_jogar_agora_refuses_a_missing_or_bad_name_in_portuguese():
    client = Client()
    response = client.post("/jogar/agora/", {"nome": "  "})
    assert response.status_code == 400
    assert "Escolha um nome para aparecer na mesa." in response.content.decode()

    response = client.post("/jogar/agora/", {"nome": "x" * 31})
    assert response.status_code == 400
    assert "O nome pode ter até 30 letras (tem 31)." in response.content.decode()

    response = client.post("/jogar/agora/", {"nome": "<b>Ana</b>"})
    assert response.status_code == 422
    html = response.content.decode()
    assert "O nome de exibição aceita só letras" in html
    assert "<b>Ana</b>" not in html and "&lt;b&gt;Ana&lt;/b&gt;" in html
    assert not OnlineTable.objects.exists()


def test_jogar_agora_is_a_post():
    assert Client().get("/jogar/agora/").status_code == 405


def test_profile_form_keeps_a_guests_name_and_avatar_and_refuses_others():
    client = Client()
    response = client.post("/jogar/perfil/", {"nome": "Zé-Maria", "avatar": "capivara"})
    assert response.status_code == 303
    lobby = client.get("/jogar/").content.decode()
    assert "Zé-Maria (Marreco)" in lobby
    assert "/static/img/online/avatars/capivara.svg" in lobby

    response = client.post("/jogar/perfil/", {"nome": "Zé", "avatar": "dragao"})
    assert response.status_code == 400
    assert "Escolha um dos avatares da lista." in response.content.decode()
    response = client.post("/jogar/perfil/", {"nome": "admin", "avatar": "tatu"})
    assert response.status_code == 422
    assert "Este nome é reservado" in response.content.decode()


# --- a new table: hidden until confirmed ---------------------------------------------------------------------


def test_a_new_table_is_hidden_until_its_host_confirms_it():
    host = Client()
    table = _new_table(host, senha="")
    assert table.status == OnlineTable.DRAFT
    assert (table.appearance, table.face, table.back) == ("azul", "grande", "zap")

    page = host.get(f"/jogar/mesas/{table.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Confirmar mesa" in html and "só você a vê" in html
    config = _config(page)
    assert (config["appearance"], config["face"], config["back"]) == ("azul", "grande", "zap")
    assert config["host"] is True and config["seat"] == 0

    visitor = Client()
    assert visitor.get(f"/jogar/mesas/{table.pk}/").status_code == 404
    sala = table.sala
    assert sala is not None
    assert f"/jogar/mesas/{table.pk}/" not in visitor.get(f"/jogar/{sala.slug}/").content.decode()
    # nobody else may confirm it (they do not even see it)
    assert visitor.post(f"/jogar/mesas/{table.pk}/confirmar/").status_code == 404

    assert host.post(f"/jogar/mesas/{table.pk}/confirmar/").status_code == 303
    table.refresh_from_db()
    assert table.status == OnlineTable.OPEN
    assert visitor.get(f"/jogar/mesas/{table.pk}/").status_code == 200
    assert f"/jogar/mesas/{table.pk}/" in visitor.get(f"/jogar/{sala.slug}/").content.decode()
    again = host.post(f"/jogar/mesas/{table.pk}/confirmar/")
    assert again.status_code == 409
    assert "Esta mesa já foi confirmada." in again.content.decode()


def test_the_table_form_refuses_choices_it_does_not_offer():
    response = Client().post(
        "/jogar/mesas/nova/", {"nome": "Ana", "aparencia": "roxo", "cartas": "tarot", "verso": "", "senha": "x" * 65}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Escolha uma das mesas." in html
    assert "Escolha uma das frentes de carta." in html
    assert "Escolha o verso das cartas." in html
    assert "A senha pode ter até 64 caracteres." in html
    assert not OnlineTable.objects.exists()
    assert Client().get("/jogar/mesas/nova/").status_code == 200


def test_a_password_keeps_the_seats_for_who_knows_it():
    host = Client()
    table = _new_table(host, senha="segredo")
    host.post(f"/jogar/mesas/{table.pk}/confirmar/")
    assert "com senha" in host.get(f"/jogar/mesas/{table.pk}/").content.decode()

    visitor = Client()
    page = visitor.get(f"/jogar/mesas/{table.pk}/").content.decode()
    assert 'name="senha"' in page and 'name="nome"' in page
    wrong = visitor.post(f"/jogar/mesas/{table.pk}/sentar/", {"nome": "Bruno", "senha": "errada"})
    assert wrong.status_code == 403
    assert "Senha errada: peça a senha da mesa a quem a criou." in wrong.content.decode()
    assert TableSeat.objects.filter(table=table).count() == 1
    right = visitor.post(f"/jogar/mesas/{table.pk}/sentar/", {"nome": "Bruno", "senha": "segredo", "assento": "1"})
    assert right.status_code == 303
    assert TableSeat.objects.get(table=table, seat=1).profile.display_name == "Bruno"


# --- seats and the host's powers -------------------------------------------------------------------------------


def test_seat_forms_sit_move_remove_robots_and_start():
    host = Client()
    table = _new_table(host)
    host.post(f"/jogar/mesas/{table.pk}/confirmar/")
    bruno = Client()
    assert bruno.post(f"/jogar/mesas/{table.pk}/sentar/", {"nome": "Bruno", "assento": "2"}).status_code == 303

    # the host's powers are the host's
    for action, data in (
        ("mover", {"de": "2", "para": "1"}),
        ("remover", {"assento": "0"}),
        ("robos", {"nivel": "basico"}),
        ("iniciar", {}),
    ):
        refused = bruno.post(f"/jogar/mesas/{table.pk}/{action}/", data)
        assert refused.status_code == 403, action
        assert "Só quem criou a mesa pode fazer isso." in refused.content.decode()

    bad = host.post(f"/jogar/mesas/{table.pk}/mover/", {"de": "2", "para": "2"})
    assert bad.status_code == 400
    assert "Escolha dois assentos diferentes." in bad.content.decode()
    bad = host.post(f"/jogar/mesas/{table.pk}/mover/", {"de": "7", "para": "1"})
    assert bad.status_code == 400
    assert "Os assentos são 1, 2, 3 e 4." in bad.content.decode()
    early = host.post(f"/jogar/mesas/{table.pk}/iniciar/")
    assert early.status_code == 409
    assert "quatro jogadores sentados" in early.content.decode()

    assert host.post(f"/jogar/mesas/{table.pk}/mover/", {"de": "2", "para": "1"}).status_code == 303
    assert TableSeat.objects.get(table=table, seat=1).profile.display_name == "Bruno"
    assert host.post(f"/jogar/mesas/{table.pk}/remover/", {"assento": "1"}).status_code == 303
    assert not TableSeat.objects.filter(table=table, seat=1).exists()
    assert bruno.post(f"/jogar/mesas/{table.pk}/sentar/", {"assento": "3"}).status_code == 303

    assert host.post(f"/jogar/mesas/{table.pk}/robos/", {"nivel": "basico"}).status_code == 303
    assert TableSeat.objects.filter(table=table).exclude(robot="").count() == 2
    page = host.get(f"/jogar/mesas/{table.pk}/").content.decode()
    assert "Robô 2" in page and "Começar a partida" in page
    assert host.post(f"/jogar/mesas/{table.pk}/iniciar/").status_code == 303
    table.refresh_from_db()
    assert table.status == OnlineTable.PLAYING and table.state is not None

    # while it is played nobody leaves by the form, and the seats panel has no host forms
    left = bruno.post(f"/jogar/mesas/{table.pk}/sair/")
    assert left.status_code == 409
    assert "A partida está em andamento" in left.content.decode()
    part = host.get(f"/jogar/mesas/{table.pk}/?parte=assentos").content.decode()
    assert 'id="assentos"' in part and "/robos/" not in part and "<html" not in part


def test_the_host_leaving_before_the_start_closes_the_table():
    host = Client()
    table = _new_table(host)
    host.post(f"/jogar/mesas/{table.pk}/confirmar/")
    Client().post(f"/jogar/mesas/{table.pk}/sentar/", {"nome": "Bruno"})
    response = host.post(f"/jogar/mesas/{table.pk}/sair/")
    assert response.status_code == 303
    assert response["Location"] == f"/jogar/{table.sala.slug}/"
    table.refresh_from_db()
    assert table.status == OnlineTable.CLOSED
    assert not TableSeat.objects.filter(table=table).exists()
    assert host.get(f"/jogar/mesas/{table.pk}/").status_code == 404


def test_unknown_tables_salas_and_actions_are_404():
    client = Client()
    assert client.get("/jogar/mesas/999/").status_code == 404
    assert client.get("/jogar/salao-99/").status_code == 404
    assert client.post("/jogar/mesas/999/sentar/", {"nome": "Ana"}).status_code == 404
    host = Client()
    table = _new_table(host)
    assert host.post(f"/jogar/mesas/{table.pk}/explodir/").status_code == 404
    assert host.get(f"/jogar/mesas/{table.pk}/sentar/").status_code == 405
    log = client.get(f"/jogar/mesas/{table.pk}/partidas/1/registro.json")
    assert log.status_code == 404 and "ainda não terminou" in log.json()["errors"][0]


def test_a_visitor_without_a_name_cannot_act_but_sit_with_one():
    host = Client()
    table = _new_table(host)
    host.post(f"/jogar/mesas/{table.pk}/confirmar/")
    visitor = Client()
    refused = visitor.post(f"/jogar/mesas/{table.pk}/sair/")
    assert refused.status_code == 403
    assert "Escolha um nome" in refused.content.decode()
    no_name = visitor.post(f"/jogar/mesas/{table.pk}/sentar/", {"nome": ""})
    assert no_name.status_code == 400
    assert "Escolha um nome para aparecer na mesa." in no_name.content.decode()


# --- what a spectator sees --------------------------------------------------------------------------------------


def test_a_spectator_sees_no_hand_and_a_player_only_its_own_on_the_page():
    seated = seated_table()
    table = seated.table
    partida = selectors.partida_of(table)
    assert partida is not None
    hands = partida.mao.hands

    spectator = Client().get(f"/jogar/mesas/{table.pk}/")
    assert spectator.status_code == 200
    html = spectator.content.decode()
    config = _config(spectator)
    assert config["seat"] is None and config["host"] is False
    for hand in hands:
        for card in hand:
            assert f"/{card}.svg" not in html and f'"{card}"' not in html
    assert "Você está assistindo" in html
    assert "O chat da mesa é dos jogadores sentados." in html
    # the state the live connection sends a spectator: no hand, nobody's cards
    state = selectors.seat_state(table=table, seat=None)
    assert state["hand"] is None and state["partner_hand"] is None

    player = _client_for(seated.sessions[1]).get(f"/jogar/mesas/{table.pk}/")
    assert _config(player)["seat"] == 1
    for hand in hands:
        for card in hand:
            assert f'"{card}"' not in player.content.decode()  # cards come over the socket, never in the page


# --- a sala and its chat; escaping -------------------------------------------------------------------------------


def test_a_sala_lists_its_tables_and_its_chat_escapes_what_people_wrote():
    host = Client()
    table = _new_table(host, nome="D'Ávila")
    host.post(f"/jogar/mesas/{table.pk}/confirmar/")
    sala = table.sala
    page = host.get(f"/jogar/{sala.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"Mesa {table.number}" in html and "D&#x27;Ávila" in html
    assert "D'Ávila" not in html

    response = host.post(f"/jogar/{sala.slug}/chat/", {"texto": "<script>alert(1)</script> oi"})
    assert response.status_code == 303
    html = host.get(f"/jogar/{sala.slug}/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; oi" in html
    part = host.get(f"/jogar/{sala.slug}/?parte=chat")
    assert part.status_code == 200 and "<html" not in part.content.decode()
    assert "&lt;script&gt;" in part.content.decode()
    mesas = host.get(f"/jogar/{sala.slug}/?parte=mesas").content.decode()
    assert f"/jogar/mesas/{table.pk}/" in mesas and "<html" not in mesas

    table_page = host.get(f"/jogar/mesas/{table.pk}/").content.decode()
    config = _config(host.get(f"/jogar/mesas/{table.pk}/"))
    assert config["seats"][0]["name"] == "D'Ávila"
    assert "D&#x27;Ávila" in table_page


def test_the_sala_chat_refuses_in_portuguese():
    host = Client()
    table = _new_table(host)
    host.post(f"/jogar/mesas/{table.pk}/confirmar/")
    slug = table.sala.slug
    anonymous = Client().post(f"/jogar/{slug}/chat/", {"texto": "oi"})
    assert anonymous.status_code == 403
    assert "Escolha um nome" in anonymous.content.decode()
    long = host.post(f"/jogar/{slug}/chat/", {"texto": "a" * 301})
    assert long.status_code == 400
    assert "A mensagem pode ter até 300 caracteres (tem 301)." in long.content.decode()
    empty = host.post(f"/jogar/{slug}/chat/", {"texto": ""})
    assert empty.status_code == 400
    assert "Escreva a mensagem." in empty.content.decode()
    assert host.post(f"/jogar/{slug}/chat/", {"texto": "oi"}).status_code == 303
    twice = host.post(f"/jogar/{slug}/chat/", {"texto": "oi de novo"})
    assert twice.status_code == 429
    assert "espere um segundo" in twice.content.decode()


def test_the_table_chat_history_is_for_its_players():
    seated = seated_table(start=False)
    from django.utils import timezone

    chat.chat_post(profile=seated.profiles[1], text="<i>boa</i> sorte", table=seated.table, now=timezone.now())
    player = _client_for(seated.sessions[0]).get(f"/jogar/mesas/{seated.id}/").content.decode()
    assert "&lt;i&gt;boa&lt;/i&gt; sorte" in player and "<i>boa</i>" not in player
    spectator = Client().get(f"/jogar/mesas/{seated.id}/").content.decode()
    assert "boa" not in spectator


def test_the_table_page_names_every_seat_and_the_texts_of_its_script():
    seated = seated_table(start=False, humans=2)
    page = _client_for(seated.sessions[0]).get(f"/jogar/mesas/{seated.id}/")
    config = _config(page)
    names = [s["name"] if s else None for s in config["seats"]]
    assert names == ["Ana", "Bruno", "Robô 3", "Robô 4"]
    assert config["seats"][2]["robot"] is True
    t = config["t"]
    assert t["ev_bet"] % {"name": "Ana", "level": t["levels"]["3"]} == "Ana pediu truco"
    assert t["ev_run"] % {"name": "Bruno", "points": 1, "who": t["us"]} == "Bruno correu: +1 para vocês"
    assert page["Cache-Control"] == "no-store"
    services.seat_leave(table=seated.table, profile=seated.profiles[1])
    again = _config(_client_for(seated.sessions[0]).get(f"/jogar/mesas/{seated.id}/"))
    assert again["seats"][1] is None


def test_a_guest_profile_made_in_tests_has_a_session():
    profile, key = guest("Carla")
    page = _client_for(key).get("/jogar/").content.decode()
    assert "Carla (Marreco)" in page
