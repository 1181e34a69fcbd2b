"""Table scripts (``*.table.jsonl``, docs/table-script.md): reading and checking their shape.

What a line *means* for the game is checked later, by the replay against the engine; here
only its form: JSON, known keys, seat numbers in range.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.engine import Role
from narrator.engine.rules import Rules, find_rules
from narrator.errors import NarratorError, ScriptError

HEADER_KEYS = {"rules", "seats", "roles", "seed", "lang"}
INPUT_KEYS = {"speech", "vote", "crash", "night", "foul", "remove"}
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

    def error(self, line: int, message: str) -> ScriptError:
        return ScriptError(self.path, line, message)


def _seat(script: TableScript, line: int, value: Any, what: str) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise script.error(line, f"{what}: expected a seat number, got {json.dumps(value)}")
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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise NarratorError(f"{name}: cannot read the table script ({e.__class__.__name__})") from e
    return parse_table_script(text, name)


def parse_table_script(text: str, name: str = "<script>") -> TableScript:
    """Parse the text of a table script; ``name`` is used in error messages."""
    rows: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as e:
            raise ScriptError(name, number, f"expected a JSON object, got bad JSON ({e.msg})") from None
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
            raise ScriptError(name, line, f"expected the header first, got an input ({header})")
        raise ScriptError(name, line, f"unknown header key(s): {', '.join(sorted(unknown))}")
    rules_name = header.get("rules", "crime-time")
    if not isinstance(rules_name, str):
        raise ScriptError(name, line, f"rules: expected a name, got {json.dumps(rules_name)}")
    try:
        rules = find_rules(rules_name)
    except NarratorError as e:
        raise ScriptError(name, line, f"rules: {e}") from None
    seats = header.get("seats", rules.seats)
    if isinstance(seats, bool) or not isinstance(seats, int) or not 4 <= seats <= 15:
        raise ScriptError(name, line, f"seats: expected 4..15, got {json.dumps(seats)}")
    seed = header.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ScriptError(name, line, f"seed: expected an integer, got {json.dumps(seed)}")
    lang = header.get("lang", "ru")
    if lang not in ("ru", "uk"):
        raise ScriptError(name, line, f"lang: expected ru or uk, got {json.dumps(lang)}")
    script = TableScript(name, rules, seats, None, seed, lang)
    if "roles" in header:
        script.roles = _roles(script, line, header["roles"])
    return script


def _roles(script: TableScript, line: int, roles: Any) -> dict[int, Role]:
    if not isinstance(roles, dict):
        raise script.error(line, f"roles: expected an object, got {json.dumps(roles)}")
    dealt: dict[int, Role] = {}
    for role_name, value in roles.items():
        role = ROLE_NAMES.get(role_name)
        if role is None:
            raise script.error(line, f"roles: unknown role {role_name!r} (don, mafia, sheriff)")
        for seat in _seats(script, line, value, f"roles.{role_name}"):
            if seat in dealt:
                raise script.error(line, f"roles: seat {seat} is both {dealt[seat].value} "
                                         f"and {role.value}")
            dealt[seat] = role
    for role, count in script.rules.roles.items():
        have = sum(1 for r in dealt.values() if r is role)
        if have != count:
            raise script.error(line, f"roles: expected {count} {role.value} for "
                                     f"{script.rules.name}, got {have}")
    return dealt


def _input(script: TableScript, line: int, obj: dict[str, Any]) -> ScriptLine:
    keys = set(obj) & INPUT_KEYS
    if len(keys) != 1:
        what = "no known key" if not keys else f"several inputs ({', '.join(sorted(keys))})"
        raise script.error(line, f"expected one of {', '.join(sorted(INPUT_KEYS))}, got {what}")
    (key,) = keys
    extra = set(obj) - {key} - ({"say"} if key == "speech" else set())
    if extra:
        raise script.error(line, f"{key}: unknown key(s) {', '.join(sorted(extra))}")
    value = obj[key]
    if key in ("speech", "foul", "remove"):
        seat = _seat(script, line, value, key)
        say = _say(script, line, obj["say"]) if "say" in obj else None
        return ScriptLine(line, key, seat, say)
    if key == "vote":
        if not isinstance(value, dict):
            raise script.error(line, f"vote: expected {{candidate: [seats]}}, got {json.dumps(value)}")
        votes = {_seat(script, line, c, "vote candidate"): _seats(script, line, v, f"vote.{c}")
                 for c, v in value.items()}
        return ScriptLine(line, key, votes)
    if key == "crash":
        return ScriptLine(line, key, _seats(script, line, value, "crash"))
    return ScriptLine(line, key, _night(script, line, value))


def _say(script: TableScript, line: int, say: Any) -> tuple[tuple[float, str], ...]:
    if not isinstance(say, list):
        raise script.error(line, f"say: expected [[seconds, text], …], got {json.dumps(say)}")
    out: list[tuple[float, str]] = []
    for item in say:
        ok = (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)
              and isinstance(item[0], int | float) and not isinstance(item[0], bool)
              and item[0] >= 0)
        if not ok:
            raise script.error(line, f"say: expected [seconds, text], got {json.dumps(item)}")
        out.append((float(item[0]), item[1]))
    if any(b[0] < a[0] for a, b in itertools.pairwise(out)):
        raise script.error(line, "say: expected times in order, got them out of order")
    return tuple(out)


def _night(script: TableScript, line: int, night: Any) -> dict[str, Any]:
    if not isinstance(night, dict):
        raise script.error(line, f"night: expected an object, got {json.dumps(night)}")
    extra = set(night) - NIGHT_KEYS
    if extra:
        raise script.error(line, f"night: unknown key(s) {', '.join(sorted(extra))} "
                                 f"(this ruleset takes {', '.join(sorted(NIGHT_KEYS))})")
    shots_raw = night.get("shots", {})
    if not isinstance(shots_raw, dict):
        raise script.error(line, f"night.shots: expected {{shooter: target}}, got "
                                 f"{json.dumps(shots_raw)}")
    shots = {_seat(script, line, s, "night.shots shooter"): _seats(script, line, t, "night.shots")
             for s, t in shots_raw.items()}
    out: dict[str, Any] = {"shots": shots}
    for who in ("don", "sheriff"):
        value = night.get(who)
        out[who] = None if value is None else _seat(script, line, value, f"night.{who}")
    return out
