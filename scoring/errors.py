"""A rule broken, with the place where it happened."""

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleError:
    """One problem, in Portuguese, at a place such as ``partidas[1].maos[5]``."""

    place: str
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message

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
