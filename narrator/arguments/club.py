"""What the club's commands are given: ``narrator club fetch``, and ``--club DIR`` as the
club's file and roster of an evening or a tournament."""

from __future__ import annotations

from argparse import Namespace
from dataclasses import dataclass
from pathlib import Path

#: a club's folder (``narrator club fetch -o DIR``, ``--club DIR``): its file and its roster
CLUB_FILE, ROSTER_FILE = "club.toml", "roster.csv"


def club_paths(club: str | None, rules_file: str | None, roster: str | None,
               ) -> tuple[str | None, str | None]:
    """``--club DIR`` as the club's file and roster (``--rules-file``, ``--roster``), unless
    those are given themselves."""
    if club is None:
        return rules_file, roster
    folder = Path(club)
    return (rules_file or str(folder / CLUB_FILE),
            roster or (str(folder / ROSTER_FILE) if (folder / ROSTER_FILE).is_file() else None))


@dataclass(frozen=True, slots=True)
class ClubFetchArgs:
    """``narrator club fetch --site URL --club-id N -o DIR``."""

    site: str
    club_id: int
    out: str

    @classmethod
    def from_args(cls, ns: Namespace) -> ClubFetchArgs:
        return cls(ns.site, ns.club_id, ns.out)
