"""The desk's Resumo (/organizar/<slug>/): what waits for the staff now, each with its count and its page."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.support.desk import make_user
from tests.support.files import large_file
from tournaments.models import Dupla, Jogo, PinFailure

pytestmark = pytest.mark.django_db


def _client(username: str) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _pending(html: str) -> dict[str, tuple[int, str, str]]:
    """The Resumo's pending rows: code → (count, label, link)."""
    rows = re.findall(
        r'<li class="pending-([a-z_]+)"><a href="([^"]+)"><strong class="pending-count">(\d+)</strong> ([^<]+)</a></li>',
        html,
    )
    return {code: (int(n), label, url.replace("&amp;", "&")) for code, url, n, label in rows}


def _lock(dupla: Dupla, *, staff: bool = False) -> None:
    """Six wrong PINs within a minute: the dupla's PIN locked for ten minutes."""
    now = timezone.now()
    PinFailure.objects.bulk_create(
        [PinFailure(dupla=dupla, at=now - timedelta(seconds=k), address="10.9.0.1", staff=staff) for k in range(6)]
    )


def test_the_organizer_sees_each_pending_count_with_the_page_that_handles_it(event_during):
    t = event_during
    # a jogo of the round called now (round 2) without a mesa counts; one of round 3 (not called yet) does not
    Jogo.objects.filter(pk=Jogo.objects.filter(tournament=t, round=2, status=Jogo.SCHEDULED).first().pk).update(
        mesa=None
    )
    Jogo.objects.filter(pk=Jogo.objects.filter(tournament=t, round=3).first().pk).update(mesa=None)
    _lock(Dupla.objects.filter(tournament=t).order_by("order").first())
    html = _client("comissao-regional").get(reverse("desk:overview", args=[t.slug])).content.decode()
    sumulas = f"/organizar/{t.slug}/arbitragem/?todos=1&situacao="
    assert _pending(html) == {
        # "Na mesa": only the jogo still being played, not those decided and waiting at the mesa
        "in_progress": (1, "Na mesa (em andamento)", sumulas + "in_progress"),
        "awaiting": (2, "Súmulas aguardando confirmação", sumulas + "awaiting_confirmation"),
        "contested": (1, "Súmulas contestadas", sumulas + "contested"),
        "unsigned": (4, "Súmulas a homologar", sumulas + "confirmed"),
        "pins": (1, "PINs bloqueados", f"/organizar/{t.slug}/pins/#pins-bloqueados"),
        "without_mesa": (1, "Jogos da rodada sem mesa", f"/organizar/{t.slug}/mesas/"),
    }


def test_the_links_open_lists_with_those_jogos_only(event_during):
    t = event_during
    client = _client("comissao-regional")
    html = client.get(reverse("desk:overview", args=[t.slug])).content.decode()
    for code, (count, _label, url) in _pending(html).items():
        if code in ("pins", "without_mesa"):
            continue
        page = client.get(url).content.decode()
        assert page.count('class="referee-card ') == count, code
        assert "Só os jogos na situação" in page
    assert "Ver todos" not in client.get(f"/organizar/{t.slug}/arbitragem/?todos=1").content.decode()
    # an unknown status is ignored: every jogo
    page = client.get(f"/organizar/{t.slug}/arbitragem/?todos=1&situacao=nada").content.decode()
    assert page.count('class="referee-card ') == Jogo.objects.filter(tournament=t).count()


def test_a_referee_is_sent_to_the_sumulas(event_during):
    """The Resumo is the comissão's (INTERCHANGE: every desk page but the referee's is organizer-only): a referee
    gets 403 there, with the way to the referee's screens, which the desk's list and the event's name lead to."""
    t = event_during
    referee = _client("arbitro-regional")
    response = referee.get(reverse("desk:overview", args=[t.slug]))
    assert response.status_code == 403
    html = response.content.decode()
    assert "é da comissão organizadora" in html and f'href="/organizar/{t.slug}/arbitragem/"' in html
    home = referee.get(reverse("desk:home")).content.decode()
    assert f'<h2><a href="/organizar/{t.slug}/arbitragem/">' in home and f'"/organizar/{t.slug}/"' not in home
    listing = referee.get(reverse("referee:list", args=[t.slug])).content.decode()
    assert f'class="event-name"><a href="/organizar/{t.slug}/arbitragem/">' in listing
    assert f"/organizar/{t.slug}/programacao/" not in listing and f'"/organizar/{t.slug}/imprimir/"' not in listing


def test_nothing_pending_says_so_and_a_finished_event_still_asks_for_its_signatures(event_after, event_drawn):
    # a jogo played and signed: the event under way, nothing waiting
    Jogo.objects.filter(pk=Jogo.objects.filter(tournament=event_drawn).order_by("id").first().pk).update(
        status=Jogo.HOMOLOGATED
    )
    html = _client("comissao-outono").get(reverse("desk:overview", args=[event_drawn.slug])).content.decode()
    assert _pending(html) == {}  # every jogo with its mesa
    assert "Nada esperando por você agora." in html
    html = _client("comissao-taca").get(reverse("desk:overview", args=[event_after.slug])).content.decode()
    # the group jogos were confirmed by both duplas and never signed; the knockout ones were
    assert _pending(html) == {
        "unsigned": (
            12,
            "Súmulas a homologar",
            f"/organizar/{event_after.slug}/arbitragem/?todos=1&situacao=confirmed",
        )
    }


def test_before_the_draw_there_is_no_list(event_before):
    html = _client("comissao-primavera").get(reverse("desk:overview", args=[event_before.slug])).content.decode()
    assert 'id="pendencias"' not in html


def test_the_resumo_reads_a_few_queries_whatever_the_size(load_file, django_assert_max_num_queries):
    small = load_file(large_file(groups=2, size=3, slug="copa-pequena"))
    big = load_file(large_file(groups=12, size=5, slug="copa-maior"))
    for t in (small, big):
        make_user(f"org-{t.slug}", t)
        jogos = list(Jogo.objects.filter(tournament=t).order_by("id").values_list("id", flat=True))
        Jogo.objects.filter(pk__in=jogos[0::4]).update(status=Jogo.AWAITING)
        Jogo.objects.filter(pk__in=jogos[1::4]).update(status=Jogo.CONTESTED)
        for dupla in Dupla.objects.filter(tournament=t):
            _lock(dupla, staff=dupla.order % 2 == 0)
    client = Client()
    client.force_login(get_user_model().objects.get(username="org-copa-maior"))
    with django_assert_max_num_queries(12):
        html = client.get(reverse("desk:overview", args=[big.slug])).content.decode()
    assert _pending(html)["pins"][0] == 60

    def count(t) -> int:
        c = Client()
        c.force_login(get_user_model().objects.get(username=f"org-{t.slug}"))
        with CaptureQueriesContext(connection) as ctx:
            assert c.get(reverse("desk:overview", args=[t.slug])).status_code == 200
        return len(ctx.captured_queries)

    assert count(small) == count(big)


def _facts(html: str) -> dict[str, str]:
    return {dt: re.sub(r"\s+", " ", dd).strip() for dt, dd in re.findall(r"<dt>([^<]+)</dt><dd>(.*?)</dd>", html)}


KNOCKOUT_HINT = "Os jogos seguintes do mata-mata são marcados à medida que as duplas avançam na chave."


def test_right_after_the_draw_the_next_step_is_not_beside_a_nothing_waits(event_drawn):
    """Review #22: "Distribuir as mesas" shown with "Agora: Nada esperando por você agora." beside it."""
    event_drawn.__class__.objects.filter(pk=event_drawn.pk).update(mesas=0)
    html = _client("comissao-outono").get(reverse("desk:overview", args=[event_drawn.slug])).content.decode()
    assert "Distribuir as mesas" in html
    assert 'id="pendencias"' not in html and "Nada esperando" not in html


def test_the_jogos_count_says_they_are_those_made_so_far(event_before, event_drawn, event_after):
    """Review #22: "Jogos 0 / 4" read as the whole event for a knockout whose next jogos are made as duplas go
    through: the count says it counts the jogos started of those made ("marcados"), with a word on the knockout."""
    html = _client("comissao-outono").get(reverse("desk:overview", args=[event_drawn.slug])).content.decode()
    assert _facts(html)["Jogos começados"] == "0 de 6 marcados"  # the group jogos; the knockout's come later
    assert KNOCKOUT_HINT in html
    html = _client("comissao-taca").get(reverse("desk:overview", args=[event_after.slug])).content.decode()
    made = Jogo.objects.filter(tournament=event_after).count()
    assert _facts(html)["Jogos começados"] == f"{made} de {made} marcados" and KNOCKOUT_HINT not in html  # finished
    html = _client("comissao-primavera").get(reverse("desk:overview", args=[event_before.slug])).content.decode()
    assert _facts(html)["Jogos começados"] == "nenhum jogo marcado ainda" and KNOCKOUT_HINT not in html


def test_after_the_pairing_draw_the_registrations_left_over_are_without_a_dupla(event_before, event_drawn):
    """Review #4: a finished event said "Aguardando dupla 3" beside "Duplas 16/16". Before the pairing draw the
    registrations not in a dupla await one; after it (or once the competition is drawn) they were left without."""
    html = _client("comissao-primavera").get(reverse("desk:overview", args=[event_before.slug])).content.decode()
    assert _facts(html)["Aguardando dupla"] == "11" and "Inscrições sem dupla" not in html
    html = _client("comissao-outono").get(reverse("desk:overview", args=[event_drawn.slug])).content.decode()
    assert _facts(html)["Inscrições sem dupla"] == "1" and "Aguardando dupla" not in html
