"""The desk's bulk actions and long lists (issue 24 items 9 and 12b): POST without JavaScript, paging, search,
problem rows first in the CSV preview, permissions, queries that do not grow with the registrations."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.support.registrations import csv_bytes, people, tournament_make, user_make
from tests.support.registrations import desk_url as url
from tests.support.registrations import registrations_add as add
from tournaments.models import AuditEntry, Dupla, Player, Registration, StaffRole
from tournaments.registrations import presence, services
from tournaments.registrations.selectors import registration_rows

pytestmark = pytest.mark.django_db


def many(t, n: int) -> None:
    services.registrations_import_csv(tournament=t, content=csv_bytes(people(n)))


def present_marks(t):
    return list(Registration.objects.filter(tournament=t).order_by("order").values_list("present", flat=True))


def test_the_list_ties_a_checkbox_of_each_row_to_the_bulk_form(client, org, t):
    ana, bia = add(t, "Ana"), add(t, "Bia")
    presence.registration_withdraw(registration=bia, user=None)
    body = client.get(url("registrations", t)).content.decode()
    assert f'<form method="post" id="reg-bulk" action="{url("registrations_selected", t)}">' in body
    assert f'name="ids" value="{ana.pk}" form="reg-bulk"' in body
    assert f'name="ids" value="{bia.pk}"' not in body  # nothing to do with a withdrawn one
    assert 'form="reg-bulk" name="action" value="present"' in body and "Todos presentes" in body
    assert f'hx-post="{url("registration_checkin", t, ana.pk)}"' in body  # the one-row check-in stays


def test_bulk_present_and_absent_without_javascript(client, org, t):
    regs = [add(t, n) for n in ("Ana", "Bia", "Caio")]
    response = client.post(
        url("registrations_selected", t), {"action": "present", "ids": [regs[0].pk, regs[2].pk], "q": "a"}
    )
    assert response.status_code == 302 and response["Location"] == url("registrations", t) + "?q=a"
    assert present_marks(t) == [True, None, True]
    page = client.get(response["Location"]).content.decode()
    assert "2 inscrições marcadas como presentes." in page
    client.post(url("registrations_selected", t), {"action": "absent", "ids": [regs[1].pk, regs[2].pk]})
    assert present_marks(t) == [True, False, False]
    entry = AuditEntry.objects.filter(action="registrations_checkin").order_by("-id").first()
    assert entry.summary == "2 inscrições ausentes: Bia e Caio" and entry.user == org


def test_bulk_checkin_refused_writes_nothing_and_says_who_and_why(client, org, t):
    ana, bia = add(t, "Ana"), add(t, "Bia")
    presence.registration_withdraw(registration=bia, user=None)
    response = client.post(
        url("registrations_selected", t), {"action": "present", "ids": [ana.pk, bia.pk]}, follow=True
    )
    body = response.content.decode()
    assert "Nada foi gravado:" in body and "A inscrição de Bia foi retirada." in body
    assert present_marks(t) == [None, None]
    # nothing ticked, a bad action, a forged id
    body = client.post(url("registrations_selected", t), {"action": "present"}, follow=True).content.decode()
    assert "Selecione ao menos uma inscrição" in body
    body = client.post(
        url("registrations_selected", t), {"action": "apagar", "ids": [ana.pk]}, follow=True
    ).content.decode()
    assert "Seleção inválida" in body
    body = client.post(
        url("registrations_selected", t), {"action": "present", "ids": ["x1"]}, follow=True
    ).content.decode()
    assert "Seleção inválida" in body and present_marks(t) == [None, None]


def test_all_present(client, org, t):
    add(t, "Ana")
    add(t, "Bia")
    presence.registration_withdraw(registration=add(t, "Caio"), user=None)
    response = client.post(url("registrations_checkin_all", t), {"pagina": "1"}, follow=True)
    assert "Todos presentes: 2 inscrições marcadas como presentes." in response.content.decode()
    assert present_marks(t) == [True, True, None]


def test_bulk_withdraw_confirmation_lists_who_then_one_write(client, org, t):
    t.max_duplas = 1
    t.save()
    ana, bia = add(t, "Ana"), add(t, "Bia")
    add(t, "Caio")
    add(t, "Duda")
    page = client.post(url("registrations_selected", t), {"action": "withdraw", "ids": [ana.pk, bia.pk]})
    body = page.content.decode()
    assert page.status_code == 200 and "Retirar 2 inscrições" in body and "Sim, retirar 2 inscrições" in body
    assert "<bdi>Ana</bdi>" in body and "<bdi>Bia</bdi>" in body and "uma a uma, em ordem de chegada" in body
    assert present_marks(t) == [None] * 4 and not Registration.objects.filter(status=Registration.WITHDRAWN).exists()
    form = re.search(r'<form method="post" action="([^"]+)" class="actions">(.*?)</form>', body, re.S)
    assert form.group(1) == url("registrations_withdraw", t)
    ids = re.findall(r'name="ids" value="(\d+)"', form.group(2))
    response = client.post(form.group(1), {"ids": ids}, follow=True)
    text = response.content.decode()
    assert "2 inscrições retiradas: Ana, Bia." in text
    assert "Caio saiu da lista de espera." in text and "Duda saiu da lista de espera." in text
    entry = AuditEntry.objects.get(action="registrations_withdraw")
    assert entry.summary == "2 inscrições retiradas: Ana e Bia; Caio e Duda saem da lista de espera"
    assert entry.user == org


def test_bulk_withdraw_of_a_paired_registration_is_refused_before_and_at_the_write(client, org, t):
    ana, pair = add(t, "Ana"), add(t, "Bia", "Bruno")
    Dupla.objects.create(tournament=t, key="d1", player1=pair.player1, player2=pair.player2)
    Registration.objects.filter(pk=pair.pk).update(status=Registration.PAIRED)
    body = client.post(
        url("registrations_selected", t), {"action": "withdraw", "ids": [ana.pk, pair.pk]}
    ).content.decode()
    assert "Bia + Bruno já está em dupla" in body and "Sim, retirar" not in body
    # posted anyway (a stale page): nothing written, who and why said
    response = client.post(url("registrations_withdraw", t), {"ids": [ana.pk, pair.pk]}, follow=True)
    body = response.content.decode()
    assert "Nada foi gravado:" in body and "Bia + Bruno já está em dupla" in body
    assert Registration.objects.get(pk=ana.pk).status == Registration.WAITING
    assert not AuditEntry.objects.filter(action__contains="withdraw").exists()


# --- permissions: a referee (or anyone but an organizer of the event) changes nothing ---------------------------


@pytest.mark.parametrize("who", ["anonymous", "referee", "other_organizer"])
def test_bulk_actions_need_an_organizer(client, t, who):
    ana = add(t, "Ana")
    if who != "anonymous":
        user = user_make(who)
        if who == "referee":
            StaffRole.objects.create(tournament=t, user=user, role=StaffRole.REFEREE)
        else:
            StaffRole.objects.create(tournament=tournament_make(slug="outro"), user=user, role=StaffRole.ORGANIZER)
        client.force_login(user)
    expected = {"anonymous": 302, "referee": 403, "other_organizer": 404}[who]
    for name, data in (
        ("registrations_selected", {"action": "present", "ids": [ana.pk]}),
        ("registrations_selected", {"action": "withdraw", "ids": [ana.pk]}),
        ("registrations_withdraw", {"ids": [ana.pk]}),
        ("registrations_checkin_all", {}),
    ):
        assert client.post(url(name, t), data).status_code == expected
    assert present_marks(t) == [None] and Registration.objects.get(pk=ana.pk).status == Registration.WAITING
    assert not AuditEntry.objects.exclude(action="registration_add").exists()


def test_bulk_pages_take_only_post(client, org, t):
    for name in ("registrations_selected", "registrations_withdraw", "registrations_checkin_all"):
        assert client.get(url(name, t)).status_code == 405


# --- long lists: 50 a page, the search kept across pages --------------------------------------------------------


def _cards(body: str) -> list[str]:
    return re.findall(r'<p class="reg-name"><bdi>([^<]+)</bdi>', body)


def test_the_list_is_paged_in_order_of_arrival_with_the_search_kept(client, org, t):
    many(t, 120)
    first = client.get(url("registrations", t)).content.decode()
    assert _cards(first) == [f"Atleta {i}" for i in range(1, 51)] and "página 1 de 3" in first
    assert f'href="{url("registrations", t)}?pagina=2" rel="next"' in first and 'rel="prev"' not in first
    last = client.get(url("registrations", t), {"pagina": "3"}).content.decode()
    assert _cards(last) == [f"Atleta {i}" for i in range(101, 121)] and "página 3 de 3" in last
    assert 'rel="next"' not in last
    # past the end or not a number: the nearest page there is
    assert _cards(client.get(url("registrations", t), {"pagina": "99"}).content.decode())[0] == "Atleta 101"
    assert _cards(client.get(url("registrations", t), {"pagina": "x"}).content.decode())[0] == "Atleta 1"
    # "Atleta 1" matches 1, 10-19, 100-120: 32 registrations, one page; "Atleta" matches every one, 3 pages
    assert len(_cards(client.get(url("registrations", t), {"q": "atleta 1"}).content.decode())) == 32
    found = client.get(url("registrations", t), {"q": "atleta", "pagina": "2"}).content.decode()
    assert _cards(found)[0] == "Atleta 51" and "página 2 de 3" in found
    assert f'href="{url("registrations", t)}?q=atleta&amp;pagina=3" rel="next"' in found
    assert f'href="{url("registrations", t)}?q=atleta" rel="prev"' in found


def test_a_check_in_on_a_later_page_comes_back_to_it(client, org, t):
    many(t, 60)
    reg = Registration.objects.get(tournament=t, order=55)
    response = client.post(url("registration_checkin", t, reg.pk), {"present": "1", "q": "", "pagina": "2"})
    assert response["Location"] == url("registrations", t) + f"?pagina=2#r{reg.pk}"
    response = client.post(
        url("registrations_selected", t), {"action": "absent", "ids": [reg.pk], "q": "atleta", "pagina": "2"}
    )
    assert response["Location"] == url("registrations", t) + "?q=atleta&pagina=2"
    htmx = client.post(
        url("registration_checkin", t, reg.pk), {"present": "1", "pagina": "2"}, headers={"HX-Request": "true"}
    )
    assert 'name="pagina" value="2"' in htmx.content.decode()
    assert f'name="ids" value="{reg.pk}" form="reg-bulk"' in htmx.content.decode()


def test_a_big_list_takes_as_many_queries_as_a_small_one(client, org, t, django_assert_max_num_queries):
    t.max_duplas = None
    t.save()
    many(t, 20)
    with django_assert_max_num_queries(20) as small:
        assert client.get(url("registrations", t)).status_code == 200
    Registration.objects.filter(tournament=t).delete()
    Player.objects.filter(tournament=t).delete()
    many(t, 2000)
    presence.registrations_checkin_all(tournament=t, user=None)
    with django_assert_max_num_queries(len(small.captured_queries)):
        body = client.get(url("registrations", t), {"pagina": "40"}).content.decode()
    assert "página 40 de 40" in body and _cards(body)[-1] == "Atleta 2000"


def test_bulk_actions_take_a_bounded_number_of_queries(client, org, t, django_assert_max_num_queries):
    many(t, 300)
    ids = list(Registration.objects.filter(tournament=t).values_list("pk", flat=True)[:50])
    with django_assert_max_num_queries(40):
        client.post(url("registrations_selected", t), {"action": "present", "ids": ids})
    with django_assert_max_num_queries(40):
        client.post(url("registrations_checkin_all", t))
    with django_assert_max_num_queries(40):
        client.post(url("registrations_withdraw", t), {"ids": ids})
    assert sum(r.situation == "withdrawn" for r in registration_rows(tournament=t)) == 50


# --- the CSV preview: the summary first, then the rows with problems, 50 a page --------------------------------


def _file(content: bytes):
    return SimpleUploadedFile("inscricoes.csv", content, content_type="text/csv")


def _lines(body: str) -> list[int]:
    return [int(n) for n in re.findall(r'<td data-label="linha">(\d+)</td>', body)]


def test_the_preview_shows_the_summary_then_the_problem_rows_first_paged(client, org, t):
    rows = people(120)
    rows[59] = "Menor;01/01/2015;;;;;;"  # line 61
    rows[99] = "Menor Dois;01/01/2016;;;;;;"  # line 101
    response = client.post(url("registrations_upload", t), {"file": _file(csv_bytes(rows))})
    body = response.content.decode()
    assert "120 inscrições lidas" in body and "2 linhas com problemas" in body and "2 problemas" in body
    assert body.index("2 linhas com problemas") < body.index("Linhas com problemas") < body.index("Linhas sem")
    assert _lines(body) == [61, 101, *range(2, 50)] and "página 1 de 3" in body
    assert "linha 61: coluna nascimento:" in body and "Confirmar inscrições" not in body
    payload = re.search(r'name="payload" value="([^"]+)"', body).group(1)
    # another page: the file comes back signed, nothing is written
    body = client.post(url("registrations_upload", t), {"payload": payload, "pagina": "3"}).content.decode()
    assert _lines(body) == [*range(102, 122)] and "página 3 de 3" in body and "2 linhas com problemas" in body
    assert 'name="pagina" value="2"' in body and not Registration.objects.exists()
    # the confirmation of a file with problems writes nothing either
    response = client.post(url("registrations_upload", t), {"payload": payload})
    assert "nada foi gravado" in response.content.decode() and not Registration.objects.exists()


def test_a_good_file_previews_in_pages_and_confirms_from_any(client, org, t):
    t.max_duplas = None
    t.save()
    body = client.post(url("registrations_upload", t), {"file": _file(csv_bytes(people(70)))}).content.decode()
    assert "nenhuma linha com problemas" in body and _lines(body) == [*range(2, 52)]
    payload = re.search(r'name="payload" value="([^"]+)"', body).group(1)
    body = client.post(url("registrations_upload", t), {"payload": payload, "pagina": "2"}).content.decode()
    assert _lines(body) == [*range(52, 72)] and "Confirmar inscrições" in body and not Registration.objects.exists()
    response = client.post(url("registrations_upload", t), {"payload": payload}, follow=True)
    assert "70 inscrições adicionadas" in response.content.decode()
    assert Registration.objects.filter(tournament=t).count() == 70


def test_the_preview_of_a_big_file_takes_as_many_queries_as_a_small_one(client, org, t):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count(n: int) -> int:
        with CaptureQueriesContext(connection) as ctx:
            body = client.post(url("registrations_upload", t), {"file": _file(csv_bytes(people(n)))}).content
        assert len(_lines(body.decode())) == min(n, 50)
        return len(ctx.captured_queries)

    assert count(10) == count(1500)
