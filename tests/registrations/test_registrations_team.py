"""The equipe (a player's club, DOMAIN §7.3) on a registration: the CSV's ``equipe`` and ``parceiro_equipe``
columns, the services (add, edit, audit), the desk's list and forms, the public sign-up, and the public pages that
show it (a club is public; birth dates and contacts never are)."""

import pytest
from django.urls import reverse

from tests.support.files import knockout_file
from tests.support.registrations import ADULT, csv_bytes, tournament_make, user_make
from tests.support.registrations import desk_url as url
from tournaments.models import AuditEntry, Player, Registration, StaffRole
from tournaments.refusals import Refused
from tournaments.registrations import services
from tournaments.registrations.checks import PersonIn
from tournaments.registrations.csv_import import csv_preview

pytestmark = pytest.mark.django_db

TEAM_HEADER = "nome;nascimento;equipe;parceiro;parceiro_nascimento;parceiro_equipe"


def teams(t) -> dict[str, str]:
    return dict(Player.objects.filter(tournament=t).values_list("name", "team"))


# --- the CSV ---------------------------------------------------------------------------------------------------


def test_csv_equipe_columns_give_each_player_their_team():
    t = tournament_make()
    content = csv_bytes(
        [
            "Ana Souza;14/03/1987;  Feras   do Truco ;;;",
            "Bruno Lima;1990-12-01;Clube Zap;Carla Dias;02/02/1992;Casa do Truco",
            "Davi Rocha;30/07/1992;;Elisa Prado;09/01/1988;Clube Zap",
            "Fábio Nunes;18/03/1975;;;;",
        ],
        header=TEAM_HEADER,
    )
    result = services.registrations_import_csv(tournament=t, content=content)
    assert len(result.registrations) == 4 and not result.notices
    assert teams(t) == {
        "Ana Souza": "Feras do Truco",
        "Bruno Lima": "Clube Zap",
        "Carla Dias": "Casa do Truco",  # a pair from two clubs
        "Davi Rocha": "",
        "Elisa Prado": "Clube Zap",  # the partner's only: not copied to the first player
        "Fábio Nunes": "",
    }


def test_csv_header_case_and_accents_ignored_and_windows_1252():
    t = tournament_make()
    text = (
        "NOME,Nascimento,Équipe,Parceiro,Parceiro Nascimento,PARCEIRO-EQUIPE,camiseta\r\n"
        "João Conceição,05/05/1980,Grêmio São João,Ágata Müller,1979-01-31,Associação Atlética,M\r\n"
    )
    content = text.encode("cp1252")
    preview = csv_preview(tournament=t, content=content)
    assert preview.encoding == "Windows-1252" and preview.problems == []
    assert preview.columns == ["nome", "nascimento", "equipe", "parceiro", "parceiro_nascimento", "parceiro_equipe"]
    assert preview.has_teams and preview.has_partner_teams
    assert any("camiseta" in n for n in preview.notices)  # unknown columns stay ignored
    services.registrations_import_csv(tournament=t, content=content)
    assert teams(t) == {"João Conceição": "Grêmio São João", "Ágata Müller": "Associação Atlética"}


def test_csv_bad_equipe_is_reported_by_line_and_column_and_nothing_is_written():
    t = tournament_make()
    content = csv_bytes(
        [
            "Ana Souza;14/03/1987;" + "x" * 121 + ";;;",
            "Bruno Lima;1990-12-01;;;;Clube Zap",
            "Carla Dias;02/02/1992;;Davi Rocha;30/07/1992;" + "y" * 130,
        ],
        header=TEAM_HEADER,
    )
    preview = csv_preview(tournament=t, content=content)
    assert preview.problems == [
        "linha 2: coluna equipe: longo demais (121 caracteres; o máximo é 120)",
        "linha 3: coluna parceiro vazia, mas parceiro_equipe preenchido",
        "linha 4: coluna parceiro_equipe: longo demais (130 caracteres; o máximo é 120)",
    ]
    with pytest.raises(Refused):
        services.registrations_import_csv(tournament=t, content=content)
    assert not Player.objects.filter(tournament=t).exists()


def test_csv_parceiro_equipe_needs_the_parceiro_column():
    t = tournament_make()
    content = csv_bytes(["Ana Souza;14/03/1987;Feras"], header="nome;nascimento;parceiro_equipe")
    assert csv_preview(tournament=t, content=content).problems == [
        "linha 1: a coluna parceiro_equipe precisa da coluna parceiro"
    ]


def test_csv_without_equipe_columns_works_as_before():
    t = tournament_make()
    preview = csv_preview(tournament=t, content=csv_bytes(["Ana Souza;14/03/1987;;;;;;"]))
    assert preview.problems == [] and not preview.has_teams and not preview.has_partner_teams


def test_the_preview_page_shows_the_equipe_columns(client):
    t = tournament_make()
    client.force_login(user_make("org", tournament=t, role=StaffRole.ORGANIZER))
    content = csv_bytes(["Ana Souza;14/03/1987;Feras do Truco;Bruno Lima;1990-12-01;Clube Zap"], header=TEAM_HEADER)
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("inscricoes.csv", content, content_type="text/csv")
    body = client.post(url("registrations_upload", t), {"file": upload}).content.decode()
    assert "<th>equipe</th>" in body and "<th>equipe do(a) parceiro(a)</th>" in body
    assert "Feras do Truco" in body and "Clube Zap" in body
    assert not Player.objects.filter(tournament=t).exists()  # a preview writes nothing
    page = client.get(url("registrations_upload", t)).content.decode()
    assert "parceiro_equipe" in page  # the help text lists the columns


def test_csv_export_has_the_equipe_columns_and_imports_back(client):
    t = tournament_make()
    client.force_login(user_make("org", tournament=t, role=StaffRole.ORGANIZER))
    services.registration_add(
        tournament=t, players=[PersonIn("Ana Souza", ADULT, team="Feras"), PersonIn("Bruno Lima", ADULT)]
    )
    services.registration_add(tournament=t, players=[PersonIn("Carla Dias", ADULT, team="Clube Zap")])
    raw = client.get(url("registrations_export", t)).content
    lines = raw.decode("utf-8-sig").splitlines()
    header = lines[0].split(";")
    assert header[8:10] == ["equipe", "parceiro_equipe"]
    assert lines[1].split(";")[8:10] == ["Feras", ""] and lines[2].split(";")[8:10] == ["Clube Zap", ""]
    other = tournament_make(slug="copia")
    services.registrations_import_csv(tournament=other, content=raw)
    assert teams(other) == {"Ana Souza": "Feras", "Bruno Lima": "", "Carla Dias": "Clube Zap"}


# --- the services ----------------------------------------------------------------------------------------------


def test_add_and_edit_keep_the_team_and_audit_it():
    t = tournament_make()
    reg = services.registration_add(tournament=t, players=[PersonIn("Ana Souza", ADULT, team=" Feras  do Truco ")])
    assert reg.player1.team == "Feras do Truco"
    assert AuditEntry.objects.get(action="registration_add").after["players"][0]["team"] == "Feras do Truco"
    services.registration_edit(
        registration=reg,
        players=[PersonIn("Ana Souza", ADULT, team="Clube Zap"), PersonIn("Bruno Lima", ADULT, team="Casa")],
        user=None,
    )
    assert teams(t) == {"Ana Souza": "Clube Zap", "Bruno Lima": "Casa"}
    audit = AuditEntry.objects.get(action="registration_edit")
    assert audit.before["players"][0]["team"] == "Feras do Truco"
    assert [p["team"] for p in audit.after["players"]] == ["Clube Zap", "Casa"]
    services.registration_edit(registration=reg, players=[PersonIn("Ana Souza", ADULT)], user=None)
    assert teams(t) == {"Ana Souza": ""}


def test_a_team_too_long_is_refused_with_its_place():
    t = tournament_make()
    with pytest.raises(Refused) as exc:
        services.registration_add(
            tournament=t, players=[PersonIn("Ana Souza", ADULT), PersonIn("Bruno Lima", ADULT, team="x" * 121)]
        )
    assert "parceiro(a), equipe: longo demais (121 caracteres; o máximo é 120)" in str(exc.value.messages)
    assert not Player.objects.exists()


# --- the desk's forms and list ------------------------------------------------------------------------------------


def test_desk_add_edit_and_list_show_the_team(client):
    t = tournament_make()
    client.force_login(user_make("org", tournament=t, role=StaffRole.ORGANIZER))
    assert 'name="team"' in client.get(url("registration_add", t)).content.decode()
    response = client.post(
        url("registration_add", t),
        {
            "name": "Ana Souza",
            "birth_date": "1987-03-14",
            "team": "Feras do Truco",
            "partner_name": "Bruno Lima",
            "partner_birth_date": "1988-03-14",
            "partner_team": "Clube Zap",
        },
    )
    assert response.status_code == 302
    reg = Registration.objects.get(tournament=t)
    assert (reg.player1.team, reg.player2.team) == ("Feras do Truco", "Clube Zap")
    listing = client.get(url("registrations", t)).content.decode()
    assert "Feras do Truco" in listing and "Clube Zap" in listing
    # the search finds by equipe too
    assert "Ana Souza" in client.get(url("registrations", t), {"q": "clube zap"}).content.decode()
    assert "Nenhuma inscrição" in client.get(url("registrations", t), {"q": "outro clube"}).content.decode()
    edit = client.get(url("registration_edit", t, reg.pk)).content.decode()
    assert 'value="Feras do Truco"' in edit and 'value="Clube Zap"' in edit
    response = client.post(
        url("registration_edit", t, reg.pk),
        {
            "name": "Ana Souza",
            "birth_date": "1987-03-14",
            "team": "Casa do Truco",
            "partner_name": "Bruno Lima",
            "partner_birth_date": "1988-03-14",
            "partner_team": "",
        },
    )
    assert response.status_code == 302
    assert teams(t) == {"Ana Souza": "Casa do Truco", "Bruno Lima": ""}


def test_desk_form_refuses_a_team_too_long_next_to_its_field(client):
    t = tournament_make()
    client.force_login(user_make("org", tournament=t, role=StaffRole.ORGANIZER))
    response = client.post(
        url("registration_add", t), {"name": "Ana Souza", "birth_date": "1987-03-14", "team": "x" * 121}
    )
    assert response.status_code in (200, 400, 422)
    assert response.context["form"].errors["team"]
    assert not Player.objects.exists()


# --- the public sign-up and pages ------------------------------------------------------------------------------


def test_public_signup_takes_each_players_team(client):
    t = tournament_make()
    page = client.get(reverse("tournaments:signup", args=[t.slug])).content.decode()
    assert 'name="team"' in page and 'name="partner_team"' in page
    response = client.post(
        reverse("tournaments:signup", args=[t.slug]),
        {
            "kind": "pair",
            "name": "Ana Souza",
            "birth_date": "1987-03-14",
            "phone": "(11) 98888-7777",
            "team": "Feras do Truco",
            "partner_name": "Bruno Lima",
            "partner_birth_date": "1988-03-14",
            "partner_team": "Clube Zap",
            "website": "",
        },
    )
    assert response.status_code == 302
    assert teams(t) == {"Ana Souza": "Feras do Truco", "Bruno Lima": "Clube Zap"}
    # the event page lists who registered with their equipe, never a birth date or a contact
    body = client.get(reverse("tournaments:detail", args=[t.slug])).content.decode()
    assert "Ana Souza (Feras do Truco) e Bruno Lima (Clube Zap)" in body
    assert "1987" not in body and "98888" not in body


def test_public_signup_alone_drops_a_partner_team_typed_before(client):
    t = tournament_make()
    client.post(
        reverse("tournaments:signup", args=[t.slug]),
        {
            "kind": "individual",
            "name": "Ana Souza",
            "birth_date": "1987-03-14",
            "phone": "(11) 98888-7777",
            "team": "Feras do Truco",
            "partner_team": "Clube Zap",
            "website": "",
        },
    )
    assert teams(t) == {"Ana Souza": "Feras do Truco"}


def test_public_dupla_page_shows_the_teams_and_nothing_private(client, load_file):
    data = knockout_file()
    data["players"][0]["team"] = "Feras do Truco"
    data["players"][0]["email"] = "ana@example.com"
    t = load_file(data)
    d1 = data["duplas"][0]
    assert d1["players"][0] == data["players"][0]["key"]
    body = client.get(reverse("tournaments:dupla", args=[t.slug, "d1"])).content.decode()
    assert "Feras do Truco" in body
    assert "ana@example.com" not in body and data["players"][0]["birth_date"] not in body
    # the other dupla's page names no equipe
    assert "dupla-team" not in client.get(reverse("tournaments:dupla", args=[t.slug, "d2"])).content.decode()


def test_the_desks_dupla_page_shows_and_edits_its_players_teams(client, load_file):
    data = knockout_file()
    data["players"][0]["team"] = "Feras do Truco"
    t = load_file(data)
    client.force_login(user_make("org", tournament=t, role=StaffRole.ORGANIZER))
    assert "Feras do Truco" in client.get(url("duplas", t)).content.decode()
    from tournaments.models import Dupla

    d1 = Dupla.objects.get(tournament=t, key="d1")
    page = client.get(url("dupla_edit", t, d1.pk)).content.decode()
    assert f"Equipe de {d1.player1.name}" in page and 'value="Feras do Truco"' in page
    response = client.post(url("dupla_edit", t, d1.pk), {"name": d1.name, "seed": "", "team1": "", "team2": "Zap"})
    assert response.status_code == 302
    d1.refresh_from_db()
    assert (Player.objects.get(pk=d1.player1_id).team, Player.objects.get(pk=d1.player2_id).team) == ("", "Zap")
    response = client.post(url("dupla_edit", t, d1.pk), {"name": d1.name, "team1": "x" * 121, "team2": ""})
    assert response.status_code == 200 and response.context["form"].errors["team1"]
    assert Player.objects.get(pk=d1.player2_id).team == "Zap"
