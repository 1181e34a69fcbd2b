"""The evening's results: per player, the games played, the wins (by card), the fouls, the
removals, the best moves and the points of the club's ``[points]`` table; written to
``DIR/results.csv`` and ``DIR/results.json``.

The ``[points]`` table of the club's TOML (``--rules-file``) scores each finished game: ``win``
(default 1) or ``loss`` (0), ``best_move_black`` (0) for every black seat named in the player's
best move, ``foul`` (0) for each foul, ``removal`` (0) for a removal. Only finished games count;
a game stopped in its middle is nobody's win or loss.
"""

from __future__ import annotations

import csv
import io
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.engine import Game, Role
from narrator.errors import NarratorError
from narrator.outputs import replace_whole

#: the points of a game and their defaults
POINTS = {"win": 1.0, "loss": 0.0, "best_move_black": 0.0, "foul": 0.0, "removal": 0.0}
#: the cards whose wins have a column of their own, in the table's order
CARDS = tuple(r.value for r in Role)


def load_points(path: str | Path | None) -> dict[str, float]:
    """The ``[points]`` table of the club's TOML (the defaults without one); a one-line
    NarratorError naming the file and the key."""
    points = dict(POINTS)
    if path is None:
        return points
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise NarratorError(f"{path}: cannot read the rules file ({e.__class__.__name__})") \
            from None
    table = raw.get("points", {})
    if not isinstance(table, dict):
        raise NarratorError(f"{path}: points: expected a table ([points])")
    for key, value in table.items():
        if key not in POINTS:
            raise NarratorError(f"{path}: points.{key}: unknown (known: {', '.join(POINTS)})")
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                not -100 <= value <= 100:
            raise NarratorError(f"{path}: points.{key}: expected a number from -100 to 100, "
                                f"got {value!r}")
        points[key] = float(value)
    return points


@dataclass
class PlayerResult:
    """One player's line of the table."""

    number: int
    name: str
    games: int = 0
    wins: int = 0
    by_card: dict[str, int] = field(default_factory=dict)  # wins per card
    played: dict[str, int] = field(default_factory=dict)  # games per card
    fouls: int = 0
    removals: int = 0
    best_moves: int = 0
    points: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.number, "name": self.name, "games": self.games,
                "wins": self.wins, "wins_by_card": dict(self.by_card),
                "games_by_card": dict(self.played), "fouls": self.fouls,
                "removals": self.removals, "best_moves": self.best_moves,
                "points": round(self.points, 3)}


def tally(games: list[tuple[Game, dict[int, int]]], roster: list[tuple[int, str]],
          points: dict[str, float]) -> list[PlayerResult]:
    """The table: each finished game of ``games`` (the game, its seating seat → player) scored
    for the players of ``roster`` (number, nickname); by points, then wins, then number."""
    lines = {number: PlayerResult(number, name) for number, name in roster}
    for game, seating in games:
        if game.winner is None:
            continue
        for seat, number in seating.items():
            line = lines.get(number)
            if line is None:
                continue
            card = game.roles[seat]
            line.games += 1
            line.played[card.value] = line.played.get(card.value, 0) + 1
            won = game.rules.team(card, game.dealt) is game.winner
            if won:
                line.wins += 1
                line.by_card[card.value] = line.by_card.get(card.value, 0) + 1
            fouls = game.fouls.get(seat, 0)
            removed = game.how_out(seat) == "removed"
            best = game.best_move if game.best_move and game.best_move.seat == seat else None
            black = best.black_named if best else 0
            line.fouls += fouls
            line.removals += int(removed)
            line.best_moves += int(best is not None)
            line.points += (points["win"] if won else points["loss"]) + \
                black * points["best_move_black"] + fouls * points["foul"] + \
                int(removed) * points["removal"]
    return sorted(lines.values(), key=lambda r: (-r.points, -r.wins, r.number))


def cards_of(results: list[PlayerResult]) -> list[str]:
    """The cards anybody played, in the table's order (a column each)."""
    seen = {card for r in results for card in r.played}
    return [c for c in CARDS if c in seen]


def csv_text(results: list[PlayerResult]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    cards = cards_of(results)
    writer.writerow(["player", "name", "games", "wins", *(f"wins_{c}" for c in cards),
                     "fouls", "removals", "best_moves", "points"])
    for r in results:
        writer.writerow([r.number, r.name, r.games, r.wins,
                         *(r.by_card.get(c, 0) for c in cards), r.fouls, r.removals,
                         r.best_moves, f"{r.points:g}"])
    return out.getvalue()


def write_results(folder: Path, results: list[PlayerResult], games: int,
                  points: dict[str, float]) -> None:
    """``results.csv`` and ``results.json`` in ``folder``, each written whole then renamed."""
    body = {"games": games, "points": points, "players": [r.to_json() for r in results]}
    for name, text in (("results.csv", csv_text(results)),
                       ("results.json", json.dumps(body, ensure_ascii=False, indent=1) + "\n")):
        replace_whole(folder / name, text, "the results")
