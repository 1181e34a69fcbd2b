"""Standings: counters filled as MafiaRatings fills them, the Sample Scoring's first-night
compensation over several kill counts, the tie-breaks of a sorting string, and the club's
flat ``[points]`` system giving what the evening's results table gives."""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping

import pytest

from narrator.club.scoring import Points
from narrator.engine import Foul, Game, Remove, Role, TimeUp
from narrator.engine.rules import find_rules
from narrator.evening.results import tally
from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script
from narrator.scoring.matters import Matter, PlayerGame, ScoringRole
from narrator.scoring.standings import Standing, score, to_json
from narrator.scoring.system import (
    POINTS_DEFAULTS,
    SYSTEMS,
    ClubGame,
    from_json,
    points_table_system,
)
from tests.engine.conftest import day_speeches
from tests.helpers import ROLES, SCRIPT_ROLES
from tests.scoring.test_system import SAMPLE_RECORD

CIV, SHERIFF, MAFIA, DON = (ScoringRole.CIVILIAN, ScoringRole.SHERIFF, ScoringRole.MAFIA,
                            ScoringRole.DON)
Games = list[Mapping[Hashable, PlayerGame]]


def pg(role: ScoringRole, *matters: Matter, seat: int = 1, extra: float = 0.0) -> PlayerGame:
    flags = Matter.PLAY.flag
    for m in matters:
        flags |= m.flag
    return PlayerGame(seat, role, flags, extra)


def by_key(standings: list[Standing]) -> dict[Hashable, Standing]:
    return {s.key: s for s in standings}


def compensation(killed: int, games: int) -> float:
    """The Sample Scoring's night1 formula, by hand."""
    return max(min(killed * 1.2 / games - 0.18, 0.3), 0)


@pytest.mark.parametrize("games, killed", [(10, 1), (10, 2), (10, 3), (5, 5), (8, 2), (4, 0)])
def test_the_sample_scorings_first_night_compensation(games: int, killed: int) -> None:
    # player 7 is a red killed the first night in the first ``killed`` games, losing all but
    # the last of them; the policy (matter 260: killed first night and lost) pays each lost
    # one from the counts over all the player's games (counter(0, …)), not the running ones
    sample = from_json(json.loads(SAMPLE_RECORD), "scoring 1")
    played: Games = []
    for i in range(games):
        first = i < killed
        result = Matter.WIN if first and i == killed - 1 else Matter.LOSE
        matters = (Matter.KILLED_FIRST_NIGHT, result) if first else (result,)
        played.append({7: pg(CIV, *matters), 8: pg(MAFIA, Matter.WIN)})
    line = by_key(score(sample, played))[7]
    each = compensation(killed, games)
    paid = max(killed - 1, 0)  # the one won is no loser's
    assert line.counters == [games, killed] and line.killed_first_night == killed
    assert [g.groups["night1"] for g in line.games] == \
        pytest.approx([each] * paid + [0.0] * (games - paid))
    assert line.groups["night1"] == pytest.approx(each * paid)
    assert line.total == pytest.approx(games + each * paid)  # main: 1 a game played
    assert by_key(score(sample, played))[8].groups["night1"] == 0  # a black: no compensation


def test_counters_one_run_game_by_game_counters_zero_are_the_whole_set() -> None:
    system = from_json({"counters": [{"matter": 2}],
                        "extra": [{"matter": 1, "points": "counter(1, 0) + counter(0, 0) / 10"}]},
                       "running")
    results = [Matter.WIN, Matter.LOSE, Matter.WIN, Matter.WIN]
    line = by_key(score(system, [{1: pg(CIV, r)} for r in results]))[1]
    # wins so far 1, 1, 2, 3 (this game included); wins in all 3
    assert [g.groups["extra"] for g in line.games] == pytest.approx([1.3, 1.3, 2.3, 3.3])
    assert line.counters == [3]


def test_a_players_games_wins_and_to_json() -> None:
    fiim = SYSTEMS["fiim@1"]
    games: Games = [
        {"ann": pg(SHERIFF, Matter.WIN, Matter.KILLED_FIRST_NIGHT, Matter.FIRST_LEGACY_3,
                   seat=4),
         "bob": pg(DON, Matter.LOSE, Matter.KICK_OUT, seat=9)},
        {"ann": pg(MAFIA, Matter.LOSE, seat=2), "bob": pg(CIV, Matter.WIN, seat=6)},
    ]
    standings = score(fiim, games)
    assert [s.key for s in standings] == ["ann", "bob"]
    ann, bob = standings
    assert (ann.total, ann.groups["legacy"], ann.wins, ann.special_role_wins,
            ann.killed_first_night) == pytest.approx((1.4, 0.4, 1, 1, 1))
    assert (bob.total, bob.groups["penalty"], bob.wins, bob.special_role_wins) == \
        pytest.approx((0.5, -0.5, 1, 0))
    body = to_json(standings, fiim)
    assert body["system"] == "fiim@1" and body["sorting"] == "(epg)wsk"
    first = body["players"][0]
    assert (first["place"], first["player"], first["games_count"], first["total"]) == \
        (1, "ann", 2, 1.4)
    assert first["games"][0] == {"game": 0, "seat": 4, "role": "sheriff", "won": True,
                                 "main": 1.0, "extra": 0.0, "legacy": 0.4, "penalty": 0.0,
                                 "night1": 0.0, "total": 1.4, "mvp": 0.0}
    assert json.loads(json.dumps(body)) == body


TIES = {"main": [{"matter": 2, "points": 1}], "extra": [{"matter": 32, "points": 1}],
        "penalty": [{"matter": 8192, "points": -1}]}


def tie_games() -> Games:
    # every player ends on 2 points
    return [
        {1: pg(CIV, Matter.WIN, Matter.BEST_PLAYER), 2: pg(CIV, Matter.WIN),
         3: pg(SHERIFF, Matter.WIN), 4: pg(CIV, Matter.WIN), 5: pg(CIV, Matter.WIN),
         6: pg(CIV, Matter.WIN, Matter.BEST_PLAYER, Matter.KICK_OUT)},
        {1: pg(CIV, Matter.LOSE), 2: pg(CIV, Matter.WIN), 3: pg(CIV, Matter.WIN),
         4: pg(CIV, Matter.WIN), 5: pg(CIV, Matter.LOSE, Matter.KILLED_FIRST_NIGHT),
         6: pg(CIV, Matter.WIN)},
        {5: pg(MAFIA, Matter.WIN), 6: pg(CIV, Matter.LOSE)},
    ]


@pytest.mark.parametrize("sorting, order", [
    # 1: extra 1, wins 1; 2 and 4: wins 2; 3: wins 2, a sheriff's; 5: wins 2, killed first;
    # 6: extra 1 and penalty -1, wins 2
    ("(epg)wsk", [1, 3, 5, 2, 4, 6]),  # extra+penalty+legacy, wins, special wins, first kills
    ("w", [2, 3, 4, 5, 6, 1]),
    ("-w", [1, 2, 3, 4, 5, 6]),
    ("e", [1, 6, 2, 3, 4, 5]),
    ("(ep)k", [1, 5, 2, 3, 4, 6]),  # 6's extra and penalty sum to 0
    ("-kws", [3, 2, 4, 6, 1, 5]),
    ("", [1, 2, 3, 4, 5, 6]),  # by key alone
])
def test_ties_are_broken_by_the_sorting_string_then_the_key(sorting: str,
                                                            order: list[int]) -> None:
    system = from_json({**TIES, "sorting": sorting}, "ties")
    standings = score(system, tie_games())
    assert [s.total for s in standings] == pytest.approx([2] * 6)
    assert [s.key for s in standings] == order
    assert [s.place for s in standings] == [1, 2, 3, 4, 5, 6]


def test_more_points_first_whatever_the_tie_breaks() -> None:
    system = from_json({**TIES, "sorting": "-w"}, "ties")
    games: Games = [{1: pg(CIV, Matter.LOSE), 2: pg(CIV, Matter.WIN), "x": pg(CIV, Matter.WIN),
                     3: pg(CIV, Matter.WIN, Matter.BEST_PLAYER)}]
    assert [s.key for s in score(system, games)] == [3, 2, "x", 1]  # numbers before names


# -- the club's flat [points] table ----------------------------------------------------------

SCORING_ROLE = {Role.CIVILIAN: CIV, Role.SHERIFF: SHERIFF, Role.MAFIA: MAFIA, Role.DON: DON}


def club_games(game: Game, seating: dict[int, int]) -> dict[Hashable, PlayerGame]:
    """What the results table reads of a finished game, as the flat system's input."""
    out: dict[Hashable, PlayerGame] = {}
    for seat, number in seating.items():
        card = game.roles[seat]
        won = game.rules.team(card, game.dealt) is game.winner
        best = game.best_move if game.best_move and game.best_move.seat == seat else None
        flags = Matter.PLAY.flag | (Matter.WIN.flag if won else Matter.LOSE.flag)
        out[number] = ClubGame(seat, SCORING_ROLE[card], flags, fouls=game.fouls.get(seat, 0),
                               black_named=best.black_named if best else 0,
                               removed=game.how_out(seat) == "removed")
    return out


def finished_game(*actions: object) -> Game:
    game = Game(find_rules("crime-time"), roles=ROLES)
    game.start()
    for action in actions:
        game.apply(action)  # type: ignore[arg-type]
    return game


def best_move_game() -> Game:
    header = {"rules": "crime-time", "roles": SCRIPT_ROLES, "options": {"best_move": True}}
    lines = [header, *day_speeches(list(range(1, 11))),
             {"night": {"shots": {"3": 7, "5": 7, "9": 7}, "don": None, "sheriff": None}},
             {"best_move": [3, 5, 6]}]
    game = replay_script(parse_table_script("\n".join(json.dumps(x) for x in lines), "t")).game
    for seat in (3, 5, 9):
        game.apply(Remove(seat))
    return game


def test_the_flat_points_system_gives_the_evenings_results_table() -> None:
    assert Points().as_dict() == POINTS_DEFAULTS  # one table of defaults in both places
    one = finished_game(TimeUp("dealing"), Foul(2), Foul(4), Foul(4), Remove(3), Remove(5),
                        Remove(9))
    two = finished_game(TimeUp("dealing"), Remove(2), Remove(4), Remove(6), Remove(7))
    three = best_move_game()
    seatings = [{s: s for s in range(1, 11)}, {s: 11 - s for s in range(1, 11)},
                {s: (s % 10) + 1 for s in range(1, 11)}]
    played = list(zip((one, two, three), seatings, strict=True))
    assert all(g.winner is not None for g in (one, two, three))
    roster = [(n, f"p{n}") for n in range(1, 11)]
    for points in ({**POINTS_DEFAULTS, "win": 3.0, "loss": -1.0, "foul": -0.5, "removal": -2.0,
                    "best_move_black": 0.5}, Points().as_dict()):
        table = tally(played, roster, points)
        standings = score(points_table_system(points), [club_games(g, s) for g, s in played])
        assert [(s.key, s.wins) for s in standings] == [(r.number, r.wins) for r in table]
        assert [s.total for s in standings] == pytest.approx([r.points for r in table])
