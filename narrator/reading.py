"""Reading the files users hand the narrator (table scripts, journals, session folders) without
trusting them.

- :func:`read_text` reads regular files only (``/dev/zero`` would never end, a FIFO would wait
  for a writer) up to a size limit, as UTF-8, each failure a one-line NarratorError;
- :func:`lines` splits on ``\\n`` only: ``str.splitlines`` also splits on U+2028, U+2029,
  U+0085 and a few control characters, which may stand inside a JSON string, and would make
  every line number after them wrong;
- :func:`loads` is ``json.loads`` that refuses what Python's reader accepts but a file from a
  table never holds: a key given twice (the last would win silently), NaN and infinities,
  integers of thousands of digits, nesting deeper than any format here needs. Each refusal is
  a :class:`BadJSON` with a short reason, for the caller to put after ``FILE:LINE:``.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError

#: bigger than any table script, journal or session file of a long game
MAX_BYTES = 64 * 1024 * 1024
#: the formats nest four levels at most; this leaves room and stays far from recursion limits
MAX_DEPTH = 32
#: digits of an integer: seats, counts, seeds and times all fit in a 64-bit number
MAX_DIGITS = 19


class BadJSON(ValueError):
    """A line that is not JSON, or JSON the narrator does not take; ``str`` says what it is,
    to follow "got": ``bad JSON (…)``, ``the key "5" twice``, ``a number of 5000 digits``."""


def read_text(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> str:
    """The text of the regular file ``path`` (``what`` names it in errors: "the journal")."""
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens without waiting
    except OSError as e:
        raise NarratorError(f"{name}: cannot read {what} ({e.strerror or e})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NarratorError(f"{name}: cannot read {what} (not a regular file)")
        if info.st_size > limit:
            raise NarratorError(f"{name}: cannot read {what} (too large: {info.st_size} bytes; "
                                f"at most {limit})")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise NarratorError(f"{name}: cannot read {what} ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise NarratorError(f"{name}: cannot read {what} (too large)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise NarratorError(f"{name}:{line}: cannot read {what} (not UTF-8)") from None


def lines(text: str) -> list[str]:
    """``text`` split at ``\\n`` (a ``\\r`` before it goes too); see the module docstring."""
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [line[:-1] if line.endswith("\r") else line for line in out]


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise BadJSON(f"the key {json.dumps(key, ensure_ascii=False)} twice")
        obj[key] = value
    return obj


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadJSON(f"a number of {len(text.lstrip('-'))} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"a number out of range ({text[:20]})")
    return value


def _constant(text: str) -> float:
    raise BadJSON(f"{text}, which JSON does not allow")


def _too_deep(text: str) -> bool:
    """True when brackets outside strings nest deeper than :data:`MAX_DEPTH`."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def loads(text: str) -> Any:
    """Parse one JSON text strictly (module docstring); :class:`BadJSON` with the reason."""
    if _too_deep(text):
        raise BadJSON(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_int=_int, parse_float=_float,
                          parse_constant=_constant)
    except BadJSON:
        raise
    except json.JSONDecodeError as e:
        raise BadJSON(f"bad JSON ({e.msg})") from None
    except (ValueError, RecursionError) as e:  # what json itself may still raise
        raise BadJSON(f"bad JSON ({type(e).__name__})") from None
