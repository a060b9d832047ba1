"""Writes of a tournament's setup at the desk: create, edit, format, duplicate. One transaction each, audited."""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Field
from django.utils.translation import gettext as _

from scoring.errors import RuleError, RuleViolation
from scoring.format import format_check, format_jogos

from .. import limits, plainsql
from ..atletas.services import atletas_rename
from ..audit import audit_record
from ..draws.format import format_effective
from ..models import Jogo, StaffRole, Tournament
from ..permissions import tournament_creation_refusal
from ..refusals import Refused
from ..roles import role_grant
from ..services import slug_make
from ..writes import PAGES, PRIVATE, STRUCTURE, tournament_write
from .starters import STARTERS

# Tournament fields the edit form may change, as recorded in the audit trail.
EDITABLE = (
    "name",
    "date",
    "start_time",
    "venue",
    "city",
    "category",
    "min_age",
    "max_duplas",
    "preset",
    "settings",
    "regulation",
    "public_signup",
    "registration_opens",
    "registration_closes",
    "allow_self_scoring",
    "online",
    "wo_tolerance_minutes",
)
# Fields that change how results are scored: frozen once a jogo has a result.
RULE_FIELDS = ("preset", "settings")


def _snapshot(tournament: Tournament, names: Iterable[str] = EDITABLE) -> dict[str, Any]:
    return {name: copy.deepcopy(getattr(tournament, name)) for name in names}


def _creation_check(*, user: User) -> None:
    """Refuse (PermissionDenied, with the reason in pt-BR) when ``user`` may not create an event now. Inside the
    creating write: the account's row is locked first, so creations by one account at once are counted one
    after the other (each sees the events the others made) and never pass ``ZAP_EVENTS_PER_ACCOUNT`` together."""
    plainsql.row_lock(User, user.pk, connection=transaction.get_connection(), no_key=True)
    refusal = tournament_creation_refusal(user=user)
    if refusal is not None:
        raise PermissionDenied(refusal)


def _organizer_make(*, tournament: Tournament, user: User) -> None:
    role_grant(tournament=tournament, user=user, role=StaffRole.ORGANIZER, by=user)


def _with_free_slug(create: Callable[[str], Tournament], *, name: str, wanted: str = "") -> Tournament:
    """Run ``create(slug)`` with a slug nobody holds; another request may take it in between: retry."""
    for _attempt in range(20):
        slug = slug_make(name=name, wanted=wanted)
        try:
            with transaction.atomic():
                return create(slug)
        except IntegrityError:
            if not Tournament.objects.filter(slug=slug).exists():
                raise
    raise IntegrityError("nenhum endereço livre para o torneio")


def tournament_create(*, user: User, starter: str, name: str, date: datetime.date, venue: str = "") -> Tournament:
    """A new tournament from a starter (AABB, FENACEF, blank), as a draft; ``user`` becomes its organizer."""
    spec = STARTERS[starter]
    return _tournament_start(
        user=user,
        name=name,
        summary=_("Torneio criado a partir do modelo “%(modelo)s”") % {"modelo": spec.label},
        fields={"date": date, "venue": venue, "format": copy.deepcopy(spec.format), **copy.deepcopy(spec.fields)},
    )


def _tournament_start(*, user: User, name: str, fields: dict[str, Any], summary: str) -> Tournament:
    """Create the tournament under a free slug, make ``user`` its organizer, record it: one transaction."""
    with tournament_write(tournament=None, action="tournament.create", user=user, kind=STRUCTURE) as write:
        _creation_check(user=user)
        tournament = _with_free_slug(
            # a draft: only its staff see it until the organizer publishes it (tournament_publish)
            lambda slug: Tournament.objects.create(name=name, slug=slug, created_by=user, published=False, **fields),
            name=name,
        )
        write.tournament = tournament
        _organizer_make(tournament=tournament, user=user)
        audit_record(
            tournament=tournament,
            user=user,
            action="tournament_create",
            summary=summary,
            after=_snapshot(tournament) | {"format": tournament.format},
        )
    return tournament


def _size_problems(tournament: Tournament) -> list[RuleError]:
    """What no event may be (limits.py, the same bounds as a tournament file): a limit of duplas beyond
    ``MAX_DUPLAS``, or a format that would make more than ``MAX_JOGOS`` jogos of that many duplas."""
    n = tournament.max_duplas
    if n is None:
        return []  # the draw checks the duplas it has (format_problems)
    if not 2 <= n <= limits.MAX_DUPLAS:
        return [
            RuleError(
                "",
                _("Limite de duplas: %(n)d não serve; use de 2 a %(max)d duplas.") % {"n": n, "max": limits.MAX_DUPLAS},
            )
        ]
    fmt = format_effective(tournament=tournament)
    if format_check(fmt):
        return []  # a format the draw cannot use yet: its page says why
    jogos = format_jogos(fmt, n)
    if jogos > limits.MAX_JOGOS:
        return [
            RuleError(
                "",
                _(
                    "Formato: com %(n)d duplas (o limite de duplas) este formato daria até %(jogos)d jogos; o máximo "
                    "num torneio é %(max)d. Diminua o limite de duplas ou use grupos menores."
                )
                % {"n": n, "jogos": jogos, "max": limits.MAX_JOGOS},
            )
        ]
    return []


def results_exist(*, tournament: Tournament) -> bool:
    return Jogo.objects.filter(tournament=tournament).exclude(status=Jogo.SCHEDULED).exists()


def tournament_update(*, tournament: Tournament, user: User | None, changes: dict[str, Any]) -> Tournament:
    """Apply the edit form's ``changes``; the rules cannot change once a jogo has a result."""
    with tournament_write(tournament=tournament, action="tournament.edit", user=user, kind=STRUCTURE):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        before = _snapshot(tournament)
        changed = {k: v for k, v in changes.items() if k in EDITABLE and before[k] != v}
        if not changed:
            return tournament
        if any(k in RULE_FIELDS for k in changed) and results_exist(tournament=tournament):
            raise RuleViolation(
                [
                    RuleError(
                        "",
                        _(
                            "o regulamento não pode mudar depois que um jogo tem resultado: "
                            "os resultados já lançados foram conferidos com ele"
                        ),
                    )
                ]
            )
        for name, value in changed.items():
            setattr(tournament, name, value)
        if "max_duplas" in changed and (problems := _size_problems(tournament)):
            raise RuleViolation(problems)
        tournament.save()
        if "online" in changed:  # the jogos still to be played of an event or stage now online get their tables
            from ..online.tournament import tables_open

            tables_open(tournament=tournament)
        if changed.keys() & {"date", "start_time", "wo_tolerance_minutes"}:  # the online tables' times follow
            from ..online.tournament import tables_times_refresh

            tables_times_refresh(tournament=tournament)
        audit_record(
            tournament=tournament,
            user=user,
            action="tournament_edit",
            summary=_("Dados do torneio alterados: %(campos)s")
            % {"campos": ", ".join(_field_label(k) for k in changed)},
            before={k: before[k] for k in changed},
            after=_snapshot(tournament, changed),
        )
    return tournament


def _field_label(name: str) -> str:
    """The verbose name of one of the tournament's ``EDITABLE`` fields (all of them its own columns)."""
    field = Tournament._meta.get_field(name)
    assert isinstance(field, Field)
    return str(field.verbose_name)


def format_update(*, tournament: Tournament, user: User | None, format: dict[str, Any]) -> Tournament:
    """The format the competition draw will use; frozen once the draw is published."""
    with tournament_write(tournament=tournament, action="format.edit", user=user, kind=PRIVATE):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.stages.exists():
            raise RuleViolation(
                [
                    RuleError(
                        "",
                        _(
                            "o sorteio já foi publicado: para mudar o formato, refaça o sorteio "
                            "(só é possível antes do primeiro resultado)"
                        ),
                    )
                ]
            )
        before = copy.deepcopy(tournament.format)
        if before == format:
            return tournament
        tournament.format = format
        if problems := _size_problems(tournament):
            raise RuleViolation(problems)
        tournament.save(update_fields=["format", "updated_at"])
        audit_record(
            tournament=tournament,
            user=user,
            action="format_edit",
            summary=_("Formato alterado"),
            before=before,
            after=format,
        )
    return tournament


def tournament_publish(*, tournament: Tournament, user: User | None) -> Tournament:
    """Publish a draft: the event joins the list of events and its public pages (and sign-up form, when it has
    one) open to everyone. Publishing is for good: a published event is never hidden again."""
    with tournament_write(tournament=tournament, action="tournament.publish", user=user, kind=PAGES):
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if tournament.published:
            raise Refused.conflict(_("O torneio já está publicado."))
        tournament.published = True
        tournament.save(update_fields=["published", "updated_at"])
        # its registrations may now name their atletas in public (a draft's never did: ``atletas_rename``)
        atletas_rename(ids=set(tournament.players.filter(atleta__isnull=False).values_list("atleta_id", flat=True)))
        audit_record(
            tournament=tournament,
            user=user,
            action="tournament_publish",
            summary=_("Torneio publicado: a página do evento abriu para todos"),
            before={"published": False},
            after={"published": True},
        )
    return tournament


def tournament_duplicate(*, tournament: Tournament, user: User) -> Tournament:
    """A new tournament with the same setup and format (no people, no draws, no results), registration open, as a
    draft."""
    fields = {name: copy.deepcopy(getattr(tournament, name)) for name in EDITABLE if name != "name"}
    name = _("%(nome)s (cópia)") % {"nome": tournament.name}
    fields.update(registration_opens=None, registration_closes=None)
    fields.update(format=copy.deepcopy(tournament.format), mesas=tournament.mesas)
    return _tournament_start(
        user=user,
        name=name[:200],
        fields=fields,
        summary=_("Torneio criado como cópia de “%(nome)s”") % {"nome": tournament.name},
    )


@dataclass(frozen=True)
class Upload:
    tournament: Tournament
    referees_unassigned: int  # jogos whose file named a referee: left without one (roles come by invitation)


def _referees_strip(*, data: Any, user: User) -> tuple[Any, int]:
    """``data`` without the ``referee`` of its jogos (other than the uploader), and how many were taken out.

    A file uploaded through the site grants no role to an existing account: a role is given only by an
    invitation its owner accepts. Every name is dropped alike, known account or not, so the upload tells
    nothing about which accounts exist (``manage.py import_tournament``, run by the operator, still grants).
    """
    jogos = data.get("jogos") if isinstance(data, dict) else None
    if not isinstance(jogos, list):
        return data, 0
    own = user.get_username() if user is not None and user.is_authenticated else None
    dropped, kept = 0, []
    for jogo in jogos:
        if isinstance(jogo, dict) and "referee" in jogo and jogo["referee"] != own:
            jogo = {k: v for k, v in jogo.items() if k != "referee"}
            dropped += 1
        kept.append(jogo)
    return ({**data, "jogos": kept} if dropped else data), dropped


def tournament_upload(*, user: User, data: Any) -> Upload:
    """Create a tournament from an uploaded tournament file; the uploader becomes its organizer.

    Referees the file names are not given a role (see ``_referees_strip``); their jogos wait for one.
    """
    from ..services import tournament_import

    data, dropped = _referees_strip(data=data, user=user)
    with tournament_write(tournament=None, action="tournament.upload", user=user, kind=STRUCTURE):
        _creation_check(user=user)
        tournament = tournament_import(data=data, performed_by=user)
        _organizer_make(tournament=tournament, user=user)
        audit_record(
            tournament=tournament,
            user=user,
            action="tournament_upload",
            summary=_("Torneio criado a partir de um arquivo do torneio"),
            after={"referees_unassigned": dropped} if dropped else None,
        )
    return Upload(tournament=tournament, referees_unassigned=dropped)
