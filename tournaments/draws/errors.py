"""The one error the draw services raise: what was refused, in Portuguese, and nothing written."""

from __future__ import annotations


class DrawRefused(Exception):
    """An organizer action of the draws refused; ``messages`` say what is wrong and where (pt-BR)."""

    def __init__(self, *messages: str):
        self.messages = [str(m) for m in messages]
        super().__init__("\n".join(self.messages))
