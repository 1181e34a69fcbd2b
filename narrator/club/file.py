"""A club's options file (``club.toml``, ``--rules-file``), read once into typed values.

The file holds the options of :mod:`narrator.engine.options` at its top level, e.g.::

    rules = "0002000010000"   # MafiaRatings' code of the club's rules
    fouls = "sport"
    speech = 45               # seconds of a discussion speech

    [points]                  # the flat table of the evening's results
    win = 1

    [scoring]                 # the system that scores the evening instead
    system = "fiim"           # a built-in one: "fiim", "fiim@1" … "fiim@7", "points"
    # file = "scoring/19@7.json"   # or a MafiaRatings scoring JSON beside the file
    # name = "ФИИМ@7"              # (with file) the name the results show

Every reader of the project takes it from :func:`read_club`: one bounded read (a regular
file of at most :data:`MAX_BYTES`, nesting and numbers within Python's reach), every fault a
one-line NarratorError naming the file and the key. A club folder (``narrator club fetch``'s,
``--club DIR``) is ``DIR/club.toml`` with its players' ids in ``DIR/roster.csv``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator import reading
from narrator.arguments import CLUB_FILE, ROSTER_FILE
from narrator.club.scoring import DEFAULT_POINTS, POINTS_SPEC, Points, ScoringSpec
from narrator.engine.options import OptionError, check_options
from narrator.errors import NarratorError
from narrator.scoring.system import KNOWN, built_in, ignored_line, read_scoring_file

#: a club's file is a dozen lines; this is a thousand times that
MAX_BYTES = 64 * 1024
SCORING_KEYS = ("system", "file", "name")


@dataclass(frozen=True)
class ClubFile:
    """What a club's file says: the game's options (checked), the flat points table, the
    scoring system, and the one line saying which keys of its scoring JSON score nothing."""

    path: Path | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    points: Points = DEFAULT_POINTS
    scoring: ScoringSpec = POINTS_SPEC
    ignored: str | None = None


#: no file: the ruleset's own options, the flat table's defaults, the ``points`` system
NO_CLUB = ClubFile()


def read_club(path: str | Path | None) -> ClubFile:
    """The club's file ``path`` (None: :data:`NO_CLUB`)."""
    if path is None:
        return NO_CLUB
    path = Path(path)
    raw = reading.read_toml(path, "the rules file", limit=MAX_BYTES)
    points = Points.of(raw.pop("points", {}), f"{path}: points")
    scoring, ignored = _scoring(path, raw.pop("scoring", {}))
    try:
        options = check_options(raw)
    except OptionError as e:
        raise NarratorError(f"{path}: {e}") from None
    return ClubFile(path, options, points, scoring, ignored)


def _scoring(path: Path, table: object) -> tuple[ScoringSpec, str | None]:
    if not isinstance(table, Mapping):
        raise NarratorError(f"{path}: scoring: expected a table ([scoring])")
    for key in table:
        if key not in SCORING_KEYS:
            raise NarratorError(f"{path}: scoring.{key}: unknown (known: system, file, name)")
    if "system" in table and "file" in table:
        raise NarratorError(f"{path}: scoring: give system or file, not both")
    if "file" in table:
        name = table["file"]
        if not isinstance(name, str) or not name:
            raise NarratorError(f"{path}: scoring.file: expected a file name")
        return json_spec(path.parent / name, table.get("name"), f"{path}: scoring.name")
    if "name" in table:
        raise NarratorError(f"{path}: scoring.name: names a file's system (give file)")
    name = table.get("system", "points")
    if not isinstance(name, str) or (name != "points" and built_in(name) is None):
        raise NarratorError(f"{path}: scoring.system: {str(name)[:40]!r} is unknown "
                            f"(known: {KNOWN})")
    return ScoringSpec(name), None


def json_spec(path: Path, name: object = None,
              where: str = "name") -> tuple[ScoringSpec, str | None]:
    """The spec of the MafiaRatings scoring JSON in ``path`` (kept whole), named ``name`` or
    the file's stem, and the line saying which of its keys score nothing."""
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise NarratorError(f"{where}: expected a text")
    data, system = read_scoring_file(path)
    return ScoringSpec(name.strip() if isinstance(name, str) else path.stem, data), \
        ignored_line(system, str(path))


def scoring_option(spec: str) -> tuple[ScoringSpec, Points, str | None]:
    """``--scoring SPEC``: a built-in system's name, a MafiaRatings JSON file, or a club's
    TOML (its ``[scoring]``, and its ``[points]`` for the ``points`` system)."""
    if spec == "points" or built_in(spec) is not None:
        return ScoringSpec(spec), DEFAULT_POINTS, None
    path = Path(spec)
    if path.suffix.lower() == ".toml":
        club = read_club(path)
        return club.scoring, club.points, club.ignored
    if path.suffix.lower() == ".json":
        found, ignored = json_spec(path)
        return found, DEFAULT_POINTS, ignored
    raise NarratorError(f"{spec}: not a scoring system (a name: {KNOWN}; or a .json or .toml "
                        f"file)")


def club_dir(folder: str | Path) -> tuple[Path, Path | None]:
    """``--club DIR``: its ``club.toml`` (which must be there) and its ``roster.csv`` (None
    when the folder has none)."""
    folder = Path(folder)
    club = folder / CLUB_FILE
    if not club.is_file():
        raise NarratorError(f"{folder}: not a club's folder (no {CLUB_FILE}: narrator club "
                            f"fetch writes one)")
    roster = folder / ROSTER_FILE
    return club, roster if roster.is_file() else None
