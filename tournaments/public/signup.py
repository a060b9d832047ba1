"""/torneios/<slug>/inscricao/: the public sign-up (docs/regras.md §2 step 2) and its confirmation page.

- A tournament without public sign-up (``public_signup`` off) has no such page: 404,
  as for any address that does not exist (its public pages do not link it).
- Public sign-up on but registration closed (by the organizer or by the dates): a
  friendly page saying so, status 200.
- Bots: a honeypot field (a filled one gets a page that looks like success, and
  nothing is written) and at most ``SIGNUPS_PER_HOUR`` sign-ups per client address
  per hour (429 with a page in Portuguese). The count lives in the database (the
  audit record of each sign-up keeps a keyed hash of the address, never the
  address), so it holds across server processes.
- The confirmation page's address carries a signed token: it cannot be made up
  to see someone else's registration, and shows no birth date or contact.
"""

from __future__ import annotations

from datetime import timedelta

from django.core import signing
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.views.decorators.cache import never_cache

from tournaments.models import AuditEntry, Registration, Tournament
from tournaments.public.signup_forms import SignupForm
from tournaments.public.visibility import event_for
from tournaments.refusals import Refused
from tournaments.registrations.selectors import registration_row_get
from tournaments.registrations.services import registration_add
from tournaments.registrations.window import public_signup_is_open
from tournaments.web import client_ip, refusal_to_form

SIGNUPS_PER_HOUR = 10
TOKEN_SALT = "zap.signup.done"


def client_hash(request) -> str:
    """A keyed hash of the client's address: enough to count its sign-ups, not to learn the address."""
    return salted_hmac("zap.signup.client", client_ip(request) or "desconhecido", algorithm="sha256").hexdigest()[:24]


def rate_limited(*, client: str) -> bool:
    since = timezone.now() - timedelta(hours=1)
    return (
        AuditEntry.objects.filter(action="registration_add", at__gte=since, after__client=client).count()
        >= SIGNUPS_PER_HOUR
    )


def token_make(registration: Registration) -> str:
    return signing.dumps(registration.pk, salt=TOKEN_SALT)


def _tournament(request, slug: str) -> Tournament:
    tournament = event_for(request, Tournament.objects.filter(slug=slug).first())
    if not tournament.public_signup:
        raise Http404("inscrição pelo site desligada")
    return tournament


@never_cache
def signup(request, slug: str):
    tournament = _tournament(request, slug)
    opens_later = bool(
        not tournament.registration_closed
        and tournament.registration_opens
        and timezone.now() < tournament.registration_opens
    )
    context = {"tournament": tournament, "opens_later": opens_later}
    if not public_signup_is_open(tournament=tournament):
        return render(request, "signup/closed.html", context)
    if request.method not in ("GET", "HEAD", "POST"):
        return render(request, "signup/closed.html", context, status=405)
    form = SignupForm(request.POST or None, tournament=tournament)
    if request.method == "POST":
        client = client_hash(request)
        if rate_limited(client=client):
            return render(request, "signup/limited.html", {**context, "per_hour": SIGNUPS_PER_HOUR}, status=429)
        if form.is_bot():
            return render(request, "signup/done.html", {**context, "fake": True})
        if form.is_valid():
            try:
                reg = registration_add(
                    tournament=tournament, players=form.people(), source=Registration.FORM, client=client
                )
            except Refused as exc:
                if not public_signup_is_open(tournament=Tournament.objects.get(pk=tournament.pk)):
                    return render(request, "signup/closed.html", context)
                refusal_to_form(form, exc)
            else:
                return redirect("tournaments:signup_done", slug=tournament.slug, token=token_make(reg))
    context["form"] = form
    return render(request, "signup/form.html", context)


@never_cache
def signup_done(request, slug: str, token: str):
    tournament = event_for(request, Tournament.objects.filter(slug=slug).first())
    try:
        pk = signing.loads(token, salt=TOKEN_SALT)
    except signing.BadSignature:
        raise Http404("confirmação inválida") from None
    reg = get_object_or_404(
        Registration.objects.select_related("player1", "player2", "tournament"), pk=pk, tournament=tournament
    )
    return render(
        request,
        "signup/done.html",
        {"tournament": tournament, "registration": reg, "row": registration_row_get(registration=reg)},
    )
