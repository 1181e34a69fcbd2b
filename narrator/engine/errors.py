"""Engine errors, split as python-chess splits them: malformed vs not allowed now.

Each carries a :class:`~narrator.reasons.Reason`: the code a front end answers with, so that no
front end reads an engine message (which names the state, with roles) to tell why."""

from __future__ import annotations

from narrator.errors import NarratorError
from narrator.reasons import Reason
from narrator.reasons import words as reason_words


class EngineError(NarratorError):
    """Base of the engine's errors; the message quotes the action and the state."""

    def __init__(self, message: str, reason: Reason = Reason.NOT_NOW) -> None:
        super().__init__(message)
        self.reason = reason

    def words(self, lang: str) -> str:
        """The reason's words (the message's English names the state: the logs')."""
        return reason_words(self.reason, lang) if lang in ("ru", "uk") else str(self)


class InvalidActionError(EngineError):
    """The action is malformed whatever the state (a seat that does not exist)."""

    def __init__(self, message: str, reason: Reason = Reason.BAD_REQUEST) -> None:
        super().__init__(message, reason)


class IllegalActionError(EngineError):
    """The action is well formed but the game is not waiting for it now."""
