"""Appeals on the pages (issue 24 point 12c): the dupla files one from its private link, the comissão decides it on
the desk's Recursos page (linked from the Resumo and the jogo's referee screen), and the public súmula, the dupla's
page and the printed súmula show both. Bad input gets a message, never a 500; another dupla's link is refused."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.sumula.test_appeals import decided_over_contest
from tests.support.sumula import staff_user
from tournaments.models import Appeal, Dupla, Jogo, StaffRole
from tournaments.printing.contents import sumula_sheet_get

pytestmark = pytest.mark.django_db

REASON = "a mão 3 da 2ª partida foi nossa"


def link(cup, key: str) -> str:
    return Dupla.objects.get(tournament=cup, key=key).token


def appeal_url(cup, key: str, j1: str) -> str:
    return reverse("privatelink:appeal", kwargs={"token": link(cup, key), "key": j1})


def page_of(client, cup, key: str) -> str:
    response = client.get(reverse("privatelink:dupla", kwargs={"token": link(cup, key)}))
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def org(cup):
    client = Client()
    client.force_login(staff_user(cup, "comissao", StaffRole.ORGANIZER))
    return client


@pytest.fixture
def decided(cup, ref, j1):
    decided_over_contest(ref, cup, j1)
    return j1


# --- the dupla's private page ----------------------------------------------------------------------------------


def test_the_dupla_page_offers_the_appeal_only_after_the_referee_decided(cup, ref, j1):
    assert 'id="recursos"' not in page_of(Client(), cup, "d4")
    decided_over_contest(ref, cup, j1)
    html = page_of(Client(), cup, "d4")
    assert 'id="recursos"' in html and "Recorrer da decisão" in html
    assert "Decisão do árbitro: a súmula está certa" in html
    assert f'action="{appeal_url(cup, "d4", j1)}"' in html
    assert 'id="recursos"' not in page_of(Client(), cup, "d2")  # not its jogo


def test_a_dupla_files_an_appeal_from_its_link_and_sees_it_waiting(cup, decided):
    client = Client(HTTP_USER_AGENT="Celular de teste")
    response = client.post(appeal_url(cup, "d4", decided), {"via": "1", "motivo": f"  {REASON} "})
    assert response.status_code == 302 and response["Location"].endswith("#recursos")
    appeal = Appeal.objects.get()
    assert (appeal.dupla.key, appeal.via, appeal.reason, appeal.method) == ("d4", 1, REASON, "link")
    assert appeal.device.startswith("Celular de teste")
    html = page_of(client, cup, "d4")
    assert "foi registrado" in html
    assert "aguarda decisão da comissão organizadora" in html and REASON in html
    assert "Recorrer da decisão" not in html  # once per via
    # the other dupla of the jogo sees it too, on its page
    assert "aguarda decisão da comissão organizadora" in page_of(Client(), cup, "d1")


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"via": "1", "motivo": "   "}, "para recorrer, diga o motivo do recurso"),
        ({"via": "1"}, "para recorrer, diga o motivo do recurso"),
        ({"via": "1", "motivo": "x" * 601}, "o motivo tem no máximo 600 caracteres"),
        ({"motivo": REASON}, "falta a via que a página mostrou"),
        ({"via": "abc", "motivo": REASON}, "falta a via que a página mostrou"),
        ({"via": "9" * 30, "motivo": REASON}, "falta a via que a página mostrou"),
        ({"via": "2", "motivo": REASON}, "agora é a via 1"),
    ],
)
def test_bad_input_on_the_dupla_page_gets_a_message_not_a_500(cup, decided, body, words):
    client = Client()
    response = client.post(appeal_url(cup, "d4", decided), body)
    assert response.status_code == 302
    html = page_of(client, cup, "d4")
    opponent = Dupla.objects.get(tournament=cup, key="d1").display_name  # the jogo by its opponent, not its key
    assert f"Não foi possível registrar o recurso do jogo contra {opponent}" in html and words in html
    assert not Appeal.objects.exists()


def test_the_link_of_another_dupla_may_not_appeal_this_jogo(cup, decided):
    client = Client()
    assert client.post(appeal_url(cup, "d2", decided), {"via": "1", "motivo": REASON}).status_code == 302
    d2 = Dupla.objects.get(tournament=cup, key="d2").display_name  # by its name, not its key
    assert f"a dupla {d2} não joga este jogo" in page_of(client, cup, "d2")
    assert not Appeal.objects.exists()
    bad = reverse("privatelink:appeal", kwargs={"token": "x" * 22, "key": decided})
    assert client.post(bad, {"via": "1", "motivo": REASON}).status_code == 404
    assert client.get(appeal_url(cup, "d4", decided)).status_code == 405
    missing = reverse("privatelink:appeal", kwargs={"token": link(cup, "d4"), "key": "nao-ha"})
    assert client.post(missing, {"via": "1", "motivo": REASON}).status_code == 302
    assert not Appeal.objects.exists()


# --- the desk ------------------------------------------------------------------------------------------------


def filed(cup, j1) -> Appeal:
    assert Client().post(appeal_url(cup, "d4", j1), {"via": "1", "motivo": REASON}).status_code == 302
    return Appeal.objects.get()


def test_the_history_credits_an_appeal_to_its_dupla(cup, decided, org):
    """Issue 41 item 20: the Histórico credited a dupla's appeal (made by its private link, no account) to
    "sistema"; it names the dupla, and the summary names the jogo by its duplas."""
    filed(cup, decided)
    d4 = Dupla.objects.get(tournament=cup, key="d4").display_name
    html = org.get(reverse("desk:audit", args=[cup.slug])).content.decode()
    entry = html.split("Recurso da dupla")[1].split("</li>")[0]
    assert f"dupla {d4}" in entry and "sistema" not in entry and decided not in entry


def test_the_resumo_counts_the_appeals_to_decide_for_the_organizer(cup, decided, org, ref):
    overview = reverse("desk:overview", args=[cup.slug])
    assert "Recursos a decidir" not in org.get(overview).content.decode()
    filed(cup, decided)
    html = org.get(overview).content.decode()
    pending = f'<li class="pending-appeals"><a href="{reverse("desk:appeals", args=[cup.slug])}">'
    assert pending in html and "Recursos a decidir" in html
    assert ref.get(overview).status_code == 403  # the Resumo is the comissão's; the referee does not decide them


def test_the_referee_may_not_open_or_post_the_appeals_page(cup, decided, ref):
    appeal = filed(cup, decided)
    url = reverse("desk:appeals", args=[cup.slug])
    assert ref.get(url).status_code == 403
    assert ref.post(url, {"recurso": appeal.pk, "decisao": "upheld", "motivo": "eu revejo"}).status_code == 403
    appeal.refresh_from_db()
    assert appeal.decision == ""
    # the referee's screen of the jogo shows the appeal, and says the comissão decides it
    html = ref.get(reverse("referee:jogo", args=[cup.slug, decided])).content.decode()
    assert REASON in html and "A comissão organizadora decide os recursos." in html


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"decisao": "talvez", "motivo": "x"}, 400, "escolha a decisão: deferido ou indeferido"),
        ({"motivo": "x"}, 400, "escolha a decisão: deferido ou indeferido"),
        ({"decisao": "rejected", "motivo": "  "}, 400, "escreva o motivo da decisão"),
        ({"decisao": "rejected", "motivo": "y" * 601}, 400, "o motivo tem no máximo 600 caracteres"),
        ({"recurso": "abc", "decisao": "rejected", "motivo": "x"}, 400, "Recurso não encontrado neste torneio."),
        ({"recurso": "99999", "decisao": "rejected", "motivo": "x"}, 404, "recurso não encontrado neste torneio"),
    ],
)
def test_bad_input_on_the_appeals_page_gets_a_message_not_a_500(cup, decided, org, body, status, words):
    appeal = filed(cup, decided)
    response = org.post(reverse("desk:appeals", args=[cup.slug]), {"recurso": appeal.pk} | body)
    assert response.status_code == status
    assert words in response.content.decode()
    appeal.refresh_from_db()
    assert appeal.decision == ""


def test_the_organizer_rejects_and_the_public_sumula_and_pdf_show_it(cup, decided, org):
    appeal = filed(cup, decided)
    url = reverse("desk:appeals", args=[cup.slug])
    html = org.get(url).content.decode()
    assert "1 recurso a decidir" in html and REASON in html and f'id="recurso-{appeal.pk}"' in html
    response = org.post(url, {"recurso": appeal.pk, "decisao": "rejected", "motivo": "o árbitro viu a mão"})
    assert response.status_code == 302 and response["Location"].endswith(f"#recurso-{appeal.pk}")
    html = org.get(url).content.decode()
    assert "Nenhum recurso esperando decisão." in html and "indeferido" in html and "por comissao" in html
    public = Client().get(reverse("tournaments:sumula", args=[cup.slug, decided])).content.decode()
    assert "Recursos à comissão organizadora" in public and REASON in public
    assert "indeferido" in public and "o árbitro viu a mão" in public and "comissao" not in public  # no account names
    jogo = Jogo.objects.get(tournament=cup, key=decided)
    notes = " ".join(sumula_sheet_get(tournament=cup, jogo=jogo).notes)
    assert "Recurso de Gabi Rocha / Hugo Alves (1ª via)" in notes and "indeferido" in notes
    assert "o árbitro viu a mão" in notes
    assert "Motivo da decisão: o árbitro viu a mão" in page_of(Client(), cup, "d4")


def test_an_upheld_appeal_offers_the_correction_prefilled_but_does_not_correct(cup, decided, org):
    appeal = filed(cup, decided)
    pending = Client().get(reverse("tournaments:sumula", args=[cup.slug, decided])).content.decode()
    assert "aguarda decisão da comissão organizadora" in pending and REASON in pending
    screen = org.get(reverse("referee:jogo", args=[cup.slug, decided])).content.decode()
    assert f'href="{reverse("desk:appeals", args=[cup.slug])}"' in screen and "Decidir o recurso" in screen
    response = org.post(
        reverse("desk:appeals", args=[cup.slug]), {"recurso": appeal.pk, "decisao": "upheld", "motivo": "o vídeo"}
    )
    correction = reverse("referee:jogo", args=[cup.slug, decided]) + f"?recurso={appeal.pk}#correcao"
    assert response.status_code == 302 and response["Location"] == correction
    html = org.get(correction).content.decode()
    assert "Recurso deferido." in html
    assert 'id="correcao" open' in html
    assert "Recurso de Gabi Rocha / Hugo Alves deferido pela comissão organizadora: o vídeo</textarea>" in html
    jogo = Jogo.objects.get(tournament=cup, key=decided)
    assert jogo.via == 1 and jogo.status == Jogo.HOMOLOGATED  # the correction is the staff's next, separate act
    # an unknown or rejected ?recurso= prefills nothing
    html = org.get(reverse("referee:jogo", args=[cup.slug, decided]) + "?recurso=abc").content.decode()
    assert 'id="correcao" open' not in html


def test_the_printed_sumula_carries_the_appeal_and_the_decision(cup, decided, org):
    from tests.support.printing import assert_pdf, flat, pdf_text, save_png

    appeal = filed(cup, decided)
    url = reverse("tournaments:sumula_pdf", args=[cup.slug, decided])
    text = flat(" ".join(pdf_text(assert_pdf(Client().get(url)))))
    assert (
        "Recurso de Gabi Rocha / Hugo Alves (1ª via)" in text
        and "Recurso aguarda decisão da comissão organizadora." in text
    )
    org.post(
        reverse("desk:appeals", args=[cup.slug]),
        {"recurso": appeal.pk, "decisao": "rejected", "motivo": "o árbitro viu a mão"},
    )
    data = assert_pdf(Client().get(url))
    text = flat(" ".join(pdf_text(data)))
    assert "Comissão organizadora: indeferido em" in text and "o árbitro viu a mão" in text
    assert "comissao" not in text  # no account names
    save_png(data, "appeal-sumula-pdf")


def test_the_appeal_pages_read_in_english_too(cup, decided, org):
    appeal = filed(cup, decided)
    org.post(
        reverse("desk:appeals", args=[cup.slug]), {"recurso": appeal.pk, "decisao": "rejected", "motivo": "sem prova"}
    )
    client = Client()
    client.cookies["django_language"] = "en"
    org.cookies["django_language"] = "en"
    public = client.get(reverse("tournaments:sumula", args=[cup.slug, decided])).content.decode()
    assert "Appeals to the organizing committee" in public and "rejected" in public
    assert "by the organizing committee on" in public and "Reason for the decision:" in public
    desk = org.get(reverse("desk:appeals", args=[cup.slug])).content.decode()
    assert "Decided appeals" in desk and "0 appeals to decide" in desk
    page = page_of(client, cup, "d4")
    assert "Appeals" in page and "rejected" in page
