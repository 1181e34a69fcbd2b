"""Table scripts (``*.table.jsonl``, docs/table-script.md): reading and checking their shape.

What a line *means* for the game is checked later, by the replay against the engine; here
only its form: JSON, known keys, seat numbers in range.
"""

from __future__ import annotations

import itertools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.engine import Role
from narrator.engine.options import OptionError, apply_options, check_names
from narrator.engine.rules import Rules, find_rules
from narrator.errors import NarratorError, ScriptError
from narrator.reading import BadJSON, lines, loads, read_text
from narrator.typed import typed_number

HEADER_KEYS = {"rules", "seats", "roles", "seed", "lang", "names", "options"}
INPUT_KEYS = {"speech", "vote", "crash", "night", "foul", "remove", "best_move"}
NIGHT_KEYS = {"shots", "don", "sheriff"}
ROLE_NAMES = {"don": Role.DON, "mafia": Role.MAFIA, "sheriff": Role.SHERIFF}


@dataclass(frozen=True)
class ScriptLine:
    """One input line: its number in the file, its key and its value (and ``say`` for speeches)."""

    line: int
    key: str
    value: Any
    say: tuple[tuple[float, str], ...] | None = None  # None: a speech that ends at once


@dataclass
class TableScript:
    """A parsed table script."""

    path: str
    rules: Rules
    seats: int
    roles: dict[int, Role] | None
    seed: int | None
    lang: str
    inputs: list[ScriptLine] = field(default_factory=list)
    #: nicknames per seat (header ``names``)
    names: dict[int, str] = field(default_factory=dict)

    def error(self, line: int, message: str) -> ScriptError:
        return ScriptError(self.path, line, message)


def _shown(value: Any) -> str:
    """``value`` as JSON for a message: one short line, however long the value."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _names(keys: set[str]) -> str:
    """Keys for a message: plain when they are words, quoted (one line) when not."""
    shown = [k if re.fullmatch(r"[\w.-]{1,30}", k) else _shown(k) for k in sorted(keys)]
    return ", ".join(shown[:5]) + (", …" if len(shown) > 5 else "")


def _seat(script: TableScript, line: int, value: Any, what: str) -> int:
    if isinstance(value, str):  # a key of a JSON object: "5" (or "05"), never "²" or "①"
        number = typed_number(value)
        if number is None:
            raise script.error(line, f"{what}: expected a seat number, got {_shown(value)}")
        value = number
    if isinstance(value, bool) or not isinstance(value, int):
        raise script.error(line, f"{what}: expected a seat number, got {_shown(value)}")
    if not 1 <= value <= script.seats:
        raise script.error(line, f"{what}: seat {value} does not exist (seats 1..{script.seats})")
    return value


def _seats(script: TableScript, line: int, value: Any, what: str) -> list[int]:
    if not isinstance(value, list):
        value = [value]
    return [_seat(script, line, v, what) for v in value]


def load_table_script(path: str | Path) -> TableScript:
    """Read ``path``; raises :class:`ScriptError` (``FILE:LINE: …``) on anything malformed."""
    name = str(path)
    return parse_table_script(read_text(path, "the table script"), name)


def parse_table_script(text: str, name: str = "<script>") -> TableScript:
    """Parse the text of a table script; ``name`` is used in error messages."""
    rows: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(lines(text), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = loads(stripped)
        except BadJSON as e:
            raise ScriptError(name, number, f"expected a JSON object, got {e}") from None
        if not isinstance(obj, dict):
            raise ScriptError(name, number, f"expected a JSON object, got {stripped[:40]}")
        rows.append((number, obj))
    if not rows:
        raise ScriptError(name, 1, "expected a header line, got an empty script")
    header_line, header = rows[0]
    script = _header(name, header_line, header)
    for number, obj in rows[1:]:
        script.inputs.append(_input(script, number, obj))
    return script


def _header(name: str, line: int, header: dict[str, Any]) -> TableScript:
    unknown = set(header) - HEADER_KEYS
    if unknown:
        if unknown & INPUT_KEYS:
            raise ScriptError(name, line, f"expected the header first, got an input ({_shown(header)})")
        raise ScriptError(name, line, f"unknown header key(s): {_names(unknown)}")
    rules_name = header.get("rules", "crime-time")
    if not isinstance(rules_name, str):
        raise ScriptError(name, line, f"rules: expected a name, got {_shown(rules_name)}")
    try:
        rules = find_rules(rules_name)
    except NarratorError as e:
        raise ScriptError(name, line, f"rules: {e}") from None
    seats = header.get("seats", rules.seats)
    if isinstance(seats, bool) or not isinstance(seats, int) or not 4 <= seats <= 15:
        raise ScriptError(name, line, f"seats: expected 4..15, got {_shown(seats)}")
    try:
        rules.check_seats(seats)
    except NarratorError as e:
        raise ScriptError(name, line, f"seats: {e}") from None
    seed = header.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ScriptError(name, line, f"seed: expected an integer, got {_shown(seed)}")
    lang = header.get("lang", "ru")
    if lang not in ("ru", "uk"):
        raise ScriptError(name, line, f"lang: expected ru or uk, got {_shown(lang)}")
    try:
        rules = apply_options(rules, header.get("options", {}), where="options")
    except OptionError as e:
        raise ScriptError(name, line, str(e)) from None
    try:
        names = check_names(header.get("names", {}), seats)
    except OptionError as e:
        raise ScriptError(name, line, f"names: {e}") from None
    script = TableScript(name, rules, seats, None, seed, lang, names=names)
    if "roles" in header:
        script.roles = _roles(script, line, header["roles"])
    return script


def _roles(script: TableScript, line: int, roles: Any) -> dict[int, Role]:
    if not isinstance(roles, dict):
        raise script.error(line, f"roles: expected an object, got {_shown(roles)}")
    dealt: dict[int, Role] = {}
    for role_name, value in roles.items():
        role = ROLE_NAMES.get(role_name)
        if role is None:
            raise script.error(line, f"roles: unknown role {_shown(role_name)} (don, mafia, sheriff)")
        for seat in _seats(script, line, value, f"roles.{role_name}"):
            if seat in dealt:
                raise script.error(line, f"roles: seat {seat} is both {dealt[seat].value} "
                                         f"and {role.value}")
            dealt[seat] = role
    try:
        script.rules.check_deal(script.seats, dealt)
    except NarratorError as e:
        raise script.error(line, f"roles: {e}") from None
    return dealt


def _input(script: TableScript, line: int, obj: dict[str, Any]) -> ScriptLine:
    keys = set(obj) & INPUT_KEYS
    if len(keys) != 1:
        what = "no known key" if not keys else f"several inputs ({', '.join(sorted(keys))})"
        raise script.error(line, f"expected one of {', '.join(sorted(INPUT_KEYS))}, got {what}")
    (key,) = keys
    extra = set(obj) - {key} - ({"say"} if key == "speech" else set())
    if extra:
        raise script.error(line, f"{key}: unknown key(s) {_names(extra)}")
    value = obj[key]
    if key in ("speech", "foul", "remove"):
        seat = _seat(script, line, value, key)
        say = _say(script, line, obj["say"]) if "say" in obj else None
        return ScriptLine(line, key, seat, say)
    if key == "vote":
        if not isinstance(value, dict):
            raise script.error(line, f"vote: expected {{candidate: [seats]}}, got {_shown(value)}")
        votes: dict[int, list[int]] = {}
        for c, v in value.items():
            seat = _seat(script, line, c, "vote candidate")
            if seat in votes:  # "5" and "05": one candidate twice
                raise script.error(line, f"vote: candidate {seat} named twice")
            votes[seat] = _seats(script, line, v, f"vote.{c}")
        return ScriptLine(line, key, votes)
    if key == "crash":
        return ScriptLine(line, key, _seats(script, line, value, "crash"))
    if key == "best_move":
        if not script.rules.best_move:
            raise script.error(line, "best_move: expected the best_move option in the header, "
                                     "got a best move without it")
        seats = _seats(script, line, value, "best_move")
        if len(seats) != 3 or len(set(seats)) != 3:
            raise script.error(line, f"best_move: expected three different seats, got "
                                     f"{_shown(value)}")
        return ScriptLine(line, key, seats)
    return ScriptLine(line, key, _night(script, line, value))


def _say(script: TableScript, line: int, say: Any) -> tuple[tuple[float, str], ...]:
    if not isinstance(say, list):
        raise script.error(line, f"say: expected [[seconds, text], …], got {_shown(say)}")
    out: list[tuple[float, str]] = []
    for item in say:
        ok = (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)
              and isinstance(item[0], int | float) and not isinstance(item[0], bool)
              and item[0] >= 0)
        if not ok:
            raise script.error(line, f"say: expected [seconds, text], got {_shown(item)}")
        out.append((float(item[0]), item[1]))
    if any(b[0] < a[0] for a, b in itertools.pairwise(out)):
        raise script.error(line, "say: expected times in order, got them out of order")
    return tuple(out)


def _night(script: TableScript, line: int, night: Any) -> dict[str, Any]:
    if not isinstance(night, dict):
        raise script.error(line, f"night: expected an object, got {_shown(night)}")
    extra = set(night) - NIGHT_KEYS
    if extra:
        raise script.error(line, f"night: unknown key(s) {_names(extra)} "
                                 f"(this ruleset takes {', '.join(sorted(NIGHT_KEYS))})")
    shots_raw = night.get("shots", {})
    if not isinstance(shots_raw, dict):
        raise script.error(line, f"night.shots: expected {{shooter: target}}, got "
                                 f"{_shown(shots_raw)}")
    shots = {_seat(script, line, s, "night.shots shooter"): _seats(script, line, t, "night.shots")
             for s, t in shots_raw.items()}
    out: dict[str, Any] = {"shots": shots}
    for who in ("don", "sheriff"):
        value = night.get(who)
        out[who] = None if value is None else _seat(script, line, value, f"night.{who}")
    return out
