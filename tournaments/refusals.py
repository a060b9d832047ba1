"""The one refusal of the domain: ``Refused``, what kind of "no" it is, why (in Portuguese) and where.

A service, a selector or a reader that will not do what it was asked raises ``Refused`` and writes nothing.
The kind is said in the domain's terms (bad input, not found, already done…); how each kind leaves the site
(an HTTP status, a JSON body, a form's errors) is decided once, at the web edge (``tournaments.web``).

``messages`` is what a reader without a form reads (every problem worded, in Portuguese; scoring's messages
keep their template, so the web edge words them in the reader's language); ``problems`` say where, for a
form: each has a ``place`` (a field's name in the domain's terms, such as ``players[1].birth_date``) and a
``message``. Scoring keeps its own pure ``RuleViolation``; ``Refused.from_rules`` carries its problems.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Protocol

from scoring.errors import RuleError, RuleViolation


class Kind(StrEnum):
    """Why something was refused, in the domain's terms."""

    BAD_REQUEST = "bad_request"  # what was sent cannot be read at all (a malformed body or parameter)
    INVALID = "invalid"  # read, but wrong: a value, a missing field, a rule broken
    FORBIDDEN = "forbidden"  # this person may not do it (no account, wrong role, wrong PIN)
    NOT_FOUND = "not_found"  # no such thing (or none this person may see)
    CONFLICT = "conflict"  # not now: the state changed, another via, already done
    LOCKED = "locked"  # tried too often: wait, or ask the referee


class Problem(Protocol):
    """One problem at its place (``scoring.errors.RuleError`` is one)."""

    @property
    def place(self) -> str: ...

    @property
    def message(self) -> str: ...


class Refused(Exception):
    """Nothing was done: the ``kind`` of refusal, ``messages`` saying why (pt-BR) and ``problems`` saying where."""

    BAD_REQUEST = Kind.BAD_REQUEST
    INVALID = Kind.INVALID
    FORBIDDEN = Kind.FORBIDDEN
    NOT_FOUND = Kind.NOT_FOUND
    CONFLICT = Kind.CONFLICT
    LOCKED = Kind.LOCKED

    def __init__(self, kind: Kind, *messages: str, problems: Iterable[Problem] = ()) -> None:
        self.kind = Kind(kind)
        # a text is kept as it is: scoring's messages (``scoring.messages.Text``) are worded at the web edge
        self.messages: list[str] = [m if isinstance(m, str) else str(m) for m in messages]
        self.problems: list[Problem] = list(problems)
        super().__init__("\n".join(self.messages))

    @classmethod
    def bad_request(cls, *messages: str) -> Refused:
        return cls(Kind.BAD_REQUEST, *messages)

    @classmethod
    def invalid(cls, *messages: str, problems: Iterable[Problem] = ()) -> Refused:
        return cls(Kind.INVALID, *messages, problems=problems)

    @classmethod
    def forbidden(cls, *messages: str) -> Refused:
        return cls(Kind.FORBIDDEN, *messages)

    @classmethod
    def not_found(cls, *messages: str) -> Refused:
        return cls(Kind.NOT_FOUND, *messages)

    @classmethod
    def conflict(cls, *messages: str) -> Refused:
        return cls(Kind.CONFLICT, *messages)

    @classmethod
    def locked(cls, *messages: str) -> Refused:
        return cls(Kind.LOCKED, *messages)

    @classmethod
    def from_rules(
        cls,
        errors: Sequence[RuleError] | RuleViolation,
        *,
        kind: Kind = Kind.INVALID,
        worded: Callable[[RuleError], str] = str,
    ) -> Refused:
        """The problems of the rules (a ``RuleViolation`` or its errors), each worded by ``worded``."""
        found = list(errors.errors if isinstance(errors, RuleViolation) else errors)
        return cls(kind, *(worded(e) for e in found), problems=found)

    @classmethod
    def of[P: Problem](cls, problems: Sequence[P], *, worded: Callable[[P], str], kind: Kind = Kind.INVALID) -> Refused:
        """Problems at their places, each also worded for a reader without a form."""
        return cls(kind, *(worded(p) for p in problems), problems=problems)
