"""The standings of a set of games under a scoring system, as MafiaRatings makes an event's
(include/scoring.php, ``_event_scores``, ``add_player_score``, ``compare_scores``).

Counters are filled as there: first ``counters[0]`` over all of each player's games of the
set, then, game by game in their order, ``counters[1]`` counts the player's games up to and
including the one being scored. So ``counter(0, j)`` in a formula is the whole set's count,
``counter(1, j)`` the running one.

The order: by total points (a difference under 0.00001 is none), then each tie-break of the
system's sorting string (:func:`narrator.scoring.system.sort_terms`), then the player's key
(numbers before names).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from narrator.scoring.matters import Matter, PlayerGame, ScoringRole
from narrator.scoring.system import GROUPS, ScoringSystem, sort_terms

#: points closer than this are equal (compare_scores)
EPSILON = 0.00001
#: the roles whose win is a "special role win" (scoring.php: sheriff or don)
SPECIAL_ROLES = (ScoringRole.SHERIFF, ScoringRole.DON)
REDS = (ScoringRole.CIVILIAN, ScoringRole.SHERIFF)


def _points(value: float) -> float:
    return round(value, 6)


@dataclass(frozen=True)
class GameLine:
    """One player's game in the standings: which game of the set (from 0), the seat, the
    role, a win, the points of each group, their total and the best-player points."""

    game: int
    seat: int
    role: ScoringRole
    won: bool
    groups: dict[str, float]
    mvp: float = 0.0

    @property
    def total(self) -> float:
        return sum(self.groups.values())

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seat": self.seat, "role": self.role.name.lower(),
                "won": self.won, **{g: _points(self.groups[g]) for g in GROUPS},
                "total": _points(self.total), "mvp": _points(self.mvp)}


@dataclass
class Standing:
    """A player's line: the key (roster number or id), the games, the points of each group
    summed over them, the wins, the sheriff's and don's wins, the times killed the first
    night as a red (as MafiaRatings counts them for ``k``), the counters over all the games,
    and the place (from 1; equal lines still get places one after another)."""

    key: Hashable
    games: list[GameLine] = field(default_factory=list)
    groups: dict[str, float] = field(default_factory=lambda: {g: 0.0 for g in GROUPS})
    mvp: float = 0.0
    wins: int = 0
    special_role_wins: int = 0
    killed_first_night: int = 0
    counters: list[int] = field(default_factory=list)
    place: int = 0

    @property
    def total(self) -> float:
        return sum(self.groups.values())

    def value(self, what: str) -> float:
        """A sorting term's value: a group's points, or a count."""
        if what in self.groups:
            return self.groups[what]
        return float(getattr(self, what))

    def add(self, line: GameLine, game: PlayerGame) -> None:
        self.games.append(line)
        for group, points in line.groups.items():
            self.groups[group] += points
        self.mvp += line.mvp
        self.wins += int(line.won)
        self.special_role_wins += int(line.won and game.role in SPECIAL_ROLES)
        self.killed_first_night += int(game.has(Matter.KILLED_FIRST_NIGHT)
                                       and game.role in REDS)

    def to_json(self) -> dict[str, Any]:
        key = self.key if isinstance(self.key, int | str) else str(self.key)
        return {"place": self.place, "player": key, "games_count": len(self.games),
                "total": _points(self.total), **{g: _points(self.groups[g]) for g in GROUPS},
                "mvp": _points(self.mvp), "wins": self.wins,
                "special_role_wins": self.special_role_wins,
                "killed_first_night": self.killed_first_night,
                "counters": list(self.counters),
                "games": [g.to_json() for g in self.games]}


def _key_order(key: Hashable) -> tuple[int, float, str]:
    if isinstance(key, bool) or not isinstance(key, int | float):
        return (1, 0.0, str(key))
    return (0, float(key), "")


def _compare(terms: tuple[tuple[tuple[int, str], ...], ...], a: Standing, b: Standing) -> int:
    # compare_scores: more points first, then each tie-break, more first; then the key
    if abs(a.total - b.total) > EPSILON:
        return -1 if a.total > b.total else 1
    for term in terms:
        va = sum(sign * a.value(what) for sign, what in term)
        vb = sum(sign * b.value(what) for sign, what in term)
        if abs(va - vb) > EPSILON:
            return -1 if va > vb else 1
    ka, kb = _key_order(a.key), _key_order(b.key)
    return -1 if ka < kb else 1 if ka > kb else 0


def rank(system: ScoringSystem, lines: Sequence[Standing]) -> list[Standing]:
    """``lines`` in the system's order, each given its place."""
    terms = sort_terms(system.sorting, f"{system.name}: sorting")
    ordered = sorted(lines, key=functools.cmp_to_key(functools.partial(_compare, terms)))
    for place, line in enumerate(ordered, 1):
        line.place = place
    return ordered


def score(system: ScoringSystem,
          games: Sequence[Mapping[Hashable, PlayerGame]]) -> list[Standing]:
    """The standings of ``games`` (in their order; each maps a player's key to the player's
    game) under ``system``."""
    width = len(system.counters)
    totals: dict[Hashable, list[int]] = {}
    for game in games:
        for key, played in game.items():
            counts = totals.setdefault(key, [0] * width)
            for j, n in enumerate(system.count(played)):
                counts[j] += n
    running = {key: [0] * width for key in totals}
    lines = {key: Standing(key, counters=list(counts)) for key, counts in totals.items()}
    for index, game in enumerate(games):
        for key, played in game.items():
            now = running[key]
            for j, n in enumerate(system.count(played)):
                now[j] += n
            got = system.game_score(played, (totals[key], now))
            line = GameLine(index, played.seat, ScoringRole(played.role),
                            played.has(Matter.WIN), dict(got.groups), got.mvp)
            lines[key].add(line, played)
    return rank(system, list(lines.values()))


def to_json(standings: Sequence[Standing], system: ScoringSystem) -> dict[str, Any]:
    """The standings as one JSON value: the system's name and sorting, then the players."""
    return {"system": system.name, "sorting": system.sorting,
            "players": [s.to_json() for s in standings]}
