"""Waiting at a step: the one loop every step's wait goes through.

A step is a generator that yields what the game waits for (a :data:`~narrator.engine.waits.
Expect`) and receives the actions; :func:`wait` is where it waits. The engine's speed is in
this loop (see ``scripts/bench_engine.py``): a step keeps its presses on the state and its
``take`` is a module function, not a closure made per step; a step with nothing to do after
its wait (a timer, a speech, a check, a voting window) is a plain function that sets up and
returns this generator, so that each action passes one generator fewer on its way down.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import replace
from typing import Any, assert_never

from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import Action, Foul, Remove, TakeFloor, TechFoul, TimeUp
from narrator.engine.state import State
from narrator.engine.types import Timer
from narrator.engine.waits import Expect

__all__ = ["Flow", "Take", "is_floor_or_time_up", "is_time_up", "reseat", "timer", "wait"]

#: a step of the game, or the whole game: it yields its waits and receives actions
Flow = Generator[Expect, Action, Any]

#: what a step does with each action it gets while it waits (its own kind of wait); True when
#: the step is over
Take = Callable[[State, Action, Any], bool]


def is_time_up(s: State, action: Action, expect: Expect) -> bool:
    return isinstance(action, TimeUp)


_FLOOR_OR_TIME_UP = (TakeFloor, TimeUp)  # (a tuple: ``TakeFloor | TimeUp`` is a new union each call)


def is_floor_or_time_up(s: State, action: Action, expect: Expect) -> bool:
    return isinstance(action, _FLOOR_OR_TIME_UP)


def wait(s: State, expect: Expect, take: Take) -> Flow:
    """Wait at ``expect`` until ``take`` ends the step; returns the action that ended it.

    Fouls (technical ones too, 9.6.2) and removals come at any moment: a foul is recorded and
    the step waits on; a removal (2.4.3) is applied, then ``take`` sees it like any other
    action, acts on it and returns True when the step is over."""
    s.serials = expect.serial + 1  # (each wait is made with the next serial)
    while True:
        action = yield expect
        if isinstance(action, Foul):
            if not s.foul(action.seat):
                continue
            action = Remove(action.seat)  # sport fouls: the 4th removes by itself (2.4.3)
        elif isinstance(action, TechFoul):
            if not s.tech_foul(action.seat):
                continue
            action = Remove(action.seat)  # 9.6.2: the 2nd technical foul removes (2.4.3)
        if isinstance(action, Remove):
            s.remove(action.seat)
            expect = reseat(s, expect)
        if take(s, action, expect):
            return action


def reseat(s: State, expect: Expect) -> Expect:
    """``expect`` with the seats whose answer it takes now, and whether the table waits for
    a human's answer, as the table stands (a wait is made, and a removal changes them)."""
    living = tuple(s.living)
    match expect:
        case w.Hunt():
            return replace(expect, seats=s.black_at_table())
        case w.NightAct(role=role):
            seats = s.actors(role)
            return replace(expect, seats=seats, waits_for_human=bool(seats),
                           deciders=s.deciders(role))
        case w.Floor():
            return replace(expect, seats=tuple(x for x in living if x not in s.today.spoken))
        case w.Vote() | w.Crash() | w.PutUp() | w.Extra():
            return replace(expect, seats=living)
        case w.Pause() | w.Deal() | w.Speech() | w.Over():
            return expect
        case _:
            assert_never(expect)


def timer(s: State, t: Timer) -> Flow:
    """A step that only waits for its timer."""
    s.events.append(ev.TimerStarted(t))
    if t.name == "dealing":  # 2.1.1: every seat sees its card
        return wait(s, w.Deal(t, tuple(range(1, s.seats + 1)), False, s.serials), is_time_up)
    return wait(s, w.Pause(t, (), False, s.serials), is_time_up)
