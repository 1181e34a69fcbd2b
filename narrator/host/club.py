"""A club's options file (``--rules-file club.toml``), read with the standard library's TOML.

The file holds the options of :mod:`narrator.engine.options` at its top level, e.g.::

    fouls = "sport"
    best_move = true
    speech = 45        # seconds of a discussion speech
    count_pace = 1.2   # seconds between the numbers of the hunt's count

What is read is checked here, once; after that the options travel in the game's journal and
table-script headers.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from narrator.engine.options import OptionError, apply_options, check_options, parse_names
from narrator.engine.rules import Rules
from narrator.errors import NarratorError


def load_rules_file(path: str | Path) -> dict[str, Any]:
    """The checked options of the TOML file ``path``; a one-line NarratorError naming the file."""
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise NarratorError(f"{name}: cannot read the rules file ({e.__class__.__name__})") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise NarratorError(f"{name}: not a TOML file ({e})") from None
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
