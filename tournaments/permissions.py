"""Who may do what on a tournament (DOMAIN.md §8), decided here and only here.

Views, templates and the API ask these predicates; none of them looks at roles
itself. A role is data (``StaffRole``): the creator of a tournament is its
organizer, an organizer adds others; a superuser organizes every tournament.

A user with no role on a tournament must not learn that it has a desk: the
desk answers 404 (``desk_tournament_get``); a referee on an organizer-only
page gets 403.
"""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connections, router
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .models import StaffRole, Tournament
from .plainsql import columns, instance, made

ORGANIZER, REFEREE = StaffRole.ORGANIZER, StaffRole.REFEREE

# What each action needs: "organize" (the comissão organizadora) or "referee" (árbitro or organizer).
ORGANIZE, REFEREE_DESK = "organize", "referee"


def role_of(*, user, tournament: Tournament) -> str | None:
    """``organizer``, ``referee`` or None. Cached on the user object for the request."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return ORGANIZER
    cache = getattr(user, "_zap_roles", None)
    if cache is None:
        cache = user._zap_roles = {}
    if tournament.pk not in cache:
        # (tournament, user) is unique: no ordering (the model's default joins the tournament and the user)
        cache[tournament.pk] = next(
            iter(
                StaffRole.objects.filter(user=user, tournament=tournament).order_by().values_list("role", flat=True)[:1]
            ),
            None,
        )
    return cache[tournament.pk]


def tournament_with_role(*, user, slug: str) -> Tournament | None:
    """The tournament at ``slug`` (None: no such tournament) with ``user``'s role on it read in the same query,
    so ``role_of`` asks no more: a staff write's first query, in plain SQL (``plainsql``: the queryset with its
    role subquery cost more to compile than to run)."""
    asks = user is not None and user.is_authenticated and user.is_active and not user.is_superuser
    alias = router.db_for_read(Tournament)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(
            made(("tournament_with_role", connection.vendor), lambda: _tournament_with_role_sql(connection)),
            [user.pk if asks else None, slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    tournament = instance(Tournament, row[:-1], db=alias, connection=connection)
    if asks:
        cache = getattr(user, "_zap_roles", None)
        if cache is None:
            cache = user._zap_roles = {}
        cache[tournament.pk] = row[-1]
    return tournament


def _tournament_with_role_sql(connection) -> str:
    q = connection.ops.quote_name
    role = (
        f"(SELECT r.{q('role')} FROM {q(StaffRole._meta.db_table)} r "
        f"WHERE r.{q('tournament_id')} = t.{q('id')} AND r.{q('user_id')} = %s)"
    )  # (tournament, user) is unique
    return (
        f"SELECT {', '.join(columns(Tournament, 't', connection))}, {role} "
        f"FROM {q(Tournament._meta.db_table)} t WHERE t.{q('slug')} = %s"
    )


def roles_prefetch(*, user, tournaments) -> None:
    """Load ``user``'s roles on many tournaments in one query (for lists), so ``role_of`` asks no more."""
    if user is None or not user.is_authenticated or user.is_superuser:
        return
    cache = getattr(user, "_zap_roles", None)
    if cache is None:
        cache = user._zap_roles = {}
    ids = [t.pk for t in tournaments]
    cache.update(dict.fromkeys(ids))
    cache.update(StaffRole.objects.filter(user=user, tournament_id__in=ids).values_list("tournament_id", "role"))


def may_organize(*, user, tournament: Tournament) -> bool:
    """Create/edit the tournament, registrations, draws, mesas, staff, disqualify, decide appeals."""
    return role_of(user=user, tournament=tournament) == ORGANIZER


def may_referee(*, user, tournament: Tournament) -> bool:
    """Enter mãos, WO and penalties, sign súmulas, correct a signed súmula (organizers too)."""
    return role_of(user=user, tournament=tournament) in (ORGANIZER, REFEREE)


def may_pin_unlock(*, user, tournament: Tournament) -> bool:
    """Unlock a dupla's PIN locked by wrong guesses: the referee at the table (or an organizer)."""
    return may_referee(user=user, tournament=tournament)


def may_see_desk(*, user, tournament: Tournament) -> bool:
    return role_of(user=user, tournament=tournament) is not None


def tournament_creation_refusal(*, user) -> str | None:
    """Why ``user`` may not start an event now (pt-BR), or None when it may.

    ``ZAP_EVENT_CREATORS`` decides (config/settings.py): ``staff`` (the default) lets only the accounts the
    site's admins mark as staff (``is_staff``) or superusers create events; ``anyone`` lets every active
    account, each up to ``ZAP_EVENTS_PER_ACCOUNT`` events (staff and superusers have no limit).
    """
    if not (user and user.is_authenticated and user.is_active):
        return _("Entre com a sua conta para criar um torneio.")
    if user.is_superuser or user.is_staff:
        return None
    if settings.ZAP_EVENT_CREATORS != "anyone":
        return _(
            "Neste site, só as contas de organizadores cadastradas pelos administradores criam torneios. "
            "Para organizar um torneio, peça a um administrador do site, ou peça à comissão de um torneio "
            "que convide você para a equipe dele."
        )
    limit = settings.ZAP_EVENTS_PER_ACCOUNT
    if Tournament.objects.filter(created_by=user).count() >= limit:
        return ngettext(
            "Você já criou %(n)d torneio, o limite por conta neste site. Para criar outro, peça a "
            "um administrador do site.",
            "Você já criou %(n)d torneios, o limite por conta neste site. Para criar outro, peça a "
            "um administrador do site.",
            limit,
        ) % {"n": limit}
    return None


def organizer_signup_open() -> bool:
    """Whether anyone may make an account to organize events (``/conta/nova/``): the open sign-up of
    ``ZAP_EVENT_CREATORS=anyone``; otherwise accounts come from the site's admins or from invitations."""
    return settings.ZAP_EVENT_CREATORS == "anyone"


def may_create_tournament(*, user) -> bool:
    """May ``user`` start an event (it becomes that event's organizer)? See ``tournament_creation_refusal``."""
    return tournament_creation_refusal(user=user) is None


NEEDS = {ORGANIZE: may_organize, REFEREE_DESK: may_referee}


def desk_tournament_get(*, user, slug: str, need: str = ORGANIZE) -> Tournament:
    """The tournament behind a desk URL, if ``user`` may do ``need`` there.

    No role at all → 404 (the desk of an event you have nothing to do with does
    not exist for you); a role that is not enough (a referee on an organizer's
    page) → 403.
    """
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not may_see_desk(user=user, tournament=tournament):
        raise Http404("torneio não encontrado")
    if not NEEDS[need](user=user, tournament=tournament):
        raise PermissionDenied("esta página é da comissão organizadora")
    return tournament


def desk_tournaments(*, user) -> QuerySet[Tournament]:
    """The tournaments whose desk ``user`` may open, newest first."""
    qs = Tournament.objects.all()
    if not user.is_superuser:
        qs = qs.filter(staff__user=user)
    return qs.order_by("-date", "-created_at").distinct()


def desk_view(need: str = ORGANIZE):
    """The door of every staff page reached as ``/organizar/<slug>/...``: wraps ``view(request, tournament, ...)``.

    Anonymous → ``/entrar/?next=…``; no role on the tournament → 404; a role
    that is not enough → 403. The view gets the Tournament instead of the slug.
    The desk, the referee's screen and the desk's printing all come in here.
    """

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, slug: str, *args, **kwargs):
            tournament = desk_tournament_get(user=request.user, slug=slug, need=need)
            request.desk_tournament = tournament
            return view(request, tournament, *args, **kwargs)

        wrapper.desk_need = need
        return wrapper

    return decorate
