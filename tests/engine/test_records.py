"""The typed records: their values, and the protocol's JSON that only their ``to_json`` makes."""

from __future__ import annotations

import pytest

from narrator.engine import (
    BestMoveRecord,
    CheckRecord,
    CrashRecord,
    DayRecord,
    Departure,
    Phase,
    Refusal,
    SaveRecord,
    VoteRound,
    find_rules,
)
from narrator.engine.record import new_night
from narrator.engine.types import Role


@pytest.mark.parametrize(("text", "phase"), [("n1", Phase.night(1)), ("d2", Phase.day(2)),
                                             ("n12", Phase("night", 12))])
def test_a_phase_reads_back_from_its_short_form(text: str, phase: Phase) -> None:
    assert Phase.parse(text) == phase and str(phase) == text
    assert phase.is_night is (text[0] == "n") and phase.is_day is (text[0] == "d")


@pytest.mark.parametrize("text", ["", "n", "x2", "d-1", "2d", "night1", "d 2"])
def test_anything_else_is_not_a_phase(text: str) -> None:
    with pytest.raises(ValueError, match="not a phase"):
        Phase.parse(text)


def test_a_seat_out_is_how_and_when() -> None:
    shot = Departure("shot", Phase.night(2))
    assert (shot.night, shot.day) == (2, None)
    assert shot.to_json() == {"how": "shot", "night": 2}
    voted = Departure("vote", Phase.day(3))
    assert (voted.night, voted.day) == (None, 3)
    assert voted.to_json() == {"how": "vote", "day": 3}


def test_refusals_rounds_crash_and_best_move_in_the_protocols_form() -> None:
    assert Refusal(Phase.day(1), 5, "vote", 7, "already_voted").to_json() == {
        "phase": "d1", "seat": 5, "kind": "vote", "target": 7, "reason": "already_voted"}
    assert VoteRound((5, 7), {7: 4, 5: 6}).to_json() == {  # in ballot order
        "candidates": [5, 7], "votes": {"5": 6, "7": 4}}
    assert CrashRecord(6, 4, True).to_json() == {"for": 6, "against": 4, "passed": True}
    assert BestMoveRecord(3, (1, 2, 4), 1).to_json() == {
        "seat": 3, "named": [1, 2, 4], "black_named": 1}


def test_a_day_lists_only_the_extras_it_has() -> None:
    day = DayRecord(2, 4)
    assert list(day.to_json()) == ["day", "opened_by", "nominations", "rounds", "crash", "out"]
    day.put_up, day.extra, day.justified = {8: 3}, (3, 5), [4]
    assert day.to_json()["put_up"] == {"8": 3}
    assert list(day.to_json())[-3:] == ["put_up", "extra", "justified"]


def test_a_night_lists_every_slot_of_its_steps_in_order_none_until_written() -> None:
    rules = find_rules("crime-time")
    steps = rules.night_steps(2, lambda role: True)
    night = new_night(rules, steps, 2)
    assert night.to_json() == {"night": 2, "shot": None, "don_check": None,
                               "sheriff_check": None}
    night.shot = 7
    night.checks["sheriff"] = CheckRecord(7, True)
    assert night.hit == 7
    assert night.to_json() == {"night": 2, "shot": 7, "don_check": None,
                               "sheriff_check": {"target": 7, "result": True}}


def test_vrn_keys_its_kills_by_how_the_ruleset_names_them() -> None:
    rules = find_rules("vrn")
    night = new_night(rules, rules.night_steps(3, lambda role: role is not Role.MANIAC), 3)
    night.kills.update(mafia=4, sheriff=9)
    night.saves["doctor"] = SaveRecord(4, 4)
    out = night.to_json()
    assert list(out) == ["night", "shot", "don_check", "sheriff_check", "sheriff_shot",
                         "maniac", "doctor_save"]
    assert (out["shot"], out["sheriff_shot"], out["doctor_save"]) == (
        4, 9, {"target": 4, "saved": 4})
    assert night.hit == 4  # the mafia's kill is the protocol's shot
