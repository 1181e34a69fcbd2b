"""Engine errors, split as python-chess splits them: malformed vs not allowed now."""

from __future__ import annotations

from narrator.errors import NarratorError


class EngineError(NarratorError):
    """Base of the engine's errors; the message quotes the action and the state."""


class InvalidActionError(EngineError):
    """The action is malformed whatever the state (a seat that does not exist)."""


class IllegalActionError(EngineError):
    """The action is well formed but the game is not waiting for it now."""
