"""Today's FIIM (MafiaRatings' scoring 19, version 7 as db/alter153.sql writes it) by hand.

Version 7's JSON, formula by formula (the site's own text quoted in each step below):

- main ``{"matter": 2, "points": 1}``: a win 1;
- extra ``{"matter": 4194304, "points": "bonus()"}``: the host's extra points, when he gave
  any (or a title); ``{"matter": 1, "points": "matter(24) ? 0 : 0.3"}``: 0.3 to every player
  but the one given the worst move;
- legacy ``{"matter": 1, "roles": 3, "points": "matter(10) ? 0.7 : (matter(11) ? 0.5 : 0)"}``:
  a red first-night victim naming three blacks 0.7, two 0.5;
- penalty ``"matter(12) || matter(13) || matter(14) ? -0.5 : (matter(25) ? -0.7 : 0)"``: −0.5
  for a removal (four fouls, two technical ones, the host's);
- night1 ``{"matter": 260, "roles": 3, "points":
  "max(min(counter(0,1)*0.5/round(counter(0,0)*0.4),0.5),0)"}``: a red killed the first
  night (our night 2) who lost gets ``k × 0.5 / round(n × 0.4)``, at most 0.5, where ``n`` is
  his games of the set (counter 0: ``{"matter": 1}``) and ``k`` how many of them he was such a
  victim in (counter 1: ``{"matter": 256, "roles": 3}``); ``x/0`` is the greatest value for
  ``x > 0`` (include/evaluator.php), so a lone game gives the whole 0.5.

The hand computation reads the game itself (cards, winner, departures, marks, the best move),
never the matters the code computes.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from narrator.engine import Game, Team
from narrator.evening.results import tally
from narrator.replay.source import load_source
from narrator.scoring.system import SYSTEMS
from tests.replay.test_export_filing import TEN_SEATS
from tests.scoring.test_matters import MARKS, draw, sport, three_red_checks


def _php_round(x: float) -> float:
    return math.floor(x + 0.5)  # half away from zero, for x ≥ 0


def _team(game: Game, seat: int) -> Team:
    return game.rules.team(game.roles[seat], game.dealt)


def first_night_victim(game: Game, seat: int) -> bool:
    """A red killed in our night 2 (the site's first night, round 1)."""
    out = game.out.get(seat)
    return (_team(game, seat) is Team.RED and out is not None and out.night == 2
            and out.how not in ("vote", "crash", "removed"))


def version_7(game: Game, seat: int, n: int = 1, k: int = 1) -> float:
    """The seat's points of ``game`` under version 7; ``n``, ``k``: the set's counters."""
    team = _team(game, seat)
    won = game.winner is team
    lost = game.winner is not None and game.winner is not Team.DRAW and not won
    points = 1.0 if won else 0.0  # main
    mark = game.marks.get(seat)
    titles = mark.titles if mark is not None else ()
    if mark is not None and (mark.points or mark.titles):
        points += mark.points  # bonus()
    points += 0.0 if "worst_move" in titles else 0.3  # matter(24) ? 0 : 0.3
    best = game.best_move
    if team is Team.RED and best is not None and best.seat == seat:
        points += {3: 0.7, 2: 0.5}.get(min(best.black_named, 3), 0.0)  # legacy
    if game.how_out(seat) == "removed":
        points -= 0.5  # matter(12) || matter(13) || matter(14) ? -0.5
    if first_night_victim(game, seat) and lost:
        share = _php_round(n * 0.4)
        night1 = k * 0.5 / share if share else (math.inf if k else 0.0)
        points += max(min(night1, 0.5), 0.0)
    return points


def test_fiim_of_every_ten_seat_example_is_version_7_by_hand() -> None:
    for path in TEN_SEATS:
        game = load_source(path).game
        seats = {s: s for s in range(1, 11)}
        roster = [(s, f"p{s}") for s in seats]
        by = {r.number: r for r in tally([(game, seats)], roster, SYSTEMS["fiim"])}
        assert {s: by[s].points for s in seats} == \
            pytest.approx({s: version_7(game, s) for s in seats}), path.name


def _mixed() -> list[tuple[Game, dict[int, int]]]:
    """Five games of one evening: the first-night victim naming three blacks; the host's marks
    (+0.3 and a title, −0.5, best and worst move on one seat) and a removal; a draw; a
    first-night kill named two blacks; a game with a guest (player 11) on seat 6."""
    same = {s: s for s in range(1, 11)}
    turned = {s: 11 - s for s in range(1, 11)}
    shifted = {s: s % 10 + 1 for s in range(1, 11)}
    guest = {**same, 6: 11}
    return [(sport([3, 5, 9]), same), (three_red_checks(*MARKS), turned), (draw(), same),
            (sport([3, 4, 9]), shifted), (sport(), guest)]


def test_a_mixed_evening_is_version_7_by_hand_with_the_sets_counters() -> None:
    games = _mixed()
    roster = [(n, f"p{n}") for n in range(1, 12)]
    table = {r.number: r for r in tally(games, roster, SYSTEMS["fiim"])}
    for number in range(1, 12):
        played = [(g, seat) for g, seating in games
                  for seat, who in seating.items() if who == number]
        n = len(played)
        k = sum(first_night_victim(g, seat) for g, seat in played)
        want = sum(version_7(g, seat, n, k) for g, seat in played)
        assert table[number].points == pytest.approx(want), number
        assert table[number].games == n
    # what the figures above hold, so that the test cannot pass on a dull evening: seat 7 of
    # sport() is the first-night victim every time; 5 games, 2 of them as that victim for
    # player 7 (seat 7 of games 1 and 5): 2 × 0.5 / round(5 × 0.4) = 0.5 each; player 8
    # (seat 7 of game 4) once in his 5: 1 × 0.5 / round(2) = 0.25
    assert first_night_victim(games[0][0], 7) and first_night_victim(games[3][0], 7)
    assert table[11].games == 1 and table[6].games == 4
    assert table[7].groups["night1"] == pytest.approx(0.5 + 0.5)
    assert table[8].groups["night1"] == pytest.approx(0.25)
    # the marks: seat 3 of game 2 (player 8) +0.3 with a title; seat 5 (player 6) best and
    # worst move: no auto-bonus that game; a draw gives nobody a win nor a compensation
    assert table[8].groups["extra"] == pytest.approx(0.3 * 5 + 0.3)
    assert table[6].groups["extra"] == pytest.approx(0.3 * 3)
    # three blacks named in game 1 (0.7), two in game 5 (sport()'s 3, 5, 6: 0.5)
    assert table[7].groups["legacy"] == pytest.approx(0.7 + 0.5)
    assert table[8].groups["legacy"] == pytest.approx(0.5)  # two blacks named, game 4


def test_fiim_at_1_keeps_the_figures_published_before_versions() -> None:
    games = _mixed()
    roster = [(n, f"p{n}") for n in range(1, 12)]
    old = {r.number: r.points for r in tally(games, roster, SYSTEMS["fiim@1"])}

    def by_hand(game: Game, seat: int) -> float:
        team = _team(game, seat)
        best = game.best_move
        legacy = ({3: 0.4, 2: 0.25}.get(min(best.black_named, 3), 0.0)
                  if best is not None and best.seat == seat and team is Team.RED else 0.0)
        return ((game.winner is team) + legacy
                - (0.5 if game.how_out(seat) == "removed" else 0.0))

    want: dict[int, Any] = {n: 0.0 for n in range(1, 12)}
    for game, seating in games:
        for seat, who in seating.items():
            want[who] += by_hand(game, seat)
    assert old == pytest.approx(want)
    assert old != pytest.approx({r.number: r.points for r in tally(
        games, roster, SYSTEMS["fiim"])})
