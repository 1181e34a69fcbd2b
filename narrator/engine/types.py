"""Value types of the game: roles, teams, timers."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Team(enum.Enum):
    """Rule 1.2 («красные») and 1.3 («черные»)."""

    RED = "civilians"
    BLACK = "mafia"


class Role(enum.Enum):
    """A seat's card. The value is the protocol's spelling; the letter is the notation's."""

    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    MAFIA = "mafia"
    DON = "don"

    @property
    def team(self) -> Team:
        return Team.BLACK if self in (Role.MAFIA, Role.DON) else Team.RED

    @property
    def letter(self) -> str:
        return _LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Role:
        for role, ch in _LETTERS.items():
            if ch == letter.upper():
                return role
        raise ValueError(f"no role has the letter {letter!r}")


_LETTERS = {Role.CIVILIAN: "C", Role.SHERIFF: "S", Role.MAFIA: "M", Role.DON: "D"}


@dataclass(frozen=True, slots=True)
class Timer:
    """A timer the engine asks its host to run; the host reports ``TimeUp(name)`` at the end.

    ``warning_at`` is when «Десять секунд» is said (rule 2.3); ``tick`` is the pace of a count
    (the hunt's numbers, rule 2.1.2).
    """

    name: str
    seconds: float
    warning_at: float | None = None
    tick: float | None = None
