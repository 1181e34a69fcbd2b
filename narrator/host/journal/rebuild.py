"""A journal read back: the game it holds, the time its running timer had left, the presses
that give the table its state, and the hostless operator's last entry.

The engine is deterministic: the same cards and the same actions give the same game, so the
game is rebuilt by applying the journal's actions in order, undone ones left out. The running
timer goes on from its mark and the journal's last line (the heartbeat keeps that line at
most a second old); the presses are kept apart, each at its place in the game, for the front
end that made them to read back (their actions are in the journal already).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import assert_never

from narrator.engine import Action, EngineError, Game
from narrator.engine import events as ev
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.engine.tuning import with_settings
from narrator.errors import NarratorError
from narrator.host.journal.header import JournalHeader, read_header
from narrator.host.journal.records import (
    LIMITS,
    Acted,
    Marked,
    Moment,
    Pressed,
    Record,
    Undone,
    read_records,
)
from narrator.inputs import ENTRY, Input
from narrator.reading import Containers, read_lines


@dataclass
class JournalContents:
    """What a journal holds, read (:func:`load_journal`)."""

    header: JournalHeader
    entries: list[tuple[float, Action]] = field(default_factory=list)
    path: str = "journal"
    #: the console's presses and the hostless operator's entries, in order
    inputs: list[Input] = field(default_factory=list)
    #: for each of :attr:`inputs`, how many entries came before it (its place in the game)
    input_at: list[int] = field(default_factory=list)
    #: the file line of each entry (for errors)
    lines: list[int] = field(default_factory=list)
    #: timer marks: (file line, timer name, started)
    marks: list[tuple[int, str, float]] = field(default_factory=list)
    #: the file line of the last undo (the current timer restarted there)
    undone_at: int = 0
    #: the time of the last line: the last moment the game is known to have been running
    #: (a resumed process writes on its own clock: the last line, not the largest time)
    last_t: float = 0.0
    first_t: float | None = None  # the time of its first timed line (the game's start)
    _timer_line: int = 0  # the line of the entry that started the running timer (game())

    def game(self) -> Game:
        """A game brought to the journal's last state (events of the replay discarded)."""
        rules = with_settings(find_rules(self.header.rules), **self.header.settings)
        rules = apply_options(rules, self.header.options, where="journal options")
        game = Game(rules, seats=self.header.seats, roles=self.header.roles,
                    names=self.header.names, dealt=self.header.dealt)
        started = 1 if _starts_timer(game.start()) else 0
        for line, (_, action) in zip(self.lines, self.entries, strict=True):
            try:
                events = game.apply(action)
            except EngineError as e:
                raise NarratorError(f"{self.path}:{line}: {e}") from None
            if _starts_timer(events):
                started = line
        self._timer_line = max(started, self.undone_at)
        return game

    def last_entry(self) -> tuple[int, Input] | None:
        """The hostless operator's last entry, and how many entries came before it."""
        for at, event in zip(reversed(self.input_at), reversed(self.inputs), strict=True):
            if event.type == ENTRY:
                return at, event
        return None

    def time_left(self, game: Game) -> float | None:
        """Seconds left on the running timer of ``game`` (from :meth:`game`) when the journal
        stopped: from the timer's mark, written after the input that started it, and the last
        line's time. None when there is no such mark (the timer then runs again in full)."""
        timer = game.expect.timer
        if timer is None:
            return None
        for line, name, started in reversed(self.marks):
            if line < self._timer_line:
                break
            if name == timer.name:
                return max(0.0, timer.seconds - max(0.0, self.last_t - started))
        return None

    def _add_record(self, record: Record) -> None:
        """One more line of the journal, in the file's order."""
        if self.first_t is None:
            self.first_t = record.t
        match record:
            case Acted(number=number, t=t, action=action):
                self.entries.append((t, action))
                self.lines.append(number)
            case Undone(number=number):
                if self.entries:  # (an undo with nothing to take back changes nothing)
                    self.entries.pop()
                    self.lines.pop()
                self.undone_at = number
            case Marked(number=number, name=name, started=started):
                self.marks.append((number, name, started))
            case Pressed(event=event):  # its actions follow on their own lines
                self.inputs.append(event)
                self.input_at.append(len(self.entries))
            case Moment():
                pass  # where the host quit, a heartbeat: only its time counts (the last line's)
            case _:  # (a new kind of record is named here by mypy)
                assert_never(record)
        self.last_t = record.t


def _starts_timer(events: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.TimerStarted) for e in events)


def load_journal(path: str | Path) -> JournalContents:
    """Read a journal: one line naming the file and the line for anything damaged.

    A torn last line (no newline: the process died mid-write, the input was never acted on)
    is left out; :class:`~narrator.host.journal.Journal` cuts it away when the journal is
    opened to go on. A last line that is whole but not a journal entry is an error like any
    other.
    """
    name = str(path)
    rows = read_lines(path, LIMITS, torn_tail=True)
    held = Containers(LIMITS)  # the header's objects count with the lines'
    contents = JournalContents(read_header(name, next(rows, None), held), path=name)
    counts: list[int] = []  # the number of entries after each line read
    pressed_at: list[int] = []  # for each press, the index in ``counts`` of its line
    for record in read_records(name, rows, held):
        if isinstance(record, Pressed):
            pressed_at.append(len(counts))
        contents._add_record(record)
        counts.append(len(contents.entries))
    contents.input_at = _places(contents.input_at, pressed_at, counts, len(contents.entries))
    return contents


def _places(input_at: list[int], pressed_at: list[int], counts: list[int],
            total: int) -> list[int]:
    """Each press's place in the game, the undos after it counted.

    A press before an entry that was undone later stands where the game stood after the
    undo: its place is the fewest entries the game had at any line from its own on.
    ``input_at`` are the entries before each press as it was read, ``pressed_at`` the index
    in ``counts`` of its line, ``counts`` the entries after each line, ``total`` at the end."""
    low = [0] * (len(counts) + 1)
    low[len(counts)] = total
    for i in range(len(counts) - 1, -1, -1):
        low[i] = min(counts[i], low[i + 1])
    return [min(at, low[i]) for at, i in zip(input_at, pressed_at, strict=True)]
