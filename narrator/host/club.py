"""The club's options as a table takes them (``--rules-file club.toml``): the file is read
once, by :func:`narrator.club.file.read_club`; a game takes its options, an evening its
points and scoring too. After that the options travel in the game's journal and table-script
headers.
"""

from __future__ import annotations

from pathlib import Path

from narrator.arguments import TableArgs
from narrator.club.file import ClubFile, read_club
from narrator.engine.options import OptionError, apply_options, parse_names
from narrator.engine.rules import Rules, find_rules
from narrator.engine.tuning import parse_figures, with_settings
from narrator.errors import NarratorError


def club_rules(rules: Rules, club: ClubFile | str | Path | None) -> Rules:
    """``rules`` with the options of the club's file (read, or its path: ``--rules-file``),
    if any."""
    if club is None:
        return rules
    if not isinstance(club, ClubFile):
        club = read_club(club)
    if club.path is None:
        return rules
    return apply_options(rules, dict(club.options), where=str(club.path))


def names_option(text: str | None, seats: int) -> dict[int, str]:
    """``--names "1=Ника,2=Бублик"``: nicknames per seat; a one-line error naming the flag."""
    if not text:
        return {}
    try:
        return parse_names(text, seats)
    except OptionError as e:
        raise NarratorError(f"--names: {e}") from None


def table_options(args: TableArgs, club: ClubFile | None = None
                  ) -> tuple[Rules, int, dict[int, str]]:
    """The ruleset with its figures (``--count-pace``, ``--timer``, ``--rules-file``, or the
    club's file already read), the seat count and the nicknames of ``play`` and ``assist``;
    each a one-line error."""
    pace = {} if args.count_pace is None else {"count_pace": args.count_pace}  # 2.1.2
    figures = parse_figures(list(args.timers))
    rules = with_settings(find_rules(args.rules), **pace)
    try:  # a figure of another ruleset (``decision`` is vrn's) is named as such
        rules = with_settings(rules, **figures)
    except NarratorError as e:
        raise NarratorError(f"--timer: {e}") from None
    rules = club_rules(rules, club if club is not None else args.rules_file)
    try:  # 0 is no table; the ruleset says which are (and none that starts decided)
        seats = rules.check_seats(rules.seats if args.seats is None else args.seats)
    except NarratorError as e:
        raise NarratorError(f"--seats: {e}") from None
    return rules, seats, names_option(args.names, seats)
