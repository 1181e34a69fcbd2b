"""Reading the files users hand the narrator (table scripts, journals, session folders) without
trusting them.

- :func:`read_text` reads regular files only (``/dev/zero`` would never end, a FIFO would wait
  for a writer) up to a size limit, as UTF-8, each failure a one-line NarratorError;
- :func:`read_lines` reads a file of lines the same way, one line at a time, within the
  :class:`Limits` of its format (bytes, lines, bytes of a line): the first line past a limit is
  a one-line error naming the file, the line and the limit, before the rest is read, so no
  input within its size limit costs more than a game's worth of memory;
- :class:`Containers` counts the JSON objects and arrays of a file's lines against its limit:
  what a line costs to read and keep is per object, not per byte;
- :func:`lines` splits on ``\\n`` only: ``str.splitlines`` also splits on U+2028, U+2029,
  U+0085 and a few control characters, which may stand inside a JSON string, and would make
  every line number after them wrong;
- :func:`loads` is ``json.loads`` that refuses what Python's reader accepts but a file from a
  table never holds: a key given twice (the last would win silently), NaN and infinities,
  integers of thousands of digits, nesting deeper than any format here needs. Each refusal is
  a :class:`BadJSON` with a short reason, for the caller to put after ``FILE:LINE:``;
- :func:`read_json` and :func:`read_toml` read a whole JSON or TOML file the same way: a
  regular file within a size limit, nesting, digits and dotted keys bounded *before* the
  parser sees the text (Python's parsers recurse, and refuse a long integer with a plain
  ``ValueError``), every refusal one line ``FILE: cannot read WHAT (reason)``;
- :func:`open_binary` opens a regular file within a size limit for a reader of its own
  (``wave``), checked on the descriptor it reads, so nothing is swapped in between.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import stat
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO, NamedTuple

from narrator.errors import NarratorError

#: bigger than any table script, journal or session file of a long game
MAX_BYTES = 64 * 1024 * 1024
#: the formats nest four levels at most; this leaves room and stays far from recursion limits
MAX_DEPTH = 32
#: digits of an integer: seats, counts, seeds and times all fit in a 64-bit number
MAX_DIGITS = 19


@dataclass(frozen=True)
class Limits:
    """How much of a file format a reader takes: far beyond what a real game writes, and low
    enough that reading (and acting on) a file at every limit stays within seconds and a few
    hundred MB. ``what`` names the file in messages ("the table script")."""

    what: str
    max_bytes: int = MAX_BYTES
    max_lines: int = 1_000_000
    max_line: int = MAX_BYTES  # bytes of one line, its newline left out
    #: JSON objects and arrays in all the file's lines (:class:`Containers`); None: any
    max_containers: int | None = None


class Containers:
    """The JSON objects and arrays a file of ``limits`` holds in all, counted line by line.

    Each one costs a reader a Python object or two, a microsecond to read and more to keep,
    whatever its size: ``[{},{},…]`` is a hundred thousand of them in 300 KB. A file of input
    events holds about one a line; the count bounds what a file within its size may cost."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.count = 0

    def take(self, text: str) -> None:
        """Count those of ``text``, a line that :func:`loads` has read; :class:`BadJSON` once
        the file holds more than the limit."""
        most = self.limits.max_containers
        if most is None:
            return
        self.count += containers(text)
        if self.count > most:
            raise BadJSON(f"more than {most:,} JSON objects and arrays in all")


#: a JSON string, quotes and escapes included (linear on valid JSON: every quote is paired)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def containers(text: str) -> int:
    """The objects and arrays of the valid JSON ``text`` (brackets inside strings left out)."""
    rough = text.count("{") + text.count("[")
    if rough <= 1:  # the usual line: one flat object
        return rough
    bare = _STRING.sub("", text)
    return bare.count("{") + bare.count("[")


class TextLine(NamedTuple):
    """One line of a file: its number (from 1), its text (without ``\\n`` or ``\\r\\n``) and
    whether a newline ended it (False only for the file's last line: a journal's torn tail)."""

    number: int
    text: str
    whole: bool


def open_regular(name: str, what: str, limit: int) -> int:
    """A descriptor of the regular file ``name`` of at most ``limit`` bytes (NarratorError)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens without waiting
    except OSError as e:
        raise NarratorError(f"{name}: cannot read {what} ({e.strerror or e})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NarratorError(f"{name}: cannot read {what} (not a regular file)")
        if info.st_size > limit:
            raise NarratorError(f"{name}: cannot read {what} (too large: {info.st_size:,} "
                                f"bytes; at most {limit:,})")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_lines(path: str | Path, limits: Limits, *,
               torn_tail: bool = False) -> Generator[TextLine, None, None]:
    """The lines of the regular file ``path``, read one at a time within ``limits``.

    Each failure is a one-line NarratorError, raised when the reader reaches it: not a regular
    file, too large, a line that is not UTF-8 (``FILE:LINE:``), more lines than
    ``limits.max_lines`` or a line longer than ``limits.max_line`` (``FILE:LINE:``, naming the
    limit). With ``torn_tail``, an over-long last line that no newline ends is no error but a
    torn tail (a process died writing it), given as an empty line that is not whole.
    """
    name = str(path)
    fd = open_regular(name, limits.what, limits.max_bytes)
    try:
        with os.fdopen(fd, "rb", closefd=False) as f:
            yield from lines_of(f, name, limits, torn_tail=torn_tail)
    except OSError as e:
        raise NarratorError(f"{name}: cannot read {limits.what} ({e.strerror or e})") from None
    finally:
        os.close(fd)


def text_lines(text: str, name: str, limits: Limits) -> Generator[TextLine, None, None]:
    """The lines of ``text`` (a file's contents already read) within ``limits``, as
    :func:`read_lines` gives them."""
    return lines_of(io.BytesIO(text.encode("utf-8", "surrogatepass")), name, limits)


def lines_of(f: IO[bytes], name: str, limits: Limits, *,
             torn_tail: bool = False) -> Generator[TextLine, None, None]:
    """The lines of the binary stream ``f``, checked as :func:`read_lines` says."""
    what = limits.what
    total = 0
    number = 0
    while True:
        raw = f.readline(limits.max_line + 2)  # room for "\r\n" after a line at the limit
        if not raw:
            return
        number += 1
        total += len(raw)
        if number > limits.max_lines:
            raise NarratorError(f"{name}:{number}: cannot read {what} (too many lines: at most "
                                f"{limits.max_lines:,})")
        if total > limits.max_bytes:  # a file that grew while it was read
            raise NarratorError(f"{name}:{number}: cannot read {what} (too large: at most "
                                f"{limits.max_bytes:,} bytes)")
        whole = raw.endswith(b"\n")
        body = raw[:-1] if whole else raw
        if body.endswith(b"\r"):
            body = body[:-1]
        if len(body) > limits.max_line:
            if torn_tail and _torn_to_the_end(f):
                yield TextLine(number, "", False)
                return
            raise NarratorError(f"{name}:{number}: cannot read {what} (a line too long: at "
                                f"most {limits.max_line:,} bytes)")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise NarratorError(f"{name}:{number}: cannot read {what} (not UTF-8)") from None
        yield TextLine(number, text, whole)


def _torn_to_the_end(f: IO[bytes]) -> bool:
    """Read on to the end of the current line: True when the file ends before any newline."""
    while True:
        chunk = f.readline(1 << 16)
        if not chunk:
            return True
        if chunk.endswith(b"\n"):
            return False


class BadJSON(ValueError):
    """A line that is not JSON, or JSON the narrator does not take; ``str`` says what it is,
    to follow "got": ``bad JSON (…)``, ``the key "5" twice``, ``a number of 5000 digits``.
    ``line`` is the line of the text it is on, when the parser says so."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.line = line


def read_text(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> str:
    """The text of the regular file ``path`` (``what`` names it in errors: "the journal")."""
    name = str(path)
    fd = open_regular(name, what, limit)
    try:
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise NarratorError(f"{name}: cannot read {what} ({e.strerror or e})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise NarratorError(f"{name}: cannot read {what} (too large: at most {limit:,} bytes)")
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


#: one decoder for every line (``json.loads`` with hooks builds a new one per call)
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_int=_int, parse_float=_float,
                            parse_constant=_constant)


def loads(text: str) -> Any:
    """Parse one JSON text strictly (module docstring); :class:`BadJSON` with the reason."""
    if _too_deep(text):
        raise BadJSON(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        return _DECODER.decode(text)
    except BadJSON:
        raise
    except json.JSONDecodeError as e:
        raise BadJSON(f"bad JSON ({e.msg})", e.lineno) from None
    except (ValueError, RecursionError) as e:  # what json itself may still raise
        raise BadJSON(f"bad JSON ({type(e).__name__})") from None


def open_binary(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> BinaryIO:
    """The regular file ``path`` of at most ``limit`` bytes, open for reading in binary (the
    caller closes it); a one-line NarratorError as :func:`read_text` gives."""
    fd = open_regular(str(path), what, limit)
    try:
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_json(path: str | Path, what: str, *, limit: int = MAX_BYTES) -> Any:
    """The JSON of the regular file ``path``, read strictly (:func:`loads`: nesting, digits,
    keys twice); each refusal one line ``FILE[:LINE]: cannot read WHAT (reason)``. A leading
    byte-order mark (a Windows editor's) is taken as none."""
    name = str(path)
    text = read_text(path, what, limit=limit).removeprefix("\ufeff")
    try:
        return loads(text)
    except BadJSON as e:
        where = name if e.line is None else f"{name}:{e.line}"
        raise NarratorError(f"{where}: cannot read {what} ({e})") from None


#: a club's TOML file is a few dozen lines; this is thousands of times that
MAX_TOML_BYTES = 1024 * 1024
#: tables and arrays in one another, and the parts of a dotted key (``a.b.c``): a club's file
#: has two or three
MAX_TOML_DEPTH = 32
#: digits in a row outside strings: any number a club's file holds has far fewer
MAX_TOML_DIGITS = 32
_LONG_RUN = re.compile(f"[0-9_]{{{MAX_TOML_DIGITS + 1}}}")


def _toml_fault(text: str) -> str | None:
    """Why ``text`` is refused before ``tomllib`` reads it, or None: brackets (``[`` ``{``)
    nested deeper than :data:`MAX_TOML_DEPTH` (``tomllib`` recurses on them), a dotted key of
    more parts (each part costs it a walk of the key so far: 20,000 parts take seconds) or a
    run of more than :data:`MAX_TOML_DIGITS` digits (an integer past Python's limit is a plain
    ``ValueError``). Strings and comments are skipped as TOML writes them."""
    rough = text.count("[") + text.count("{")
    if (rough <= MAX_TOML_DEPTH and text.count(".") <= MAX_TOML_DEPTH
            and not _LONG_RUN.search(text)):
        return None
    depth = dots = digits = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            i = _past_string(text, i)
            digits = 0
            continue
        if ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch.isdigit() or (ch == "_" and digits):
            digits += 1
            if digits > MAX_TOML_DIGITS:
                return f"a number of more than {MAX_TOML_DIGITS} digits"
        else:
            digits = 0
        if ch in "[{":
            depth += 1
            dots = 0
            if depth > MAX_TOML_DEPTH:
                return f"tables or arrays nested deeper than {MAX_TOML_DEPTH} levels"
        elif ch in "]}":
            depth = max(0, depth - 1)
            dots = 0
        elif ch == ".":
            dots += 1
            if dots >= MAX_TOML_DEPTH:
                return f"a dotted key of more than {MAX_TOML_DEPTH} parts"
        elif ch in "\n=,":
            dots = 0
        i += 1
    return None


def _past_string(text: str, i: int) -> int:
    """The index just past the TOML string that starts at ``text[i]`` (the end of the text
    for one that never closes: the parser will say so)."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        end = text.find(quote * 3, i + 3)
        while end >= 0 and quote == '"' and _escaped(text, end):
            end = text.find(quote * 3, end + 1)
        if end < 0:
            return len(text)
        end += 3
        while end < len(text) and text[end] == quote:  # up to two quotes end its content
            end += 1
        return end
    j = i + 1
    while j < len(text):
        ch = text[j]
        if ch == "\n":
            return j
        if ch == "\\" and quote == '"':
            j += 2
            continue
        if ch == quote:
            return j + 1
        j += 1
    return len(text)


def _escaped(text: str, at: int) -> bool:
    """True when an odd number of backslashes stands just before ``text[at]``."""
    k = at
    while k > 0 and text[k - 1] == "\\":
        k -= 1
    return (at - k) % 2 == 1


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"a number out of range ({text[:20]})")
    return value


def _toml_values(data: dict[str, Any]) -> str | None:
    """Why the parsed ``data`` is refused (an integer past 64 bits), or None; walked without
    recursion."""
    todo: list[Any] = [data]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
        elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 63:
            return "a number out of range"
    return None


def read_toml(path: str | Path, what: str, *, limit: int = MAX_TOML_BYTES) -> dict[str, Any]:
    """The TOML of the regular file ``path`` of at most ``limit`` bytes; each refusal one line
    ``FILE: cannot read WHAT (reason)`` (see :func:`_toml_fault`: nothing that would make the
    parser recurse past its limit or spend seconds reaches it). A leading byte-order mark is
    taken as none."""
    import tomllib  # (only the readers of TOML files pay for it)

    name = str(path)
    text = read_text(path, what, limit=limit).removeprefix("\ufeff")
    fault = _toml_fault(text)
    if fault is None:
        try:
            data = tomllib.loads(text, parse_float=_finite)
        except tomllib.TOMLDecodeError as e:
            fault = f"bad TOML: {e}"
        except BadJSON as e:
            fault = str(e)
        except (ValueError, RecursionError) as e:  # what the parser may still raise
            fault = f"bad TOML ({type(e).__name__})"
        else:
            fault = _toml_values(data)
    if fault is not None:
        raise NarratorError(f"{name}: cannot read {what} ({fault})")
    return data
