"""What a player's game had, as MafiaRatings' scoring reads it: its 27 "matters"
(include/scoring.php, ``SCORING_FLAG_*``; set per player in include/game_players_stats.php).

A matter is a bit of a game's flags: matter ``n`` is the bit ``1 << n``. A policy of a scoring
system names the matters it needs as a mask of these bits, and the roles it is for.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Matter(IntEnum):
    """MafiaRatings' matters by number (its comments quoted)."""

    PLAY = 0  # Played the game
    WIN = 1  # Player wins
    LOSE = 2  # Player loses
    CLEAR_WIN = 3  # All players killed in a daytime were from another team
    CLEAR_LOSE = 4  # All players killed in a daytime were from player's team
    BEST_PLAYER = 5  # Best player
    BEST_MOVE = 6  # Best move
    SURVIVE = 7  # Survived in the game
    KILLED_FIRST_NIGHT = 8  # Killed in the first night
    KILLED_NIGHT = 9  # Killed in the night
    FIRST_LEGACY_3 = 10  # Guessed 3 mafia after being killed first night
    FIRST_LEGACY_2 = 11  # Guessed 2 mafia after being killed first night
    WARNINGS_4 = 12  # Killed by warnings
    KICK_OUT = 13  # Kicked out
    SURRENDERED = 14  # Surrendered
    ALL_VOTES_VS_MAF = 15  # All votes vs mafia (>3 votings)
    ALL_VOTES_VS_CIV = 16  # All votes vs civs (>3 votings)
    SHERIFF_KILLED_AFTER_FINDING = 17  # Killed sheriff next day after finding
    SHERIFF_FOUND_FIRST_NIGHT = 18  # Sheriff was found first night
    SHERIFF_KILLED_FIRST_NIGHT = 19  # Sheriff was killed the first night
    BLACK_CHECKS = 20  # Sheriff did three black checks in a row
    RED_CHECKS = 21  # All sheriff checks are red
    EXTRA_POINTS = 22  # Extra points are assigned manually
    FIRST_LEGACY_1 = 23  # Guessed 1 mafia after being killed first night
    WORST_MOVE = 24  # Worst move
    TEAM_KICK_OUT = 25  # Team kicked out (opposite team wins)
    TIE = 26  # Tie

    @property
    def flag(self) -> int:
        return 1 << self.value


class ScoringRole(IntEnum):
    """MafiaRatings' roles in scoring (``role()`` in a formula; a policy's ``roles`` is a mask
    of ``1 << role``: 1 civilian, 2 sheriff, 4 mafia, 8 don; 3 the reds, 12 the blacks)."""

    CIVILIAN = 0
    SHERIFF = 1
    MAFIA = 2
    DON = 3


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One player's game as a scoring system reads it: the seat, the role, the matters
    (a bit mask: :attr:`Matter.flag`), and the host's extra points (``bonus()``)."""

    seat: int
    role: ScoringRole
    flags: int
    extra: float = 0.0

    def has(self, matter: Matter) -> bool:
        return bool(self.flags & matter.flag)
