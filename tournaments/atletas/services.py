"""Atletas: linking players to them (DOMAIN §7.1) and keeping their Nível (§7.2).

``atletas_link`` is called wherever players are made or renamed (the tournament file's import, registrations,
the admin); it runs inside that write. ``nivel_update`` recomputes the Nível of some atletas from the database;
``writes._commit`` asks for it after a results or structural write commits (``nivel_follow``), and
``manage.py nivel_rebuild`` runs it for every atleta.
"""

from __future__ import annotations

import datetime
import functools
import json
import logging
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import CharField, F, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone

from scoring.atleta import atleta_identity, name_normalize
from scoring.jogo import WALKOVER_BOTH
from scoring.ranking import UNRANKED_LEVEL, player_level, score_walk

from .. import plainsql
from ..caching import background_run, in_request
from ..models import Atleta, AtletaAlias, AtletaJogos, AtletaNivel, Circuit, Dupla, Jogo, Player, Tournament
from ..selectors import tournament_state_get
from ..state import jogo_order

__all__ = [
    "atletas_link",
    "atletas_link_new",
    "atletas_rename",
    "name_shown",
    "nivel_after_write",
    "nivel_follow",
    "nivel_later",
    "nivel_rebuild",
    "nivel_update",
    "players_gone",
]

log = logging.getLogger(__name__)


# --- linking ----------------------------------------------------------------------------------------------


def atletas_link(*, players: Sequence[Player]) -> list[int]:
    """Point each of ``players`` (saved, with their name and birth date as they now are) at their atleta.

    A player whose identity (normalized name and birth date) is an atleta's (or one it took over in a join)
    joins it; else a player alone in
    their atleta keeps it (its identity follows the new name: the key stays); else a new atleta is made. Atletas
    left without players go away. Returns the ids of the atletas whose players changed (their Nível and name
    follow: the name here, the Nível once the write commits)."""
    from ..writes import write_required  # the write path imports this module

    write_required(what="atletas_link")  # players and atletas change only inside a tournament's write
    players = [p for p in players if p.pk is not None]
    if not players:
        return []
    ids = [p.pk for p in players]
    identity = {p.pk: atleta_identity(name=p.name, birth_date=p.birth_date) for p in players}
    by_identity = _atletas_of(set(identity.values()))
    current = {p.atleta_id for p in players if p.atleta_id is not None}
    # the atletas of these players that have no other player (they may follow their player's new identity)
    shared = set(
        Player.objects.filter(atleta_id__in=current).exclude(pk__in=ids).values_list("atleta_id", flat=True).distinct()
    )
    alone = {a.pk: a for a in Atleta.objects.filter(pk__in=current - shared)}
    touched: set[int] = set(current)
    new_atletas: list[tuple[Player, str | None]] = []
    moved: list[Player] = []
    renamed: list[Atleta] = []
    for p in players:
        ident = identity[p.pk]
        if ident is not None and ident in by_identity:
            target_id = by_identity[ident].pk
            if p.atleta_id != target_id:
                p.atleta_id = target_id
                moved.append(p)
            continue
        own = alone.pop(p.atleta_id, None) if p.atleta_id is not None else None
        if own is not None:  # alone in its atleta: the atleta follows (same key)
            if own.identity != ident:
                own.identity = ident
                renamed.append(own)
            if ident is not None:
                by_identity[ident] = Found(own.pk, own.name)
            continue
        new_atletas.append((p, ident))
    if renamed:
        # two steps, so that identities swapping between two atletas never meet the unique constraint
        Atleta.objects.filter(pk__in=[a.pk for a in renamed]).update(identity=None)
        Atleta.objects.bulk_update(renamed, ["identity"])
    _atletas_make(new_atletas)
    moved += [p for p, _ident in new_atletas]
    if moved:
        Player.objects.bulk_update(moved, ["atleta"])
    touched.update(p.atleta_id for p in players if p.atleta_id is not None)
    atletas_rename(ids=touched)
    transaction.on_commit(functools.partial(nivel_later, atleta_ids=touched), robust=True)
    return sorted(touched)


def name_shown(name: str) -> str:
    """A registration's name as an atleta shows it: repeated and outer spaces gone."""
    return " ".join(name.split())


def atletas_link_new(*, players: Sequence[Player]) -> set[int]:
    """Point each of ``players``, new and not saved yet (a tournament file's import: thousands at once), at their
    atleta, by ``atletas_link``'s rule: the atleta of their identity (or of one it took over in a join), else a new
    one (one for the new players of one identity; one each without a birth date). The caller inserts the players
    with their atleta and then calls ``atletas_rename`` with the ids returned: no player is written twice.

    The Nível needs nothing more: a new player's atleta gains only the jogos of the new player's tournament, and
    that tournament's write has the Nível of all its players' atletas walked again once it commits
    (``nivel_after_write``)."""
    from ..writes import write_required

    write_required(what="atletas_link_new")
    identity = [atleta_identity(name=p.name, birth_date=p.birth_date) for p in players]
    by_identity = _atletas_of(set(identity))
    new_atletas: list[tuple[Player, str | None]] = []
    existing: set[int] = set()
    for p, ident in zip(players, identity, strict=True):
        target = by_identity.get(ident) if ident is not None else None
        if target is not None:
            p.atleta_id = target.pk
            if target.name != name_shown(p.name):  # the same name: it stays, whichever player is the most recent now
                existing.add(target.pk)
        else:
            new_atletas.append((p, ident))
    _atletas_make(new_atletas)
    # an atleta made here has its one player's name; one of several new players (of one identity), or one that
    # was there before under another name, takes its most recent player's
    made = Counter(p.atleta_id for p, _ident in new_atletas)
    return existing | {a for a, n in made.items() if a is not None and n > 1}


class Found(NamedTuple):
    """An atleta found by identity: its id and name (read as plain values: an import looks for thousands)."""

    pk: int
    name: str


def _atletas_of(identities: set[str | None]) -> dict[str, Found]:
    """The atletas of these identities: their own, or one an atleta took over in a join (``AtletaAlias``)."""
    wanted = {i for i in identities if i is not None}
    if not wanted:
        return {}
    rows = Atleta.objects.filter(identity__in=wanted).values_list("identity", "pk", "name")
    by_identity = {identity: Found(pk, name) for identity, pk, name in rows if identity is not None}
    if wanted - set(by_identity):  # an identity an atleta took over in a join on the desk (``AtletaAlias``)
        aliases = AtletaAlias.objects.filter(identity__in=wanted - set(by_identity))
        for identity, pk, name in aliases.values_list("identity", "atleta_id", "atleta__name"):
            by_identity[identity] = Found(pk, name)
    return by_identity


def _atletas_make(new_atletas: list[tuple[Player, str | None]]) -> None:
    """A new atleta for each of these players (one for the players of one identity; one each without one), each
    player's ``atleta_id`` set to it. Keys are ``a<id>``: the rows go in under a key of this batch, then one
    statement gives every one of them its own, whatever their number (a tournament file: thousands)."""
    if not new_atletas:
        return
    batch = f"t{uuid.uuid4().hex[:12]}-"  # a placeholder until the ids are known
    fresh: list[dict[str, Any]] = []
    index_of: dict[str, int] = {}
    assign: list[int] = []
    for p, ident in new_atletas:
        if ident is not None and ident in index_of:  # two new players of one identity: one atleta
            assign.append(index_of[ident])
            continue
        assign.append(len(fresh))
        if ident is not None:
            index_of[ident] = len(fresh)
        key = f"{batch}{len(fresh)}"
        fresh.append({"key": key, "name": name_shown(p.name), "name_search": name_normalize(p.name), "identity": ident})
    # Another event's write may make the same identity meanwhile (each write locks its own tournament only):
    # its row wins (ON CONFLICT DO NOTHING waits for it to commit) and these players join it, read below.
    db = transaction.get_connection()
    plainsql.rows_insert(Atleta, fresh, connection=db, ignore_conflicts=True)
    ours = Atleta.objects.filter(key__startswith=batch)
    by_key = dict(ours.values_list("key", "pk"))
    ours.update(key=Concat(Value("a"), Cast("pk", output_field=CharField())))
    lost = [a["identity"] for a in fresh if a["key"] not in by_key]
    theirs = dict(Atleta.objects.filter(identity__in=lost).values_list("identity", "pk")) if lost else {}
    resolved = [by_key[a["key"]] if a["key"] in by_key else theirs[a["identity"]] for a in fresh]
    plainsql.rows_insert(AtletaNivel, [{"atleta_id": pk} for pk in by_key.values()], connection=db)
    for (p, _ident), index in zip(new_atletas, assign, strict=True):
        p.atleta_id = resolved[index]


def atletas_rename(*, ids: Iterable[int]) -> None:
    """Each of these atletas takes the name an organizer chose for them on the desk (``Atleta.chosen_name``) while
    one of their players still carries it, else the name of their most recent player of a published tournament
    (a draft's registration names nobody in public; latest tournament date, then the latest made; a draft's only
    when the atleta played no published one), its spaces tidied; a choice no player carries any more (split away) is forgotten. An
    atleta left without players goes away."""
    from ..writes import write_required

    write_required(what="atletas_rename")
    ids = set(ids)
    if not ids:
        return
    latest: dict[int, str] = {}
    carried: dict[int, set[str]] = {}
    rows = (
        Player.objects.filter(atleta_id__in=ids)
        .order_by(
            "atleta_id",
            F("tournament__published").desc(),
            F("tournament__date").desc(nulls_last=True),
            "-tournament_id",
            "-id",
        )
        .values_list("atleta_id", "name")
    )
    for atleta_id, name in rows:
        latest.setdefault(atleta_id, name_shown(name))
        carried.setdefault(atleta_id, set()).add(name_shown(name))
    gone = ids - latest.keys()
    if gone:
        Atleta.objects.filter(pk__in=gone).delete()
    atletas = list(Atleta.objects.filter(pk__in=latest))
    changed = []
    forgotten = []
    for a in atletas:
        if a.chosen_name and a.chosen_name not in carried[a.pk]:
            a.chosen_name = ""
            forgotten.append(a.pk)
        name = a.chosen_name or latest[a.pk]
        if a.name != name or a.name_search != name_normalize(name):
            a.name, a.name_search = name, name_normalize(name)
            changed.append(a)
    if forgotten:
        Atleta.objects.filter(pk__in=forgotten).update(chosen_name="")
    if changed:
        Atleta.objects.bulk_update(changed, ["name", "name_search"])
        # the circuits these atletas played show their names: their rankings move to a new version
        Circuit.objects.filter(etapas__tournament__players__atleta__in=[a.pk for a in changed]).update(
            version=F("version") + 1
        )


# --- the Nível ----------------------------------------------------------------------------------------------


def nivel_after_write(write: Any) -> None:
    """At the end of a results or structural write (``writes.write_followers_add``): once it commits, the Nível
    of the atletas whose counted jogos may have changed (every player's after a structural write), recomputed from
    the database (about 5 ms and 7 queries for a result; more for a structural write, whose atletas may have
    played many other events): in the request, or after its response with ZAP_NIVEL_BACKGROUND."""
    from ..writes import RESULTS, STRUCTURE

    if write.tournament is None or write.kind not in (RESULTS, STRUCTURE):
        return
    tournament_id, jogo_ids = write.tournament.pk, sorted(write.jogos) if write.kind == RESULTS else []
    if write.kind == STRUCTURE or jogo_ids:
        transaction.on_commit(
            functools.partial(nivel_later, tournament_id=tournament_id, jogo_ids=jogo_ids), robust=True
        )


def nivel_later(
    *, atleta_ids: Iterable[int] = (), tournament_id: int | None = None, jogo_ids: Iterable[int] = ()
) -> None:
    """``nivel_follow`` once a write has committed: inside a request, in a background thread started after the
    response has gone (``caching.background_run``; ``ZAP_NIVEL_BACKGROUND``), else here and now (a command, a
    test). It recomputes from the database, so running late, twice or concurrently gives the same rows."""
    args = (tuple(atleta_ids), tournament_id, tuple(jogo_ids))
    if settings.ZAP_NIVEL_BACKGROUND and in_request():
        background_run(_nivel_thread, *args, name="zap-nivel")
    else:
        nivel_follow(atleta_ids=args[0], tournament_id=tournament_id, jogo_ids=args[2])


def _nivel_thread(atleta_ids: tuple[int, ...], tournament_id: int | None, jogo_ids: tuple[int, ...]) -> None:
    try:
        nivel_follow(atleta_ids=atleta_ids, tournament_id=tournament_id, jogo_ids=jogo_ids)
    finally:
        connection.close()  # this thread's own connection


def nivel_follow(
    *, atleta_ids: Iterable[int] = (), tournament_id: int | None = None, jogo_ids: Iterable[int] = ()
) -> None:
    """After a write commits: the Nível of the atletas it touched (these atletas; the players of these jogos;
    every player of ``tournament_id`` when given without jogos). Never fails the write (it has committed):
    a problem is logged, and ``manage.py nivel_rebuild`` puts everything right."""
    try:
        ids = set(atleta_ids)
        jogo_ids = list(jogo_ids)
        if jogo_ids:
            ids |= _atletas_of_jogos(jogo_ids)
        elif tournament_id is not None:
            ids |= set(
                Player.objects.filter(tournament_id=tournament_id, atleta__isnull=False).values_list(
                    "atleta_id", flat=True
                )
            )
        if ids:
            nivel_update(atleta_ids=ids, tournament_id=tournament_id)
    except Exception:
        log.exception("Nível: atualização falhou (manage.py nivel_rebuild refaz tudo)")


def _atletas_of_jogos(jogo_ids: list[int]) -> set[int]:
    """The atletas of the players of these jogos' duplas, in one plain query."""
    db = connection
    q = db.ops.quote_name
    jogo, dupla, player = (q(m._meta.db_table) for m in (Jogo, Dupla, Player))
    marks = ", ".join(["%s"] * len(jogo_ids))
    with db.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT p.{q('atleta_id')} FROM {jogo} j "
            f"JOIN {dupla} d ON d.{q('id')} IN (j.{q('dupla_a_id')}, j.{q('dupla_b_id')}) "
            f"JOIN {player} p ON p.{q('id')} IN (d.{q('player1_id')}, d.{q('player2_id')}) "
            f"WHERE j.{q('id')} IN ({marks}) AND p.{q('atleta_id')} IS NOT NULL",
            list(jogo_ids),
        )
        return {row[0] for row in cursor.fetchall()}


def _tournament_order(t: Tournament) -> tuple[datetime.date, int]:
    """Tournaments in calendar order: their date (one without a date by the day it was made), then made first."""
    return (t.date or t.created_at.date(), t.pk)


def nivel_jogos(*, atleta_ids: Iterable[int]) -> dict[int, list[tuple[bool, bool]]]:
    """Each atleta's counted jogos, in order, as ``score_walk`` takes them: (won, lost by walkover).

    Counted: what the standings count (``TournamentState.record_by_jogo``: a jogo's result from "confirmed" on,
    or, while a correction awaits its confirmations, the via that counted before) and finished, in a published
    tournament; a walkover counts as played. Order: the tournaments by date (``_tournament_order``), then each
    tournament's jogos in its order of play (``state.jogo_order``: stage, round, third place after the final
    of its round, position, mesa, id). Not ``entry_order`` (when a result was typed in, which a late súmula
    would skew): the round is when the jogo was played."""
    return _nivel_jogos(atleta_ids=atleta_ids)[0]


CountedJogos = list[tuple[bool, bool]]  # one atleta's counted jogos in a tournament: (won, lost by walkover) each


def _nivel_jogos(
    *, atleta_ids: Iterable[int], fresh: int | None = None
) -> tuple[dict[int, CountedJogos], list[tuple[int, int, CountedJogos]]]:
    """``nivel_jogos``, and the (atleta, tournament, jogos) it computed, to keep (``AtletaJogos``). With ``fresh``
    (the tournament a write changed), only that tournament's jogos are computed: the others' are read as kept,
    and computed only where none is kept yet; without it, every tournament's are computed again."""
    ids = set(atleta_ids)
    players = list(
        Player.objects.filter(atleta_id__in=ids, tournament__published=True).values_list(
            "tournament_id", "key", "atleta_id"
        )
    )
    atleta_of: dict[int, dict[str, int]] = {}
    for tournament_id, key, atleta_id in players:
        if atleta_id is not None:
            atleta_of.setdefault(tournament_id, {})[key] = atleta_id
    kept: dict[tuple[int, int], CountedJogos] = {}
    if fresh is not None:
        kept = _kept_jogos(ids, [t for t in atleta_of if t != fresh])
    out: dict[int, CountedJogos] = {i: [] for i in ids}
    computed: list[tuple[int, int, CountedJogos]] = []
    for t in sorted(Tournament.objects.filter(pk__in=atleta_of), key=_tournament_order):
        mine = atleta_of[t.pk]
        missing = {a for a in mine.values() if (a, t.pk) not in kept}
        if missing:
            made = _tournament_jogos(t, {key: a for key, a in mine.items() if a in missing})
            computed += [(a, t.pk, made.get(a, [])) for a in sorted(missing)]
            kept.update(((a, t.pk), made.get(a, [])) for a in missing)
        for a in set(mine.values()):
            out[a] += kept[(a, t.pk)]
    return out, computed


def _kept_jogos(atleta_ids: Iterable[int], tournament_ids: list[int]) -> dict[tuple[int, int], CountedJogos]:
    """The counted jogos kept for these atletas in these tournaments (``AtletaJogos``), in one plain query."""
    atletas = sorted(atleta_ids)
    if not atletas or not tournament_ids:
        return {}
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {q('atleta_id')}, {q('tournament_id')}, {q('jogos')} FROM {q(AtletaJogos._meta.db_table)} "
            f"WHERE {q('atleta_id')} IN ({', '.join(['%s'] * len(atletas))}) "
            f"AND {q('tournament_id')} IN ({', '.join(['%s'] * len(tournament_ids))})",
            [*atletas, *tournament_ids],
        )
        rows = cursor.fetchall()
    return {
        (a, t): [(bool(won), bool(wo)) for won, wo in (jogos if isinstance(jogos, list) else json.loads(jogos))]
        for a, t, jogos in rows
    }


def _kept_jogos_put(computed: list[tuple[int, int, CountedJogos]]) -> None:
    """Keep these (atleta, tournament, counted jogos), replacing what was kept: a plain upsert (a structural write of a
    big event: thousands of atletas)."""
    plainsql.rows_insert(
        AtletaJogos,
        [
            {"atleta_id": atleta_id, "tournament_id": tournament_id, "jogos": [list(j) for j in jogos]}
            for atleta_id, tournament_id, jogos in computed
        ],
        connection=connection,
        update_conflicts=("atleta_id", "tournament_id"),
    )


def _tournament_jogos(t: Tournament, mine: dict[str, int]) -> dict[int, CountedJogos]:
    """The counted jogos in ``t`` of the atletas of these players (player key -> atleta), from its state."""
    out: dict[int, CountedJogos] = {}
    state = tournament_state_get(tournament=t)
    players_of = {d.key: d.players for d in state.dupla_infos}
    theirs = {state.duplas[key].id for key, players in players_of.items() if not mine.keys().isdisjoint(players)}
    stage_order = {s.id: s.order for s in state.stage_models.values()}
    # only these atletas' duplas' counted jogos are put in order (a confirmation's 4 atletas, not every jogo of
    # the tournament: sorting them all cost 3 ms at 1,024 duplas and 12 ms at 4,096); the id ends every key
    counted = []
    for row in state.jogo_rows:
        if row.dupla_a_id in theirs or row.dupla_b_id in theirs:
            record = state.record_by_jogo.get(row.id)
            if record is not None and record.result.finished:
                counted.append((jogo_order(row, stage_order), record))
    counted.sort(key=lambda item: item[0])
    for _order, record in counted:
        res = record.result
        for side in (0, 1):
            for pkey in players_of.get(record.duplas[side], ()):
                who = mine.get(pkey)
                if who is None:
                    continue
                won = res.winner == side
                walkover = res.walkover == side or res.walkover == WALKOVER_BOTH
                out.setdefault(who, []).append((won, walkover and not won))
    return out


def nivel_update(*, atleta_ids: Iterable[int], tournament_id: int | None = None) -> int:
    """Recompute the Nível of these atletas from the database and keep it; returns how many rows changed.

    ``tournament_id``: the one tournament a write changed. Its jogos are computed again and the atletas' other
    tournaments read as kept (``AtletaJogos``, computed where none is kept yet), so a result never loads the state
    of every event its atletas ever played; without it every tournament is computed again (a join, a split, a
    player gone, ``nivel_rebuild``). Idempotent. Two at once for one atleta: the rows are locked first (in id
    order) and the jogos read after, so the later of the two writes what the database holds after both writes."""
    ids = sorted(set(atleta_ids))
    if not ids:
        return 0
    with transaction.atomic():
        _nivel_rows_add(ids)
        rows = {n.pk: n for n in AtletaNivel.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
        jogos, computed = _nivel_jogos(atleta_ids=rows, fresh=tournament_id)
        _kept_jogos_put(computed)
        changed = []
        for atleta_id, row in rows.items():
            seq = jogos.get(atleta_id, [])
            path = score_walk(results=seq)
            score = path[-1] if path else None
            values = {
                "score": score,
                "level": player_level(score=score) if path else UNRANKED_LEVEL,
                "played": len(seq),
                "won": sum(1 for won, _ in seq if won),
                "walkovers_lost": sum(1 for won, wo in seq if wo and not won),
            }
            if any(getattr(row, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(row, k, v)
                changed.append(row)
        now = timezone.now()
        for row in changed:
            row.updated_at = now
        if len(changed) <= _NIVEL_ONE_BY_ONE:  # a few rows: one prepared UPDATE each costs less than compiling a CASE
            for row in changed:
                plainsql.update(row, [*_NIVEL_VALUES, "updated_at"], connection=connection)
        else:  # an import's or a draw's thousands of atletas: an upsert
            _nivel_rows_put(changed)
    return len(changed)


_NIVEL_VALUES = ["score", "level", "played", "won", "walkovers_lost"]
_NIVEL_ONE_BY_ONE = 20


def _nivel_rows_put(rows: list[AtletaNivel]) -> None:
    """Write these Nível rows (locked by the caller): a plain upsert (they exist), whatever their number."""
    names = ["atleta_id", *_NIVEL_VALUES, "updated_at"]
    plainsql.rows_insert(
        AtletaNivel,
        [{name: getattr(row, name) for name in names} for row in rows],
        connection=connection,
        update_conflicts=("atleta_id",),
    )


def _nivel_rows_add(ids: list[int]) -> None:
    """A Nível row (Marreco, nothing played) for each of these atletas that has none yet, in one statement: an
    atleta deleted meanwhile gets none, a row another write added meanwhile is left as it is."""
    q = connection.ops.quote_name
    table = q(AtletaNivel._meta.db_table)
    marks = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({q('atleta_id')}, {q('score')}, {q('level')}, {q('played')}, {q('won')}, "
            f"{q('walkovers_lost')}, {q('updated_at')}) "
            f"SELECT a.{q('id')}, NULL, %s, 0, 0, 0, %s FROM {q(Atleta._meta.db_table)} a "
            f"WHERE a.{q('id')} IN ({marks}) ON CONFLICT ({q('atleta_id')}) DO NOTHING",
            [UNRANKED_LEVEL, connection.ops.adapt_datetimefield_value(timezone.now()), *ids],
        )


def players_gone(sender: type, instance: Player, **kwargs: object) -> None:
    """A player deleted (a tournament with it, a registration's partner): once that commits, their atleta's Nível
    is walked again without that tournament's jogos (``post_delete`` of ``Player``, connected in ``apps``)."""
    if instance.atleta_id is not None:
        transaction.on_commit(functools.partial(nivel_later, atleta_ids=[instance.atleta_id]), robust=True)


def nivel_rebuild(*, batch: int = 500) -> int:
    """Every atleta's Nível recomputed (``manage.py nivel_rebuild``), every player linked to an atleta, and the
    atletas left without players removed."""
    from ..writes import PRIVATE, tournament_write  # the write path imports this module

    unlinked = Player.objects.filter(atleta__isnull=True)
    for t in Tournament.objects.filter(pk__in=unlinked.values("tournament_id")).order_by("pk"):
        with tournament_write(tournament=t, action="atletas.link", kind=PRIVATE):
            atletas_link(players=list(unlinked.filter(tournament=t)))
    Atleta.objects.filter(players__isnull=True).delete()
    ids = list(Atleta.objects.order_by("pk").values_list("pk", flat=True))
    changed = 0
    for start in range(0, len(ids), batch):
        changed += nivel_update(atleta_ids=ids[start : start + batch])
    return changed
