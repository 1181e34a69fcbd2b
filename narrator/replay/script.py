"""Table scripts (``*.table.jsonl``, docs/table-script.md): reading and checking their shape.

What a line *means* for the game is checked later, by the replay against the engine; here
only its form: JSON, known keys, seat numbers in range — and its size: a script is read a line
at a time within :data:`LIMITS`, a speech holds at most :data:`MAX_SAY` phrases of at most
:data:`~narrator.grammar.MAX_PHRASE` characters. A real game comes nowhere near them (its script
is some 10 KB, a few hundred lines, speeches of a few phrases); they are there so that a
script at every one of them still replays in seconds and a few dozen MB.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.engine import MARK_TITLES, Mark, Role
from narrator.engine.options import OptionError, apply_options, check_names
from narrator.engine.rules import Rules, find_rules
from narrator.errors import NarratorError, ScriptError
from narrator.grammar import MAX_PHRASE
from narrator.reading import BadJSON, Limits, TextLine, loads, read_lines, text_lines
from narrator.typed import typed_number

#: header keys every ruleset takes; a ruleset adds its own (``Rules.header_keys``)
HEADER_KEYS = {"rules", "seats", "roles", "seed", "lang", "names", "options"}
#: a table script's size: a long game's script is some 10 KB in a few hundred lines. What a
#: replay costs grows with the phrases it reads (each refused nomination is kept for the
#: protocol), so the bytes are what bound it: a megabyte of the costliest phrases replays in
#: a few seconds.
LIMITS = Limits("the table script", max_bytes=1024 * 1024, max_lines=10_000)
#: phrases in one speech's ``say``: a minute's speech cut at every pause is some 30
MAX_SAY = 200


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
    #: the values of the ruleset's own header keys (``Rules.header_keys``), as written
    extra: dict[str, Any] = field(default_factory=dict)
    #: nicknames per seat (header ``names``)
    names: dict[int, str] = field(default_factory=dict)

    def error(self, line: int, message: str) -> ScriptError:
        return ScriptError(self.path, line, message)

    @property
    def dealt(self) -> dict[str, str]:
        """What the header deals besides the cards (the maniac's side); the rest is drawn."""
        return {k: v for k, v in self.extra.items() if k in self.rules.dealt_choices}


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


def load_table_script(path: str | Path, *, rules: str | None = None) -> TableScript:
    """Read ``path``; raises :class:`ScriptError` (``FILE:LINE: …``) on anything malformed.

    ``rules`` (``replay --rules``): the ruleset of a script whose header names none; a header
    naming another is an error. The file is read a line at a time: a line past one of
    :data:`LIMITS` is refused before the rest is read."""
    name = str(path)
    return _parse_lines(read_lines(path, LIMITS), name, rules)


def parse_table_script(text: str, name: str = "<script>", *,
                       rules: str | None = None) -> TableScript:
    """Parse the text of a table script; ``name`` is used in error messages; ``rules`` as in
    :func:`load_table_script`."""
    return _parse_lines(text_lines(text, name, LIMITS), name, rules)


def _parse_lines(rows: Iterable[TextLine], name: str, rules: str | None) -> TableScript:
    """The script of ``rows``: each line read, checked and dropped before the next is read."""
    script: TableScript | None = None
    for number, raw, _ in rows:
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            obj = loads(stripped)
        except BadJSON as e:
            raise ScriptError(name, number, f"expected a JSON object, got {e}") from None
        if not isinstance(obj, dict):
            raise ScriptError(name, number, f"expected a JSON object, got {stripped[:40]}")
        if script is None:
            script = _header(name, number, obj, rules)
        else:
            script.inputs.append(_input(script, number, obj))
    if script is None:
        raise ScriptError(name, 1, "expected a header line, got an empty script")
    return script


def _header(name: str, line: int, header: dict[str, Any], given: str | None) -> TableScript:
    rules_name = header.get("rules", given or "crime-time")
    if given is not None and rules_name != given:
        raise ScriptError(name, line, f"rules: the script is a game of {_shown(rules_name)}, "
                                      f"not of {given} (--rules)")
    if not isinstance(rules_name, str):
        raise ScriptError(name, line, f"rules: expected a name, got {_shown(rules_name)}")
    try:
        rules = find_rules(rules_name)
    except NarratorError as e:
        raise ScriptError(name, line, f"rules: {e}") from None
    unknown = set(header) - HEADER_KEYS - rules.header_keys
    if unknown:
        if unknown & rules.script_keys:
            raise ScriptError(name, line,
                              f"expected the header first, got an input ({_shown(header)})")
        raise ScriptError(name, line, f"unknown header key(s) for {rules.name}: "
                                      f"{_names(unknown)}")
    seats = header.get("seats", rules.seats)
    if isinstance(seats, bool) or not isinstance(seats, int) \
            or not rules.min_seats <= seats <= rules.max_seats:
        raise ScriptError(name, line, f"seats: expected {rules.table_sizes}, got "
                                      f"{_shown(seats)} (a table of {rules.name})")
    try:  # and none that starts decided (1.3)
        rules.check_seats(seats)
    except NarratorError as e:
        raise ScriptError(name, line, f"seats: {e}") from None
    seed = header.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ScriptError(name, line, f"seed: expected an integer, got {_shown(seed)}")
    lang = header.get("lang", "ru")
    if lang not in ("ru", "uk"):
        raise ScriptError(name, line, f"lang: expected ru or uk, got {_shown(lang)}")
    for key, values in rules.dealt_choices.items():
        if key in header and header[key] not in values:
            raise ScriptError(name, line, f"{key}: expected {' or '.join(map(_shown, values))}"
                                          f", got {_shown(header[key])}")
    try:
        rules = apply_options(rules, header.get("options", {}), where="options")
    except OptionError as e:
        raise ScriptError(name, line, str(e)) from None
    try:
        names = check_names(header.get("names", {}), seats)
    except OptionError as e:
        raise ScriptError(name, line, f"names: {e}") from None
    script = TableScript(name, rules, seats, None, seed, lang, names=names,
                         extra={k: header[k] for k in sorted(rules.header_keys) if k in header})
    if "roles" in header:
        script.roles = _roles(script, line, header["roles"])
    return script


def _roles(script: TableScript, line: int, roles: Any) -> dict[int, Role]:
    if not isinstance(roles, dict):
        raise script.error(line, f"roles: expected an object, got {_shown(roles)}")
    rules = script.rules
    cards = rules.composition(script.seats)
    names = {role.value: role for role in cards}
    dealt: dict[int, Role] = {}
    for role_name, value in roles.items():
        role = names.get(role_name)
        if role is None:
            raise script.error(line, f"roles: {rules.name} deals no {_shown(role_name)} "
                                     f"(its cards: {', '.join(sorted(names))})")
        for seat in _seats(script, line, value, f"roles.{role_name}"):
            if seat in dealt:
                raise script.error(line, f"roles: seat {seat} is both {dealt[seat].value} "
                                         f"and {role.value}")
            dealt[seat] = role
    try:
        rules.check_deal(script.seats, dealt)
    except NarratorError as e:
        raise script.error(line, f"roles: {e}") from None
    return dealt


def _input(script: TableScript, line: int, obj: dict[str, Any]) -> ScriptLine:
    rules = script.rules
    keys = set(obj) & rules.script_keys
    if len(keys) != 1:
        strangers = set(obj) - rules.script_keys - {"say"}
        if not keys and strangers:  # an input of another ruleset, or of none
            what = _names(set(strangers))
        else:
            what = "no known key" if not keys else f"several inputs ({', '.join(sorted(keys))})"
        raise script.error(line, f"expected one of {', '.join(sorted(rules.script_keys))} "
                                 f"(the inputs of {rules.name}), got {what}")
    (key,) = keys
    extra = set(obj) - {key} - ({"say"} if key == "speech" else set())
    if extra:
        raise script.error(line, f"{key}: unknown key(s) {_names(extra)}")
    value = obj[key]
    if key == "speech":
        seat = _seat(script, line, value, key)
        say = _say(script, line, obj["say"]) if "say" in obj else None
        return ScriptLine(line, key, seat, say)
    parse = INPUTS.get(key)
    if parse is None:
        raise script.error(line, f"{key}: {rules.name} declares this input, but no reader for "
                                 f"it exists")
    return ScriptLine(line, key, parse(script, line, value, key))


def _one_seat(script: TableScript, line: int, value: Any, key: str) -> int:
    return _seat(script, line, value, key)


def _vote(script: TableScript, line: int, value: Any, key: str) -> dict[int, list[int]]:
    """``{"5": [1, 2, 3]}``: the hands for each candidate."""
    return _hands_by_seat(script, line, value, key, "candidate", "candidate")


def _seat_list(script: TableScript, line: int, value: Any, key: str) -> list[int]:
    return _seats(script, line, value, key)


def _put_up(script: TableScript, line: int, value: Any, key: str) -> dict[int, list[int]]:
    """``{"7": [1, 2, 3]}``: the thumbs for putting the one just accused up."""
    return _hands_by_seat(script, line, value, key, "accused", "seat")


def _hands_by_seat(script: TableScript, line: int, value: Any, key: str, noun: str,
                   twice: str) -> dict[int, list[int]]:
    """``{seat: [seats]}`` of a ``vote`` or a ``put_up``: each key a seat named once."""
    if not isinstance(value, dict):
        raise script.error(line, f"{key}: expected {{{noun}: [seats]}}, got {_shown(value)}")
    hands: dict[int, list[int]] = {}
    for k, v in value.items():
        seat = _seat(script, line, k, f"{key} {noun}")
        if seat in hands:  # "5" and "05": one seat twice
            raise script.error(line, f"{key}: {twice} {seat} named twice")
        hands[seat] = _seats(script, line, v, f"{key}.{k}")
    return hands


def _best_move(script: TableScript, line: int, value: Any, key: str) -> list[int]:
    if not script.rules.best_move:
        raise script.error(line, "best_move: expected the best_move option in the header, "
                                 "got a best move without it")
    seats = _seats(script, line, value, "best_move")
    if len(seats) != 3 or len(set(seats)) != 3:
        raise script.error(line, f"best_move: expected three different seats, got "
                                 f"{_shown(value)}")
    return seats


def _on_record(script: TableScript, line: int, value: Any, key: str) -> dict[str, Any]:
    """``{"seat": 5, "red": [3, 4], "black": [7]}``: the colours the speaker leaves on record
    (6.7), on the line before his speech (or between its phrases' lines: see the docs)."""
    if script.rules.on_record == "none":
        raise script.error(line, "on_record: expected the on_record option in the header, "
                                 "got colours on record without it")
    if not isinstance(value, dict) or "seat" not in value or set(value) - {
            "seat", "red", "black"}:
        raise script.error(line, f"on_record: expected {{\"seat\": N, \"red\": [seats], "
                                 f"\"black\": [seats]}}, got {_shown(value)}")
    out: dict[str, Any] = {"seat": _seat(script, line, value["seat"], "on_record.seat")}
    for colour in ("red", "black"):
        out[colour] = _seats(script, line, value.get(colour, []), f"on_record.{colour}")
    if not out["red"] and not out["black"]:
        raise script.error(line, "on_record: expected at least one seat, red or black")
    return out


def _say(script: TableScript, line: int, say: Any) -> tuple[tuple[float, str], ...]:
    if not isinstance(say, list):
        raise script.error(line, f"say: expected [[seconds, text], …], got {_shown(say)}")
    if len(say) > MAX_SAY:
        raise script.error(line, f"say: a speech of {len(say):,} phrases; a speech holds at "
                                 f"most {MAX_SAY}")
    out: list[tuple[float, str]] = []
    for n, item in enumerate(say, start=1):
        ok = (isinstance(item, list) and len(item) == 2 and isinstance(item[1], str)
              and isinstance(item[0], int | float) and not isinstance(item[0], bool)
              and item[0] >= 0)
        if not ok:
            raise script.error(line, f"say: expected [seconds, text], got {_shown(item)}")
        if len(item[1]) > MAX_PHRASE:
            raise script.error(line, f"say: phrase {n} is {len(item[1]):,} characters long; a "
                                     f"phrase is at most {MAX_PHRASE:,}")
        out.append((float(item[0]), item[1]))
    if any(b[0] < a[0] for a, b in itertools.pairwise(out)):
        raise script.error(line, "say: expected times in order, got them out of order")
    return tuple(out)


def _night(script: TableScript, line: int, night: Any, key: str = "night") -> dict[str, Any]:
    """A night: ``shots`` (the hunt) and one seat (or null) per other night key."""
    if not isinstance(night, dict):
        raise script.error(line, f"night: expected an object, got {_shown(night)}")
    rules = script.rules
    extra = set(night) - rules.night_keys
    if extra:
        raise script.error(line, f"night: unknown key(s) {_names(extra)} (a night "
                                 f"of {rules.name} takes {', '.join(sorted(rules.night_keys))})")
    out: dict[str, Any] = {}
    for who in sorted(rules.night_keys):
        value = night.get(who)
        if who == "shots":
            out[who] = _shots(script, line, {} if value is None else value)
        else:
            out[who] = None if value is None else _seat(script, line, value, f"night.{who}")
    return out


def _shots(script: TableScript, line: int, shots: Any) -> dict[int, list[int]]:
    if not isinstance(shots, dict):
        raise script.error(line, f"night.shots: expected {{shooter: target}}, got "
                                 f"{_shown(shots)}")
    return {_seat(script, line, s, "night.shots shooter"): _seats(script, line, t, "night.shots")
            for s, t in shots.items()}


def _mark(script: TableScript, line: int, value: Any, key: str) -> Mark:
    """``{"seat": 3, "points": 0.3, "titles": ["best_player"], "comment": "…"}``: the host's
    marks after the game (all but the seat may be left out; the engine checks the club's
    step and bound)."""
    if not isinstance(value, dict) or "seat" not in value or set(value) - {
            "seat", "points", "titles", "comment"}:
        raise script.error(line, f"mark: expected {{\"seat\": N, \"points\": P, \"titles\": "
                                 f"[…], \"comment\": \"…\"}}, got {_shown(value)}")
    seat = _seat(script, line, value["seat"], "mark.seat")
    points = value.get("points", 0)
    if isinstance(points, bool) or not isinstance(points, int | float):
        raise script.error(line, f"mark.points: expected a number, got {_shown(points)}")
    titles = value.get("titles", [])
    if not isinstance(titles, list) or any(t not in MARK_TITLES for t in titles):
        raise script.error(line, f"mark.titles: expected a list of {', '.join(MARK_TITLES)}, "
                                 f"got {_shown(titles)}")
    comment = value.get("comment", "")
    if not isinstance(comment, str):
        raise script.error(line, f"mark.comment: expected text, got {_shown(comment)}")
    return Mark(seat, float(points), tuple(titles), comment.strip())


#: how the value of each input line (but ``speech``, read with its ``say``) is read; a
#: ruleset's new input adds its reader here and its key to its ``script_keys``
INPUTS: dict[str, Callable[[TableScript, int, Any, str], Any]] = {
    "vote": _vote,
    "crash": _seat_list,
    "extra": _seat_list,
    "put_up": _put_up,
    "best_move": _best_move,
    "on_record": _on_record,
    "night": _night,
    "foul": _one_seat,
    "tech_foul": _one_seat,  # 9.6.2: the club's technical fouls
    "remove": _one_seat,
    "mark": _mark,  # the host's marks, after the game
}
