"""The intake: what an input event asks of the game, read once and the same way in every mode.

:func:`read_input` turns an :class:`~narrator.inputs.Input` into what it asks for: engine
actions (an entry is read against what the game waits for now), whether it answers the
operator's step, whether it stops the game or takes the last action back. A table script's
lines, the operator's entries (terminal, keys, console pads), a journal's actions and the
phrases heard in a speech all come through here; a mode decides only what a refusal does (a
script stops at its line, a live table logs it and goes on).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from narrator.engine import Action, BestMove, Game, Malformed, parse_action
from narrator.engine.entries import OperatorInput, OperatorLineError, parse_operator_line
from narrator.engine.errors import EngineError
from narrator.errors import NarratorError
from narrator.grammar import Intent
from narrator.host.hearing import action_for
from narrator.host.host import Host
from narrator.inputs import ACTION, ENTRY, HEARD, STOP, UNDO, Input, InputError


@dataclass(frozen=True)
class Reading:
    """What one input asks for."""

    actions: tuple[Action, ...] = ()
    done: bool = False  # answers the operator's current step (a night step, a vote)
    quit: bool = False
    undo: bool = False


class _Quoted(NarratorError):
    """An error of an operator's line: the line quoted, then why (``why``'s own words)."""

    line: str
    why: NarratorError

    def words(self, lang: str) -> str:
        if lang not in ("ru", "uk"):
            return str(self)
        return f"«{self.line}»: {self.why.words(lang)}"


class EntryError(_Quoted):
    """An operator's line that means nothing now."""

    def __init__(self, line: str, why: NarratorError) -> None:
        self.line, self.why = line.strip(), why
        super().__init__(f"{self.line!r}: {why}")


class EntryRefused(_Quoted, EngineError):
    """An operator's line whose action the game refuses, with the engine's reason (an engine
    error still: a script's replay names its line)."""

    def __init__(self, line: str, why: EngineError) -> None:
        self.line, self.why = line.strip(), why
        EngineError.__init__(self, f"{self.line!r}: {why}", why.reason)


def parse_entry(line: str, game: Game) -> OperatorInput:
    """An operator's line read against ``game``; EntryError (the line quoted) when it means
    nothing now."""
    try:
        return parse_operator_line(line, game)
    except OperatorLineError as e:
        raise EntryError(line, e) from None


@contextmanager
def refusals_of(line: str) -> Iterator[None]:
    """The game's refusal of a line's action, as the line's (EntryRefused)."""
    try:
        yield
    except EngineError as e:
        raise EntryRefused(line, e) from None


def heard_actions(intents: Iterable[Intent]) -> tuple[Action, ...]:
    """The engine actions of a phrase's intents (refused ones as Malformed, 2.3.1)."""
    return tuple(a for a in map(action_for, intents) if a is not None)


def as_heard(action: Action, game: Game) -> Action:
    """A heard best move the engine refuses (two seats, a seat named twice, the speaker's own,
    not the first victim's last word: 8.17) is a refused phrase, recorded with the engine's
    reason as a refused nomination is (2.3.1), not an input error."""
    if isinstance(action, BestMove):
        reason = game.refusal(action)
        if reason is not None:
            return Malformed("best_move", None, reason)
    return action


def read_input(event: Input, game: Game,
               parse: Callable[[str], list[Intent]] | None = None) -> Reading:
    """What ``event`` asks of ``game`` now; ``parse`` reads a heard phrase. NarratorError when
    it means nothing now (the message quotes it)."""
    kind = event.type
    if kind == ACTION:
        return Reading((parse_action(str(event.get("action"))),))
    if kind == ENTRY:
        got = parse_entry(str(event.get("text")), game)
        return Reading(got.actions, got.done, got.quit)
    if kind == HEARD:
        if parse is None:
            raise InputError("a heard phrase, but nothing here reads speech")
        return Reading(heard_actions(parse(str(event.get("text")))))
    if kind == UNDO:
        return Reading(undo=True)
    if kind == STOP:
        return Reading(quit=True)
    raise InputError(f"a {kind} input is not one the game takes")


def apply_input(host: Host, event: Input,
                parse: Callable[[str], list[Intent]] | None = None) -> Reading:
    """Read ``event`` and apply it through ``host``; the first refusal raises. A heard
    phrase's actions are taken while its speech lasts («Спасибо» ends it)."""
    reading = read_input(event, host.game, parse)
    if reading.undo:
        host.undo()
    timer = host.game.expect.timer
    for action in reading.actions:
        if event.type == HEARD:
            if host.game.is_over or host.game.expect.timer is not timer:
                break
            action = as_heard(action, host.game)
        if event.type == ENTRY:
            with refusals_of(str(event.get("text"))):
                host.apply(action)
        else:
            host.apply(action)
    return reading
