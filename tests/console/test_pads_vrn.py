"""vrn on the seat pads, on a virtual clock: the don's decision, the sheriff's check or shot, the
maniac's kill, the doctor's stretcher and save, the hands for 30 s more — each on its own pad."""

from __future__ import annotations

import json
from typing import Any

from narrator.console.views import operator_view
from narrator.engine import Check, HandsUp, Kill, Role, Save
from narrator.engine import waits as w
from narrator.inputs import Input
from narrator.testing import advance
from tests.console.conftest import EVERYONE, Rig, make_rig

#: the deal of examples/vrn-mafia-wins: don 4, mafia 7 and 10, sheriff 2, doctor 9, maniac 1
VRN = {4: Role.DON, 7: Role.MAFIA, 10: Role.MAFIA, 2: Role.SHERIFF, 9: Role.DOCTOR,
       1: Role.MANIAC}
#: what no view but the acting seat's may hold at night
NIGHT_SECRETS = ('"act"', '"points"', '"victims"', '"done"', '"says"', '"saved"',
                 '"decides"')


def vrn_rig(history_at: list[int] | None = None) -> Rig:
    """A vrn table; ``history_at`` gets the game's history length at each recorded input."""
    rig = make_rig(roles=VRN, rules="vrn", dealt={"maniac_side": "city"})

    def record(event: Input) -> None:
        if history_at is not None:
            history_at.append(len(rig.game.history))
        rig.inputs.append(event)

    rig.table.record = record
    return rig


def to_night(rig: Rig) -> None:
    """The introduction round, then night 2 to the mafia's decision."""
    rig.deal()
    for seat in EVERYONE:
        rig.until(w.Speech, seat=seat)
        assert rig.press(seat, "end").ok
    rig.until(w.NightAct, checks=False, role="mafia")


def others(rig: Rig, *mine: int) -> list[str]:
    """Every view but the pads of ``mine``, as JSON."""
    return [json.dumps(v) for who, v in rig.views.items() if who not in mine]


def test_the_dons_pad_decides_the_victim_and_his_partners_only_point() -> None:
    history_at: list[int] = []
    rig = vrn_rig(history_at)
    to_night(rig)
    assert rig.press(3, "act", act="kill", target=5).reason == "not_now"  # a civilian
    assert rig.press(1, "act", act="kill", target=5).reason == "not_now"  # the maniac waits
    reply = rig.press(7, "act", act="kill", target=5)  # a partner points: no kill yet
    assert reply.ok and reply.detail["agreed"] is False
    assert not any(isinstance(a, Kill) for a in rig.game.history)
    assert rig.views[4]["step"]["points"] == {"7": 5} and rig.views[4]["step"]["decides"]
    assert not rig.views[7]["step"]["decides"]
    assert rig.press(4, "act", act="kill", target=99).reason == "not_a_seat"
    assert rig.press(4, "act", act="save", target=9).reason == "bad_request"
    assert rig.press(4, "act", act="kill", target=9).ok  # the don's word is final
    assert rig.game.history[-1] == Kill("mafia", 9)
    assert rig.press(4, "act", act="kill", target=8).reason == "already_acted"
    assert rig.press(10, "act", act="kill", target=8).reason == "already_acted"
    for seat in (4, 7, 10):
        assert rig.views[seat]["step"]["done"] == {"act": "kill", "target": 9}
    for text in others(rig, 4, 7, 10):
        for secret in NIGHT_SECRETS:
            assert secret not in text
    # every press is journaled before the action it leads to
    pad = [(i.get("seat"), i.get("target")) for i in rig.inputs if i.type == "pad"
           and i.get("do") == "act"]
    assert pad == [(7, 5), (4, 9)]
    assert rig.game.history[history_at[-1]] == Kill("mafia", 9)


def test_no_decision_within_the_time_is_the_miss() -> None:
    rig = vrn_rig()
    to_night(rig)
    start = rig.host.timer_started
    assert rig.press(7, "act", act="kill", target=5).ok  # the partner alone decides nothing
    rig.until(w.NightAct, checks=True, role="don")
    assert rig.press(4, "act", act="kill", target=5, t=start + 31).reason == "not_now"
    assert rig.game.nights[-1].hit is None
    assert "Мафия не договорилась" in rig.transcript.said  # the engine's miss, said aloud


def test_the_sheriff_checks_or_shoots_and_the_answer_is_his_alone() -> None:
    rig = vrn_rig()
    to_night(rig)
    rig.until(w.NightAct, checks=True, role="don")
    assert rig.press(4, "check", target=2).detail == {"target": 2, "says": "sheriff"}
    rig.until(w.NightAct, checks=False, role="sheriff")
    assert rig.press(4, "check", target=2).reason == "not_now"  # the don's time is over
    assert rig.press(3, "act", act="check", target=4).reason == "not_now"
    reply = rig.press(2, "act", act="check", target=4)
    assert reply.ok and reply.detail == {"act": "check", "target": 4, "says": "black"}
    assert rig.game.history[-1] == Check("sheriff", 4)
    assert rig.press(2, "act", act="kill", target=4).reason == "already_acted"  # one or other
    assert rig.views[2]["step"]["done"] == {"act": "check", "target": 4, "says": "black"}
    assert rig.views[2]["checks"] == [{"night": 2, "target": 4, "says": "black"}]
    assert rig.views[4]["checks"] == [{"night": 2, "target": 2, "says": "sheriff"}]
    for text in others(rig, 2, 4):
        assert '"says"' not in text


def test_the_sheriffs_shot_the_maniacs_kill_and_the_doctors_stretcher() -> None:
    rig = vrn_rig()
    to_night(rig)
    assert rig.press(4, "act", act="kill", target=6).ok
    rig.until(w.NightAct, checks=False, role="sheriff")
    assert rig.press(2, "act", act="kill", target=7).ok  # he shoots instead of a check
    assert rig.game.nights[-1].kills.get("sheriff") == 7
    assert rig.views[2]["step"]["done"] == {"act": "kill", "target": 7}
    rig.until(w.NightAct, checks=False, role="maniac")
    assert rig.press(2, "act", act="kill", target=3).reason == "not_now"
    assert rig.press(1, "act", act="kill", target=3).ok
    assert rig.views[1]["step"]["done"] == {"act": "kill", "target": 3}
    for text in others(rig, 1):
        assert '"done"' not in text
    rig.until(w.NightAct, checks=False, role="doctor")
    assert rig.views[9]["step"]["victims"] == [6, 7, 3]  # the night's order
    for text in others(rig, 9):
        assert '"victims"' not in text
    # the engine's refusal, on his pad alone; he picks again
    assert rig.press(9, "act", act="save", target=5).reason == "not_a_victim"
    reply = rig.press(9, "act", act="save", target=3)
    assert reply.ok and reply.detail["saved"] == 3
    assert rig.game.history[-1] == Save("doctor", 3)
    assert rig.press(9, "act", act="save", target=6).reason == "already_acted"
    assert rig.views[9]["step"]["done"] == {"act": "save", "target": 3, "saved": 3}
    for text in others(rig, 9):
        assert '"saved"' not in text
    rig.until(w.Speech)
    assert rig.views["operator"]["out"] == {"6": "shot", "7": "shot"}  # not who killed them


def test_a_seat_saved_before_gets_crossed_arms_on_the_doctors_pad() -> None:
    rig = vrn_rig()
    to_night(rig)
    assert rig.press(4, "act", act="kill", target=6).ok
    rig.until(w.NightAct, checks=False, role="doctor")
    assert rig.press(9, "act", act="save", target=6).detail["saved"] == 6
    # day 2: nobody out; the discussion, no hands for more time, then everybody votes 5
    for _ in range(30):
        exp = rig.game.expect
        if isinstance(exp, w.NightAct) and not exp.checks:
            break
        if isinstance(exp, w.Speech):
            assert rig.press(exp.seat, "end").ok
        else:
            rig.step()
    rig.until(w.NightAct, checks=False, role="mafia")
    assert rig.press(4, "act", act="kill", target=6).ok
    rig.until(w.NightAct, checks=False, role="maniac")
    assert rig.press(1, "act", act="kill", target=8).ok
    rig.until(w.NightAct, checks=False, role="doctor")
    reply = rig.press(9, "act", act="save", target=6)  # saved before: 8 is saved instead
    assert reply.ok and reply.detail["saved"] == 8


def test_the_hands_for_more_time_are_raised_on_the_pads_in_the_window() -> None:
    rig = vrn_rig()
    to_night(rig)
    rig.until(w.Speech, speech="day")
    assert rig.press(5, "extra").reason == "not_now"  # in the discussion: not yet
    advance(rig.game, w.Extra, step=lambda: rig.press(rig.game.expect.seat, "end").ok,
            through=w.Speech)  # every speech ended on its pad, to the hands for 30 s more
    assert rig.views[5]["step"] == {"type": "extra", "raised": False}
    assert rig.press(5, "extra").ok and rig.press(3, "extra").ok
    assert rig.press(5, "extra").reason == "already_raised"
    assert rig.game.history[-2:] == [HandsUp((5,)), HandsUp((3,))]
    assert rig.views["operator"]["raised"] == [5, 3]
    timer = rig.game.expect.timer
    assert timer is not None
    end = rig.host.timer_started + timer.seconds
    rig.driver.run_until(end + rig.table.settings.settle / 2)
    assert isinstance(rig.game.expect, w.Extra)  # the window's end waits for a press on its way
    assert rig.press(8, "extra").reason == "too_late"
    rig.until(w.Speech)
    # the discussion's order: 3 spoke before 5
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 3
    assert rig.game.days[-1].extra == (3, 5)


def test_the_maniacs_side_is_public_once_announced() -> None:
    rig = vrn_rig()
    rig.until((w.Pause, w.Deal))
    assert operator_view(rig.table)["declared"] == {}
    rig.deal()
    assert rig.views["operator"]["declared"] == {"maniac_side": "city"}
    assert rig.views[3]["declared"] == {"maniac_side": "city"}


def test_the_operator_sees_the_night_only_as_the_narrator_says_it() -> None:
    rig = vrn_rig()
    to_night(rig)
    seen: list[str] = []
    plan: dict[tuple[str, int], tuple[str, int]] = {
        ("mafia", 4): ("kill", 6), ("don", 4): ("check", 2), ("sheriff", 2): ("kill", 7),
        ("maniac", 1): ("kill", 3), ("doctor", 9): ("save", 3)}
    done: set[str] = set()
    while not isinstance(rig.game.expect, w.Speech):
        exp = rig.game.expect
        for (role, seat), (act, target) in plan.items():
            if isinstance(exp, w.NightAct) and exp.role == role and role not in done:
                done.add(role)
                do: dict[str, Any] = ({"target": target} if exp.checks
                                      else {"act": act, "target": target})
                assert rig.press(seat, "check" if exp.checks else "act", **do).ok
        seen.append(json.dumps(rig.views["operator"]))
        rig.step()
    assert done == {"mafia", "don", "sheriff", "maniac", "doctor"}
    for text in seen:
        for secret in (*NIGHT_SECRETS, '"role"', '"card"'):
            assert secret not in text
