"""The registration list as a workbook at the desk (/organizar/<slug>/inscricoes/inscricoes.xlsx), opened with
openpyxl: the CSV's columns with the same names and order, real types (birth dates as dates, order and waiting
position as numbers, the moments as dates and times), phones and names kept as typed (never a formula); the
organizer's alone (it holds birth dates and contacts: never a PIN), never kept by a cache; the link on the list."""

import datetime as dt

import pytest

from tests.support.registrations import ADULT, tournament_make, user_make
from tests.support.registrations import desk_url as url
from tests.support.registrations import registrations_add as add
from tests.support.xlsx import XLSX_TYPE, all_text, assert_no_formula, records, table, widths_fit, workbook
from tournaments.models import Dupla, Registration, StaffRole
from tournaments.registrations import presence, services
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.csv_export import EXTRA
from tournaments.registrations.csv_reader import COLUMNS

pytestmark = pytest.mark.django_db


@pytest.fixture
def t(db):
    return tournament_make()


@pytest.fixture
def org(client, t):
    user = user_make("org", tournament=t, role=StaffRole.ORGANIZER)
    client.force_login(user)
    return user


def test_the_list_as_a_workbook(client, org, t):
    add(t, "Ana Souza", "Bruno Lima")
    services.registration_add(
        tournament=t,
        players=[PersonIn("=HYPERLINK(x)", dt.date(1985, 7, 9), email="ze@exemplo.com.br", phone="+55 11 98888-7777")],
    )
    services.registration_add(tournament=t, players=[PersonIn("Carla Dias", ADULT, team="Feras do Truco")])
    gone = add(t, "Diego Alves")
    presence.registration_withdraw(registration=gone, user=org)
    response = client.get(url("registrations_export_xlsx", t))
    assert response.status_code == 200 and response["Content-Type"] == XLSX_TYPE
    assert response["Content-Disposition"] == 'attachment; filename="inscricoes-aabb-2024.xlsx"'
    assert response["Cache-Control"] == "private, no-store"
    book = workbook(response.content)
    assert book.sheetnames == ["Inscrições"]
    ws = book["Inscrições"]
    header, rows = table(ws)
    assert header == COLUMNS + EXTRA  # as the CSV: saved as CSV, it imports into another tournament
    assert len(rows) == 4
    pair, odd, carla, withdrawn = records(ws)
    assert (pair["nome"], pair["nascimento"], pair["parceiro"], pair["parceiro_nascimento"]) == (
        "Ana Souza",
        dt.datetime(1990, 1, 1),
        "Bruno Lima",
        dt.datetime(1990, 1, 1),
    )
    assert ws["B2"].number_format == "DD/MM/YYYY"
    assert (pair["ordem"], pair["situacao"], pair["lista_de_espera"]) == (1, "aceita", None)
    assert isinstance(pair["inscrita_em"], dt.datetime) and pair["retirada_em"] is None
    assert abs(pair["inscrita_em"] - dt.datetime.now()) < dt.timedelta(hours=24)
    assert (odd["nome"], odd["nascimento"], odd["email"], odd["telefone"]) == (
        "=HYPERLINK(x)",
        dt.datetime(1985, 7, 9),
        "ze@exemplo.com.br",
        "+55 11 98888-7777",
    )
    assert ws["A3"].data_type == "s" and ws["A3"].quotePrefix and ws["D3"].data_type == "s" and ws["D3"].quotePrefix
    assert carla["equipe"] == "Feras do Truco" and carla["parceiro"] is None
    assert withdrawn["situacao"] == "retirada" and isinstance(withdrawn["retirada_em"], dt.datetime)
    widths_fit(ws, header=1)
    assert_no_formula(response.content)


def test_the_list_never_holds_a_pin(client, org, t):
    from tournaments.staff.pins import pins_reset

    add(t, "Ana Souza", "Bruno Lima")
    add(t, "Carla Dias", "Diego Alves")
    Dupla.objects.create(
        tournament=t,
        key="d1",
        player1=Registration.objects.first().player1,
        player2=Registration.objects.first().player2,
    )
    pins = pins_reset(tournament=t, by=org)
    text = all_text(client.get(url("registrations_export_xlsx", t)).content)
    assert pins and all(pin not in text for pin in pins.values())


def test_the_organizers_alone(client, t):
    add(t, "Ana Souza")
    path = url("registrations_export_xlsx", t)
    anonymous = client.get(path)
    assert anonymous.status_code == 302 and "/entrar/" in anonymous["Location"]
    client.force_login(user_make("juiz", tournament=t, role=StaffRole.REFEREE))
    assert client.get(path).status_code == 403
    other = tournament_make(slug="outro")
    client.force_login(user_make("alheio", tournament=other, role=StaffRole.ORGANIZER))
    assert client.get(path).status_code == 404
    client.force_login(user_make("dono", tournament=t, role=StaffRole.ORGANIZER))
    assert client.get(path).status_code == 200
    assert client.post(path).status_code == 405


def test_the_list_page_links_both_files(client, org, t):
    html = client.get(url("registrations", t)).content.decode()
    assert f'href="{url("registrations_export_xlsx", t)}"' in html
    assert f'href="{url("registrations_export", t)}"' in html
