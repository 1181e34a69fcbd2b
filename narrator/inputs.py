"""The input vocabulary: every input the game takes is one frozen, timed, typed event.

Wyoming's idea: one event shape for every source. A decision heard through the microphone, an
operator's typed entry, a table-script line, a pad press on the console, a line of a recorded
session — each is an :class:`Input` with a ``type``, a time ``t`` (seconds on the game's
clock) and ``data`` (JSON values only), with a JSON round-trip. The journal and the session
recorder write these events; replay reads them back as a source of the same events.

This module is pure (no engine, no I/O): what each type means to the game is decided in the
host core.
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


class InputError(NarratorError):
    """A JSON object that is not an input event (the message names the field)."""


def _freeze(value: Any) -> Any:
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


@dataclass(frozen=True)
class Input:
    """One input event: ``type`` names it, ``t`` is when it happened, ``data`` what it holds."""

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

    def get(self, key: str, default: Any = None) -> Any:
        """A field of ``data`` (lists come back as tuples, objects as read-only mappings)."""
        return self.data.get(key, default)

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
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            raise InputError(f"not JSON ({e.__class__.__name__})") from None
        return cls.from_json(obj)
