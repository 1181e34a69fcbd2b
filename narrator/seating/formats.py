"""Seating plans made elsewhere: reading and writing the four formats, each to and from a
:class:`~narrator.seating.value.Seating`.

* ``ours-json`` and ``ours-csv``: the narrator's own (:mod:`narrator.seating.ours`);
* ``mafiaratings``: MafiaRatings' API answer, an event's kept seating, or a bare array
  (:mod:`narrator.seating.mafiaratings`); written as an event's seating;
* ``web-schedule``: dimtom's web_schedule, a schedule and its players file
  (:mod:`narrator.seating.web_schedule`); the players file is ``STEM.players.json`` beside the
  schedule ``STEM.json`` unless another is named.

:func:`guess_format` tells them apart by their content; every reader checks the plan as
MafiaRatings would and says the first fault in one line naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.reading import read_text
from narrator.seating.fields import load_json
from narrator.seating.mafiaratings import read_mafiaratings, to_mafiaratings
from narrator.seating.ours import (
    read_ours_csv,
    read_ours_json,
    to_ours_csv,
    to_ours_json,
)
from narrator.seating.value import Roster, Seating
from narrator.seating.web_schedule import read_web_schedule, to_web_schedule

FORMATS = ("ours-json", "ours-csv", "mafiaratings", "web-schedule")
#: a plan of 1,000 players × 100 rounds stays well under this
MAX_BYTES = 16 * 1024 * 1024


def players_beside(schedule: Path) -> Path:
    """Where a web_schedule's players file goes by default: ``STEM.players.json``."""
    return schedule.with_name(schedule.stem + ".players.json")


def guess_format(text: str, name: str = "") -> str | None:
    """The format of a file's text, or None: JSON by its keys, CSV by its first line (a text
    that opens as JSON and is none: NarratorError ``NAME:LINE: bad JSON``)."""
    if not text.lstrip("\ufeff \t\r\n").startswith(("{", "[")):
        return "ours-csv" if "," in text.split("\n", 1)[0] else None
    doc: Any = load_json(text, name)
    if isinstance(doc, list):
        return "mafiaratings"
    if not isinstance(doc, dict):
        return None
    if "plan" in doc:
        return "ours-json"
    if "configuration" in doc or "games" in doc:
        return "web-schedule"
    if {"seating", "rounds", "mapping", "hash"} & doc.keys():
        return "mafiaratings"
    return None


def read_seating(path: str | Path, fmt: str | None = None, *, roster: Roster = (),
                 players: str | Path | None = None) -> tuple[Seating, str]:
    """The Seating in ``path`` and its format (``fmt``, or the one guessed)."""
    name = str(path)
    text = read_text(path, "the seating plan", limit=MAX_BYTES)
    if fmt is None:
        fmt = guess_format(text, name)
        if fmt is None:
            hint = (" (it is web_schedule's players file: give its schedule)"
                    if '"people"' in text else "")
            raise NarratorError(f"{name}: not a seating plan in any format known "
                                f"({', '.join(FORMATS)}){hint}")
    if players is not None and fmt != "web-schedule":
        raise NarratorError(f"{name}: a players file is web-schedule's; this plan is {fmt}")
    if fmt == "ours-csv":
        return read_ours_csv(text, name, roster), fmt
    doc = load_json(text, name)
    if fmt == "ours-json":
        return read_ours_json(doc, name, roster), fmt
    if fmt == "mafiaratings":
        return read_mafiaratings(doc, name, roster), fmt
    if fmt != "web-schedule":
        raise NarratorError(f"no seating format {fmt!r} ({', '.join(FORMATS)})")
    people_path = Path(players) if players is not None else players_beside(Path(path))
    people = None
    if players is not None or people_path.is_file():
        people = load_json(read_text(people_path, "the players", limit=MAX_BYTES),
                           str(people_path))
    return read_web_schedule(doc, name, people, str(people_path), roster), fmt


def seating_texts(plan: Seating, fmt: str, out: Path,
                  players: Path | None = None) -> list[tuple[Path, str]]:
    """What writing ``plan`` in ``fmt`` to ``out`` writes: (path, text) of each file."""
    if fmt == "ours-json":
        return [(out, to_ours_json(plan))]
    if fmt == "ours-csv":
        return [(out, to_ours_csv(plan))]
    if fmt == "mafiaratings":
        return [(out, to_mafiaratings(plan))]
    if fmt == "web-schedule":
        schedule, people = to_web_schedule(plan)
        return [(out, schedule), (players or players_beside(out), people)]
    raise NarratorError(f"no seating format {fmt!r} ({', '.join(FORMATS)})")
