"""The sala's and the table's chats and the reactions (DOMAIN §9.4; 004 "Comunicação em mesa"): who may write,
the limits, the history while the table lives, no markup."""

import datetime as dt

import pytest
from django.contrib.auth.models import User

from tournaments.models import ChatMessage, OnlineTable, Sala, TableSeat
from tournaments.online import chat, conduct, people
from tournaments.refusals import Refused

NOW = dt.datetime(2026, 12, 6, 23, 0, tzinfo=dt.UTC)
pytestmark = pytest.mark.django_db


def at(seconds: float) -> dt.datetime:
    return NOW + dt.timedelta(seconds=seconds)


def guest(name: str, avatar: str = "tatu"):
    return people.profile_for_guest(guest_key=None, display_name=name, avatar=avatar)


@pytest.fixture
def sala():
    return Sala.objects.create(slug="salao-1", name="Salão 1", number=1)


@pytest.fixture
def table(sala):
    return OnlineTable.objects.create(sala=sala, number=1, status=OnlineTable.OPEN)


def seat(table, profile, n: int) -> TableSeat:
    return TableSeat.objects.create(table=table, seat=n, profile=profile)


def refused(call, **kwargs) -> Refused:
    with pytest.raises(Refused) as caught:
        call(**kwargs)
    return caught.value


@pytest.fixture
def staff():
    return User.objects.create_user("moderadora", password="x", is_staff=True)


def test_sala_message_stored_clean_and_shown_as_text(sala):
    ana = guest("Ana", "capivara")
    message = chat.chat_post(profile=ana, sala=sala, text="  oi\n<b>gente</b>\u202e ", now=NOW)
    assert message.text == "oi <b>gente</b>"
    line = chat.chat_line(message)
    assert line.data() == {
        "id": message.pk,
        "profile": ana.pk,
        "name": "Ana",
        "avatar": "capivara",
        "level": "Marreco",
        "text": "oi <b>gente</b>",
        "at": NOW.isoformat(),
        "seat": None,
    }
    assert [m.text for m in chat.chat_history(sala=sala)] == ["oi <b>gente</b>"]


def test_exactly_one_place(sala, table):
    ana = guest("Ana")
    assert refused(chat.chat_post, profile=ana, text="oi", now=NOW).kind == Refused.BAD_REQUEST
    assert refused(chat.chat_post, profile=ana, text="oi", sala=sala, table=table, now=NOW).kind == Refused.BAD_REQUEST
    assert refused(chat.chat_history).kind == Refused.BAD_REQUEST


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "Escreva a mensagem"),
        ("   \u200b\u202e\n", "Escreva a mensagem"),
        (None, "Escreva a mensagem"),
        ("x" * 301, "tem 301 caracteres; o máximo é 300"),
    ],
)
def test_empty_or_long_refused(sala, text, says):
    r = refused(chat.chat_post, profile=guest("Ana"), sala=sala, text=text, now=NOW)
    assert r.kind == Refused.INVALID and says in r.messages[0]
    assert ChatMessage.objects.count() == 0


def test_300_characters_pass(sala):
    assert len(chat.chat_post(profile=guest("Ana"), sala=sala, text="é" * 300, now=NOW).text) == 300


def test_table_chat_is_for_its_seated_players(table):
    ana, bia, spectator = guest("Ana"), guest("Bia"), guest("Caio")
    seat(table, ana, 0)
    seat(table, bia, 2)
    message = chat.chat_post(profile=bia, table=table, text="bora", now=NOW)
    assert chat.chat_line(message, seat=2).data()["seat"] == 2
    r = refused(chat.chat_post, profile=spectator, table=table, text="oi", now=NOW)
    assert r.kind == Refused.FORBIDDEN and r.messages == ["Só quem está sentado à mesa escreve no chat dela."]
    assert chat.may_read_table_chat(table=table, profile=ana)
    assert not chat.may_read_table_chat(table=table, profile=spectator)
    assert not chat.may_read_table_chat(table=table, profile=None)
    assert [(m.name, m.seat) for m in chat.chat_history(table=table)] == [("Bia", 2)]


def test_closed_table_has_no_chat(table):
    ana = guest("Ana")
    seat(table, ana, 0)
    table.status = OnlineTable.CLOSED
    table.save()
    assert "fechou" in refused(chat.chat_post, profile=ana, table=table, text="oi", now=NOW).messages[0]


def test_one_message_a_second(sala):
    ana = guest("Ana")
    chat.chat_post(profile=ana, sala=sala, text="um", now=at(0))
    r = refused(chat.chat_post, profile=ana, sala=sala, text="dois", now=at(0.5))
    assert r.kind == Refused.LOCKED and r.messages == ["Calma: espere um segundo entre uma mensagem e outra."]
    chat.chat_post(profile=ana, sala=sala, text="dois", now=at(1))
    # another profile is not held by Ana's pace
    chat.chat_post(profile=guest("Bia"), sala=sala, text="oi", now=at(1))


def test_ten_messages_in_30_seconds_across_places(sala, table):
    ana = guest("Ana")
    seat(table, ana, 0)
    for i in range(10):  # one every 2 s, half in the sala, half at the table
        place = {"sala": sala} if i % 2 else {"table": table}
        chat.chat_post(profile=ana, text=f"mensagem {i}", now=at(2 * i), **place)
    r = refused(chat.chat_post, profile=ana, sala=sala, text="mais uma", now=at(20))
    assert r.kind == Refused.LOCKED
    assert r.messages == ["Muitas mensagens seguidas: espere 10 s para escrever de novo."]  # the first leaves at 30 s
    assert ChatMessage.objects.filter(profile=ana).count() == 10
    chat.chat_post(profile=ana, sala=sala, text="mais uma", now=at(30))


def test_same_text_again_refused_for_a_while(sala):
    ana = guest("Ana")
    chat.chat_post(profile=ana, sala=sala, text="truco!", now=at(0))
    r = refused(chat.chat_post, profile=ana, sala=sala, text=" truco! ", now=at(3))
    assert r.kind == Refused.CONFLICT and r.messages == ["Você acabou de mandar esta mesma mensagem."]
    chat.chat_post(profile=ana, sala=sala, text="truco!", now=at(11))


def test_muted_player_plays_but_cannot_chat_nor_react(table, staff):
    ana = guest("Ana")
    seat(table, ana, 0)
    conduct.sanction_apply(
        profile=ana, kind="mute", reason="ofensas no chat", by=staff, until=NOW + dt.timedelta(minutes=30), now=NOW
    )
    r = refused(chat.chat_post, profile=ana, table=table, text="oi", now=at(60))
    assert r.kind == Refused.FORBIDDEN
    assert r.messages == [
        (
            "Você está silenciado até 06/12/2026 20:30: pode jogar, mas não pode escrever no chat nem mandar "
            "reações. Motivo: ofensas no chat"
        )
    ]
    assert "silenciado" in refused(chat.reaction_send, profile=ana, table=table, name="joinha", now=at(60)).messages[0]
    assert conduct.may_sit(ana, now=at(60)) is None  # plays on
    assert ChatMessage.objects.count() == 0
    # the mute ends by itself
    chat.chat_post(profile=ana, table=table, text="voltei", now=at(30 * 60))


def test_history_oldest_first_without_hidden_and_limited(sala, staff):
    people_ = [guest(f"Pessoa {i}") for i in range(6)]
    for i, p in enumerate(people_):
        chat.chat_post(profile=p, sala=sala, text=f"m{i}", now=at(i))
    hidden = ChatMessage.objects.get(text="m4")
    conduct.message_hide(message=hidden, by=staff)
    assert [m.text for m in chat.chat_history(sala=sala)] == ["m0", "m1", "m2", "m3", "m5"]
    assert [m.text for m in chat.chat_history(sala=sala, limit=2)] == ["m3", "m5"]
    assert chat.chat_history(sala=sala, limit=10_000) == chat.chat_history(sala=sala)


def test_table_chat_cleared_when_the_partida_ends_reports_keep_the_text(sala, table):
    ana, bia = guest("Ana"), guest("Bia")
    seat(table, ana, 0)
    seat(table, bia, 1)
    bad = chat.chat_post(profile=bia, table=table, text="palavrão", now=at(0))
    chat.chat_post(profile=ana, table=table, text="ei!", now=at(2))
    in_sala = chat.chat_post(profile=ana, sala=sala, text="no salão", now=at(4))
    report = conduct.report_create(reporter=ana, message=bad, reason="ofensa", now=at(5))
    assert chat.table_chat_clear(table=table) == 2
    assert chat.chat_history(table=table) == []
    assert ChatMessage.objects.filter(pk=in_sala.pk).exists()
    report.refresh_from_db()
    assert report.message_id is None and report.text == "palavrão" and report.target_id == bia.pk


def test_sala_keeps_a_day_of_messages(sala):
    ana, bia = guest("Ana"), guest("Bia")
    chat.chat_post(profile=ana, sala=sala, text="ontem", now=NOW)
    chat.chat_post(profile=bia, sala=sala, text="hoje", now=NOW + dt.timedelta(hours=25))
    assert [m.text for m in chat.chat_history(sala=sala)] == ["hoje"]


def test_reactions_fixed_set_one_per_three_seconds(table):
    ana, bia, spectator = guest("Ana"), guest("Bia"), guest("Caio")
    seat(table, ana, 0)
    seat(table, bia, 3)
    sent = chat.reaction_send(profile=bia, table=table, name="aplauso", now=at(0))
    assert sent == {
        "name": "aplauso",
        "label": "Aplausos",
        "symbol": "👏",
        "seat": 3,
        "profile": bia.pk,
        "at": at(0).isoformat(),
    }
    r = refused(chat.reaction_send, profile=bia, table=table, name="risada", now=at(2))
    assert r.kind == Refused.LOCKED and r.messages == ["Uma reação de cada vez: espere 1 s para mandar outra."]
    chat.reaction_send(profile=ana, table=table, name="risada", now=at(2))  # Ana has her own pace
    chat.reaction_send(profile=bia, table=table, name="risada", now=at(3))
    bad = refused(chat.reaction_send, profile=ana, table=table, name="<img src=x>", now=at(10))
    assert bad.kind == Refused.INVALID and bad.messages == ["Essa reação não existe. Escolha uma da lista."]
    assert refused(chat.reaction_send, profile=spectator, table=table, name="joinha", now=at(10)).kind == (
        Refused.FORBIDDEN
    )
    assert ChatMessage.objects.count() == 0  # reactions are never stored


def test_reaction_names_are_portuguese_keys_with_labels():
    assert set(chat.REACTIONS) == set(chat.REACTION_LABELS) == set(chat.REACTION_SYMBOLS)
    for key in chat.REACTIONS:
        assert key.isascii() and key.islower() and " " not in key


def test_reactions_counted_in_this_process_when_the_cache_is_down(table, monkeypatch):
    ana = guest("Ana")
    seat(table, ana, 0)

    class Down:
        def __getitem__(self, name):
            raise ConnectionError("redis caiu")

    monkeypatch.setattr(chat, "caches", Down())
    chat.reaction_send(profile=ana, table=table, name="joinha", now=at(0))
    assert refused(chat.reaction_send, profile=ana, table=table, name="joinha", now=at(1)).kind == Refused.LOCKED
    chat.reaction_send(profile=ana, table=table, name="joinha", now=at(3))


@pytest.mark.django_db(transaction=True)
def test_a_burst_at_once_lets_one_message_through(sala):
    """Eight posts of one profile at the same moment, on eight connections (eight servers): the profile's row lock
    makes them count one after another, so the pace of one a second holds (PostgreSQL; SQLite has one writer)."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("threads racing need PostgreSQL (DATABASE_URL)")
    ana = guest("Ana")
    barrier = threading.Barrier(8)
    results: list[str] = [""] * 8

    def post(i: int) -> None:
        try:
            barrier.wait()
            chat.chat_post(profile=ana, sala=sala, text=f"rajada {i}", now=NOW)
            results[i] = "ok"
        except Refused as refused_:
            results[i] = refused_.kind
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["locked"] * 7 + ["ok"]
    assert ChatMessage.objects.filter(profile=ana).count() == 1


def test_the_sala_page_shows_chat_markup_as_text(sala, client):
    bia = guest("Bia")
    chat.chat_post(profile=bia, sala=sala, text='<script>alert("x")</script><b>oi</b>', now=NOW)
    html = client.get("/jogar/salao-1/").content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;oi&lt;/b&gt;" in html
    assert '<script>alert("x")' not in html and "<b>oi</b>" not in html
