"""``narrator export --format mafiaratings SOURCE``: a finished game for a club's rating system.

SOURCE is a table script (replayed on a virtual clock), a game journal, or a folder recorded by
``narrator play --record`` (:mod:`narrator.replay.source` reads it); the format is
:mod:`narrator.replay.mafiaratings`'.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from narrator.errors import NarratorError
from narrator.replay.mafiaratings import MafiaRatingsGame, mafiaratings
from narrator.replay.source import GameSource, load_source

# what the export's callers (the evening's, the tests) name from here
__all__ = ["FORMATS", "GameSource", "MafiaRatingsGame", "load_source", "mafiaratings",
           "run", "write_private"]

FORMATS = ("mafiaratings",)


# -- the command -----------------------------------------------------------------------------------


def _start_option(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise NarratorError(f"--start: expected a date and time like 2024-05-17T19:30:00+03:00, "
                            f"got {text!r}") from None
    return when if when.tzinfo is not None else when.astimezone()


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only: the record holds every role."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, 0o600)
    except OSError as e:
        raise NarratorError(f"{path}: cannot write the export ({e.strerror})") from None


def run(args: argparse.Namespace) -> int:
    """``narrator export``."""
    start = _start_option(args.start)
    source = load_source(args.source)
    exported = mafiaratings(source, start=start, club_id=args.club_id, event_id=args.event_id)
    text = json.dumps(exported.record, ensure_ascii=False, indent=1) + "\n"
    for note in _unique(exported.notes):
        print(f"narrator: note: {note}", file=sys.stderr)
    if args.out:
        write_private(Path(args.out), text)
        print(f"narrator: written {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))
