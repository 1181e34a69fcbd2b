"""The input vocabulary: every input the game takes is one frozen, timed, typed event.

Wyoming's idea: one event shape for every source. A decision heard through the microphone, an
operator's typed entry, a table-script line, a pad press on the console, a line of a recorded
session — each is an :class:`Input` with a ``type``, a time ``t`` (seconds on the game's
timeline) and ``data`` (JSON values only), with a JSON round-trip: ``{"type": …, "t": …,
**data}``. The journal and the session recorder write these events; a recorded session is read
back as a source of the same events.

The types, and what each holds (:data:`FIELDS`; a field marked ``?`` may be left out):

- ``heard`` — ``text``, ``early?``, ``revised?``: a phrase decided on in a speech (the
  microphone's decider; a table script's ``say``). ``early``: decided on stable partials;
  ``revised``: a Final that changed an early decision.
- ``entry`` — ``text``: an operator's entry as typed at play's terminal (``7``, ``3:7 5:7``,
  ``1 2 4``, ``f 6``, ``-``, ``q``); assist's keys send the same texts.
- ``action`` — ``action``: an engine action in its text form (``nominate 5``, ``hands 1 2``):
  a table script's line, a journal's entry.
- ``pad`` — ``seat``, ``do`` and the press's fields: a seat's press on the table console's pad
  (``do``: seen, shoot, check, act, vote, nominate, withdraw, end, floor, accuse, thumb, extra,
  best_move — the names the pages send; the console's presses module types each).
- ``operator`` — ``do`` and the press's fields: the console operator's press (``do``: skip,
  hands, foul, remove, undo).
- ``undo``: the host takes the last action back.
- ``stop`` — ``reason?``: the operator stops the game (``q``, the end of the input).
- ``table`` — ``rules``, ``seats``, ``roles``, ``dealt?``, ``lang?``, ``chunk_ms?``,
  ``history?``, ``settings?``, ``options?``, ``names?``: a recorded session's first line, the
  table as it was dealt (and what else was, the maniac's side; and the actions it resumed from),
  with the club's figures, options and nicknames.
- ``delay`` — ``seconds``: how long the narrator still spoke when a timer started (the timer
  starts when the narrator is quiet).
- ``timer`` — ``name``, ``started``: a timer of the game started at ``started`` (a journal's
  mark: a resumed game goes on with the time its running timer had left).
- ``gated`` — ``end``: the echo gate silenced the chunk from ``t`` to ``end`` (the narrator's
  own voice came back through the microphone).
- ``timer`` — ``name``, ``started``: a timer of the game started at ``started`` (written at
  ``t``; earlier when a resumed game continues a timer), so that a resumed game goes on with
  the time its running timer had left. Not an input the game takes.
- ``beat``: a journal's heartbeat, at most once a second while a timer runs: the game was
  still running at ``t`` (a resume after a kill in a quiet stretch counts the time left up to
  here). Not an input the game takes, nor part of its protocol.

This module is pure (no engine, no I/O): what each type means to the game is decided in the
host core (:mod:`narrator.host.intake`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from narrator.errors import NarratorError

#: the version written with recorded inputs; readers refuse other versions in one line
FORMAT_VERSION = 2

HEARD, ENTRY, ACTION, UNDO, STOP = "heard", "entry", "action", "undo", "stop"
PAD, OPERATOR = "pad", "operator"
TABLE, DELAY, GATED, TIMER = "table", "delay", "gated", "timer"
BEAT = "beat"

_NUMBER = (int, float)
#: type → {field: (JSON type, required)}; the table in the module's docstring, as data
FIELDS: Mapping[str, Mapping[str, tuple[type | tuple[type, ...], bool]]] = {
    HEARD: {"text": (str, True), "early": (bool, False), "revised": (bool, False)},
    ENTRY: {"text": (str, True)},
    ACTION: {"action": (str, True)},
    PAD: {"seat": (int, True), "do": (str, True)},
    OPERATOR: {"do": (str, True)},
    UNDO: {},
    STOP: {"reason": (str, False)},
    TABLE: {"rules": (str, True), "seats": (int, True), "roles": (Mapping, True),
            "dealt": (Mapping, False), "lang": (str, False), "chunk_ms": (int, False),
            "history": (tuple, False), "settings": (Mapping, False), "options": (Mapping, False),
            "names": (Mapping, False)},
    DELAY: {"seconds": (_NUMBER, True)},
    GATED: {"end": (_NUMBER, True)},
    TIMER: {"name": (str, True), "started": (_NUMBER, True)},
    BEAT: {},
}


class InputError(NarratorError):
    """A JSON object that is not an input event (the message names the field)."""


#: the JSON scalars, compared by exact type (``isinstance`` on the ABCs is what costs)
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _freeze(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    # a session has 10⁵ events: plain dicts and lists of scalars are copied in one step
    if kind is dict:
        return MappingProxyType({k if type(k) is str else str(k):
                                 v if type(v) in _SCALARS else _freeze(v)
                                 for k, v in value.items()})
    if kind is list or kind is tuple:
        return tuple([v if type(v) in _SCALARS else _freeze(v) for v in value])
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def _check_fields(kind: str, data: Mapping[str, Any]) -> None:
    fields = FIELDS.get(kind)
    if fields is None:
        raise InputError(f"unknown input type {kind!r} (known: {', '.join(FIELDS)})")
    for name, (expected, required) in fields.items():
        if name not in data:
            if required:
                raise InputError(f"{kind} input has no {name!r}")
            continue
        value = data[name]
        if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool):
            raise InputError(f"{kind} input: {name!r} must be "
                             f"{'a number' if expected is _NUMBER else _name(expected)}, "
                             f"got {value!r}")


def _name(expected: type | tuple[type, ...]) -> str:
    names = {str: "a string", int: "an integer", bool: "true or false", tuple: "a list"}
    if isinstance(expected, tuple):
        return " or ".join(names.get(t, t.__name__) for t in expected)
    return names.get(expected, "an object")


@dataclass(frozen=True, slots=True)
class Input:
    """One input event: ``type`` names it (one of :data:`FIELDS`), ``t`` is when it happened,
    ``data`` what it holds (checked against the type's fields)."""

    type: str
    t: float
    data: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.type or not isinstance(self.type, str):
            raise InputError(f"input type must be a non-empty string, got {self.type!r}")
        if not isinstance(self.t, int | float) or isinstance(self.t, bool) \
                or not math.isfinite(self.t):
            raise InputError(f"input time must be a finite number, got {self.t!r}")
        object.__setattr__(self, "t", float(self.t))
        object.__setattr__(self, "data", _freeze(self.data))
        _check_fields(self.type, self.data)

    def get(self, key: str, default: Any = None) -> Any:
        """A field of ``data`` (lists come back as tuples, objects as read-only mappings)."""
        return self.data.get(key, default)

    def at(self, t: float) -> Input:
        """The same event at another time (the loop stamps an entry when it takes it)."""
        return Input(self.type, t, self.data)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this event: ``{"type": …, "t": …, **data}``."""
        out: dict[str, Any] = {"type": self.type, "t": round(self.t, 6)}
        for k, v in self.data.items():
            out[k] = _thaw(v)
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Input:
        """Read an event written by :meth:`to_json`; InputError names the bad field."""
        if not isinstance(obj, dict):
            raise InputError(f"expected an input object, got {type(obj).__name__}")
        if "type" not in obj:
            raise InputError("input has no 'type'")
        if "t" not in obj:
            raise InputError("input has no 't'")
        data = {k: v for k, v in obj.items() if k not in ("type", "t")}
        return cls(obj["type"], obj["t"], data)

    def dumps(self) -> str:
        """One line of JSON (UTF-8 kept readable)."""
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def loads(cls, line: str) -> Input:
        """Read one line written by :meth:`dumps`; InputError names what is wrong."""
        try:
            obj = json.loads(line)
        # an integer past Python's digit limit is a plain ValueError, deep nesting recursion
        except (ValueError, RecursionError) as e:
            raise InputError(f"not JSON ({e.__class__.__name__})") from None
        return cls.from_json(obj)


def heard(t: float, text: str, *, early: bool = False, revised: bool = False) -> Input:
    """A phrase decided on in a speech."""
    return Input(HEARD, t, {"text": text, "early": early, "revised": revised})


def entry(t: float, text: str) -> Input:
    """An operator's entry, as typed."""
    return Input(ENTRY, t, {"text": text})


def action(t: float, text: str) -> Input:
    """An engine action in its text form (``str(action)``)."""
    return Input(ACTION, t, {"action": text})
