"""A club's options file (``--rules-file club.toml``), read with the standard library's TOML.

The file holds the options of :mod:`narrator.engine.options` at its top level, e.g.::

    fouls = "sport"
    best_move = true
    speech = 45        # seconds of a discussion speech
    count_pace = 1.2   # seconds between the numbers of the hunt's count

A ``[points]`` table scores an evening's games (``narrator evening``); a game ignores it.

What is read is checked here, once; after that the options travel in the game's journal and
table-script headers.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from narrator.arguments import TableArgs
from narrator.engine.options import OptionError, apply_options, check_options, parse_names
from narrator.engine.rules import Rules, find_rules
from narrator.engine.tuning import parse_figures, with_settings
from narrator.errors import NarratorError
from narrator.reading import read_text

#: a club's rules file is a dozen lines; this is a thousand times that
MAX_BYTES = 64 * 1024


def load_rules_file(path: str | Path) -> dict[str, Any]:
    """The checked options of the TOML file ``path``; a one-line NarratorError naming the file.

    Only a regular file of at most :data:`MAX_BYTES` is read (``/dev/zero`` would never end, a
    FIFO would wait for a writer)."""
    name = str(path)
    text = read_text(path, "the rules file", limit=MAX_BYTES)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise NarratorError(f"{name}: not a TOML file ({e})") from None
    except RecursionError:  # tomllib reads nested arrays and tables by recursion
        raise NarratorError(f"{name}: not a TOML file (nested too deep)") from None
    # [points] and [scoring] score the games of an evening (narrator.evening.results), not the
    # game itself
    raw.pop("points", None)
    raw.pop("scoring", None)
    try:
        return check_options(raw)
    except OptionError as e:
        raise NarratorError(f"{name}: {e}") from None


def club_rules(rules: Rules, path: str | Path | None) -> Rules:
    """``rules`` with the options of the rules file ``path`` (``--rules-file``), if any."""
    if path is None:
        return rules
    return apply_options(rules, load_rules_file(path), where=str(path))


def names_option(text: str | None, seats: int) -> dict[int, str]:
    """``--names "1=Ника,2=Бублик"``: nicknames per seat; a one-line error naming the flag."""
    if not text:
        return {}
    try:
        return parse_names(text, seats)
    except OptionError as e:
        raise NarratorError(f"--names: {e}") from None


def table_options(args: TableArgs) -> tuple[Rules, int, dict[int, str]]:
    """The ruleset with its figures (``--count-pace``, ``--timer``, ``--rules-file``), the
    seat count and the nicknames of ``play`` and ``assist``; each a one-line error."""
    pace = {} if args.count_pace is None else {"count_pace": args.count_pace}  # 2.1.2
    figures = parse_figures(list(args.timers))
    rules = with_settings(find_rules(args.rules), **pace)
    try:  # a figure of another ruleset (``decision`` is vrn's) is named as such
        rules = with_settings(rules, **figures)
    except NarratorError as e:
        raise NarratorError(f"--timer: {e}") from None
    rules = club_rules(rules, args.rules_file)
    try:  # 0 is no table; the ruleset says which are (and none that starts decided)
        seats = rules.check_seats(rules.seats if args.seats is None else args.seats)
    except NarratorError as e:
        raise NarratorError(f"--seats: {e}") from None
    return rules, seats, names_option(args.names, seats)
