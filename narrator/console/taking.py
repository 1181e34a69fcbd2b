"""How a press is taken: written to the journal first, then acted on through the host, then
answered — a :class:`Reply`, taken or refused with a stable reason code.

What the seats' presses (:mod:`narrator.console.pads`) and the operator's
(:mod:`narrator.console.operator`) share is :class:`Taker`: the host they act through, the
table's settings and timing windows, and the journal each press is written to before any of
its actions (a kill between the two loses no press).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from narrator.console.presses import OperatorPress, PadPress, press_input
from narrator.console.settings import ConsoleSettings
from narrator.console.tokens import Who
from narrator.console.windows import Windows
from narrator.engine import Action, Game
from narrator.engine import events as ev
from narrator.host.desk import Desk
from narrator.host.host import Host
from narrator.inputs import Input
from narrator.reasons import Reason, words

#: where a press goes before it is acted on (the journal, a session)
Record = Callable[[Input], None]


@dataclass(frozen=True)
class Reply:
    """The answer to one press: taken, or refused with a stable reason code (the page shows
    the reason's words, :data:`narrator.reasons.WORDS`, which the reply carries)."""

    ok: bool
    reason: Reason | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        text = words(self.reason, lang) if self.reason is not None else None
        return {"ok": self.ok, "reason": self.reason, "text": text, **self.detail}


def refused(reason: Reason) -> Reply:
    return Reply(False, reason)


OK = Reply(True)


class Taker:
    """What taking a press needs: the host, the table's settings and windows, the journal."""

    def __init__(self, host: Host, settings: ConsoleSettings, windows: Windows,
                 record: Record) -> None:
        self.host = host
        self.settings = settings
        self.windows = windows
        self.record = record

    @property
    def game(self) -> Game:
        return self.host.game

    @property
    def desk(self) -> Desk:
        return self.host.desk

    def take(self, press: PadPress | OperatorPress, who: Who, t: float) -> None:
        """Write the press (as taken: what the table decided filled in) before it is acted
        on."""
        self.record(press_input(press, who, t))

    def apply(self, *actions: Action) -> list[ev.Event]:
        out: list[ev.Event] = []
        for action in actions:
            out.extend(self.host.apply(action))
        return out
