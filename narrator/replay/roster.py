"""A club's roster with MafiaRatings ids: which nickname is which user of the rating system.

The file is CSV in UTF-8, one person a line::

    nickname,mafiaratings_id,role
    Ника,1234
    "Momento Mori",5678
    Иван Петров,42,moderator

The first line may be that header (it starts with ``nickname``); empty lines and lines
starting with ``#`` are skipped. The third field is empty for a player, or ``moderator`` for
the game's host (MafiaRatings' ``moderator.id``; a host who also plays has a line of each).
Nicknames match the game's seat names without regard to case or repeated spaces. A bad line
is one NarratorError naming the file, the line and the field.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from narrator.errors import NarratorError
from narrator.reading import read_text

#: the roster's size: a club's whole membership fits many times over
MAX_ROSTER = 1 << 20
#: the third field of the host's line
MODERATOR = "moderator"
HEADER = "nickname"


def key_of(name: str) -> str:
    """The form a nickname is matched in: case and repeated spaces aside."""
    return " ".join(name.split()).casefold()


@dataclass
class Roster:
    """Nickname → MafiaRatings user id, and the host's id when the roster names one."""

    ids: dict[str, int] = field(default_factory=dict)  # by key_of(nickname)
    names: dict[str, str] = field(default_factory=dict)  # key → the nickname as written
    moderator: int | None = None

    def id_of(self, name: str | None) -> int | None:
        return None if name is None else self.ids.get(key_of(name))

    @property
    def players(self) -> list[tuple[str, int]]:
        """(nickname, id) in the file's order."""
        return [(self.names[k], i) for k, i in self.ids.items()]

    @classmethod
    def of(cls, pairs: Iterable[tuple[str, int | None]],
           moderator: int | None = None) -> Roster:
        """A roster from (nickname, id) pairs; a pair without an id is left out."""
        roster = cls(moderator=moderator)
        for name, number in pairs:
            if number is not None:
                roster.ids[key_of(name)] = number
                roster.names[key_of(name)] = name
        return roster


def parse_id(text: str) -> int | None:
    """A MafiaRatings user id (a whole number from 1), or None if ``text`` is not one."""
    text = text.strip()
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        return None
    return int(text)


def load_roster(path: str | Path) -> Roster:
    """The roster in ``path``; NarratorError ``FILE:LINE: field: what is wrong``."""
    name = str(path)
    text = read_text(path, "the roster", limit=MAX_ROSTER)
    roster = Roster()
    lines: dict[str, int] = {}  # key → the line it was given on
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{name}:{number}"
        try:
            fields = next(csv.reader([line]))
        except csv.Error as e:
            raise NarratorError(f"{where}: not a line of CSV ({e})") from None
        if not lines and roster.moderator is None and fields and \
                fields[0].strip().casefold() == HEADER:
            continue  # the header
        _add(roster, lines, fields, where, number)
    if not lines and roster.moderator is None:
        raise NarratorError(f"{name}: no players in it (nickname,mafiaratings_id a line)")
    return roster


def _add(roster: Roster, lines: dict[str, int], fields: list[str], where: str,
         number: int) -> None:
    if len(fields) < 2 or len(fields) > 3:
        raise NarratorError(f"{where}: expected nickname,mafiaratings_id[,moderator], got "
                            f"{len(fields)} field(s)")
    nickname = " ".join(fields[0].split())
    if not nickname or not nickname.isprintable():
        raise NarratorError(f"{where}: nickname: expected a nickname, got {fields[0]!r}")
    user = parse_id(fields[1])
    if user is None:
        raise NarratorError(f"{where}: mafiaratings_id: expected a whole number from 1, got "
                            f"{fields[1].strip()!r}")
    role = fields[2].strip().casefold() if len(fields) == 3 else ""
    if role not in ("", MODERATOR):
        raise NarratorError(f"{where}: role: expected {MODERATOR} or nothing, got "
                            f"{fields[2].strip()!r}")
    if role == MODERATOR:
        if roster.moderator is not None:
            raise NarratorError(f"{where}: role: a second moderator (one game has one host)")
        roster.moderator = user
        return
    key = key_of(nickname)
    if key in lines:
        raise NarratorError(f"{where}: nickname: {nickname!r} is on line {lines[key]} already")
    taken = next((k for k, i in roster.ids.items() if i == user), None)
    if taken is not None:
        raise NarratorError(f"{where}: mafiaratings_id: {user} is {roster.names[taken]!r}'s "
                            f"already (line {lines[taken]})")
    lines[key] = number
    roster.ids[key] = user
    roster.names[key] = nickname
