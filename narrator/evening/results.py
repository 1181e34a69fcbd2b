"""The evening's results: per player, the games played, the wins (by card), the fouls, the
removals, the best moves and the points of the club's scoring system, split as MafiaRatings
splits them (main, best move, extra, penalty, the first-killed's compensation) and in the
system's order with its tie-breaks; written to ``DIR/results.csv`` and ``DIR/results.json``.

The system is the club's (:mod:`narrator.club`: ``[scoring] system = "fiim"``, or a
MafiaRatings scoring JSON); without one, the flat ``[points]`` table of the club's TOML
(``--rules-file``) scores each finished game: ``win`` (default 1) or ``loss`` (0),
``best_move_black`` (0) for every black seat named in the player's best move, ``foul`` (0) for
each foul, ``removal`` (0) for a removal. Only finished games count; a game stopped in its
middle is nobody's win or loss.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from narrator.engine import Exit, Game, Role
from narrator.outputs import replace_whole
from narrator.scoring.matters import PlayerGame, matters_of
from narrator.scoring.standings import Standing, score
from narrator.scoring.system import GROUPS, ClubGame, ScoringSystem, points_table_system

#: the system's groups by the names the results give them (MafiaRatings': main, legacy, extra,
#: penalty, night1)
SPLIT = {"main": "main", "legacy": "best_move", "extra": "extra", "penalty": "penalty",
         "night1": "compensation"}
#: the cards whose wins have a column of their own, in the table's order
CARDS = tuple(Role)


@dataclass
class PlayerResult:
    """One player's line of the table: what was played, and the system's points."""

    number: int
    name: str
    games: int = 0
    wins: int = 0
    by_card: dict[Role, int] = field(default_factory=dict)  # wins per card
    played: dict[Role, int] = field(default_factory=dict)  # games per card
    fouls: int = 0
    removals: int = 0
    best_moves: int = 0
    points: float = 0.0  # the total
    #: the total split as the system's groups (main, legacy, extra, penalty, night1)
    groups: dict[str, float] = field(default_factory=lambda: dict.fromkeys(GROUPS, 0.0))
    special_role_wins: int = 0  # the tie-breaks after the points: wins as sheriff or don
    killed_first_night: int = 0
    place: int = 0
    #: per game played: its number in the evening and its points, split as ``groups``
    per_game: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "player": self.number, "name": self.name,
                "games": self.games, "wins": self.wins, "wins_by_card": dict(self.by_card),
                "games_by_card": dict(self.played), "fouls": self.fouls,
                "removals": self.removals, "best_moves": self.best_moves,
                "points": round(self.points, 3),
                **{SPLIT[g]: round(v, 3) for g, v in self.groups.items()},
                "special_role_wins": self.special_role_wins,
                "killed_first_night": self.killed_first_night, "per_game": self.per_game}


def tally(games: list[tuple[Game, dict[int, int]]], roster: list[tuple[int, str]],
          system: ScoringSystem | dict[str, float] | None = None,
          numbers: Sequence[int | str] | None = None) -> list[PlayerResult]:
    """The table: each finished game of ``games`` (the game, its seating seat → player) for
    the players of ``roster`` (number, nickname), scored by ``system`` (a flat ``[points]``
    table: that system; None: its defaults) and in its order: the points, its tie-breaks,
    then the number. ``numbers``: each game's number in the evening (default 1, 2, …)."""
    if not isinstance(system, ScoringSystem):
        system = points_table_system(system)
    lines = {number: PlayerResult(number, name) for number, name in roster}
    scored: list[Mapping[Hashable, PlayerGame]] = []
    numbered: list[int | str] = []
    for index, (game, seating) in enumerate(games):
        if game.winner is None:
            continue
        numbered.append(numbers[index] if numbers else index + 1)
        matters = matters_of(game)
        scored.append({number: ClubGame.of(game, seat, matters[seat])
                       for seat, number in seating.items() if number in lines})
        for seat, number in seating.items():
            if number in lines:
                _count(lines[number], game, seat)
    for standing in score(system, scored):
        _points(lines[cast(int, standing.key)], standing, numbered)
    return sorted(lines.values(), key=lambda r: (r.place == 0, r.place, r.number))



def _count(line: PlayerResult, game: Game, seat: int) -> None:
    """What the seat played: the card, a win, the fouls, a removal, a best move."""
    card = game.roles[seat]
    line.games += 1
    line.played[card] = line.played.get(card, 0) + 1
    if game.rules.team(card, game.dealt) is game.winner:
        line.wins += 1
        line.by_card[card] = line.by_card.get(card, 0) + 1
    line.fouls += game.fouls.get(seat, 0)
    line.removals += int(game.how_out(seat) is Exit.REMOVED)
    line.best_moves += int(game.best_move is not None and game.best_move.seat == seat)


def _points(line: PlayerResult, standing: Standing, numbers: Sequence[int | str]) -> None:
    line.points = standing.total
    line.groups = dict(standing.groups)
    line.special_role_wins = standing.special_role_wins
    line.killed_first_night = standing.killed_first_night
    line.place = standing.place
    line.per_game = [{"game": numbers[g.game], "points": round(g.total, 3),
                      **{SPLIT[k]: round(v, 3) for k, v in g.groups.items()}}
                     for g in standing.games]


def cards_of(results: list[PlayerResult]) -> list[Role]:
    """The cards anybody played, in the table's order (a column each)."""
    seen = {card for r in results for card in r.played}
    return [c for c in CARDS if c in seen]


def csv_text(results: list[PlayerResult]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cards = cards_of(results)
    writer.writerow(["place", "player", "name", "games", "wins", *(f"wins_{c}" for c in cards),
                     "fouls", "removals", "best_moves", *SPLIT.values(), "points",
                     "special_role_wins", "killed_first_night"])
    for r in results:
        writer.writerow([r.place or "", r.number, r.name, r.games, r.wins,
                         *(r.by_card.get(c, 0) for c in cards), r.fouls, r.removals,
                         r.best_moves, *(f"{r.groups[g]:g}" for g in SPLIT), f"{r.points:g}",
                         r.special_role_wins, r.killed_first_night])
    return out.getvalue()


def write_results(folder: Path, results: list[PlayerResult], games: int,
                  system: ScoringSystem) -> None:
    """``results.csv`` and ``results.json`` in ``folder``, each written whole then renamed."""
    body: dict[str, Any] = {"games": games, "system": system.name, "sorting": system.sorting}
    table = getattr(system, "points", None)
    if isinstance(table, dict):  # the flat [points] table: its figures
        body["points"] = table
    body["players"] = [r.to_json() for r in results]
    for name, text in (("results.csv", csv_text(results)),
                       ("results.json", json.dumps(body, ensure_ascii=False, indent=1) + "\n")):
        replace_whole(folder / name, text, "the results")
