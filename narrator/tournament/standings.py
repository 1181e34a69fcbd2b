"""The tournament's standings from the games the tables sent: each stored journal read into
its game, scored by the tournament's system (:mod:`narrator.scoring.standings`), each game's
points multiplied by its stage's coefficient.

The coefficient is MafiaRatings' "points weight" of a round (include/scoring.php,
``add_player_score``: every policy's points and best-player points times the weight). Its
``noWeight`` policies, which it leaves unweighted, are not kept by :mod:`narrator.scoring`:
here every policy is weighted.

A player is the plan's (by nickname, letter case and spaces aside); a nickname a table seated
that the plan does not know (a substitute) is a line of its own.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from narrator.club.file import scoring_option
from narrator.club.scoring import Points, ScoringSpec
from narrator.engine import Game
from narrator.errors import NarratorError
from narrator.host.journal import load_journal
from narrator.scoring.matters import PlayerGame, matters_of
from narrator.scoring.standings import Standing, rank, score
from narrator.scoring.system import ClubGame, ScoringSystem
from narrator.seating.value import key_of
from narrator.tournament.store import Received, Stage

DEFAULT_SCORING = "fiim"


def scoring_of(spec: str | None) -> tuple[ScoringSpec, Points, str | None]:
    """What the tournament keeps of ``--scoring`` (default ``fiim``): a built-in system, or
    the MafiaRatings JSON itself (the tournament scores the same when the file moves); a
    TOML's ``[scoring]`` names one of the two, and without one its flat ``[points]`` table
    scores, every point of it kept, as the club's evenings score. Also the line saying
    which keys of the JSON score nothing."""
    return scoring_option(spec or DEFAULT_SCORING)


@contextmanager
def journal_file(journal: str, folder: Path) -> Iterator[Path]:
    """A journal's text as a file in ``folder`` while the block runs: it is read as every
    journal is (its limits, its one-line errors)."""
    fd, name = tempfile.mkstemp(prefix=".incoming-", suffix=".jsonl", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(journal)
        yield Path(name)
    finally:
        os.unlink(name)


def read_game(journal: str, folder: Path) -> Game:
    """The game of a journal's text; NarratorError if it does not load or is not over."""
    with journal_file(journal, folder) as path:
        game = load_journal(path).game()
    if game.winner is None:
        raise NarratorError("the journal's game has not ended")
    return game


@dataclass(frozen=True)
class Line:
    """A row of the standings: place, who, games, points, wins."""

    place: int
    name: str
    games: int
    points: float
    wins: int

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "name": self.name, "games": self.games,
                "points": round(self.points, 2), "wins": self.wins}


def coefficient_of(stages: Sequence[Stage], rnd: int) -> float:
    """The coefficient of the last stage begun by round ``rnd`` (1 before any)."""
    found = 1.0
    for stage in stages:
        if stage.first_round <= rnd:
            found = stage.coefficient
    return found


def standings(games: Sequence[tuple[Received, Game]], names: Sequence[str],
              stages: Sequence[Stage], system: ScoringSystem) -> list[Line]:
    """The standings of ``games`` (in the tournament's order) for the plan's players
    ``names`` (by index); every player of the plan has a line, with or without games."""
    index = {key_of(n): i for i, n in enumerate(names)}
    shown: dict[Hashable, str] = dict(enumerate(names))
    scored: list[Mapping[Hashable, PlayerGame]] = []
    weights: list[float] = []
    for received, game in games:
        matters = matters_of(game)
        played: dict[Hashable, PlayerGame] = {}
        for seat, nickname in received.seating.items():
            if seat not in matters:
                continue
            who: Hashable = index.get(key_of(nickname), f"name:{key_of(nickname)}")
            shown.setdefault(who, nickname)
            played[who] = ClubGame.of(game, seat, matters[seat])
        scored.append(played)
        weights.append(coefficient_of(stages, received.round))
    lines = [_weighted(s, weights) for s in score(system, scored)]
    have = {s.key for s in lines}
    lines += [Standing(i) for i in range(len(names)) if i not in have]
    return [Line(s.place, shown[s.key], len(s.games), s.total, s.wins)
            for s in rank(system, lines)]


def _weighted(line: Standing, weights: Sequence[float]) -> Standing:
    """``line`` with each game's points times its weight."""
    games = [replace(g, groups={k: v * weights[g.game] for k, v in g.groups.items()},
                     mvp=g.mvp * weights[g.game]) for g in line.games]
    groups = {k: sum(g.groups[k] for g in games) for k in line.groups}
    return replace(line, games=games, groups=groups, mvp=sum(g.mvp for g in games))

