"""Rulesets are subclasses: each setting or hook a subclass overrides changes the game's flow.

Every test runs the same inputs under crime-time and under a tiny test ruleset that overrides
one thing (the way the other rule texts differ), and checks that only that thing changed.
"""

from __future__ import annotations

import random

import pytest

from narrator.engine import (
    Check,
    CheckRecord,
    CrimeTime,
    Departure,
    EndSpeech,
    Game,
    Hands,
    InvalidActionError,
    Nominate,
    Phase,
    Remove,
    Role,
    Rules,
    Shot,
    TimeUp,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.rules import find_rules
from narrator.testing import advance
from tests.helpers import ROLES


def to_day(rules: Rules, *, roles: dict[int, Role] | None = None) -> Game:
    """A game brought through the first night to its first speech."""
    game = Game(rules, roles=ROLES if roles is None else roles)
    game.start()
    advance(game, w.Speech, through=w.Pause | w.Deal)
    return game


def discussion(game: Game, nominations: dict[int, int] | None = None) -> list[ev.Event]:
    """Every day speech of the current day, with ``nominations`` by speaker; the events."""
    nominations = nominations or {}
    events: list[ev.Event] = []
    while isinstance(game.expect, w.Speech) and game.expect.speech == "day":
        seat = game.expect.seat
        if seat in nominations:
            events += game.apply(Nominate(nominations[seat]))
        events += game.apply(EndSpeech())
    return events


def close_window(game: Game) -> list[ev.Event]:
    assert game.expect.timer is not None
    return game.apply(TimeUp(game.expect.timer.name))


def night(game: Game, target: int | None, checks: dict[str, int] | None = None) -> None:
    """The hunt (every living mafioso shoots ``target``) and the checks, to the next day."""
    assert isinstance(game.expect, w.Hunt)
    if target is not None:
        for seat in game.living:
            if seat in game.black:
                game.apply(Shot(seat, target))
    close_window(game)
    while isinstance(game.expect, w.NightAct) and game.expect.checks:
        role = game.expect.role
        if checks and role in checks:
            game.apply(Check(role, checks[role]))
        close_window(game)


def speakers(game: Game) -> list[int]:
    """The seats whose day speeches follow, ended at once, in order."""
    seen: list[int] = []
    while isinstance(game.expect, w.Speech) and game.expect.speech == "day":
        seen.append(game.expect.seat)
        game.apply(EndSpeech())
    return seen


# -- who opens the day --------------------------------------------------------------------------


class SeatOfTheDay(CrimeTime):
    """The closed rules' order: day N opens with seat N (not the seat after the last opener)."""

    name = "test-seat-of-the-day"

    def day_opener(self, day: int, previous: int | None, seats: int) -> int:
        return (day - 1) % seats + 1


class FromTheLastSeat(CrimeTime):
    name = "test-from-the-last-seat"

    def day_opener(self, day: int, previous: int | None, seats: int) -> int:
        return seats


def test_day_opener_hook_sets_the_first_speaker_and_the_circle() -> None:
    game = to_day(FromTheLastSeat())
    assert speakers(game) == [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert game.days[0].opened_by == 10
    assert speakers(to_day(CrimeTime())) == list(range(1, 11))  # 2.3: from seat 1


def test_day_opener_hook_gets_the_day_and_the_previous_opener() -> None:
    # seat 2 is shot on night 2, so day 2 opens with 3 under both; day 3 differs
    openers: dict[str, list[int | None]] = {}
    for rules in (CrimeTime(), SeatOfTheDay()):
        game = to_day(rules)
        for day in (1, 2):
            speakers(game)
            night(game, 2 if day == 1 else None)
            if isinstance(game.expect, w.Speech) and game.expect.speech == "last":
                game.apply(EndSpeech())
        openers[rules.name] = [d.opened_by for d in game.days]
        assert isinstance(game.expect, w.Speech) and game.expect.seat == openers[rules.name][-1]
    assert openers["crime-time"] == [1, 3, 4]  # 2.3: the seat after the previous opener
    assert openers["test-seat-of-the-day"] == [1, 3, 3]


# -- when no vote is held -----------------------------------------------------------------------


class SingleCandidateVoted(CrimeTime):
    name = "test-single-candidate-voted"

    def no_vote(self, day: int, candidates: tuple[int, ...]) -> str | None:
        return None


class NeverASingleCandidate(CrimeTime):
    """The amateur rule: a single candidate is never voted on, whatever the day."""

    name = "test-never-a-single-candidate"

    def no_vote(self, day: int, candidates: tuple[int, ...]) -> str | None:
        return "single_candidate_day1" if len(candidates) == 1 else None


def test_no_vote_hook_decides_the_single_candidate_of_day_1() -> None:
    game = to_day(CrimeTime())
    events = discussion(game, {2: 7})
    assert ev.VotingCancelled("single_candidate_day1") in events  # 2.2.1
    assert isinstance(game.expect, w.Hunt)

    game = to_day(SingleCandidateVoted())
    events = discussion(game, {2: 7})
    assert not any(isinstance(e, ev.VotingCancelled) for e in events)
    assert isinstance(game.expect, w.Vote) and game.expect.candidate == 7
    close_window(game)  # everybody abstains: all ten hands count for the only candidate
    assert game.out[7] == Departure("vote", Phase.day(1))


def test_no_vote_hook_is_asked_on_later_days_too() -> None:
    results: dict[str, str | None] = {}
    for rules in (CrimeTime(), NeverASingleCandidate()):
        game = to_day(rules)
        discussion(game)
        night(game, None)
        discussion(game, {4: 6})
        results[rules.name] = game.notation().split()[1]
    assert results["crime-time"] == "d2:vote@6"  # a single candidate is voted on after day 1
    assert results["test-never-a-single-candidate"] == "n3:hunt"


class NoMonster(CrimeTime):
    name = "test-no-monster"
    monster_rule = False


def test_without_the_monster_rule_a_removal_does_not_cancel_the_vote() -> None:
    expected: tuple[tuple[Rules, type[w.Wait]], ...] = ((CrimeTime(), w.Hunt),
                                                         (NoMonster(), w.Vote))
    for rules, expect in expected:
        game = to_day(rules)
        game.apply(Nominate(7))
        events = game.apply(Remove(4))
        events += discussion(game, {2: 8})
        cancelled = ev.VotingCancelled("monster") in events  # 2.4.3
        assert cancelled is (expect is w.Hunt)
        assert isinstance(game.expect, expect)


# -- when a tie goes to the car crash -----------------------------------------------------------


class CrashAtOnce(CrimeTime):
    name = "test-crash-at-once"

    def tie_goes_to_crash(self, rnd: int, leaders: tuple[int, ...],
                          candidates: tuple[int, ...]) -> bool:
        return True


def test_tie_hook_sends_a_first_tie_to_the_car_crash() -> None:
    for rules in (CrimeTime(), CrashAtOnce()):
        game = to_day(rules)
        discussion(game, {1: 2, 2: 4})
        game.apply(Hands((1, 2, 3, 5, 6)))
        close_window(game)
        events = close_window(game)  # the other five abstain: they count for 4 (2.4)
        if rules.name == "crime-time":  # 2.4.1: the first tie is voted again, after speeches
            assert ev.Tie((2, 4)) in events
            assert isinstance(game.expect, w.Speech) and game.expect.speech == "tie"
        else:
            assert ev.CrashStarted((2, 4)) in events
            assert isinstance(game.expect, w.Crash)


# -- what a check answers -----------------------------------------------------------------------


class SheriffFindsTheDon(CrimeTime):
    name = "test-sheriff-finds-the-don"

    def check_answer(self, checker: Role, target: Role) -> bool:
        if checker is Role.SHERIFF:
            return target is Role.DON
        return super().check_answer(checker, target)


def test_check_answer_hook_decides_what_the_nod_means() -> None:
    answers: dict[str, dict[str, object]] = {}
    for rules in (CrimeTime(), SheriffFindsTheDon()):
        game = to_day(rules)
        discussion(game)
        night(game, None, {"don": 1, "sheriff": 5})
        answers[rules.name] = game.nights[-1]
    assert answers["crime-time"].checks.get("sheriff") == CheckRecord(5, True)  # black
    assert answers["test-sheriff-finds-the-don"].checks.get("sheriff") == CheckRecord(5,
                                                                     False)
    for record in answers.values():  # the don's check is not overridden
        assert record.checks.get("don") == CheckRecord(1, True)


class SheriffOnly(CrimeTime):
    name = "test-sheriff-only"
    checkers = (Role.SHERIFF,)


def test_checkers_setting_decides_who_wakes_to_check() -> None:
    game = to_day(SheriffOnly())
    discussion(game)
    assert isinstance(game.expect, w.Hunt)
    close_window(game)
    exp = game.expect
    assert isinstance(exp, w.NightAct) and exp.checks and exp.role == "sheriff"
    night_record = game.nights[-1]
    assert set(night_record.to_json()) == {"night", "shot", "sheriff_check"}


# -- seats and the deal -------------------------------------------------------------------------


class ThreeMafiaFromTen(CrimeTime):
    """The amateur deal: two mafia below ten players, three from ten; 8 to 15 seats."""

    name = "test-three-mafia-from-ten"
    min_seats = 8

    def composition(self, seats: int) -> dict[Role, int]:
        return {Role.SHERIFF: 1, Role.MAFIA: 3 if seats >= 10 else 2}


def test_composition_hook_deals_by_the_number_of_seats() -> None:
    rules = ThreeMafiaFromTen()
    for seats, mafia in ((8, 2), (9, 2), (10, 3), (15, 3)):
        game = Game(rules, seats=seats, rng=random.Random(seats))
        cards = list(game.roles.values())
        assert cards.count(Role.MAFIA) == mafia and cards.count(Role.SHERIFF) == 1
        assert Role.DON not in cards and len(cards) == seats
    with pytest.raises(InvalidActionError, match=r"8\.\.15 seats"):
        Game(rules, seats=7)
    # crime-time's smallest table: at 6 or fewer seats its 3 black cards already win (1.3)
    assert len(Game(CrimeTime(), seats=7, rng=random.Random(1)).roles) == 7
    with pytest.raises(InvalidActionError, match="at least 7 seats"):
        Game(CrimeTime(), seats=4, rng=random.Random(1))


def test_crime_time_is_the_base_ruleset_unchanged() -> None:
    """Crime-time overrides nothing but its name: the base hooks are its rules."""
    overridden = {k for k in vars(CrimeTime) if not k.startswith("__")}
    assert overridden == {"name"}
    assert type(find_rules("crime-time")) is CrimeTime
