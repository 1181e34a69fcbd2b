"""A finished game for a club's rating system: the formats, and the file they are written to.

The game comes from a table script (replayed on a virtual clock), a game journal, or a folder
recorded by ``narrator play --record`` (:mod:`narrator.replay.source` reads it); the format is
:mod:`narrator.replay.mafiaratings`'. The command, ``narrator export``, takes a game or an
evening's folder: :mod:`narrator.evening.export`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from narrator.errors import NarratorError
from narrator.replay.mafiaratings import MafiaRatingsGame, mafiaratings
from narrator.replay.source import GameSource, load_source

# what the export's callers (the evening's, the tests) name from here
__all__ = ["FORMATS", "GameSource", "MafiaRatingsGame", "load_source", "mafiaratings",
           "write_private"]

FORMATS = ("mafiaratings",)


# -- writing the record (the command, a game or an evening: narrator.evening.export) ---------------


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` readable by its owner only: the record holds every role."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        if stat.S_ISREG(os.fstat(fd).st_mode):  # never a device's mode (-o /dev/stdout)
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise NarratorError(f"{path}: cannot write the export ({e.strerror})") from None
