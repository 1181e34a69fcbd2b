"""The reference game: a table script replayed, cut into the steps the game waited at.

A step is one wait of the game (:data:`~narrator.engine.waits.Expect`; ``Game.step`` counts
them: a new step, a new serial), with the actions the replay applied while it lasted, each
with its moment in seconds after the step's timer started, and — in a speech — the phrases
heard, with the span of actions each one gave. Every front end plays the reference step by step.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from narrator.engine import Action, Game, Hands, Thumbs
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.waits import Expect
from narrator.inputs import ACTION, HEARD, Input
from narrator.replay.script import TableScript
from narrator.replay.table import ScriptReplay


@dataclass(frozen=True)
class Said:
    """One phrase the replay heard in a speech."""

    offset: float  # seconds after the speech's timer started
    text: str
    first: int  # the index of its first action in the step (actions it gave: first..last-1)
    last: int


@dataclass
class Step:
    """One step of the reference game."""

    start: int  # the index in the history of the step's first action
    expect: Expect
    actions: list[Action] = field(default_factory=list)
    offsets: list[float] = field(default_factory=list)  # each action's moment in the step
    said: list[Said] = field(default_factory=list)
    #: the step ended in the reference (the last step of a script that ends first did not)
    complete: bool = True
    #: one-seat actions the engine refused in it (a second hand in a round, a second thumb):
    #: a pad does not send them and a host does not count them
    refused: Counter[str] = field(default_factory=Counter)


@dataclass
class Reference:
    """The script, its replayed game, the protocol (with every phrase said) and the steps."""

    script: TableScript
    game: Game
    protocol: dict[str, Any]
    steps: list[Step]


def steps_of(game: Game, history: list[Action]) -> list[tuple[int, Expect, Counter[str]]]:
    """Where each step of ``history`` starts, applied to ``game`` (fresh, not started), and
    the one-seat hands and thumbs the engine refused in it."""
    game.start()
    starts: list[tuple[int, Expect, Counter[str]]] = [(0, game.expect, Counter())]
    for i, action in enumerate(history):
        step = game.step
        for event in game.apply(action):
            if isinstance(event, ev.Refused) and event.seat is not None and \
                    isinstance(action, Hands | Thumbs):
                one = Hands((event.seat,)) if isinstance(action, Hands) \
                    else Thumbs(action.target, (event.seat,))
                starts[-1][2][str(one)] += 1
        if game.step != step:
            starts.append((i + 1, game.expect, Counter()))
    return starts


class _Moments:
    """The replay's journal, kept in memory: each action's moment in its step."""

    def __init__(self) -> None:
        self.replay: ScriptReplay | None = None
        self.moments: list[float] = []

    def write(self, event: Input) -> None:
        if event.type == ACTION and self.replay is not None:
            self.moments.append(event.t - self.replay.host.timer_started)

    def close(self) -> None:
        pass


class _Listening(ScriptReplay):
    """A replay that notes each phrase it hears: its moment and the actions it gave."""

    heard: list[tuple[int, float, str, int]]  # (history before, moment, text, history after)

    def _intake(self, event: Input) -> None:
        if event.type != HEARD:
            super()._intake(event)
            return
        before = len(self.game.history)
        moment = event.t - self.host.timer_started
        try:
            super()._intake(event)
        finally:
            self.heard.append((before, moment, str(event.get("text")), len(self.game.history)))


def build_reference(script: TableScript) -> Reference:
    """Replay ``script`` (ScriptError on a bad line) and cut its game into steps."""
    log = _Moments()
    replay = _Listening(script, journal=log)
    replay.heard = []
    log.replay = replay
    result = replay.run()
    game = result.game
    starts = steps_of(game.table_copy(), game.history)
    steps: list[Step] = []
    for n, (start, expect, refused) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(game.history)
        if isinstance(expect, w.Over) and start == end:
            break  # (the game over is a step only for the host's marks after it)
        steps.append(Step(start, expect, game.history[start:end], log.moments[start:end],
                          refused=refused))
    if steps and not game.is_over:
        steps[-1].complete = False
    for before, moment, text, after in replay.heard:
        step = next(s for s in reversed(steps) if s.start <= before)
        step.said.append(Said(moment, text, before - step.start, after - step.start))
    return Reference(script, game, result.protocol(), steps)
