"""A rule broken, with the place where it happened."""

from dataclasses import dataclass

from .messages import Text


@dataclass(frozen=True)
class RuleError:
    """One problem, in Portuguese, at a place such as ``partidas[1].maos[5]``.

    ``message`` is usually a ``scoring.messages.Text`` (a ``str`` the web edge can translate); ``str(error)``
    is one too, so the place and the message are worded together.
    """

    place: str
    message: str

    def __str__(self) -> str:
        if not self.place:
            return self.message
        return Text("%(place)s: %(message)s", place=self.place, message=self.message)

    def nested(self, prefix: str) -> "RuleError":
        """The same problem seen from an enclosing place (``jogos[3]`` + ``.partidas[1]``)."""
        if not self.place:
            return RuleError(prefix, self.message)
        joiner = "" if self.place.startswith("[") else "."
        return RuleError(f"{prefix}{joiner}{self.place}", self.message)


class RuleViolation(Exception):
    """Raised with every problem found; nothing may be written."""

    def __init__(self, errors: list[RuleError]):
        self.errors = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))
