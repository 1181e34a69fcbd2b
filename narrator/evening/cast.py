"""The evening on the stream: the standings scene between games, from the evening's results."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from narrator.bidi import neutral
from narrator.broadcast.serve import Broadcast
from narrator.broadcast.snapshot import StandingRow
from narrator.engine import Game
from narrator.evening.results import PlayerResult


def show_standings(cast: Broadcast, results: Sequence[PlayerResult],
                   games: Iterable[Game]) -> None:
    """The standings as the results table has them (its places, its points), after the games
    over so far."""
    played = sum(1 for g in games if g.winner is not None)
    cast.standings([StandingRow(place=r.place, name=neutral(r.name), games=r.games, wins=r.wins,
                                points=r.points) for r in results], played)
