"""Joining and splitting atletas on the desk (DOMAIN §7.1): the organizer's word where the automatic rule
(``scoring.atleta``: the same normalized name **and** birth date) cannot decide.

``atletas_join`` re-points every player of one atleta to another and removes the first; ``atleta_split`` moves
some players of an atleta to a new one. Players are tournament data: each tournament whose players move gets its
own write (``writes.tournament_write``, kind ``PAGES``: its dupla pages link the players' atleta keys), opened
one inside the other in id order so that all of them lock, write and commit as one transaction (writes of
different tournaments nest without joining: each locks its own row and gets its own version). Inside them the
atletas' rows are locked, the players re-read, and the change refused whole when it no longer fits.

Every join and split leaves an ``AtletaAudit`` (site-level: the desk lists it) and an ``AuditEntry`` per
tournament touched; the circuits those players played move to a new version inside the write (their rankings'
cache keys come from it: ``circuits_follow_players``); once it commits, the Nível of the atletas involved is
walked again (``nivel_later``). The public pages of atletas and ``/ranking/`` read the database, uncached.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.atleta import atleta_identity, name_normalize

from ..models import Atleta, AtletaAlias, AtletaAudit, AtletaNivel, CircuitExclusion, CircuitSorteio, Player, Tournament
from ..permissions import may_join_atletas
from .services import atletas_rename, name_shown, nivel_later

__all__ = ["AtletaRefused", "atleta_name_choose", "atleta_split", "atletas_distinct", "atletas_join"]

REASON_MAX = 300


class AtletaRefused(Exception):
    """A join or split refused; ``message`` says why, in Portuguese."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@contextmanager
def _tournaments_write(
    *, tournament_ids: Iterable[int], action: str, user: Any, pages: bool = True
) -> Iterator[list[Tournament]]:
    """One write per tournament (kind ``PAGES``; ``PRIVATE`` without ``pages``: nothing public changes), nested
    in id order: one transaction, each tournament's row locked in that order, each tournament given a new version
    of its pages on the way out."""
    from ..writes import PAGES, PRIVATE, tournament_write  # the write path imports the atletas' services

    tournaments = list(Tournament.objects.filter(pk__in=set(tournament_ids)).order_by("pk"))
    with ExitStack() as stack:
        for t in tournaments:
            kind = PAGES if pages else PRIVATE
            stack.enter_context(tournament_write(tournament=t, action=action, user=user, kind=kind))
        yield tournaments


def _people(atleta: Atleta, players: list[Player]) -> dict[str, Any]:
    """An atleta for the audit: key, name and their players (tournament, player key, name; no private data)."""
    return {
        "key": atleta.key,
        "name": atleta.name,
        "players": [{"tournament": p.tournament.slug, "player": p.key, "name": p.name} for p in players],
    }


def _locked(ids: list[int]) -> dict[int, Atleta]:
    return {a.pk: a for a in Atleta.objects.select_for_update().filter(pk__in=ids).order_by("pk")}


def _players_of(atleta_ids: list[int]) -> list[Player]:
    return list(
        Player.objects.filter(atleta_id__in=atleta_ids)
        .select_related("tournament")
        .order_by("tournament__date", "tournament_id", "id")
    )


def _gone() -> AtletaRefused:
    return AtletaRefused(_("Este atleta não existe mais (talvez já tenha sido juntado a outro). Recarregue a página."))


def _moved_meanwhile() -> AtletaRefused:
    return AtletaRefused(_("Os registros destes atletas mudaram enquanto isso. Recarregue a página e tente de novo."))


def _audit(
    *, user: Any, action: str, atleta_key: str, other_key: str, summary: str, reason: str, before: Any, after: Any
) -> AtletaAudit:
    from ..writes import write_required

    write_required(what="atleta audit")
    return AtletaAudit.objects.create(
        user=user if user is not None and getattr(user, "is_authenticated", False) else None,
        action=action,
        atleta_key=atleta_key,
        other_key=other_key,
        summary=summary[:300],
        reason=reason,
        before=before,
        after=after,
    )


def _name_problem(name: str, players: Iterable[Player]) -> AtletaRefused | None:
    """Why ``name`` cannot be the name an atleta with these players shows (None: it can; "" is always fine: the
    most recent registration's)."""
    if name and name not in {name_shown(p.name) for p in players}:
        return AtletaRefused(
            _("O nome “%(n)s” não é de nenhuma inscrição destes atletas: escolha um dos nomes da lista.") % {"n": name}
        )
    return None


def atletas_join(*, user: Any, keep: Atleta, other: Atleta, reason: str = "", name: str = "") -> Atleta:
    """``other`` is the same person as ``keep``: every player of ``other`` now points to ``keep`` (its public key
    stays; ``other``'s goes away), ``keep`` takes ``name`` (one of the two atletas' registrations' names, chosen by
    the organizer) or, without it, the name it had chosen already or that of its most recent registration, and
    ``other``'s exclusions from circuits and places in recorded sorteios pass to ``keep``. Refused
    (``AtletaRefused``) for an atleta with itself, for atletas who played one same tournament (two players of one
    tournament are two people), for a name none of their registrations has, and for a user who may not
    (``permissions.may_join_atletas``)."""
    from ..audit import audit_record
    from ..circuits.services import circuits_follow_players
    from ..writes import write_required

    reason = " ".join(reason.split())[:REASON_MAX]
    if keep.pk == other.pk:
        raise AtletaRefused(_("Um atleta não pode ser juntado a ele mesmo: escolha dois atletas diferentes."))
    if not may_join_atletas(user=user, atletas=[keep, other]):
        raise AtletaRefused(
            _(
                "Você não pode juntar estes atletas: só o organizador de um circuito em que os dois jogaram "
                "(ou um administrador do site) pode."
            )
        )
    planned = set(Player.objects.filter(atleta=other).values_list("tournament_id", flat=True))
    if not planned:
        raise _gone()
    with _tournaments_write(tournament_ids=planned, action="atletas.join", user=user) as tournaments:
        write_required(what="atletas_join")
        locked = _locked([keep.pk, other.pk])
        if keep.pk not in locked or other.pk not in locked:
            raise _gone()
        keep, other = locked[keep.pk], locked[other.pk]
        players = _players_of([keep.pk, other.pk])
        mine = [p for p in players if p.atleta_id == keep.pk]
        theirs = [p for p in players if p.atleta_id == other.pk]
        if not theirs or not mine:
            raise _gone()
        if {p.tournament_id for p in theirs} != {t.pk for t in tournaments}:
            raise _moved_meanwhile()
        both = sorted({p.tournament_id for p in mine} & {p.tournament_id for p in theirs})
        if both:
            names = ", ".join(p.tournament.name for p in theirs if p.tournament_id in both)
            raise AtletaRefused(
                _(
                    "%(a)s e %(b)s jogaram o mesmo torneio (%(t)s): dois atletas de um torneio não podem ser a "
                    "mesma pessoa."
                )
                % {"a": keep.name, "b": other.name, "t": names}
            )
        name = name_shown(name)
        problem = _name_problem(name, mine + theirs)
        if problem is not None:
            raise problem
        before = {"keep": _people(keep, mine), "other": _people(other, theirs)}
        Player.objects.filter(pk__in=[p.pk for p in theirs]).update(atleta=keep)
        _circuits_follow_join(user=user, keep=keep, other=other)
        identity = other.identity
        other_key, other_name = other.key, other.name
        AtletaAlias.objects.filter(atleta=other).update(atleta=keep)
        other.delete()  # its Nível goes with it
        # players with that identity find keep from now on: as its own, or as another it took over
        if keep.identity is None and identity is not None:
            keep.identity = identity
            keep.save(update_fields=["identity"])
        elif identity is not None and identity != keep.identity:
            AtletaAlias.objects.create(atleta=keep, identity=identity)
        if name:
            keep.chosen_name = name
            keep.save(update_fields=["chosen_name"])
        atletas_rename(ids=[keep.pk])
        keep.refresh_from_db(fields=["name", "name_search"])
        for p in theirs:
            p.atleta_id = keep.pk
        after = _people(keep, mine + theirs)
        circuits_follow_players(player_ids=[p.pk for p in players])
        summary = _("Atletas juntados: %(b)s (%(kb)s) é %(a)s (%(ka)s)") % {
            "a": keep.name,
            "ka": keep.key,
            "b": other_name,
            "kb": other_key,
        }
        for t in tournaments:
            audit_record(
                tournament=t,
                user=user,
                action="atletas_join",
                summary=summary,
                before={"atleta": other_key, "players": [p.key for p in theirs if p.tournament_id == t.pk]},
                after={"atleta": keep.key},
            )
        _audit(
            user=user,
            action=AtletaAudit.JOIN,
            atleta_key=keep.key,
            other_key=other_key,
            summary=summary,
            reason=reason,
            before=before,
            after=after,
        )
        transaction.on_commit(functools.partial(nivel_later, atleta_ids=[keep.pk]), robust=True)
    return keep


def _circuits_follow_join(*, user: Any, keep: Atleta, other: Atleta) -> None:
    """``other``'s exclusions from circuits and places in recorded sorteios pass to ``keep`` (an exclusion would
    otherwise go with the atleta), each circuit through its own write (audited)."""
    from ..circuits.services import circuit_write

    exclusions = list(CircuitExclusion.objects.filter(atleta=other).select_related("circuit"))
    sorteios = [s for s in CircuitSorteio.objects.select_related("circuit") if other.key in (s.atletas or [])]
    circuits = {e.circuit_id: e.circuit for e in exclusions} | {s.circuit_id: s.circuit for s in sorteios}
    for circuit_id in sorted(circuits):
        summary = _("%(b)s (%(kb)s) juntado a %(a)s (%(ka)s): exclusões e sorteios passam a %(ka)s") % {
            "a": keep.name,
            "ka": keep.key,
            "b": other.name,
            "kb": other.key,
        }
        with circuit_write(circuit=circuits[circuit_id], action="atletas_join", user=user, summary=summary) as w:
            for e in exclusions:
                if e.circuit_id != circuit_id:
                    continue
                if CircuitExclusion.objects.filter(circuit_id=circuit_id, atleta=keep).exists():
                    e.delete()  # keep is excluded already
                else:
                    CircuitExclusion.objects.filter(pk=e.pk).update(atleta=keep)
            for s in sorteios:
                if s.circuit_id != circuit_id:
                    continue
                order: list[str] = []
                for key in s.atletas:
                    key = keep.key if key == other.key else key
                    if key not in order:
                        order.append(key)
                CircuitSorteio.objects.filter(pk=s.pk).update(atletas=order)
            w.after = {"from": other.key, "to": keep.key}


def _identity_of(players: Iterable[Player]) -> str | None:
    """The identity these players share: the one identity among them (players without a birth date have none);
    None when they have none or more than one."""
    found = {atleta_identity(name=p.name, birth_date=p.birth_date) for p in players} - {None}
    return found.pop() if len(found) == 1 else None


def atleta_split(*, user: Any, atleta: Atleta, players: list[Player], reason: str = "") -> Atleta:
    """These players of ``atleta`` are another person: they move to a new atleta (a fresh public key), returned.
    Each atleta keeps the identity its players share when no other atleta holds it (the automatic joining finds
    them by it); the one split keeps its own when its remaining players carry it. Refused (``AtletaRefused``)
    with no player marked, with every player marked (one must stay), with a player of another atleta, and for a
    user who may not."""
    from ..audit import audit_record
    from ..circuits.services import circuits_follow_players
    from ..writes import write_required

    reason = " ".join(reason.split())[:REASON_MAX]
    ids = {p.pk for p in players}
    if not ids:
        raise AtletaRefused(_("Marque os registros que são de outra pessoa."))
    if not may_join_atletas(user=user, atletas=[atleta]):
        raise AtletaRefused(
            _(
                "Você não pode separar este atleta: só o organizador de um circuito em que ele jogou (ou um "
                "administrador do site) pode."
            )
        )
    planned = set(Player.objects.filter(pk__in=ids).values_list("tournament_id", flat=True))
    with _tournaments_write(tournament_ids=planned, action="atletas.split", user=user) as tournaments:
        write_required(what="atleta_split")
        locked = _locked([atleta.pk])
        if atleta.pk not in locked:
            raise _gone()
        atleta = locked[atleta.pk]
        every = _players_of([atleta.pk])
        if ids - {p.pk for p in every}:
            raise AtletaRefused(_("Algum registro marcado não é (mais) deste atleta. Recarregue a página."))
        moving = [p for p in every if p.pk in ids]
        staying = [p for p in every if p.pk not in ids]
        if not staying:
            raise AtletaRefused(
                _("Deixe ao menos um registro com %(a)s: marque só os que são de outra pessoa.") % {"a": atleta.name}
            )
        if {p.tournament_id for p in moving} != {t.pk for t in tournaments}:
            raise _moved_meanwhile()
        before = {"atleta": _people(atleta, every)}
        own = {atleta_identity(name=p.name, birth_date=p.birth_date) for p in staying}
        wanted = _identity_of(moving)
        if wanted is not None and wanted not in own:  # an identity it took over in a join leaves with its players
            AtletaAlias.objects.filter(atleta=atleta, identity=wanted).delete()
        keeps = atleta.identity if atleta.identity in own else _free(_identity_of(staying), but=atleta.pk)
        if keeps != atleta.identity:
            atleta.identity = keeps
            atleta.save(update_fields=["identity"])
            AtletaAlias.objects.filter(atleta=atleta, identity=keeps).delete()  # its own again, not another
        newest = moving[-1]
        new = Atleta.objects.create(
            key=f"t{uuid.uuid4().hex[:18]}",  # a placeholder until the id is known
            name=newest.name,
            name_search=name_normalize(newest.name),
            identity=_free(wanted, but=None) if wanted != keeps else None,
        )
        new.key = f"a{new.pk}"
        new.save(update_fields=["key"])
        AtletaNivel.objects.create(atleta=new)
        Player.objects.filter(pk__in=ids).update(atleta=new)
        atletas_rename(ids=[atleta.pk, new.pk])
        atleta.refresh_from_db(fields=["name", "name_search"])
        new.refresh_from_db(fields=["name", "name_search"])
        after = {"atleta": _people(atleta, staying), "new": _people(new, moving)}
        circuits_follow_players(player_ids=[p.pk for p in every])
        summary = _("Atleta separado: %(b)s (%(kb)s) não é %(a)s (%(ka)s)") % {
            "a": atleta.name,
            "ka": atleta.key,
            "b": new.name,
            "kb": new.key,
        }
        for t in tournaments:
            audit_record(
                tournament=t,
                user=user,
                action="atleta_split",
                summary=summary,
                before={"atleta": atleta.key, "players": [p.key for p in moving if p.tournament_id == t.pk]},
                after={"atleta": new.key},
            )
        _audit(
            user=user,
            action=AtletaAudit.SPLIT,
            atleta_key=atleta.key,
            other_key=new.key,
            summary=summary,
            reason=reason,
            before=before,
            after=after,
        )
        transaction.on_commit(functools.partial(nivel_later, atleta_ids=[atleta.pk, new.pk]), robust=True)
    return new


def _free(identity: str | None, *, but: int | None) -> str | None:
    """``identity`` when no atleta (but ``but``) holds it, as its own or taken over in a join, else None."""
    if identity is None:
        return None
    taken = Atleta.objects.filter(identity=identity)
    aliased = AtletaAlias.objects.filter(identity=identity)
    if but is not None:
        taken, aliased = taken.exclude(pk=but), aliased.exclude(atleta_id=but)
    return None if taken.exists() or aliased.exists() else identity


def atletas_distinct(*, user: Any, one: Atleta, other: Atleta, reason: str = "") -> AtletaAudit:
    """``one`` and ``other`` are different people (namesakes): recorded, so the likely matches stop offering them
    (as after a split); nothing else changes, and joining them later stays possible. Refused (``AtletaRefused``)
    for an atleta with itself, for a pair already marked, and for a user who may not join them."""
    reason = " ".join(reason.split())[:REASON_MAX]
    if one.pk == other.pk:
        raise AtletaRefused(_("Escolha dois atletas diferentes."))
    if not may_join_atletas(user=user, atletas=[one, other]):
        raise AtletaRefused(
            _(
                "Você não pode decidir sobre estes atletas: só o organizador de um circuito em que os dois jogaram "
                "(ou um administrador do site) pode."
            )
        )
    planned = set(Player.objects.filter(atleta_id__in=[one.pk, other.pk]).values_list("tournament_id", flat=True))
    with _tournaments_write(tournament_ids=planned, action="atletas.distinct", user=user, pages=False):
        locked = _locked([one.pk, other.pk])
        if one.pk not in locked or other.pk not in locked:
            raise _gone()
        one, other = locked[one.pk], locked[other.pk]
        keys = [one.key, other.key]
        if AtletaAudit.objects.filter(
            action__in=[AtletaAudit.SPLIT, AtletaAudit.DISTINCT], atleta_key__in=keys, other_key__in=keys
        ).exists():
            raise AtletaRefused(
                _("%(a)s (%(ka)s) e %(b)s (%(kb)s) já estão marcados como pessoas diferentes.")
                % {"a": one.name, "ka": one.key, "b": other.name, "kb": other.key}
            )
        people = {"atletas": [_people(a, _players_of([a.pk])) for a in (one, other)]}
        return _audit(
            user=user,
            action=AtletaAudit.DISTINCT,
            atleta_key=one.key,
            other_key=other.key,
            summary=_("Pessoas diferentes: %(a)s (%(ka)s) não é %(b)s (%(kb)s)")
            % {"a": one.name, "ka": one.key, "b": other.name, "kb": other.key},
            reason=reason,
            before=people,
            after=people,
        )


def atleta_name_choose(*, user: Any, atleta: Atleta, name: str, reason: str = "") -> Atleta:
    """The name ``atleta`` shows from now on: ``name``, one of its registrations' names (its spaces tidied),
    chosen by an organizer over DOMAIN §7.1's "the name of their most recent registration"; "" gives that rule
    back. Audited; the rankings and pages that name the atleta follow at once (``atletas_rename``). Refused
    (``AtletaRefused``) for a name no registration of the atleta has, and for a user who may not
    (``permissions.may_join_atletas``)."""
    from ..writes import PRIVATE, tournament_write

    reason = " ".join(reason.split())[:REASON_MAX]
    name = name_shown(name)
    if not may_join_atletas(user=user, atletas=[atleta]):
        raise AtletaRefused(
            _("Você não pode mudar o nome deste atleta: só o organizador de um circuito em que ele jogou pode.")
        )
    with tournament_write(tournament=None, action="atletas.name", user=user, kind=PRIVATE):
        locked = _locked([atleta.pk])
        if atleta.pk not in locked:
            raise _gone()
        atleta = locked[atleta.pk]
        problem = _name_problem(name, _players_of([atleta.pk]))
        if problem is not None:
            raise problem
        before = {"key": atleta.key, "name": atleta.name, "chosen": atleta.chosen_name}
        if name == atleta.chosen_name:
            return atleta
        atleta.chosen_name = name
        atleta.save(update_fields=["chosen_name"])
        atletas_rename(ids=[atleta.pk])
        atleta.refresh_from_db(fields=["name", "name_search", "chosen_name"])
        if name:
            summary = _("Nome escolhido para %(k)s: %(n)s (era %(b)s)") % {
                "k": atleta.key,
                "n": name,
                "b": before["name"],
            }
        else:
            summary = _("%(k)s volta a mostrar o nome da inscrição mais recente: %(n)s") % {
                "k": atleta.key,
                "n": atleta.name,
            }
        _audit(
            user=user,
            action=AtletaAudit.NAME,
            atleta_key=atleta.key,
            other_key="",
            summary=summary,
            reason=reason,
            before=before,
            after={"key": atleta.key, "name": atleta.name, "chosen": atleta.chosen_name},
        )
    return atleta
