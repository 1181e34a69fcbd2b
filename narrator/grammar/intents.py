"""The grammar's output: what a player meant by one utterance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from narrator.reasons import Reason

IntentKind = Literal["nominate", "withdraw", "end_speech", "best_move", "none"]


@dataclass(frozen=True, slots=True)
class Intent:
    """One intent found in an utterance.

    ``accepted`` is the grammar's verdict on the *form* of the phrase (rules 2.3.1, 2.3.2); the
    engine may still refuse an accepted intent for reasons of state (target out of the game, a
    standing nomination). ``reason`` is a short stable code, never ``None`` when refused.
    A best move (8.17) names its ``seats`` (``target`` None); the engine judges their count.
    """

    kind: IntentKind
    target: int | None
    accepted: bool
    reason: Reason | None
    text: str = ""
    seats: tuple[int, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The JSON object of ``narrator parse --json`` (without the matched text)."""
        out: dict[str, object] = {
            "kind": self.kind,
            "target": self.target,
            "accepted": self.accepted,
            "reason": self.reason,
        }
        if self.kind == "best_move":
            out["seats"] = list(self.seats)
        return out
