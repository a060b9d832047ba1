"""Rolls: every draw shown to the organizer as a preview is recorded, in order (docs/regras.md §2 steps 3–4).

A preview writes nothing of the event, but the organizer must not be able to
roll again and again until a draw suits them without a trace: each preview
with a new seed is a ``DrawRoll`` (who, when, the seed, what it showed). The
preview form carries a token; a reload of the same preview (the same token)
shows the same roll and counts nothing. Publishing closes the series and
attaches it to the draw it made, so the public record of that draw says how
many rolls were shown and which one was published.

Recording a roll is a ``PRIVATE`` write: no page shows a roll until its draw
is published, and publishing is a ``STRUCTURE`` write that gives the pages a
new version (the count appears with the draw, at once). Rolls shown after a
publish belong to the next draw.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.utils.translation import gettext as _

from ..audit import audit_record
from ..models import Draw, DrawRoll, Tournament
from ..writes import PRIVATE, tournament_write, write_required
from .format import knockout_only

SEED_LIMIT = 2**31
TOKEN_MAX = 40

__all__ = ["SEED_LIMIT", "roll_open_get", "roll_show", "roll_token_new", "rolls_close"]


def roll_token_new() -> str:
    """A token for a preview form: the preview it asks for is recorded once, whatever the reloads."""
    return secrets.token_urlsafe(16)


def _user(user: User | AnonymousUser | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


def _kind_label(kind: str, tournament: Tournament) -> str:
    if kind == DrawRoll.PAIRING:
        return _("sorteio das duplas")
    return _("sorteio da chave") if knockout_only(tournament=tournament) else _("sorteio de grupos e chave")


def roll_open_get(*, tournament: Tournament, kind: str, token: str) -> DrawRoll | None:
    """The roll of ``token`` still waiting for its publish (None: unknown, or its series was published)."""
    if not token:
        return None
    return DrawRoll.objects.filter(tournament=tournament, kind=kind, token=token[:TOKEN_MAX], closed=False).first()


def roll_show[T](
    *,
    tournament: Tournament,
    user: User | AnonymousUser | None,
    kind: str,
    token: str,
    compute: Callable[[int], tuple[T, dict[str, Any] | None]],
    seed: int | None = None,
) -> tuple[DrawRoll | None, T]:
    """The preview asked for by ``token``: the same roll again when the token was shown already (a reload), or a
    new roll recorded in order. ``compute(seed)`` gives the preview and what it shows (None: nothing to show,
    nothing recorded); it may raise ``Refused`` (nothing recorded). ``seed``: the seed of the new roll (a preview
    shown again after a refused publish); None makes one with ``secrets``.
    """
    with tournament_write(tournament=tournament, action="draw.roll", user=user, kind=PRIVATE):
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()  # rolls numbered one at a time
        token = (token or "")[:TOKEN_MAX]
        known = DrawRoll.objects.filter(tournament=tournament, token=token).first() if token else None
        if known is not None and known.kind == kind and not known.closed:
            value, shown = compute(known.seed)
            if shown is None or shown == known.shown:
                return known, value  # a reload: the same roll, counted once
            seed = known.seed  # the same seed now shows something else (the event changed): a roll of its own
        if known is not None or not token:
            token = roll_token_new()
        seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
        value, shown = compute(seed)
        if shown is None:
            return None, value
        number = DrawRoll.objects.filter(tournament=tournament, kind=kind, closed=False).count() + 1
        roll = DrawRoll.objects.create(
            tournament=tournament,
            kind=kind,
            number=number,
            token=token,
            seed=seed,
            shown=shown,
            shown_by=_user(user),
        )
        audit_record(
            tournament=tournament,
            user=user,
            action="draw_roll",
            summary=_("Prévia do %(what)s exibida: %(n)dº sorteio exibido (semente %(seed)d)")
            % {"what": _kind_label(kind, tournament), "n": number, "seed": seed},
            after={"kind": kind, "number": number, "seed": seed, "shown": shown},
        )
    return roll, value


def rolls_close(*, tournament: Tournament, kind: str, draw: Draw, published: DrawRoll | None) -> int:
    """Inside the publishing write: the open series of ``kind`` ends with ``draw``; ``published`` is its roll.
    Returns the number of rolls shown for this draw."""
    write_required(what="rolls_close")
    if published is not None:
        DrawRoll.objects.filter(pk=published.pk).update(published=True)
    return DrawRoll.objects.filter(tournament=tournament, kind=kind, closed=False).update(closed=True, draw=draw)
