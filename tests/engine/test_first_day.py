"""The club option ``first_day``: the first day as clubs play it in published records.

- ``"vote"``: the rule texts (crime-time 2.2.1, 2.4): day 1 votes;
- ``"none"``: day 1 has its discussion and nominations and no vote: after the last speech the
  narrator says so, and the night follows; the protocol's day 1 keeps its nominations, with no
  rounds;
- ``"lift_only"``: day 1 votes, but only the lift removes — a round's single leader (the first
  vote or a re-vote, 2.4.1) speaks for a tie speech's length and stays; a tie goes the usual
  way (the tied speak, the re-vote, the question of 2.4.2), and only a question that passes
  removes.

Taken by crime-time, professional and vrn-closed; vrn (whose day 1 is the introduction round)
and amateur refuse "none" and "lift_only" in one line. Default roles: sheriff 1, don 3, mafia 5
and 9.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.club.file import read_club
from narrator.engine import CrashRecord, Game, Phase, VoteRound
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.options import OptionError, apply_options, options_of
from narrator.engine.rules import find_rules
from narrator.errors import ScriptError
from narrator.host.club import club_rules
from narrator.host.journal import Journal, load_journal
from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult, replay_script
from narrator.testing import random_action
from tests.engine.conftest import day_speeches
from tests.helpers import ROLES, SCRIPT_ROLES

ALL = list(range(1, 11))
TAKING = ("crime-time", "professional", "vrn-closed")
HIT_7 = {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}
NO_VOTE = "В первый день голосование не проводится"


def play(first_day: str, *lines: dict[str, Any], rules: str = "crime-time",
         options: dict[str, Any] | None = None) -> ReplayResult:
    header = {"rules": rules, "roles": SCRIPT_ROLES,
              "options": {"first_day": first_day, **(options or {})}}
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))
    return replay_script(parse_table_script(text, "t"))


def nominate(pairs: dict[int, int]) -> list[dict[str, Any]]:
    """Day 1's discussion from seat 1, where ``pairs`` maps speaker → the seat nominated."""
    says = {s: [[1.0, f"выставляю номер {t}"], [2.0, "спасибо"]] for s, t in pairs.items()}
    return day_speeches(ALL, says)


def events_of(result: ReplayResult) -> list[ev.Event]:
    """Every event of the game, again from its history (for what is not in the protocol)."""
    game = result.game.table_copy()
    out = game.start()
    for action in result.game.history:
        out += game.apply(action)
    return out


# -- the option ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", TAKING)
@pytest.mark.parametrize("value", ["none", "lift_only"])
def test_the_option_is_taken_and_travels_in_the_journal(name: str, value: str,
                                                        tmp_path: Path) -> None:
    rules = apply_options(find_rules(name), {"first_day": value})
    assert rules.name == name and rules.first_day == value
    assert options_of(rules) == {"first_day": value}
    assert find_rules(name).first_day == "vote"  # the ruleset itself is untouched
    game = Game(rules, roles=ROLES)
    path = tmp_path / "j.jsonl"
    Journal.for_game(path, game, fsync=False).close()
    head = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert head["options"] == {"first_day": value}
    assert load_journal(path).game().rules.first_day == value  # no rules file needed


@pytest.mark.parametrize("value", ["none", "lift_only"])
def test_a_clubs_rules_file_sets_it(value: str, tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(f'first_day = "{value}"\nspeech = 45\n', encoding="utf-8")
    assert dict(read_club(path).options) == {"first_day": value, "speech": 45.0}
    rules = club_rules(find_rules("professional"), path)
    assert rules.name == "professional" and rules.first_day == value


@pytest.mark.parametrize("name", ["crime-time", "professional", "vrn", "vrn-closed", "amateur"])
def test_vote_is_every_rulesets_own_first_day_and_changes_nothing(name: str) -> None:
    rules = apply_options(find_rules(name), {"first_day": "vote"})
    assert type(rules) is type(find_rules(name)) and options_of(rules) == {}


@pytest.mark.parametrize(("name", "why"), [
    ("vrn", "its day 1 is the introduction round"),
    ("amateur", "it puts up by thumbs and has no question for the tied"),
])
@pytest.mark.parametrize("value", ["none", "lift_only"])
def test_vrn_and_amateur_refuse_it_in_one_line(name: str, why: str, value: str,
                                               tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.toml"
    path.write_text(f'first_day = "{value}"\n', encoding="utf-8")
    journal = tmp_path / "j.jsonl"
    assert main(["play", "--rules", name, "--rules-file", str(path),
                 "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert err == (f"narrator: {path}: first_day: {name} plays its own first day ({why}); "
                   f"\"{value}\" is for crime-time, professional, vrn-closed\n")
    assert not journal.exists()
    with pytest.raises(OptionError, match=f"options: first_day: {name} plays its own"):
        apply_options(find_rules(name), {"first_day": value})


def test_a_value_it_does_not_know_is_one_line_naming_the_script_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.table.jsonl"
    header = {"rules": "crime-time", "roles": SCRIPT_ROLES, "options": {"first_day": "zero"}}
    path.write_text(json.dumps(header) + '\n{"speech": 1}\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"narrator: {path}:1: options: first_day: expected \"vote\", \"none\" or "
        "\"lift_only\", got 'zero'\n")


def test_a_vrn_script_header_with_lift_only_is_refused() -> None:
    header = {"rules": "vrn", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1, "doctor": 6,
                                        "maniac": 8}, "maniac_side": "city",
              "options": {"first_day": "lift_only"}}
    with pytest.raises(ScriptError, match="first_day: vrn plays its own first day"):
        parse_table_script(json.dumps(header), "g")


# -- "vote": the rule texts ----------------------------------------------------------------------

def test_vote_day_1_votes_and_the_leader_leaves() -> None:
    result = play("vote", *nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6, 8]}})
    day1 = result.game.days[0]
    assert day1.rounds == [VoteRound((5, 7), {5: 6, 7: 4})]
    assert day1.out == [5]
    assert result.game.expect == w.Speech(result.game.expect.timer, (5,), False,
                                          result.game.expect.serial, 5, "last")


# -- "none": speeches and nominations, no vote -----------------------------------------------------

@pytest.mark.parametrize("name", TAKING)
def test_none_keeps_the_nominations_says_there_is_no_vote_and_night_follows(name: str) -> None:
    result = play("none", *nominate({1: 5, 2: 7, 4: 5}), rules=name)
    game = result.game
    assert game.phase == Phase.night(2)  # the night follows the last speech
    day1 = result.game.days[0]
    assert day1.nominations == [5, 7]  # kept, in order of first nomination
    assert day1.rounds == [] and day1.crash is None and day1.out == []
    said = result.transcript.said
    i = said.index(NO_VOTE)  # after the last speech, and then the night
    assert said[i - 1:i + 2] == ["Слово игроку номер десять", NO_VOTE, "Наступает ночь"]
    assert not any(s.startswith("На голосование") for s in said)
    assert ev.VotingCancelled("first_day") in events_of(result)


def test_none_says_it_even_when_nobody_was_nominated_and_day_2_votes() -> None:
    says = {2: [[1.0, "выставляю номер пять"]], 6: [[1.0, "выставляю номер девять"]]}
    result = play("none", *day_speeches(ALL), HIT_7, {"speech": 7},
                  *day_speeches([2, 3, 4, 5, 6, 8, 9, 10, 1], says))
    events = events_of(result)
    assert ev.VotingCancelled("first_day") in events
    assert ev.VotingCancelled("no_candidates") not in events  # day 1 says only why: the option
    said = result.transcript.said
    assert said.count(NO_VOTE) == 1  # day 2 is an ordinary day
    i = said.index("На голосование выставлены две кандидатуры")  # day 2
    assert said[i + 1:i + 3] == ["номер пять", "и номер девять"]
    assert result.game.expect.tag == "vote"


def test_none_a_removal_on_day_1_cancels_day_2s_vote() -> None:
    """2.4.3: a removal cancels the vote not yet completed — day 1 holds none, so it is day
    2's."""
    result = play("none", *nominate({1: 5})[:3], {"remove": 4},
                  *day_speeches([5, 6, 7, 8, 9, 10]), HIT_7, {"speech": 7},
                  *day_speeches([2, 3, 5]),
                  {"speech": 6, "say": [[1.0, "выставляю номер девять"], [2.0, "спасибо"]]},
                  *day_speeches([8, 9, 10, 1]))
    events = events_of(result)
    cancelled = [e for e in events if isinstance(e, ev.VotingCancelled)]
    assert cancelled == [ev.VotingCancelled("first_day"), ev.VotingCancelled("monster")]
    assert result.game.phase == Phase.night(3)


# -- "lift_only": only the lift removes on day 1 ---------------------------------------------------

@pytest.mark.parametrize("name", TAKING)
def test_lift_only_a_single_leader_speaks_for_a_tie_speechs_length_and_stays(name: str) -> None:
    result = play("lift_only", *nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6, 8]}},
                  rules=name)
    game = result.game
    exp = game.expect
    assert isinstance(exp, w.Speech) and (exp.seat, exp.speech) == (5, "leader")
    assert exp.timer is not None and exp.timer.seconds == game.rules.tie_speech_seconds == 30.0
    assert exp.timer.warning_at is None
    said = result.transcript.said
    assert said[-2:] == ["В первый день одного игрока голосованием не выводят: номер пять "
                         "остается за столом", "Игрок номер пять, у вас тридцать секунд"]
    assert ev.Stays((5,), "first_day") in events_of(result)
    # the speech ends, and the night follows: nobody left
    after = play("lift_only", *nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6, 8]}},
                 {"speech": 5, "say": [[10.0, "выставляю номер семь"], [12.0, "спасибо"]]},
                 rules=name)
    assert after.game.phase == Phase.night(2) and after.game.out == {}
    day1 = after.game.days[0]
    assert day1.out == [] and day1.rounds == [VoteRound((5, 7), {5: 6, 7: 4})]
    assert after.game.refused[-1].reason == "not_discussion"


def test_lift_only_the_leader_of_a_revote_stays_too() -> None:
    """2.4.1: a tie speaks and is voted again; a single leader of the re-vote stays as well."""
    result = play("lift_only", *nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6]}},
                  {"speech": 5}, {"speech": 7}, {"vote": {"5": [1, 2, 3, 4, 6, 8]}},
                  {"speech": 5})
    day1 = result.game.days[0]
    assert [r.votes for r in day1.rounds] == [{5: 5, 7: 5}, {5: 6, 7: 4}]
    assert day1.out == [] and result.game.phase == Phase.night(2)
    speeches = [(e.seat, e.kind) for e in events_of(result) if isinstance(e, ev.SpeechStarted)]
    assert speeches[-3:] == [(5, "tie"), (7, "tie"), (5, "leader")]


@pytest.mark.parametrize(("hands", "out"), [([1, 2, 3, 4, 6, 8], [5, 7]), ([1, 2], [])])
def test_lift_only_a_tie_again_goes_to_the_question_and_only_a_pass_removes(
        hands: list[int], out: list[int]) -> None:
    """2.4.2: the question of the tied; a majority removes them all, else they stay."""
    lines: list[dict[str, Any]] = [*nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6]}},
                                   {"speech": 5}, {"speech": 7},
                                   {"vote": {"5": [1, 2, 3, 4, 6]}}, {"crash": hands}]
    result = play("lift_only", *lines)
    day1 = result.game.days[0]
    assert day1.crash.passed is bool(out) and day1.out == out
    if out:  # the last words of those the question removed (2.4.2)
        assert result.game.expect == w.Speech(result.game.expect.timer, (5,), False,
                                              result.game.expect.serial, 5, "last")
    else:
        assert result.game.phase == Phase.night(2)


def test_lift_only_professional_puts_its_question_after_any_tie_of_the_revote() -> None:
    result = play("lift_only", *nominate({1: 5, 2: 7, 3: 8}),
                  {"vote": {"5": [1, 2, 3, 4], "7": [5, 6, 9, 10], "8": []}},
                  {"speech": 5}, {"speech": 7}, {"vote": {"5": [1, 2, 3, 4, 6]}},
                  {"crash": [1, 2, 3, 4, 6, 7]}, rules="professional")
    day1 = result.game.days[0]
    assert day1.crash == CrashRecord(6, 4, True) and day1.out == [5, 7]


def test_lift_only_a_clubs_tie_speech_figure_is_the_leaders_too() -> None:
    result = play("lift_only", *nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6, 8]}},
                  options={"tie_speech": 20})
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and exp.timer is not None and exp.timer.seconds == 20.0
    assert result.transcript.said[-1] == "Игрок номер пять, ваше слово"  # no «тридцать»


def test_lift_only_day_2_votes_as_the_rule_texts() -> None:
    result = play("lift_only", *nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6, 8]}},
                  {"speech": 5}, HIT_7, {"speech": 7}, *nominate({2: 5})[1:6],
                  *day_speeches([8, 9, 10, 1]), {"vote": {"5": [1, 2, 3]}})
    day2 = result.game.days[1]
    assert day2.out == [5]  # the single leader of day 2 leaves (2.4)


def test_lift_only_a_lone_candidate_on_day_1_is_voted_on_speaks_and_stays() -> None:
    """``lift_only`` is 7.16.2 "to_talk", which has no "a single candidate is not voted on"
    (its siblings 7.16.1, .3, .4 say it): the judge's app votes on him (js/src/game.js,
    ``_gameCanStartVoting``: «if (noms.length == 0 || (noms.length == 1 && game.time.round ==
    0)) return gameGetRule(4) == 1;», RULES_FIRST_DAY_VOTING_TO_TALK). Every hand is his
    (2.4: the abstainers count for the last candidate), he wins, speaks and stays."""
    result = play("lift_only", *nominate({1: 5}), {"vote": {"5": []}})
    events = events_of(result)
    assert not any(isinstance(e, ev.VotingCancelled) for e in events)
    assert ev.VotingStarted(1, (5,)) in events
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and (exp.seat, exp.speech) == (5, "leader")
    standard = play("vote", *nominate({1: 5}))  # 2.2.1 / 7.16.1: no vote at all
    assert ev.VotingCancelled("single_candidate_day1") in events_of(standard)
    assert standard.game.phase == Phase.night(2)


# -- random games ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", TAKING)
@pytest.mark.parametrize("value", ["none", "lift_only"])
def test_random_games_end_and_day_1_removes_only_by_the_lift(name: str, value: str) -> None:
    rules = apply_options(find_rules(name), {"first_day": value})
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(rules, rng=rng)
        game.start()
        while not game.is_over:
            game.apply(random_action(game, rng))
        day1 = next(d for d in game.days if d.number == 1)
        voted_out = {s for s, info in game.out.items()
                     if info.day == 1 and info.how == "vote"}
        assert voted_out == set(), (seed, voted_out)  # a single leader never leaves on day 1
        if value == "none":
            assert day1.rounds == [] and day1.crash is None
