"""Who may do what on a tournament (docs/regras.md §8), decided here and only here.

Views, templates and the API ask these predicates; none of them looks at roles
itself. A role is data (``StaffRole``): the creator of a tournament is its
organizer, an organizer adds others; a superuser organizes every tournament.

A user with no role on a tournament must not learn that it has a desk: the
desk answers 404 (``desk_tournament_get``); a referee on an organizer-only
page gets 403. Templates get these answers as ``DeskRights`` (``desk.context``).

Who sees an event's public side is decided here too (``may_view_event``: a draft only its staff).
What a dupla may do is decided here too: open its private link
(``may_open_private_link``), answer a súmula (``may_answer_sumula``), appeal the referee's decision
(``may_appeal_sumula``; the comissão decides: ``may_decide_appeal``), enter its own jogo's mãos
(``may_self_score``), type its
PIN now (``pin_rules``, ``may_try_pin``); ``sumula.pins`` keeps the counting
of wrong PINs and the timing of the locks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Account
from django.core.exceptions import PermissionDenied
from django.db import connections, router
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.sumula import IN_PROGRESS, SCHEDULED

from .models import Circuit, Dupla, Jogo, StaffRole, Tournament
from .plainsql import columns, instance, made

ORGANIZER, REFEREE = StaffRole.ORGANIZER, StaffRole.REFEREE

# What each action needs: "organize" (the comissão organizadora) or "referee" (árbitro or organizer).
ORGANIZE, REFEREE_DESK, CALL = "organize", "referee", "call"

# Who asks: an account, the anonymous visitor, or nobody (a súmula signed by an account since deleted).
Asker = Account | AnonymousUser | None


def is_site_admin(*, user: Asker) -> bool:
    """A superuser of the site: organizes every tournament without a role on it."""
    return user is not None and user.is_authenticated and user.is_active and user.is_superuser


def _roles_cache(user: Asker) -> dict[int, str | None]:
    """``user``'s roles by tournament, kept on the user object for the request (``roles._forget_cached_roles``)."""
    cache = getattr(user, "_zap_roles", None)
    if cache is None:
        cache = cast(Any, user)._zap_roles = {}
    return cache


def is_organizer_role(*, role: str | None) -> bool:
    """Whether ``role`` (a ``StaffRole.role``, or None) is the comissão organizadora's."""
    return role == ORGANIZER


def is_referee_role(*, role: str | None) -> bool:
    """Whether ``role`` is the árbitro's (only: an organizer's is not)."""
    return role == REFEREE


def role_of(*, user: Asker, tournament: Tournament) -> str | None:
    """``organizer``, ``referee`` or None. Cached on the user object for the request."""
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return ORGANIZER
    cache = _roles_cache(user)
    if tournament.pk not in cache:
        # (tournament, user) is unique: no ordering (the model's default joins the tournament and the user)
        cache[tournament.pk] = next(
            iter(
                StaffRole.objects.filter(user=user, tournament=tournament).order_by().values_list("role", flat=True)[:1]
            ),
            None,
        )
    return cache[tournament.pk]


def tournament_with_role(*, user: Asker, slug: str) -> Tournament | None:
    """The tournament at ``slug`` (None: no such tournament) with ``user``'s role on it read in the same query,
    so ``role_of`` asks no more: a staff write's first query, in plain SQL (``plainsql``: the queryset with its
    role subquery cost more to compile than to run)."""
    asks = user is not None and user.is_authenticated and user.is_active and not user.is_superuser
    alias = router.db_for_read(Tournament)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(
            made(("tournament_with_role", connection.vendor), lambda: _tournament_with_role_sql(connection)),
            [user.pk if asks and user is not None else None, slug],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    tournament = instance(Tournament, row[:-1], db=alias, connection=connection)
    if asks:
        _roles_cache(user)[tournament.pk] = row[-1]
    return tournament


def _tournament_with_role_sql(connection: Any) -> str:
    q = connection.ops.quote_name
    role = (
        f"(SELECT r.{q('role')} FROM {q(StaffRole._meta.db_table)} r "
        f"WHERE r.{q('tournament_id')} = t.{q('id')} AND r.{q('user_id')} = %s)"
    )  # (tournament, user) is unique
    return (
        f"SELECT {', '.join(columns(Tournament, 't', connection))}, {role} "
        f"FROM {q(Tournament._meta.db_table)} t WHERE t.{q('slug')} = %s"
    )


def roles_prefetch(*, user: Asker, tournaments: Iterable[Tournament]) -> None:
    """Load ``user``'s roles on many tournaments in one query (for lists), so ``role_of`` asks no more."""
    if user is None or not user.is_authenticated or user.is_superuser:
        return
    cache = _roles_cache(user)
    ids = [t.pk for t in tournaments]
    cache.update(dict.fromkeys(ids))
    cache.update(StaffRole.objects.filter(user=user, tournament_id__in=ids).values_list("tournament_id", "role"))


def may_organize(*, user: Asker, tournament: Tournament) -> bool:
    """Create/edit the tournament, registrations, draws, mesas, staff, disqualify, decide appeals."""
    return is_organizer_role(role=role_of(user=user, tournament=tournament))


def may_referee(*, user: Asker, tournament: Tournament) -> bool:
    """Enter mãos, WO and penalties, sign súmulas, correct a signed súmula (organizers too)."""
    return role_of(user=user, tournament=tournament) in (ORGANIZER, REFEREE)


def may_decide_appeal(*, user: Asker, tournament: Tournament) -> bool:
    """Decide a dupla's appeal (recurso) against the referee's decision: the comissão organizadora only (AABB
    Art.6: "caberá recurso e será decidido pela Comissão Organizadora"); a referee may not judge an appeal
    against their own decision."""
    return may_organize(user=user, tournament=tournament)


def may_call_duplas(*, user: Asker, tournament: Tournament) -> bool:
    """Call duplas to their mesa ("Sua vez": the pages, WhatsApp, e-mail): the comissão organizadora only. The
    calls page shows the players' phones, private data a referee does not see (docs/regras.md §8 gives the
    referee the súmulas, not the registrations)."""
    return may_organize(user=user, tournament=tournament)


def may_pin_unlock(*, user: Asker, tournament: Tournament) -> bool:
    """Unlock a dupla's PIN locked by wrong guesses: the referee at the table (or an organizer)."""
    return may_referee(user=user, tournament=tournament)


def may_see_desk(*, user: Asker, tournament: Tournament) -> bool:
    return role_of(user=user, tournament=tournament) is not None


def may_view_event(*, user: Asker, tournament: Tournament) -> bool:
    """The event's public pages, sheets, file and API reads: everyone once it is published; a draft only its
    staff (and the site's admins), who see what the public will see before they publish it."""
    return tournament.published or may_see_desk(user=user, tournament=tournament)


def event_visible(*, user: Asker, tournament: Tournament | None) -> Tournament:
    """``tournament`` when ``user`` may see its public side; else 404, as for an event that does not exist (a
    draft's address tells a stranger nothing)."""
    if tournament is None or not may_view_event(user=user, tournament=tournament):
        raise Http404("no such tournament")
    return tournament


@dataclass(frozen=True)
class DeskRights:
    """What the desk's pages may offer ``user`` on one tournament, for the templates (which never look at roles)."""

    may_organize: bool  # the comissão's tabs and buttons
    may_referee: bool  # the referee's screens (organizers too)
    may_pin_unlock: bool
    is_site_admin: bool  # organizes every tournament without being on its staff list


def desk_rights(*, user: Asker, tournament: Tournament) -> DeskRights:
    return DeskRights(
        may_organize=may_organize(user=user, tournament=tournament),
        may_referee=may_referee(user=user, tournament=tournament),
        may_pin_unlock=may_pin_unlock(user=user, tournament=tournament),
        is_site_admin=is_site_admin(user=user),
    )


def tournament_organizers(*, tournament: Tournament) -> QuerySet[StaffRole]:
    """The tournament's organizers by role, active accounts only (site admins are not counted)."""
    return StaffRole.objects.filter(tournament=tournament, role=ORGANIZER, user__is_active=True)


def may_be_named_referee(*, tournament: Tournament, user_id: int) -> bool:
    """A jogo's referee must be on the tournament's staff (any role), with an active account."""
    return StaffRole.objects.filter(tournament=tournament, user_id=user_id, user__is_active=True).exists()


def may_accept_invitation(*, user: Asker, email: str) -> bool:
    """An invitation is a link sent to ``email``: the account that accepts it must have that address (case and
    spaces aside). Any other account holding the link may only ask, and an organizer of the tournament confirms
    (``may_organize``) or refuses; an account with no address never matches."""
    own = (getattr(user, "email", "") or "").strip()
    return bool(user is not None and user.is_authenticated and own and own.casefold() == email.strip().casefold())


def invitation_grants_role(*, current: str | None, invited: str) -> bool:
    """Whether accepting an invitation for ``invited`` changes the role of someone whose role is ``current``:
    a newcomer gets it; someone already on the staff only moves up (a referee invited to the comissão),
    never down (an organizer invited as referee keeps organizing)."""
    return current is None or (is_referee_role(role=current) and is_organizer_role(role=invited))


# --- what a dupla may do (docs/regras.md §8: the dupla confirms or contests, by its private link or its PIN) ------


def may_open_private_link(*, dupla: Dupla | None, token: str) -> bool:
    """A private link opens its dupla's page, and answers its súmulas there, while it is the dupla's current
    link (``dupla``: the dupla found by ``token``, if any). A link replaced by a new card (``pins_reset`` /
    ``pin_reset``) opens nothing: the pages say it was replaced (410) or do not exist (404)."""
    return dupla is not None and bool(token) and dupla.token == token


def may_answer_sumula(*, dupla: Dupla, jogo: Jogo) -> bool:
    """Only the two duplas of a jogo confirm or contest its súmula (``sumula_answer`` says when)."""
    return dupla.pk in (jogo.dupla_a_id, jogo.dupla_b_id)


def may_appeal_sumula(*, dupla: Dupla, jogo: Jogo) -> bool:
    """Only the two duplas of a jogo appeal the referee's decision on its súmula (``appeal_file`` says when)."""
    return dupla.tournament_id == jogo.tournament_id and may_answer_sumula(dupla=dupla, jogo=jogo)


def may_self_score(*, tournament: Tournament, dupla: Dupla, jogo: Jogo) -> bool:
    """A dupla enters its own jogo's mãos from its private link (docs/regras.md §8) when the event allows it
    (``allow_self_scoring``), it plays that jogo, and the jogo is not decided yet (scheduled or in progress) nor
    signed. WO and penalties stay the referee's decisions: this door opens the mãos and their undo only."""
    return (
        tournament.allow_self_scoring
        and dupla.tournament_id == tournament.pk
        and jogo.tournament_id == tournament.pk
        and may_answer_sumula(dupla=dupla, jogo=jogo)
        and jogo.status in (SCHEDULED, IN_PROGRESS)
        and jogo.signed_at is None
    )


@dataclass(frozen=True)
class PinRules:
    """Which limits judge a PIN typed from one source; ``sumula.pins`` counts the wrong PINs and times the locks."""

    per_account: bool  # the staff account's wrong PINs, across duplas
    per_address: bool  # the address's wrong PINs, across duplas and tournaments
    per_tournament: bool  # the tournament's ceiling of public wrong PINs
    dupla_counts_public: bool  # the dupla's lock counts public wrong PINs (else only the referee screens')


def pin_rules(*, referee_screen: bool) -> PinRules:
    """A PIN typed in public (the API's ``confirmacao/``) is judged by its address, the tournament's ceiling
    and every wrong PIN of the dupla; on the referee's screen, by the staff account and the dupla's wrong PINs
    typed on referee screens only (a stranger's guesses do not lock the dupla out at the table)."""
    if referee_screen:
        return PinRules(per_account=True, per_address=False, per_tournament=False, dupla_counts_public=False)
    return PinRules(per_account=False, per_address=True, per_tournament=True, dupla_counts_public=True)


def may_try_pin(*, lock: dt.datetime | str | None, now: dt.datetime) -> bool:
    """A PIN may be typed now unless a lock holds: one whose end has not passed yet (it holds up to its end
    inclusive), or one with no end (a text: locked until the referee unlocks it)."""
    if lock is None:
        return True
    if isinstance(lock, dt.datetime):
        return now > lock
    return False


def tournament_creation_refusal(*, user: Asker) -> str | None:
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


def may_create_tournament(*, user: Asker) -> bool:
    """May ``user`` start an event (it becomes that event's organizer)? See ``tournament_creation_refusal``."""
    return tournament_creation_refusal(user=user) is None


NEEDS = {ORGANIZE: may_organize, REFEREE_DESK: may_referee, CALL: may_call_duplas}


def desk_tournament_get(*, user: Asker, slug: str, need: str = ORGANIZE) -> Tournament:
    """The tournament behind a desk URL, if ``user`` may do ``need`` there.

    No role at all → 404 (the desk of an event you have nothing to do with does
    not exist for you); a role that is not enough (a referee on an organizer's
    page) → 403.
    """
    tournament = _desk_tournament_seen(user=user, slug=slug)
    _desk_need_check(user=user, tournament=tournament, need=need)
    return tournament


def _desk_tournament_seen(*, user: Asker, slug: str) -> Tournament:
    """The tournament at ``slug`` if ``user`` has a role on it; else 404."""
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None or not may_see_desk(user=user, tournament=tournament):
        raise Http404("torneio não encontrado")
    return tournament


def _desk_need_check(*, user: Asker, tournament: Tournament, need: str) -> None:
    """403 when ``user``'s role on ``tournament`` is not enough for ``need`` (a referee on an organizer's page)."""
    if not NEEDS[need](user=user, tournament=tournament):
        raise PermissionDenied("esta página é da comissão organizadora")


def desk_tournaments(*, user: Asker) -> QuerySet[Tournament]:
    """The tournaments whose desk ``user`` may open, newest first."""
    qs = Tournament.objects.all()
    if user is None or not user.is_superuser:
        qs = qs.filter(staff__user=cast(Account, user))  # (login_required: an account)
    return qs.order_by("-date", "-created_at").distinct()


def desk_view(need: str = ORGANIZE) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The door of every staff page reached as ``/organizar/<slug>/...``: wraps ``view(request, tournament, ...)``.

    Anonymous → ``/entrar/?next=…``; no role on the tournament → 404; a role
    that is not enough → 403. The view gets the Tournament instead of the slug.
    The desk, the referee's screen and the desk's printing all come in here.
    """

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @login_required
        @wraps(view)
        def wrapper(request: Any, slug: str, *args: Any, **kwargs: Any) -> Any:
            tournament = _desk_tournament_seen(user=request.user, slug=slug)
            request.desk_tournament = tournament  # before a 403: its page offers the screens a referee may open
            _desk_need_check(user=request.user, tournament=tournament, need=need)
            return view(request, tournament, *args, **kwargs)

        return wrapper

    return decorate


# --- circuits (DOMAIN §7.3, §8) --------------------------------------------------------------------------------


def may_create_circuit(*, user: Asker) -> bool:
    """Create a circuit: whoever organizes a tournament on the site (its etapas are tournaments they organize),
    or may create one, or a superuser."""
    if not (user is not None and user.is_authenticated and user.is_active):
        return False
    if is_site_admin(user=user) or may_create_tournament(user=user):
        return True
    return StaffRole.objects.filter(user=user, role=ORGANIZER).exists()


def may_manage_circuit(*, user: Asker, circuit: Any) -> bool:
    """Set a circuit's points, etapas, sorteios and exclusions: its organizer (the creator) or a superuser."""
    if is_site_admin(user=user):
        return True
    return bool(user is not None and user.is_authenticated and user.is_active and circuit.created_by_id == user.pk)


def may_attach_etapa(*, user: Asker, tournament: Tournament) -> bool:
    """Make a tournament an etapa: only one the circuit's organizer organizes (a superuser: any published one). A
    draft is its own organizers' alone: nobody else may make it an etapa, a superuser included."""
    if not tournament.published:
        return _draft_organizer(user=user, tournament=tournament)
    return may_organize(user=user, tournament=tournament)


def _draft_organizer(*, user: Asker, tournament: Tournament) -> bool:
    """``user`` is on the draft's staff as an organizer (a superuser's own rights do not count)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return StaffRole.objects.filter(user=user, tournament=tournament, role=ORGANIZER).exists()


# --- atletas: joining and splitting on the desk (DOMAIN §7.1, §8) -----------------------------------------------


def atletas_desk_open(*, user: Asker) -> bool:
    """The atletas' desk (``/organizar/circuitos/atletas/``): a superuser, or whoever organizes a circuit (its creator)."""
    if is_site_admin(user=user):
        return True
    if not (user is not None and user.is_authenticated and user.is_active):
        return False
    from .models import Circuit

    return Circuit.objects.filter(created_by=user).exists()


def atletas_circuits_of(*, user: Asker, atleta_ids: Iterable[int] | None = None) -> dict[int, set[int]] | None:
    """For a circuit organizer: each atleta (of ``atleta_ids``; None: any) who played an etapa of a circuit
    ``user`` created, with those circuits' ids; atletas who played none are left out. None for a superuser (every
    atleta, whatever they played); empty for anyone else."""
    if is_site_admin(user=user):
        return None
    if not (user is not None and user.is_authenticated and user.is_active):
        return {}
    from .models import Player

    rows = Player.objects.filter(atleta__isnull=False, tournament__circuit_etapa__circuit__created_by=user)
    if atleta_ids is not None:
        rows = rows.filter(atleta_id__in=list(atleta_ids))
    out: dict[int, set[int]] = {}
    for atleta_id, circuit_id in rows.values_list("atleta_id", "tournament__circuit_etapa__circuit_id").distinct():
        out.setdefault(atleta_id, set()).add(circuit_id)
    return out


def may_join_atletas(*, user: Asker, atletas: Iterable[Any]) -> bool:
    """Join these atletas into one, or split one of them (``atletas``: that one alone).

    DOMAIN §8 gives it to the circuit organizer: a superuser; or the creator of one circuit in whose etapas
    **every one** of these atletas played. That is the narrowest rule that lets a league's organizer clean up
    their own season (the same person registered with another birth date in two etapas), without letting
    whoever organizes some tournament re-point the history of people who never played for them. Atletas that
    share no circuit of the user (one played only elsewhere) are left to a superuser."""
    atletas = list(atletas)
    if not atletas:
        return False
    if is_site_admin(user=user):
        return True
    circuits = atletas_circuits_of(user=user, atleta_ids=[a.pk for a in atletas])
    assert circuits is not None  # None only for a superuser
    shared: set[int] | None = None
    for a in atletas:
        mine = circuits.get(a.pk, set())
        shared = set(mine) if shared is None else shared & mine
    return bool(shared)


def circuit_creation_refusal(*, user: Asker) -> str | None:
    """Why ``user`` may not create a circuit (pt-BR), or None when it may (``may_create_circuit``)."""
    if may_create_circuit(user=user):
        return None
    return _(
        "Só quem organiza torneios no site cria um circuito: as etapas de um circuito são torneios que você "
        "organiza. Crie um torneio (ou peça à comissão de um torneio que convide você para a equipe dele) e "
        "volte aqui."
    )


def desk_circuits(*, user: Asker) -> QuerySet[Circuit]:
    """The circuits whose desk ``user`` may open (``may_manage_circuit``): their own; a superuser, all."""
    qs = Circuit.objects.all()
    if not is_site_admin(user=user):
        qs = qs.filter(created_by=cast(Account, user))  # (login_required: an account)
    return qs.order_by("-created_at", "-id")


def desk_circuit_get(*, user: Asker, slug: str) -> Circuit:
    """The circuit behind a circuit desk URL; 404 for whoever may not manage it (as ``desk_tournament_get``: the
    desk of a circuit you have nothing to do with does not exist for you)."""
    circuit = Circuit.objects.filter(slug=slug).first()
    if circuit is None or not may_manage_circuit(user=user, circuit=circuit):
        raise Http404("circuito não encontrado")
    return circuit


def etapa_candidates(*, user: Asker) -> QuerySet[Tournament]:
    """The tournaments ``user`` may make an etapa now (``may_attach_etapa``) that are in no circuit yet, newest
    first: a draft only to its own organizers."""
    qs = Tournament.objects.filter(circuit_etapa__isnull=True)
    own = Q(staff__user=cast(Account, user), staff__role=ORGANIZER)
    qs = qs.filter(Q(published=True) | own) if is_site_admin(user=user) else qs.filter(own)
    return qs.order_by("-date", "-created_at").distinct()


def circuit_desk_view(view: Callable[..., Any]) -> Callable[..., Any]:
    """The door of every page reached as ``/organizar/circuitos/<slug>/...``: anonymous → ``/entrar/?next=…``;
    whoever may not manage the circuit → 404. The view gets the Circuit instead of the slug."""

    @login_required
    @wraps(view)
    def wrapper(request: Any, slug: str, *args: Any, **kwargs: Any) -> Any:
        return view(request, desk_circuit_get(user=request.user, slug=slug), *args, **kwargs)

    return wrapper


# --- online play: conduct (DOMAIN §9.6) ------------------------------------------------------------------------


def may_moderate_online(*, user: Asker) -> bool:
    """Warn, mute, suspend or ban online players and handle their reports (``/jogar/conduta/``): the site's staff
    (an active account marked ``is_staff`` by the admins, or a superuser)."""
    return bool(user is not None and user.is_authenticated and user.is_active and (user.is_staff or user.is_superuser))
