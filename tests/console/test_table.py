"""The console's rules for pad and operator presses, on a virtual clock (clauses cited)."""

from __future__ import annotations

import json

from narrator.console.settings import HUNT_GRACE, ConsoleSettings
from narrator.console.views import operator_view, pad_view
from narrator.engine import Hands, Shot, VoteRound
from narrator.engine import waits as w
from tests.console.conftest import EVERYONE, Rig, make_rig


def voting_on(rig: Rig) -> int | None:
    """The candidate whose voting window is open (None: no window on a candidate)."""
    exp = rig.game.expect
    return exp.candidate if isinstance(exp, w.Vote) else None


def to_night(rig: Rig) -> None:
    """Day 1 with no nominations, then night 2's hunt."""
    rig.deal()
    for seat in EVERYONE:
        assert rig.press(seat, "end").ok
    rig.until(w.Hunt)


def test_2_1_1_dealing_waits_for_every_card_and_the_operator_may_skip(rig: Rig) -> None:
    rig.until((w.Pause, w.Deal))
    assert rig.table.dealing and isinstance(rig.game.expect, w.Deal)
    rig.after(600)  # far past the dealing timer: it waits for the cards
    assert isinstance(rig.game.expect, w.Deal)
    for seat in range(1, 10):
        assert rig.press(seat, "seen").ok
    assert rig.views["operator"]["cards"]["waiting"] == [10]
    assert rig.press(4, "seen").ok and len(rig.inputs) == 9  # seeing twice records once
    assert rig.op("skip", seat=10).ok
    timer = rig.game.expect.timer
    assert not rig.table.dealing and timer is not None and timer.name == "don_noted"
    assert [i.get("do") for i in rig.inputs] == ["seen"] * 9 + ["skip"]  # the pages' names
    assert rig.press(2, "seen").ok  # a pad that looks at its card again
    assert rig.press(10, "seen").reason == "not_now"  # after dealing, nothing to count


def test_2_1_2_a_press_registers_on_the_number_being_spoken(rig: Rig) -> None:
    to_night(rig)
    pace = rig.game.rules.count_pace
    start = rig.host.timer_started
    # a press before «один» is refused; the phone never names a number
    assert rig.press(5, "shoot", t=start - 0.5, target=2).reason == "count_not_started"
    # 7 is spoken during [start + 6 pace, start + 7 pace): a press there registers on 7
    reply = rig.press(5, "shoot", t=start + 6 * pace + 0.8, target=2)
    assert reply.ok and reply.detail["number"] == 7
    # a tap that arrives just after «восемь» began was meant for 7 (the documented grace)
    reply = rig.press(9, "shoot", t=start + 7 * pace + HUNT_GRACE / 2)
    assert reply.ok and reply.detail["number"] == 7
    reply = rig.press(3, "shoot", t=start + 7 * pace + HUNT_GRACE + 0.05)
    assert reply.ok and reply.detail["number"] == 8
    assert rig.press(2, "shoot", t=start + 6 * pace + 0.8).reason == "not_now"  # a civilian
    shots = [i for i in rig.inputs if i.get("do") == "shoot"]
    assert [(i.get("seat"), i.get("target")) for i in shots] == [(5, 7), (9, 7), (3, 8)]
    assert rig.game.history[-3:] == [Shot(5, 7), Shot(9, 7), Shot(3, 8)]
    # only the mafioso's own pad shows its presses
    assert rig.views[5]["step"]["pressed"] == [7] and rig.views[2]["step"] is None
    assert "pressed" not in json.dumps(rig.views["operator"])


def test_2_1_2_a_press_on_the_last_number_is_not_lost(rig: Rig) -> None:
    to_night(rig)
    timer = rig.game.expect.timer
    assert timer is not None
    end = rig.host.timer_started + timer.seconds
    rig.driver.run_until(end + HUNT_GRACE / 2)
    assert isinstance(rig.game.expect, w.Hunt)  # the count's end waits for a tap on its way
    for mafioso in (3, 5, 9):
        assert rig.press(mafioso, "shoot").detail["number"] == 10
    rig.until(w.NightAct, checks=True)
    assert rig.game.nights[-1].hit == 10
    assert rig.press(5, "shoot").reason == "not_now"


def night_hit_on(rig: Rig, seat: int) -> None:
    pace = rig.game.rules.count_pace
    start = rig.host.timer_started
    for mafioso in (3, 5, 9):
        assert rig.press(mafioso, "shoot", t=start + (seat - 1) * pace + 0.7).detail["number"] == seat
    rig.until(w.NightAct, checks=True, role="don")


def test_2_1_3_checks_answer_on_the_checkers_pad_alone(rig: Rig) -> None:
    to_night(rig)
    night_hit_on(rig, 2)
    assert rig.press(1, "check", target=3).reason == "not_now"  # the sheriff waits his turn
    reply = rig.press(3, "check", target=1)
    assert reply.ok and reply.detail == {"target": 1, "says": "sheriff"}
    assert rig.press(3, "check", target=4).reason == "already_checked"
    assert rig.views[3]["step"]["done"] == {"target": 1, "says": "sheriff"}
    assert rig.views[1]["step"] is None and rig.views[3]["checks"][0]["target"] == 1
    rig.until(w.NightAct, checks=True, role="sheriff")
    assert rig.press(3, "check", target=5).reason == "not_now"
    reply = rig.press(1, "check", target=9)
    assert reply.ok and reply.detail["says"] == "black"
    for seat in EVERYONE:
        text = json.dumps(rig.views[seat])
        if seat not in (1, 3):
            assert '"says"' not in text, seat
    assert rig.views[1]["checks"] == [{"night": 2, "target": 9, "says": "black"}]
    assert rig.views[3]["checks"] == [{"night": 2, "target": 1, "says": "sheriff"}]


def test_operator_view_shows_nothing_secret_and_the_night_victim_only_at_day(rig: Rig) -> None:
    to_night(rig)
    night_hit_on(rig, 2)
    # seat 2 is shot, but nobody knows until day (2.1.2): neither the operator nor seat 2
    assert "2" not in rig.views["operator"]["out"] and not rig.views[2]["gone"]
    assert rig.views[2]["card"] == {"role": "civilian", "team": "civilians"}
    seen = []
    while not isinstance(rig.game.expect, w.Speech):
        seen.append(json.dumps(operator_view(rig.table).json))
        rig.step()
    for text in seen:
        for secret in ('"role"', '"card"', '"checks"', '"says"', '"don"', '"sheriff"',
                       '"mafia"', '"civilian"', '"pressed"', '"shot"'):
            assert secret not in text
    assert rig.views["operator"]["out"] == {"2": "shot"}
    assert rig.views[2]["gone"] and rig.views[2]["card"] is None


def test_a_seat_out_sees_nothing_secret_from_then_on(rig: Rig) -> None:
    to_night(rig)  # nobody shoots: a miss
    rig.until(w.Speech, seat=2)  # day 2 opens at the seat after day 1's opener
    assert rig.press(2, "nominate", target=3).ok
    for seat in [*range(2, 11), 1]:
        rig.until(w.Speech, seat=seat)
        assert rig.press(seat, "end").ok
    rig.until(w.Vote, candidate=3)
    for seat in EVERYONE:
        assert rig.press(seat, "vote", candidate=3).ok
    rig.until(w.Speech, speech="last", seat=3)
    view = pad_view(rig.table, 3)
    assert view["gone"] and view["card"] is None and view["checks"] == []
    assert view["step"] == {"type": "speech", "speech": "last", "standing": None,  # «Спасибо»
                            "nominate": False, "accuse": False, "accused": None}
    assert rig.press(3, "end").ok
    rig.until(w.Hunt)
    assert pad_view(rig.table, 3)["step"] is None and pad_view(rig.table, 3)["card"] is None
    assert rig.press(3, "shoot").reason == "seat_out"  # (his own pad: he knows his card)


def test_2_4_a_hand_after_thanks_is_ignored(rig: Rig) -> None:
    rig.to_the_vote()
    timer = rig.game.expect.timer
    assert timer is not None
    end = rig.host.timer_started + timer.seconds
    assert rig.press(2, "vote", candidate=4, t=end - 0.5).ok
    assert rig.press(2, "vote", candidate=4, t=end - 0.4).reason == "already_voted"
    assert rig.press(7, "vote", candidate=4, t=end + 0.01).reason == "after_thanks"
    assert rig.press(8, "vote", candidate=4, seat=2, t=end - 0.1).ok  # acts for itself only
    assert rig.game.history[-2:] == [Hands((2,)), Hands((8,))]
    rig.until(w.Vote, candidate=6)
    assert rig.press(5, "vote", candidate=4).reason == "after_thanks"  # a stale window
    assert rig.press(5, "vote", candidate=6).ok
    rig.step()
    assert rig.game.days[0].rounds == [VoteRound((4, 6), {4: 2, 6: 8})]


def test_2_3_the_speech_fallback_goes_through_the_same_rules(rig: Rig) -> None:
    rig.deal()
    assert rig.press(2, "nominate", target=5).reason == "not_now"  # not seat 2's speech
    assert rig.press(1, "nominate", target=5).ok
    assert rig.transcript.said[-1] == "Принято"
    assert rig.press(1, "nominate", target=6).reason == "already_nominated"
    assert rig.press(1, "withdraw", target=6).reason == "not_own_nomination"
    assert rig.press(1, "withdraw", target=5).ok and rig.transcript.said[-1] == "Снято"
    assert rig.press(1, "nominate", target=11).reason == "not_a_seat"
    assert rig.press(1, "nominate", target=7).ok
    assert rig.views[1]["step"]["standing"] == 7
    assert rig.press(1, "end").ok
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 2
    assert [i.get("do") for i in rig.inputs[-6:]] == [
        "nominate", "nominate", "withdraw", "withdraw", "nominate", "end"]


def test_operator_fouls_removals_and_undo_of_the_last_entry(rig: Rig) -> None:
    rig.deal()
    assert rig.op("foul", seat=4).ok and rig.game.fouls == {4: 1}
    assert rig.views["operator"]["fouls"] == {"4": 1} and rig.views["operator"]["can_undo"]
    assert rig.op("undo").ok and rig.game.fouls == {}
    assert rig.op("undo").reason == "too_late"  # nothing left of the operator's
    assert rig.op("foul", seat=4).ok
    assert rig.press(1, "end").ok  # the game moved on: the foul stays
    assert rig.op("undo").reason == "too_late"
    assert rig.op("remove", seat=11).reason == "not_a_seat"
    assert rig.op("remove", seat=6).ok and rig.views["operator"]["out"] == {"6": "removed"}
    assert rig.op("foul", seat=6).reason == "seat_out"
    assert rig.op("shoot").reason == "bad_request"


def test_tables_that_vote_by_hand_wait_for_the_operators_count() -> None:
    rig = make_rig(ConsoleSettings(hand_votes=True))
    rig.to_the_vote()
    rig.after(120)  # the window waits for the count
    assert voting_on(rig) == 4 and rig.views["operator"]["timer"]["held"]
    assert rig.press(2, "vote", candidate=4).reason == "not_now"  # pads do not vote here
    assert rig.op("hands", candidate=4, count=11).reason == "too_many"
    assert rig.op("hands", candidate=4, count=3).ok
    assert voting_on(rig) == 6
    assert rig.op("undo").ok and voting_on(rig) == 4  # the count and its window
    assert rig.op("hands", candidate=4, count=6).ok
    assert rig.op("hands", candidate=6, count=0).ok
    assert rig.game.days[0].rounds[0].votes == {4: 6, 6: 4}


def test_2_1_2_a_sheriff_shot_tonight_still_checks_on_his_pad_and_learns_nothing(rig: Rig) -> None:
    to_night(rig)
    night_hit_on(rig, 1)  # the sheriff
    rig.until(w.NightAct, checks=True, role="sheriff")
    view = rig.views[1]
    assert not view["gone"] and view["step"]["type"] == "check"
    reply = rig.press(1, "check", target=5)
    assert reply.ok and reply.detail["says"] == "black"
    rig.until(w.Speech)  # day: now everybody knows
    assert rig.views[1]["gone"] and rig.views[1]["card"] is None


def test_1_4_a_foul_during_ones_own_last_word_is_taken_from_the_operator(rig: Rig) -> None:
    """MafiaRatings' sample game 1 stopped on the pads here: the console refused the foul with
    ``seat_out`` (and hid the button) while the engine, assist and the listening loop take it —
    a player in his last word is still at the table (1.4)."""
    to_night(rig)
    night_hit_on(rig, 2)
    assert 2 in rig.views["operator"]["aside"]["foul"]  # at night: nothing told by a button
    rig.until(w.Speech, speech="last", seat=2)
    view = rig.views["operator"]
    assert 2 in view["aside"]["foul"] and 2 not in view["aside"]["remove"]
    assert rig.op("foul", seat=2).ok
    assert rig.game.fouls[2] == 1 and [i.get("do") for i in rig.inputs][-1] == "foul"
    assert rig.press(2, "end").ok  # the last word over: a spectator now (1.4)
    view = rig.views["operator"]
    assert 2 not in view["aside"]["foul"] and 2 not in view["aside"]["remove"]
    assert rig.op("foul", seat=2).reason == "seat_out"
    assert rig.game.fouls[2] == 1
