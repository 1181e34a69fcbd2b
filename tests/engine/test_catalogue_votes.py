"""The vote's groups of the rule catalogue (MafiaRatings' ``include/rules.php``): 7.16
``first_voting``, 7.18 ``split_order``, 7.21 ``kill_all``, 7.22 ``split_on_four``, 7.23
``split_on_nine``, played as club options. Default roles: sheriff 1, don 3, mafia 5 and 9.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import Game, Phase, Team, VoteRound, parse_action
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.catalogue import code_of
from narrator.engine.errors import IllegalActionError
from narrator.engine.options import OptionError, apply_options
from narrator.engine.rules import find_rules
from narrator.engine.verdict import VoteState, no_crash
from narrator.host.host import Host
from narrator.host.journal import Journal, load_journal
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult, replay_script
from narrator.testing import random_action
from narrator.voice.manifest import default_manifest
from tests.engine.conftest import day_speeches
from tests.helpers import SCRIPT_ROLES

ALL = list(range(1, 11))
HIT_7 = {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}


def play(options: dict[str, Any], *lines: dict[str, Any],
         rules: str = "crime-time") -> ReplayResult:
    header = {"rules": rules, "roles": SCRIPT_ROLES, "options": options}
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))
    return replay_script(parse_table_script(text, "t"))


def nominate(pairs: dict[int, int], seats: list[int] | None = None) -> list[dict[str, Any]]:
    """A day's discussion of ``seats`` (all, from 1), ``pairs``: speaker → the seat nominated."""
    says = {s: [[1.0, f"выставляю номер {t}"], [2.0, "спасибо"]] for s, t in pairs.items()}
    return day_speeches(seats or ALL, says)


def events_of(result: ReplayResult) -> list[ev.Event]:
    game = result.game.table_copy()
    out = game.start()
    for action in result.game.history:
        out += game.apply(action)
    return out


# -- 7.16 first_voting -----------------------------------------------------------------------------

def test_7_16_1_standard_one_candidate_on_day_1_is_not_voted_on_and_the_leader_leaves() -> None:
    """7.16.1 «Если в первый игровой «день» выставлена только одна кандидатура, то голосование
    не проводится» (crime-time 2.2.1); a single leader leaves (2.4)."""
    lone = play({"first_voting": "standard"}, *nominate({1: 5}))
    assert ev.VotingCancelled("single_candidate_day1") in events_of(lone)
    two = play({"first_voting": "standard"}, *nominate({1: 5, 2: 7}),
               {"vote": {"5": [1, 2, 3, 4, 6, 8]}})
    assert two.game.days[0].out == [5]


def test_7_16_2_to_talk_plays_as_first_day_lift_only_by_one_path() -> None:
    """7.16.2 «Игрок победивший в голосовании в первый игровой «день» не покидает игру, а
    просто получает дополнительные 30 секунд»: the same game as ``first_day = "lift_only"``."""
    rules = apply_options(find_rules("crime-time"), {"first_voting": "to_talk"})
    assert rules.first_day == "lift_only" and code_of(rules)[4] == "1"
    lines = (*nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6, 8]}})
    talk = play({"first_voting": "to_talk"}, *lines)
    lift = play({"first_day": "lift_only"}, *lines)
    assert talk.transcript.said == lift.transcript.said
    assert events_of(talk) == events_of(lift)
    exp = talk.game.expect
    assert isinstance(exp, w.Speech) and (exp.seat, exp.speech) == (5, "leader")


def test_7_16_3_no_breaking_the_single_leader_stays_without_a_word_and_night_falls() -> None:
    """7.16.3 «Если в голосовании побеждает только один игрок, то никто не умирает, слово ему
    не дается, наступает ночь»."""
    result = play({"first_voting": "no_breaking"}, *nominate({1: 5, 2: 7}),
                  {"vote": {"5": [1, 2, 3, 4, 6, 8]}})
    game = result.game
    assert game.phase == Phase.night(2) and game.out == {}
    assert ev.Stays((5,), "first_day") in events_of(result)
    assert not any(isinstance(e, ev.SpeechStarted) and e.kind == "leader"
                   for e in events_of(result))


def test_7_16_3_no_breaking_a_tie_speaks_30_s_and_two_may_be_lifted() -> None:
    """7.16.3 «В случае попила, игроки разговаривают по 30 секунд. Поднять двоих можно»."""
    result = play({"first_voting": "no_breaking"}, *nominate({1: 5, 2: 7}),
                  {"vote": {"5": [1, 2, 3, 4, 6]}}, {"speech": 5}, {"speech": 7},
                  {"vote": {"5": [1, 2, 3, 4, 6]}}, {"crash": [1, 2, 3, 4, 6, 8]})
    day1 = result.game.days[0]
    assert day1.out == [5, 7] and day1.crash is not None and day1.crash.passed
    speeches = [(e.seat, e.kind) for e in events_of(result) if isinstance(e, ev.SpeechStarted)]
    assert (5, "tie") in speeches and (7, "tie") in speeches


def test_7_16_3_no_breaking_one_candidate_is_not_voted_on() -> None:
    """7.16.3 «Если в первый игровой «день» выставлена только одна кандидатура, то голосование
    не проводится»."""
    result = play({"first_voting": "no_breaking"}, *nominate({1: 5}))
    assert ev.VotingCancelled("single_candidate_day1") in events_of(result)


def test_7_16_4_breaking_to_themself_the_leader_who_voted_for_himself_leaves() -> None:
    """7.16.4 «Если в голосовании победил только один игрок, то он умирает только в том
    случае, если проголосовал за себя сам»."""
    result = play({"first_voting": "breaking_to_themself"}, *nominate({1: 5, 2: 7}),
                  {"vote": {"5": [1, 2, 3, 5, 6, 8]}})
    assert result.game.days[0].out == [5]


def test_7_16_4_breaking_to_themself_otherwise_he_speaks_30_s_and_stays() -> None:
    """7.16.4 «В остальных случаях он просто получает дополнительные 30 секунд для речи»."""
    result = play({"first_voting": "breaking_to_themself"}, *nominate({1: 5, 2: 7}),
                  {"vote": {"5": [1, 2, 3, 4, 6, 8]}})
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and (exp.seat, exp.speech) == (5, "leader")
    assert result.game.days[0].out == []


def test_7_16_4_an_abstaining_last_candidate_voted_for_himself() -> None:
    """2.4: «воздержавшиеся считаются проголосовавшими за последнюю выставленную
    кандидатуру» — the last candidate who raised no hand voted for himself."""
    result = play({"first_voting": "breaking_to_themself"}, *nominate({1: 5, 2: 7}),
                  {"vote": {"5": [1, 2]}})
    assert result.game.days[0].rounds[0] == VoteRound((5, 7), {5: 2, 7: 8})
    assert result.game.days[0].out == [7]


def test_7_16_4_a_count_without_seats_is_refused_on_day_1() -> None:
    """7.16.4 needs to know whether the leader voted for himself: a count cannot tell."""
    rules = apply_options(find_rules("crime-time"), {"first_voting": "breaking_to_themself"})
    result = play({"first_voting": "breaking_to_themself"}, *nominate({1: 5, 2: 7}))
    game = Game(rules, roles=result.game.roles)
    game.start()
    for action in result.game.history:
        game.apply(action)
    assert isinstance(game.expect, w.Vote)
    count = parse_action("count 3")
    refusal = game.refusal(count)
    assert refusal == "seats_needed"
    with pytest.raises(IllegalActionError, match="by seat"):
        game.apply(count)


@pytest.mark.parametrize("name", ["vrn", "amateur"])
def test_7_16_rulesets_with_their_own_first_day_refuse_the_group(name: str) -> None:
    with pytest.raises(OptionError, match="own first day"):
        apply_options(find_rules(name), {"first_voting": "no_breaking"})


# -- 7.18 split_order ------------------------------------------------------------------------------

def test_7_18_2_reverse_the_revote_goes_in_the_reverse_order() -> None:
    """7.18.2 «Повторное голосование после попила происходит в обратном порядке по сравнению с
    предыдущим»; the narrator says so, and the abstainers count for the new last (2.4)."""
    # the tie speeches go in the re-vote's order too (js/src/game.js: after the first vote
    # «game.time.speaker = winners[0]», winners = gameGetNominees(1), reversed; each next
    # speaker the next of gameGetNominees() — then «game.time.nominee = noms[0]»)
    result = play({"split_order": "reverse"}, *nominate({1: 5, 2: 7}),
                  {"vote": {"5": [1, 2, 3, 4, 6]}}, {"speech": 7}, {"speech": 5},
                  {"vote": {"7": [1, 2]}})
    rounds = result.game.days[0].rounds
    assert rounds[1] == VoteRound((7, 5), {7: 2, 5: 8})
    assert result.game.days[0].out == [5]
    assert ev.VotingStarted(2, (7, 5), True) in events_of(result)
    said = result.transcript.said
    i = said.index("Повторное голосование")
    assert said[i + 1] == "В обратном порядке"


def test_7_16_2_to_talk_a_lone_candidate_on_day_1_is_voted_on() -> None:
    """7.16.2 has no «only one candidate: no vote»; the judge's app votes on him
    (``_gameCanStartVoting``); he wins every hand, speaks 30 s and stays."""
    result = play({"first_voting": "to_talk"}, *nominate({1: 5}), {"vote": {"5": []}})
    assert ev.VotingStarted(1, (5,)) in events_of(result)
    assert result.game.days[0].rounds[0] == VoteRound((5,), {5: 10})  # every hand (2.4)
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and (exp.seat, exp.speech) == (5, "leader")
    for other in ("standard", "no_breaking", "breaking_to_themself"):  # they say «не проводится»
        lone = play({"first_voting": other}, *nominate({1: 5}))
        assert ev.VotingCancelled("single_candidate_day1") in events_of(lone), other


def test_7_18_1_same_keeps_the_order() -> None:
    result = play({"split_order": "same"}, *nominate({1: 5, 2: 7}),
                  {"vote": {"5": [1, 2, 3, 4, 6]}}, {"speech": 5}, {"speech": 7},
                  {"vote": {"5": [1, 2]}})
    assert result.game.days[0].rounds[1].candidates == (5, 7)
    assert "В обратном порядке" not in result.transcript.said


# -- 7.21 kill_all ---------------------------------------------------------------------------------

def _whole_table(seats: list[int]) -> list[dict[str, Any]]:
    """Every seat of ``seats`` nominated (each the next), all tied twice: 1 hand each."""
    pairs = {s: seats[(i + 1) % len(seats)] for i, s in enumerate(seats)}
    one_each = {str(c): [v] for v, c in pairs.items()}
    return [*nominate(pairs, seats), {"vote": one_each},
            *[{"speech": s} for s in sorted(pairs.values(), key=list(pairs.values()).index)],
            {"vote": one_each}]


def test_7_21_1_prohibited_the_whole_table_tied_twice_night_nobody_leaves() -> None:
    """7.21.1 «Объявляется ночь. Никто не покидает стол» — before, the question put every
    seat out and the civilians won."""
    result = play({"kill_all": "prohibited"}, *_whole_table(ALL))
    game = result.game
    assert ev.CrashNotApplied(tuple(ALL[1:] + ALL[:1]), "all") in events_of(result)
    assert game.out == {} and not game.is_over and game.phase == Phase.night(2)
    assert "Стол поделился между всеми игроками. Никто не покидает стол" in result.transcript.said


def test_7_21_2_draw_the_question_that_passes_is_a_draw() -> None:
    """7.21.2 «Если игроки голосуют за убийство всех, объявляется ничья»."""
    result = play({"kill_all": "draw"}, *_whole_table(ALL), {"crash": ALL[:6]})
    game = result.game
    assert game.is_over and game.winner is Team.DRAW
    assert game.protocol()["winner"] == "draw"
    assert result.transcript.said[-1] == "Игра окончена. Ничья"


def test_7_21_2_draw_a_question_that_fails_keeps_everybody() -> None:
    result = play({"kill_all": "draw"}, *_whole_table(ALL), {"crash": ALL[:5]})
    assert result.game.out == {} and not result.game.is_over


def _draw_script(tmp_path: Path) -> Path:
    header = {"rules": "crime-time", "roles": SCRIPT_ROLES, "options": {"kill_all": "draw"}}
    lines = (header, *_whole_table(ALL), {"crash": ALL[:6]})
    path = tmp_path / "draw.table.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n",
                    encoding="utf-8")
    return path


def test_7_21_2_the_draw_is_exported_as_mafiaratings_tie(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """include/game.php: «winner … Possible values: "civ", "maf", or "tie"»."""
    path = _draw_script(tmp_path)
    assert main(["export", "--format", "mafiaratings", str(path),
                 "--start", "2024-05-01T19:00:00+03:00", "--demo"]) == 0
    assert json.loads(capsys.readouterr().out)["winner"] == "tie"


def test_7_21_2_a_draw_survives_the_journal(tmp_path: Path) -> None:
    """The journal's game, rebuilt, is the draw it recorded (its options in the header)."""
    result = play({"kill_all": "draw"}, *_whole_table(ALL), {"crash": ALL[:6]})
    game = Game(apply_options(find_rules("crime-time"), {"kill_all": "draw"}),
                roles=result.game.roles)
    path = tmp_path / "j.jsonl"
    journal = Journal.for_game(path, game, fsync=False, mode="play")
    host = Host(game, Scheduler(VirtualClock()), Transcript(default_manifest("ru")), journal)
    host.start()
    for action in result.game.history:
        host.apply(action)
    journal.close()
    again = load_journal(path).game()
    assert again.is_over and again.winner is Team.DRAW
    assert again.protocol()["winner"] == "draw"


# -- 7.22 split_on_four, 7.23 split_on_nine (the rule, then a game) --------------------------------

def _settings(**kw: str) -> dict[str, str]:
    return {"split_on_four": "prohibited", "kill_all": "prohibited", "split_on_nine": "yes",
            **kw}


def test_7_22_the_four_rule() -> None:
    """7.22.1 «Дальнейшее происходит как в любом другом раунде»; 7.22.2 «Дальнейшее
    голосование не проводится… Никто не покидает игровой стол» (crime-time 2.4.2: «не
    применяется, если в игре осталось ровно четыре игрока»)."""
    assert no_crash(_settings(), 3, 4, (1, 2)) == "four"
    assert no_crash(_settings(), 3, 4, (1, 2, 3)) == "four"  # crime-time: whoever is tied
    assert no_crash(_settings(split_on_four="allowed"), 3, 4, (1, 2)) is None
    assert no_crash(_settings(), 3, 5, (1, 2)) is None


def test_7_23_the_nine_rule() -> None:
    """7.23.1 as any round; 7.23.2 none; "after1": none on the rating's round 0 and 1 (our
    days 1 and 2: «в первый день (не путать с нулевым)»; js/src/game.js ``_gameCanKillAll``:
    ``game.time.round > 1``)."""
    assert no_crash(_settings(), 2, 9, (1, 2, 3)) is None
    assert no_crash(_settings(split_on_nine="no"), 5, 9, (1, 2, 3)) == "nine"
    assert no_crash(_settings(split_on_nine="no"), 5, 9, (1, 2)) is None
    after1 = _settings(split_on_nine="after1")
    assert [no_crash(after1, day, 9, (1, 2, 3)) for day in (1, 2, 3)] == ["nine", "nine", None]


def test_7_21_the_whole_table_of_four_is_7_21s() -> None:
    assert no_crash(_settings(kill_all="draw"), 3, 4, (1, 2, 3, 4)) is None
    assert no_crash(_settings(), 3, 4, (1, 2, 3, 4)) == "all"


def _day2(nine_ties: dict[str, list[int]]) -> list[dict[str, Any]]:
    """Day 1 without a vote, seat 7 shot; day 2 (9 at the table) nominates 2, 4, 6 and
    ``nine_ties`` is each round's hands."""
    seats = [2, 3, 4, 5, 6, 8, 9, 10, 1]
    return [*nominate({}), HIT_7, {"speech": 7}, *nominate({2: 2, 3: 4, 4: 6}, seats),
            {"vote": nine_ties}, {"speech": 2}, {"speech": 4}, {"speech": 6},
            {"vote": nine_ties}]


@pytest.mark.parametrize(("variant", "crash"), [("yes", True), ("no", False),
                                                ("after1", False)])
def test_7_23_three_of_nine_tied_twice_on_day_2(variant: str, crash: bool) -> None:
    """7.23.1 «дальше всё происходит как в любом другом раунде»; 7.23.2 «дальнейшее голосование
    не проводится»; after1, day 2 is the rating's «первый день»: none either."""
    result = play({"split_on_nine": variant}, *_day2({"2": [1, 2, 3], "4": [4, 5, 6]}))
    events = events_of(result)
    assert any(isinstance(e, ev.CrashStarted) for e in events) is crash
    if not crash:
        assert ev.CrashNotApplied((2, 4, 6), "nine") in events
        assert result.game.phase == Phase.night(3)
        assert ("За столом девять игроков, троих не поднимают. Все кандидаты остаются в игре"
                in result.transcript.said)


def test_7_22_2_four_at_the_table_two_tied_twice_night_nobody_leaves() -> None:
    rules = apply_options(find_rules("crime-time"), {"split_on_four": "prohibited"})
    assert rules.no_crash(5, 4, (2, 4)) == "four"
    allowed = apply_options(find_rules("crime-time"), {"split_on_four": "allowed"})
    assert allowed.no_crash(5, 4, (2, 4)) is None


# -- random games -------------------------------------------------------------------------------

MIXED = {"first_voting": "no_breaking", "split_order": "reverse", "kill_all": "draw",
         "split_on_four": "allowed", "split_on_nine": "after1"}


@pytest.mark.parametrize("name", ["crime-time", "professional"])
def test_random_games_of_every_vote_variant_end(name: str) -> None:
    rules = apply_options(find_rules(name), MIXED)
    assert code_of(rules)[4:9] == "21102"
    for seed in range(30):
        rng = random.Random(seed)
        game = Game(rules, rng=rng)
        game.start()
        while not game.is_over:
            game.apply(random_action(game, rng))
        assert game.winner is not None


def test_the_verdict_sees_who_voted_for_whom() -> None:
    vote = VoteState(1, 1, (5, 7), {5: 6, 7: 4}, [], frozenset(), 10,
                     {5: frozenset({5, 1}), 7: frozenset()})
    rules = apply_options(find_rules("crime-time"), {"first_voting": "breaking_to_themself"})
    assert rules.verdict(vote).out == (5,)


def test_7_16_4_the_operators_count_is_refused_with_the_engines_reason() -> None:
    """The operator's count on day 1 under 7.16.4 is the engine's ``seats_needed``; the
    host's desk (assist, play) says the same in words; day 1's hands by seat are taken."""
    from narrator.console.settings import ConsoleSettings
    from narrator.errors import NarratorError
    from tests.console.conftest import make_rig

    rules = apply_options(find_rules("crime-time"), {"first_voting": "breaking_to_themself"})
    rig = make_rig(ConsoleSettings(hand_votes=True), rules=rules)
    rig.to_the_vote()
    exp = rig.game.expect
    assert isinstance(exp, w.Vote)
    assert rig.op("hands", candidate=exp.candidate, count=3).reason == "seats_needed"
    with pytest.raises(NarratorError, match="by seat"):
        rig.table.desk.hand_count(3)


def test_7_16_4_the_assists_hint_asks_for_the_seats_on_day_1() -> None:
    """The assist's hint is the engine's answer: seats, not a count, under 7.16.4."""
    from narrator.assist.control import HINT_WIDTH, hint
    from tests.helpers import ROLES

    rules = apply_options(find_rules("crime-time"), {"first_voting": "breaking_to_themself"})
    result = play({"first_voting": "breaking_to_themself"}, *nominate({1: 5, 2: 10}))
    game = Game(rules, roles=ROLES)
    game.start()
    for action in result.game.history:
        game.apply(action)
    said = hint(game)
    assert said.startswith("seats Enter") and len(said) <= HINT_WIDTH
