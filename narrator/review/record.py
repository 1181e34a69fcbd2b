"""What a review reads: a session recorded by ``narrator play --record`` or a game journal,
as the game's deal, its inputs in order and, for a session, its microphone on the same clock.

Both are read by the readers the replay and the resume use (their limits, their one-line
errors); nothing is written back.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from narrator.audio.session import MIC, SessionReader
from narrator.engine import Game
from narrator.errors import NarratorError
from narrator.host.journal.header import read_header
from narrator.host.journal.rebuild import JournalContents
from narrator.host.journal.records import LIMITS, Acted, Pressed, Undone, read_records
from narrator.inputs import ACTION, ENTRY, HEARD, OPERATOR, PAD, STOP, TABLE, UNDO, Input
from narrator.reading import Containers, read_lines
from narrator.replay.session import iter_inputs, table_game

#: the inputs of a session that the timeline shows (the echo gate's chunks, the timers'
#: marks and delays are the replay's, not a judge's)
SHOWN = (HEARD, ENTRY, PAD, OPERATOR, ACTION, UNDO, STOP)


@dataclass
class Record:
    """A game's record: ``game`` as dealt (a resumed session's: where its recording began),
    ``inputs`` in order, ``origin`` the time shown as 0:00 (the start of ``mic``, the
    session's audio; a journal's first line)."""

    path: Path
    game: Game
    lang: str
    inputs: list[Input]
    origin: float
    mic: Path | None = None
    #: actions the game had taken before the recording began (a resumed session)
    before: int = 0


def load_record(path: str | Path) -> Record:
    """A session folder or a journal; NarratorError in one line for anything else."""
    where = Path(path)
    if where.is_dir():
        return _session(where)
    if not where.is_file():
        raise NarratorError(f"{where}: no such session folder or journal")
    return _journal(where)


def _session(folder: Path) -> Record:
    reader = SessionReader(folder)
    if not reader.inputs_path.is_file():
        raise NarratorError(f"{folder}: not a session recorded by narrator play "
                            f"(no {reader.inputs_path.name})")
    inputs = iter_inputs(reader.inputs_path)
    table = next(inputs, None)
    if table is None or table.type != TABLE:
        raise NarratorError(f"{reader.inputs_path}:1: expected the table event of a session "
                            "recorded by narrator play")
    try:
        game = table_game(table)
    except (KeyError, ValueError, TypeError, AttributeError, NarratorError) as e:
        raise NarratorError(f"{reader.inputs_path}:1: not a table to review ({e})") from None
    shown = [e for e in inputs if e.type in SHOWN]
    return Record(folder, game, str(table.get("lang", "ru")), shown, reader.start,
                  folder / MIC, len(game.history))


def _journal(path: Path) -> Record:
    name = str(path)
    held = Containers(LIMITS)
    with contextlib.closing(read_lines(path, LIMITS, torn_tail=True)) as rows:
        header = read_header(name, next(rows, None), held)
        inputs: list[Input] = []
        first: float | None = None  # the game's start: its first timed line, a timer's mark
        for record in read_records(name, rows, held):
            first = record.t if first is None else first
            match record:
                case Acted(t=t, action=action):
                    inputs.append(Input(ACTION, t, {"action": str(action)}))
                case Undone(t=t):
                    inputs.append(Input(UNDO, t))
                case Pressed(event=event):
                    inputs.append(event)
                case _:
                    pass  # a timer's mark, a heartbeat: no moment of the game
    try:
        game = JournalContents(header, path=name).game().table_copy()
    except (KeyError, ValueError, TypeError) as e:
        raise NarratorError(f"{name}:1: not a journal to review ({e})") from None
    return Record(path, game, header.lang, inputs, 0.0 if first is None else first)
