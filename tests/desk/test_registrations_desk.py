"""The desk's registration pages (/organizar/<slug>/inscricoes/…): flows, permissions, constant queries."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.support.registrations import ADULT, csv_bytes, people, tournament_make, user_make
from tests.support.registrations import desk_url as url
from tests.support.registrations import registrations_add as add
from tournaments.models import AuditEntry, Player, Registration, StaffRole, Tournament
from tournaments.registrations import services
from tournaments.registrations.checks import PersonIn

pytestmark = pytest.mark.django_db


def test_add_through_the_form(client, org, t):
    response = client.post(
        url("registration_add", t),
        {
            "name": "Ana Souza",
            "birth_date": "1987-03-14",
            "phone": "(11) 98888-7777",
            "email": "",
            "partner_name": "Bruno Lima",
            "partner_birth_date": "14/03/1988",
        },
    )
    assert response.status_code == 302
    reg = Registration.objects.get(tournament=t)
    assert str(reg) == "Ana Souza + Bruno Lima" and reg.source == Registration.DESK
    page = client.get(response["Location"])
    assert "Inscrição de Ana Souza + Bruno Lima adicionada: aceita." in page.content.decode()
    assert AuditEntry.objects.get(action="registration_add").user == org


def test_add_with_problems_shows_them_next_to_the_fields_and_writes_nothing(client, org, t):
    add(t, "Ana Souza")
    response = client.post(
        url("registration_add", t),
        {"name": "ANA SOUZA", "birth_date": "1990-01-01", "partner_name": "Kid", "partner_birth_date": "2015-01-01"},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "já está inscrito(a) neste torneio" in body and "a idade mínima é 18 anos" in body
    assert Registration.objects.filter(tournament=t).count() == 1


def test_edit(client, org, t):
    reg = add(t, "Ana")
    page = client.get(url("registration_edit", t, reg.pk))
    assert page.status_code == 200 and 'value="Ana"' in page.content.decode()
    response = client.post(
        url("registration_edit", t, reg.pk),
        {"name": "Ana Maria", "birth_date": "01/01/1990", "email": "ana@exemplo.com"},
    )
    assert response.status_code == 302
    reg.player1.refresh_from_db()
    assert (reg.player1.name, reg.player1.email) == ("Ana Maria", "ana@exemplo.com")
    assert AuditEntry.objects.get(action="registration_edit").before["players"][0]["name"] == "Ana"


def test_withdraw_confirmation_then_promotion_recorded(client, org, t):
    t.max_duplas = 1
    t.save()
    ana = add(t, "Ana")
    add(t, "Bia")
    add(t, "Caio")
    page = client.get(url("registration_withdraw", t, ana.pk))
    assert page.status_code == 200 and "Sim, retirar" in page.content.decode()
    assert Registration.objects.get(pk=ana.pk).status == Registration.WAITING  # a GET changes nothing
    response = client.post(url("registration_withdraw", t, ana.pk), follow=True)
    assert "Caio saiu da lista de espera." in response.content.decode()
    entry = AuditEntry.objects.get(action="registration_withdraw")
    assert entry.summary == "Inscrição de Ana retirada; Caio sai da lista de espera" and entry.user == org


def test_withdraw_of_a_paired_registration_is_refused_with_a_message(client, org, t):
    from tournaments.models import Dupla

    reg = add(t, "Ana", "Bia")
    Dupla.objects.create(tournament=t, key="d1", player1=reg.player1, player2=reg.player2)
    Registration.objects.filter(pk=reg.pk).update(status=Registration.PAIRED)
    response = client.post(url("registration_withdraw", t, reg.pk), follow=True)
    assert "já está em dupla" in response.content.decode()
    assert Registration.objects.get(pk=reg.pk).status == Registration.PAIRED


def test_the_counter_of_registrations_in_formed_duplas_says_so(client, org, t):
    """Review #3: three pairs just signed up are not yet "em dupla" in the desk's sense (a formed dupla): the counter
    says "já com dupla formada", the same words as each row's tag, and the pairs show as pairs signed up together."""
    from tournaments.draws.services import pairing_run

    for k in range(3):
        add(t, f"Ana {k}", f"Bia {k}")
    body = client.get(url("registrations", t)).content.decode()
    assert "<strong>0</strong> já com dupla formada" in body and "</strong> em dupla<" not in body
    assert body.count("dupla inscrita junta") == 3 and ">dupla formada<" not in body
    t.registration_closed = True
    t.save(update_fields=["registration_closed"])
    pairing_run(tournament=t, user=org, seed=1)
    body = client.get(url("registrations", t)).content.decode()
    assert "<strong>3</strong> já com dupla formada" in body and body.count(">dupla formada<") == 3


def test_checkin_without_and_with_htmx(client, org, t):
    reg = add(t, "Ana")
    response = client.post(url("registration_checkin", t, reg.pk), {"present": "1"})
    assert response.status_code == 302 and response["Location"].endswith(f"#r{reg.pk}")
    assert Registration.objects.get(pk=reg.pk).present is True
    response = client.post(url("registration_checkin", t, reg.pk), {"present": "0"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and f'id="r{reg.pk}"' in response.content.decode()
    assert "ausente" in response.content.decode()
    assert Registration.objects.get(pk=reg.pk).present is False
    client.post(url("registration_checkin", t, reg.pk), {"present": "clear"})
    assert Registration.objects.get(pk=reg.pk).present is None
    client.post(url("registration_checkin", t, reg.pk), {"present": "talvez"})
    assert Registration.objects.get(pk=reg.pk).present is None
    assert client.get(url("registration_checkin", t, reg.pk)).status_code == 405


def test_close_and_reopen(client, org, t):
    client.post(url("registrations_close", t))
    assert Tournament.objects.get(pk=t.pk).registration_closed
    client.post(url("registrations_close", t))
    assert not Tournament.objects.get(pk=t.pk).registration_closed
    assert AuditEntry.objects.filter(action__in=["registration_close", "registration_reopen"]).count() == 2


def test_list_shows_counts_search_and_private_data(client, org, t):
    add(t, "José Conceição")
    services.registration_add(tournament=t, players=[PersonIn("Bia Reis", ADULT, phone="11 97777-0000")])
    body = client.get(url("registrations", t)).content.decode()
    assert "José Conceição" in body and "11 97777-0000" in body and "01/01/1990" in body
    assert "Encerrar inscrições" in body and url("registrations_upload", t) in body
    body = client.get(url("registrations", t), {"q": "conceicao"}).content.decode()
    assert "José Conceição" in body and "Bia Reis" not in body


def _payload(body: str) -> str:
    return re.search(r'name="payload" value="([^"]+)"', body).group(1)


def test_upload_preview_fix_confirm(client, org, t):
    bad = csv_bytes(people(3) + ["Menor;01/01/2015;;;;;;"])
    response = client.post(url("registrations_upload", t), {"file": _file(bad)})
    body = response.content.decode()
    assert response.status_code == 200
    assert "linha 5: coluna nascimento:" in body and "Confirmar inscrições" not in body
    assert "Atleta 1" in body and "Atleta 3" in body  # every row is shown
    assert not Registration.objects.exists()
    good = csv_bytes(people(3) + ["Maior;01/01/2000;;;;;;"])
    response = client.post(url("registrations_upload", t), {"file": _file(good)})
    body = response.content.decode()
    assert "Confirmar inscrições" in body and not Registration.objects.exists()
    response = client.post(url("registrations_upload", t), {"payload": _payload(body)}, follow=True)
    assert "4 inscrições adicionadas" in response.content.decode()
    assert Registration.objects.filter(tournament=t, source=Registration.CSV).count() == 4
    # the same confirmation again (back button): every row is now a duplicate, nothing written
    response = client.post(url("registrations_upload", t), {"payload": _payload(body)})
    assert "nada foi gravado" in response.content.decode()
    assert Registration.objects.count() == 4


def test_upload_confirmation_cannot_be_forged(client, org, t):
    response = client.post(url("registrations_upload", t), {"payload": "nome\nFulano\n"}, follow=True)
    assert "inválido" in response.content.decode() and not Registration.objects.exists()
    other = tournament_make(slug="outro")
    StaffRole.objects.create(tournament=other, user=org, role=StaffRole.ORGANIZER)
    body = client.post(url("registrations_upload", other), {"file": _file(csv_bytes(people(1)))}).content.decode()
    # a confirmation signed for another tournament does not work here
    client.post(url("registrations_upload", t), {"payload": _payload(body)})
    assert not Registration.objects.exists()


def _file(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("inscricoes.csv", content, content_type="text/csv")


def test_export_is_utf8_bom_semicolon_and_reimportable(client, org, t):
    add(t, "Ana Souza", "Bruno Lima")
    services.registration_add(tournament=t, players=[PersonIn("=HYPERLINK(x)", ADULT, phone="+55 11 98888-7777")])
    response = client.get(url("registrations_export", t))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    raw = response.content
    assert raw.startswith("\ufeff".encode())
    lines = raw.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("nome;nascimento;email;telefone;parceiro;")
    assert lines[1].startswith("Ana Souza;01/01/1990;;;Bruno Lima;01/01/1990;")
    assert lines[2].startswith("'=HYPERLINK(x);01/01/1990;;+55 11 98888-7777;")
    other = tournament_make(slug="copia")
    result = services.registrations_import_csv(tournament=other, content=raw)
    assert len(result.registrations) == 2 and result.notices  # the extra columns are ignored, with a notice


# --- permissions ----------------------------------------------------------------------------------------------

POSTS = [
    ("registration_add", True, {"name": "Intruso", "birth_date": "1990-01-01"}),
    ("registration_edit", False, {"name": "Intruso", "birth_date": "1990-01-01"}),
    ("registration_withdraw", False, {}),
    ("registration_checkin", False, {"present": "1"}),
    ("registrations_close", True, {}),
    ("registrations_upload", True, {}),
]


def _snapshot(t):
    return (
        list(Registration.objects.values_list("id", "status", "present")),
        list(Player.objects.values_list("name")),
        Tournament.objects.get(pk=t.pk).registration_closed,
        AuditEntry.objects.count(),
    )


@pytest.mark.parametrize("who", ["anonymous", "nobody", "referee", "other_organizer"])
def test_no_role_changes_nothing(client, t, who):
    reg = add(t, "Ana")
    if who != "anonymous":
        user = user_make(who)
        if who == "referee":
            StaffRole.objects.create(tournament=t, user=user, role=StaffRole.REFEREE)
        if who == "other_organizer":
            StaffRole.objects.create(tournament=tournament_make(slug="outro"), user=user, role=StaffRole.ORGANIZER)
        client.force_login(user)
    before = _snapshot(t)
    expected = {"anonymous": 302, "nobody": 404, "referee": 403, "other_organizer": 404}[who]
    for name, plain, data in POSTS:
        target = url(name, t) if plain else url(name, t, reg.pk)
        response = client.post(target, data)
        assert response.status_code == expected, (name, response.status_code)
        if who == "anonymous":
            assert response["Location"].startswith("/entrar/?next=")
    for name in ("registrations", "registration_add", "registrations_upload", "registrations_export"):
        assert client.get(url(name, t)).status_code == expected
    assert _snapshot(t) == before


def test_list_queries_do_not_grow_with_registrations(client, org, t):
    t.max_duplas = 200
    t.save()

    def count(n: int) -> int:
        Registration.objects.filter(tournament=t).delete()
        Player.objects.filter(tournament=t).delete()
        services.registrations_import_csv(
            tournament=t,
            content=csv_bytes(
                [f"Atleta {i};01/01/1990;;;" + (f"Par {i};01/01/1991;;" if i % 3 == 0 else ";;;") for i in range(n)]
            ),
        )
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url("registrations", t))
        assert response.status_code == 200 and response.content.decode().count('class="card reg-card') == min(n, 50)
        return len(ctx.captured_queries)

    assert count(16) == count(512)


def test_checkin_with_a_long_search_redirects_to_a_url_the_server_accepts(client, org, t):
    """A check-in posted with a huge ``q`` was written and then redirected to a URL longer than the server's
    request line (gunicorn: 4,094 bytes), which answered 400: only what the list uses of the search goes back."""
    reg = add(t, "Ana")
    response = client.post(url("registration_checkin", t, reg.pk), {"present": "1", "q": "ana  " + "x" * 20_000})
    assert response.status_code == 302 and len(response["Location"]) < 400
    assert Registration.objects.get(pk=reg.pk).present is True
    assert client.get(response["Location"]).status_code == 200
    response = client.post(
        url("registration_checkin", t, reg.pk), {"present": "0", "q": "y" * 20_000}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200 and "y" * 101 not in response.content.decode()
    response = client.post(
        url("registration_checkin", t, reg.pk), {"present": "talvez"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 400 and "Presença inválida" in response.content.decode()
    assert Registration.objects.get(pk=reg.pk).present is False
    withdrawn = add(t, "Bia")
    response = client.post(url("registration_withdraw", t, withdrawn.pk), {"q": "z" * 20_000})
    assert response.status_code == 302 and len(response["Location"]) < 400
