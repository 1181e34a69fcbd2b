"""The journal's lines after its header, each read into a typed record.

Every line is one input event (:mod:`narrator.inputs`) of the kinds a journal holds, or a line
of version 1 (``{"t": …, "action": …}``, ``{"t": …, "undo": true}``). What a line means to the
rebuilt game is its record's kind:

- :class:`Acted` — an action the game took (its text form parsed: a line that is no action is
  an error of that line, not of the game rebuilt later);
- :class:`Undone` — the host took the last action back;
- :class:`Marked` — a timer started (a resume goes on with the time it had left);
- :class:`Pressed` — a press on the table console or an entry typed at the terminal, written
  before the actions it leads to (which follow on their own lines);
- :class:`Moment` — a heartbeat, or where the host quit: only its time counts.

Reading trusts nothing: a line that is not one of these is one line naming the file and the
line (``j.jsonl:7: not a journal entry (t: expected seconds, got 'x')``). A torn last line — no
newline ends it, and it is no JSON: the process died writing it — ends the reading instead,
since its input was never acted on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from narrator.engine import Action, EngineError, parse_action
from narrator.errors import NarratorError
from narrator.inputs import ACTION, BEAT, ENTRY, OPERATOR, PAD, STOP, TIMER, UNDO, Input, InputError
from narrator.reading import BadJSON, Containers, Limits, TextLine, loads

#: a journal's size: a long game's journal is some 300 lines and 15 KB, a few times that with
#: every pad press in it. A line may be as long as the file (the header holds the nicknames
#: as given, an entry the line as typed): what the narrator writes it reads back. Its lines
#: are flat objects but the header: the objects and arrays in all are about one a line, and
#: bounded so (a press is kept whole for the resume, whatever it holds).
LIMITS = Limits("the journal", max_bytes=4 * 1024 * 1024, max_lines=50_000,
                max_containers=100_000)
#: the input events a journal holds (any other type is a damaged line)
KINDS = (ACTION, UNDO, TIMER, STOP, PAD, OPERATOR, ENTRY, BEAT)
#: the inputs kept for the resume as they were pressed; their actions are lines of their own
PRESSES = (PAD, OPERATOR, ENTRY)


@dataclass(frozen=True, slots=True)
class Acted:
    """An action the game took, at ``t``, on the file's line ``number``."""

    number: int
    t: float
    action: Action


@dataclass(frozen=True, slots=True)
class Undone:
    """The host took the last action back (the running timer restarted here)."""

    number: int
    t: float


@dataclass(frozen=True, slots=True)
class Marked:
    """The timer ``name`` started at ``started`` (which may lie ahead of ``t``: the narrator
    was still speaking)."""

    number: int
    t: float
    name: str
    started: float


@dataclass(frozen=True, slots=True)
class Pressed:
    """A press (the console's pad or operator) or an entry (the terminal), as written."""

    number: int
    t: float
    event: Input


@dataclass(frozen=True, slots=True)
class Moment:
    """A heartbeat or where the host quit: the game was running at ``t``, nothing more."""

    number: int
    t: float


Record = Acted | Undone | Marked | Pressed | Moment


def read_records(name: str, rows: Iterable[TextLine], held: Containers) -> Iterator[Record]:
    """The records of ``rows``, the lines after the header of the journal ``name``, their
    JSON objects counted in ``held``; NarratorError in one line naming the file and the line
    for a line that is no record. Blank lines are passed over; a torn last line ends them."""
    for number, raw, whole in rows:
        if not raw.strip():
            continue
        try:
            obj = loads(raw)
        except BadJSON as e:
            if not whole:
                return  # a torn last line: the input was never acted on
            raise NarratorError(f"{name}:{number}: not a journal entry ({e})") from None
        try:
            held.take(raw)
        except BadJSON as e:
            raise NarratorError(f"{name}:{number}: cannot read the journal ({e})") from None
        yield read_record(name, number, obj)


def read_record(name: str, number: int, obj: Any) -> Record:
    """The record of ``obj``, the JSON of the line ``number`` of the journal ``name``."""
    try:
        return _record_of(number, obj)
    except (KeyError, ValueError, TypeError, InputError) as e:
        why = f"no {e}" if isinstance(e, KeyError) else str(e)
        raise NarratorError(f"{name}:{number}: not a journal entry ({why})") from None
    except EngineError as e:  # an action's text form that is no action
        raise NarratorError(f"{name}:{number}: {e}") from None


def _record_of(number: int, obj: Any) -> Record:
    """The record of one line: ValueError, KeyError, InputError or EngineError for a line
    that is none (the caller names the file and the line)."""
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    if "type" not in obj:
        return _version_1(number, obj)
    event = Input.from_json(obj)  # the fields each type must have, checked
    kind, t = event.type, event.t
    if kind not in KINDS:
        raise ValueError(f"a {kind} input, which a journal does not hold")
    if kind == ACTION:
        return Acted(number, t, parse_action(str(event.data["action"])))
    if kind == UNDO:
        return Undone(number, t)
    if kind == TIMER:
        return Marked(number, t, str(event.data["name"]), float(event.data["started"]))
    if kind in PRESSES:
        return Pressed(number, t, event)
    return Moment(number, t)  # STOP, BEAT


def _version_1(number: int, obj: dict[str, Any]) -> Acted | Undone:
    """A line of version 1: ``{"t", "action"}`` or ``{"t", "undo": true}``."""
    t = obj["t"]
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise ValueError(f"t: expected seconds, got {t!r}")
    if obj.get("undo") is True:
        return Undone(number, float(t))
    if not isinstance(obj.get("action"), str):
        raise ValueError(f"action: expected text, got {obj.get('action')!r}")
    return Acted(number, float(t), parse_action(obj["action"]))
