"""Each player's matters of a finished game, as MafiaRatings sets them.

MafiaRatings' scoring gives points for "matters" (include/scoring.php, ``SCORING_FLAG_*``),
which include/game_players_stats.php sets for each player of its game record. Each test here is
a game that has the matter (and, where it matters, one that nearly has it), the PHP's words
quoted. Rounds there count from 0: its round 1 night (its "first night") is our night 2.
"""

from __future__ import annotations

import json
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from narrator.engine import Game, HandCount, Hands, Role, Team
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.replay.mafiaratings import mafiaratings
from narrator.replay.script import parse_table_script
from narrator.replay.source import GameSource, load_source
from narrator.replay.table import replay_script
from narrator.scoring.matters import Matter, PlayerGame, ScoringRole, matters_of, scoring_role
from narrator.testing import play_random_game
from tests.helpers import SCRIPT_ROLES  # sheriff 1, don 3, mafia 5 and 9
from tests.scoring.record_flags import record_flags

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.table.jsonl"))
ALL = list(range(1, 11))
BLACK = (3, 5, 9)


def game_of(*lines: dict[str, Any], options: dict[str, Any] | None = None,
            rules: str = "crime-time", roles: dict[str, Any] | None = None) -> Game:
    header = {"rules": rules, "roles": roles or SCRIPT_ROLES, "options": options or {}}
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))
    return replay_script(parse_table_script(text, "t")).game


def example(name: str) -> Game:
    return load_source(Path(__file__).resolve().parents[2] / "examples"
                       / f"{name}.table.jsonl").game


def speeches(*seats: int) -> list[dict[str, Any]]:
    return [{"speech": s} for s in seats]


def nominates(seat: int, target: int) -> dict[str, Any]:
    return {"speech": seat, "say": [[5, f"выставляю номер {target}"], [10, "спасибо"]]}


def named(player: PlayerGame) -> set[str]:
    """The matters of ``player`` by name (PLAY left out: every player has it)."""
    return {m.name for m in Matter if player.has(m) and m is not Matter.PLAY}


def seats_with(game: Game, matter: Matter) -> list[int]:
    return [seat for seat, p in matters_of(game).items() if p.has(matter)]


# -- the games ------------------------------------------------------------------------------------

#: sport fouls and the best move: 7 shot in night 2 names 3, 5 and 6; 8 removed by the 4th
#: foul on day 2; the don finds the sheriff in night 2, who is voted out on day 3; 2 is shot
#: in night 3; the mafia win
def sport(best_move: list[int] | None = None) -> Game:
    return game_of(
        *speeches(*ALL),
        {"night": {"shots": {"3": 7, "5": 7, "9": 7}, "don": 1, "sheriff": 3}},
        {"best_move": best_move or [3, 5, 6]},
        *speeches(7, 2), *[{"foul": 8}] * 4, *speeches(3, 4, 5, 6, 9, 10, 1),
        {"night": {"shots": {"3": 2, "5": 2, "9": 2}}},
        {"speech": 2}, nominates(3, 1), *speeches(4, 5, 6, 9, 10, 1),
        {"vote": {"1": [3, 4, 5, 6, 9, 10]}},
        options={"fouls": "sport", "best_move": True})


#: the sheriff checks three reds (2, 4, 10 in nights 2-4); 7 and 6 are shot, the host removes
#: 8 on day 2, night 4's shots miss, 10 is voted out on day 4 and the mafia win
def three_red_checks(*marks: dict[str, Any],
                     removal: tuple[dict[str, Any], ...] = ({"remove": 8},)) -> Game:
    return game_of(
        *speeches(*ALL),
        {"night": {"shots": {"3": 7, "5": 7, "9": 7}, "don": 2, "sheriff": 2}},
        *speeches(7, 2, 3, 4, 5, 6), *removal, *speeches(9, 10, 1),
        {"night": {"shots": {"3": 6, "5": 6, "9": 6}, "don": 4, "sheriff": 4}},
        *speeches(6, 3, 4, 5, 9, 10, 1, 2),
        {"night": {"shots": {"3": 2, "5": 4, "9": 2}, "don": 1, "sheriff": 10}},
        nominates(4, 10), *speeches(5, 9, 10, 1, 2, 3),
        {"vote": {"10": [1, 2, 3, 4, 5, 9, 10]}},
        *({"mark": m} for m in marks), options={"tech_fouls": "yes"})


#: the whole table nominated and tied twice; the question passes: a draw (7.21.2)
def draw() -> Game:
    says = {s: [[1.0, f"выставляю номер {s % 10 + 1}"], [2.0, "спасибо"]] for s in ALL}
    one_each = {str(s % 10 + 1): [s] for s in ALL}
    return game_of(*[{"speech": s, "say": says[s]} for s in ALL], {"vote": one_each},
                   *speeches(*[s % 10 + 1 for s in ALL]), {"vote": one_each},
                   {"crash": ALL[:6]}, options={"kill_all": "draw"})


# -- who played, who won --------------------------------------------------------------------------

def test_an_unfinished_game_has_no_matters() -> None:
    game = Game(roles={1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA})
    game.start()
    with pytest.raises(NarratorError, match="the game is not over"):
        matters_of(game)


def test_the_mafia_win_clear_and_their_survivors_survive() -> None:
    """«if ($data->winner == 'maf')» the blacks have WIN, «if ($maf_day_kills == 0)» CLEAR_WIN,
    «if (!isset($game_player->death))» SURVIVE; the reds LOSE, and «if ($maf_day_kills == 0)»
    (every day kill theirs) CLEAR_LOSE. A loser who is still at the table does not survive:
    the PHP sets SURVIVE for the winners only."""
    players = matters_of(example("mafia-wins"))  # 4 and 7 (reds) voted out, 10 and 3 shot
    for seat in (2, 6, 8):
        assert named(players[seat]) >= {"WIN", "CLEAR_WIN", "SURVIVE"}
    assert named(players[5]) == {"LOSE", "CLEAR_LOSE", "SHERIFF_FOUND_FIRST_NIGHT",
                                 "SHERIFF_KILLED_FIRST_NIGHT"}  # at the table to the end
    assert all(players[s].has(Matter.CLEAR_LOSE) for s in (1, 3, 4, 7, 9, 10))


def test_a_black_and_a_red_out_at_day_leave_nobody_a_clear_result() -> None:
    """The car crash puts out 4 (mafia) and 5 (a civilian) on day 1: «All players killed in a
    daytime were from another team» holds for no team."""
    game = example("car-crash")
    assert game.winner is Team.RED
    assert seats_with(game, Matter.CLEAR_WIN) == seats_with(game, Matter.CLEAR_LOSE) == []
    assert seats_with(game, Matter.WIN) == [1, 2, 3, 5, 6, 8, 10]
    assert seats_with(game, Matter.SURVIVE) == [1, 2, 6, 8, 10]  # 3 shot, 5 out in the crash


def test_a_removal_is_a_day_kill_of_its_team() -> None:
    """Every death that is not «DEATH_TYPE_NIGHT» counts in ``$civ_day_kills`` or
    ``$maf_day_kills``: the host's removal of red 8 and red 10 voted out leave the blacks a
    clear win."""
    game = three_red_checks()
    assert seats_with(game, Matter.CLEAR_WIN) == list(BLACK)
    assert seats_with(game, Matter.CLEAR_LOSE) == [1, 2, 4, 6, 7, 8, 10]


def test_a_draw_is_a_tie_and_neither_a_win_nor_a_loss() -> None:
    """«else { $player->scoring_flags |= SCORING_FLAG_TIE; }» — for a game whose winner is
    neither 'maf' nor 'civ' (our draw, 7.21.2, exported as "tie")."""
    players = matters_of(draw())
    assert {seat: named(p) for seat, p in players.items()} == {seat: {"TIE"} for seat in ALL}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_every_example_plays_and_each_seat_wins_loses_or_ties(path: Path) -> None:
    game = load_source(path).game
    players = matters_of(game)
    assert sorted(players) == list(range(1, game.seats + 1))
    for seat, player in players.items():
        assert player.seat == seat and player.has(Matter.PLAY)
        results = [m for m in (Matter.WIN, Matter.LOSE, Matter.TIE) if player.has(m)]
        team = game.rules.team(game.roles[seat], game.dealt)
        expected = (Matter.TIE if game.winner is Team.DRAW
                    else Matter.WIN if team is game.winner else Matter.LOSE)
        assert results == [expected]
        # none of our games has these (no seat gives up, no team is removed as a whole)
        assert not player.has(Matter.SURRENDERED) and not player.has(Matter.TEAM_KICK_OUT)


# -- the host's marks --------------------------------------------------------------------------------

MARKS = ({"seat": 3, "points": 0.3, "titles": ["best_player"], "comment": "нашёл шерифа"},
         {"seat": 4, "points": -0.5, "comment": "подсказал"},
         {"seat": 5, "titles": ["best_move", "worst_move"], "comment": "рискнул"},
         {"seat": 9, "comment": "тихо сыграл"})


def test_the_hosts_titles_and_points_are_matters_and_the_bonus() -> None:
    """«if ($bonus == 'bestPlayer')», «'bestMove'», «'worstMove'»; and «if
    (isset($game_player->bonus))» EXTRA_POINTS — the export writes a bonus for points other
    than 0 or any title, so a title alone sets it too (its extra is 0); a comment alone is no
    bonus."""
    players = matters_of(three_red_checks(*MARKS))
    assert players[3].has(Matter.BEST_PLAYER) and players[3].has(Matter.EXTRA_POINTS)
    assert players[3].extra == pytest.approx(0.3)
    assert named(players[4]) & {"EXTRA_POINTS", "BEST_PLAYER"} == {"EXTRA_POINTS"}
    assert players[4].extra == pytest.approx(-0.5)
    assert {"BEST_MOVE", "WORST_MOVE", "EXTRA_POINTS"} <= named(players[5])
    assert players[5].extra == 0.0
    assert not players[9].has(Matter.EXTRA_POINTS) and players[9].extra == 0.0
    assert [s for s in ALL if players[s].has(Matter.BEST_PLAYER)] == [3]


# -- deaths -----------------------------------------------------------------------------------------

def test_the_first_nights_victim_and_a_later_nights() -> None:
    """«if ($death_type == DEATH_TYPE_NIGHT)»: KILLED_NIGHT, and «if (… ->round == 1)»
    KILLED_FIRST_NIGHT — its round 1 is our night 2, the first shot; night 3's victim has
    KILLED_NIGHT only."""
    game = sport()
    assert seats_with(game, Matter.KILLED_FIRST_NIGHT) == [7]
    assert seats_with(game, Matter.KILLED_NIGHT) == [2, 7]


def test_the_fourth_foul_and_the_second_technical_foul_are_warnings_4() -> None:
    """«DEATH_TYPE_WARNINGS || DEATH_TYPE_TECH_FOULS» set WARNINGS_4 («warnings and tech
    fouls share the same scoring flag»); a seat with three fouls is still playing."""
    assert seats_with(sport(), Matter.WARNINGS_4) == [8]
    game = three_red_checks(removal=({"tech_foul": 8}, {"tech_foul": 8}))
    assert game.how_out(8) == "removed"
    assert seats_with(game, Matter.WARNINGS_4) == [8] and seats_with(game, Matter.KICK_OUT) == []
    three = example("three-fouls-nomination")  # seat 2: three fouls, at the table to the end
    assert three.fouls == {2: 3} and three.how_out(2) is None
    assert seats_with(three, Matter.WARNINGS_4) == []


def test_the_hosts_removal_is_a_kick_out() -> None:
    """«DEATH_TYPE_KICK_OUT»: the host removed seat 8 (no 4th foul, no 2nd technical one)."""
    game = three_red_checks()
    assert seats_with(game, Matter.KICK_OUT) == [8]
    assert seats_with(game, Matter.WARNINGS_4) == []


# -- the best move ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("best_move", "matter"), [
    ([3, 5, 9], Matter.FIRST_LEGACY_3), ([3, 5, 6], Matter.FIRST_LEGACY_2),
    ([2, 4, 9], Matter.FIRST_LEGACY_1), ([2, 4, 6], None)])
def test_the_first_nights_victim_guessing_mafia(best_move: list[int],
                                                matter: Matter | None) -> None:
    """«if ($mafs_guessed >= 3)» FIRST_LEGACY_3, «else if (>= 2)» _2, «else if (>= 1)» _1:
    the blacks among the three the victim named; none named, none set."""
    game = sport(best_move)
    legacies = (Matter.FIRST_LEGACY_3, Matter.FIRST_LEGACY_2, Matter.FIRST_LEGACY_1)
    players = matters_of(game)
    assert [m for m in legacies if players[7].has(m)] == ([matter] if matter else [])
    assert all(not players[s].has(m) for s in ALL if s != 7 for m in legacies)


# -- votes ------------------------------------------------------------------------------------------

def test_three_votes_against_the_mafia_after_the_first_day() -> None:
    """«voted_civil + voted_sheriff == 0 && voted_mafia >= 3»: 5, 6, 8 and 10 voted 4, 7
    and 9 on days 2-4 (9, a mafioso, voted himself thrice: the PHP counts it so too)."""
    game = example("professional-first-day-none")
    assert seats_with(game, Matter.ALL_VOTES_VS_MAF) == [5, 6, 8, 9, 10]
    assert seats_with(game, Matter.ALL_VOTES_VS_CIV) == []


def test_the_first_days_vote_is_not_counted() -> None:
    """«We exclude voting in round 0 because this is mostly splitting»: 2, 6, 8 and 10 voted
    the three blacks 4, 7 and 9 on days 1-3, which leaves two votings."""
    game = example("first-day-vote")
    assert seats_with(game, Matter.ALL_VOTES_VS_MAF) == []


def test_votes_against_the_civilians_only_and_a_split_days_every_round() -> None:
    """«voted_mafia == 0 && voted_civil + voted_sheriff >= 3»: the don 3 voted 6, 10 twice
    (day 3 split: each round counts), 8 and 7 on days 2-5; 7 voted 9, then 10 twice, then
    3 twice: both teams, neither matter."""
    game = example("professional-four-left")
    assert seats_with(game, Matter.ALL_VOTES_VS_CIV) == [3]
    assert not matters_of(game)[7].has(Matter.ALL_VOTES_VS_MAF)


def test_hands_counted_without_seats_leave_nobody_all_votes() -> None:
    """A human host who counted the hands named no voter: the export then sends no
    ``voting`` at all, and MafiaRatings counts no votes — nor do we."""
    played = example("professional-first-day-none")
    game = Game(played.rules, seats=played.seats, roles=dict(played.roles))
    game.start()
    for action in played.history:
        if isinstance(action, Hands) and isinstance(game.expect, w.Vote):
            action = HandCount(len(action.seats))
        game.apply(action)
    assert game.winner is played.winner
    assert seats_with(game, Matter.ALL_VOTES_VS_MAF) == []
    assert [p.flags & ~Matter.ALL_VOTES_VS_MAF.flag for p in matters_of(game).values()] == [
        p.flags & ~Matter.ALL_VOTES_VS_MAF.flag for p in matters_of(played).values()]


# -- the sheriff and the don ------------------------------------------------------------------------

SHERIFF = (Matter.SHERIFF_KILLED_AFTER_FINDING, Matter.SHERIFF_FOUND_FIRST_NIGHT,
           Matter.SHERIFF_KILLED_FIRST_NIGHT)


def sheriff_matters(game: Game) -> list[Matter]:
    """The sheriff's matters, which every player of the game has («$shared_scoring_flags»)."""
    flags = {p.flags & sum(m.flag for m in SHERIFF) for p in matters_of(game).values()}
    assert len(flags) == 1
    shared = flags.pop()
    return [m for m in SHERIFF if shared & m.flag]


def test_the_sheriff_shot_the_night_after_the_don_found_him() -> None:
    """«if ($death_round == $p->don + 1 …)»: the don found 3 in night 2 (its round 1), the
    sheriff is shot in night 3; «if ($p->don == 1)» found the first night."""
    assert sheriff_matters(example("car-crash")) == [Matter.SHERIFF_KILLED_AFTER_FINDING,
                                                     Matter.SHERIFF_FOUND_FIRST_NIGHT]


def test_the_sheriff_found_and_shot_the_first_night() -> None:
    """«if ($death_round == 1)»: found and shot in night 2 — the same night, not the next."""
    assert sheriff_matters(example("mafia-wins")) == [Matter.SHERIFF_FOUND_FIRST_NIGHT,
                                                      Matter.SHERIFF_KILLED_FIRST_NIGHT]


def test_a_sheriff_found_who_leaves_at_day_gives_none() -> None:
    """The PHP looks at the don's check only «if ($death_type == DEATH_TYPE_NIGHT)»: found in
    night 2 and voted out on day 3 is none of the three; nor is a sheriff found and alive."""
    assert sheriff_matters(sport()) == []
    assert sheriff_matters(three_red_checks()) == []  # the don found 1 in night 4


def test_three_black_checks() -> None:
    """«if ($black_checks >= 3)»: the sheriff 4 checked 8, 2 and 6 (all the blacks)."""
    game = example("professional-red-wins")
    assert seats_with(game, Matter.BLACK_CHECKS) == ALL
    assert seats_with(game, Matter.RED_CHECKS) == []


def test_three_red_checks() -> None:
    """«else if ($red_checks >= 3)»: 2, 4 and 10, all red; two checks are not enough."""
    assert seats_with(three_red_checks(), Matter.RED_CHECKS) == ALL
    shot = example("sheriff-shot-checks")  # the sheriff checked 4 and 8 and was shot
    assert seats_with(shot, Matter.RED_CHECKS) == seats_with(shot, Matter.BLACK_CHECKS) == []


# -- other rulesets ---------------------------------------------------------------------------------

def test_amateurs_commissar_is_the_sheriff_and_the_nurse_a_civilian() -> None:
    """A red that checks at night (the ruleset's checker) scores as the sheriff: the commissar
    4 shot in night 2 is «Sheriff was killed the first night»."""
    game = example("amateur-closed-cards")
    players = matters_of(game)
    assert [s for s, p in players.items() if p.role is ScoringRole.SHERIFF] == [4]
    assert players[8].role is ScoringRole.CIVILIAN  # the nurse
    assert {players[s].role for s in (2, 6)} == {ScoringRole.MAFIA}
    assert sheriff_matters(game) == [Matter.SHERIFF_KILLED_FIRST_NIGHT]


@pytest.mark.parametrize(("name", "maniac", "role"), [
    ("vrn-mafia-wins", 1, ScoringRole.CIVILIAN), ("vrn-maniac-for-mafia", 8, ScoringRole.MAFIA)])
def test_vrns_maniac_scores_for_the_side_he_was_dealt(name: str, maniac: int,
                                                      role: ScoringRole) -> None:
    game = example(name)
    assert game.roles[maniac] is Role.MANIAC
    assert scoring_role(game, maniac) is role
    doctor = game.seat_of(Role.DOCTOR)
    assert doctor is not None and scoring_role(game, doctor) is ScoringRole.CIVILIAN
    winner = Matter.WIN if (role is ScoringRole.MAFIA) is (game.winner is Team.BLACK) \
        else Matter.LOSE
    assert matters_of(game)[maniac].has(winner)


# -- the same matters read from the export ----------------------------------------------------------

def _classic(game: Game) -> bool:
    return game.seats == 10 and sorted(r.value for r in game.roles.values()) == sorted(
        ["civilian"] * 6 + ["sheriff", "don", "mafia", "mafia"])


def _exported(game: Game) -> list[int]:
    source = GameSource(game, "ru", 0.0, Path("game.table.jsonl"))
    return record_flags(mafiaratings(source, start=datetime(2024, 5, 17, 19, 30)).record)


def _games() -> list[tuple[str, Game]]:
    games = [(p.name.split(".")[0], load_source(p).game) for p in EXAMPLES]
    games += [("sport", sport()), ("legacy-3", sport([3, 5, 9])), ("legacy-1", sport([2, 4, 9])), ("marks", three_red_checks(*MARKS)), ("draw", draw()),
              ("tech-fouls", three_red_checks(removal=({"tech_foul": 8}, {"tech_foul": 8})))]
    games += [(f"random-{seed}", play_random_game(random.Random(seed))) for seed in range(12)]
    return [(name, game) for name, game in games if _classic(game) and game.winner is not None]


@pytest.mark.parametrize(("name", "game"), _games(), ids=[n for n, _ in _games()])
def test_the_matters_are_what_the_php_reads_from_our_export(name: str, game: Game) -> None:
    """For every game MafiaRatings takes, the matters read from our game are those its stats
    read from the record our export sends it."""
    assert [p.flags for p in matters_of(game).values()] == _exported(game)
