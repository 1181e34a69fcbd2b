"""amateur on the seat pads, on a virtual clock: speeches by the first raised hand, the one a
speaker accuses and the thumbs after his speech, the mafia agreeing on a victim, the commissar's
check, the nurse's heal."""

from __future__ import annotations

import json

from narrator.engine import Check, Kill, Role, Save, SaveRecord, TakeFloor, Thumbs
from narrator.engine import waits as w
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from tests.console.conftest import EVERYONE, Rig, make_rig

#: 10 seats: three mafia, the commissar, the nurse
AMATEUR = {3: Role.MAFIA, 5: Role.MAFIA, 8: Role.MAFIA, 2: Role.COMMISSAR, 6: Role.NURSE}


def amateur_rig() -> Rig:
    rig = make_rig(roles=AMATEUR, rules="amateur")
    rig.deal()
    assert isinstance(rig.game.expect, w.Floor)
    return rig


def speak(rig: Rig, seat: int, accuse: int | None = None, thumbs: tuple[int, ...] = ()) -> None:
    """``seat``'s hand is first; he speaks (accusing ``accuse``); ``thumbs`` put him up."""
    rig.until(w.Floor)
    assert rig.press(seat, "floor").ok
    if accuse is not None:
        assert rig.press(seat, "accuse", target=accuse).ok
    assert rig.press(seat, "end").ok
    assert isinstance(rig.game.expect, w.PutUp)
    for thumb in thumbs:
        assert rig.press(thumb, "thumb", target=accuse).ok
    rig.step()


def to_night(rig: Rig) -> None:
    """Day 1: everybody speaks, nobody is put up; night 2 to the mafia's choice."""
    for seat in EVERYONE:
        speak(rig, seat)
    rig.until(w.NightAct, checks=False, role="mafia")


def test_the_first_raised_hand_takes_the_floor() -> None:
    rig = amateur_rig()
    assert rig.views[4]["step"] == {"type": "floor", "spoken": False}
    assert rig.views["operator"]["spoken"] == []
    assert rig.press(4, "floor").ok
    assert rig.game.history[-1] == TakeFloor(4)
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 4
    assert rig.press(7, "floor").reason == "not_now"  # 4 was first
    assert rig.press(4, "end").ok
    rig.until(w.Floor)
    assert rig.press(4, "floor").reason == "already_spoke"
    assert rig.views[4]["step"] == {"type": "floor", "spoken": True}
    assert rig.views["operator"]["spoken"] == [4]
    # nobody raises a hand: the engine's fallback, the first seat yet to speak
    rig.until(w.Speech)
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 1


def test_a_raised_hand_after_the_window_is_too_late() -> None:
    rig = amateur_rig()
    timer = rig.game.expect.timer
    assert timer is not None
    end = rig.host.timer_started + timer.seconds
    rig.driver.run_until(end + rig.table.settings.settle / 2)
    assert isinstance(rig.game.expect, w.Floor)  # the end waits for a press on its way
    assert rig.press(7, "floor").reason == "too_late"
    assert rig.press(7, "floor", t=end - 0.01).ok  # stamped before the end: it counts


def test_the_speaker_accuses_and_the_table_puts_up_by_thumbs() -> None:
    rig = amateur_rig()
    assert rig.press(5, "floor").ok
    step = rig.views[5]["step"]
    assert step["accuse"] and not step["nominate"] and step["accused"] is None
    assert rig.press(6, "accuse", target=8).reason == "not_now"  # not his speech
    assert rig.press(5, "accuse", target=7).ok
    assert rig.press(5, "accuse", target=8).ok  # he names another: the last one counts
    assert rig.views["operator"]["accused"] == 8 and rig.views[1]["accused"] == 8
    assert rig.press(1, "thumb", target=8).reason == "not_now"  # during the speech
    assert rig.press(5, "end").ok
    assert isinstance(rig.game.expect, w.PutUp)
    assert rig.views[1]["step"] == {"type": "put_up", "accused": 8, "given": False}
    for seat in (1, 3, 5):
        assert rig.press(seat, "thumb", target=8).ok
    assert rig.press(1, "thumb", target=8).reason == "already_voted"
    assert rig.press(2, "thumb", target=7).reason == "too_late"  # a view of another window
    assert rig.game.history[-3:] == [Thumbs(8, (1,)), Thumbs(8, (3,)), Thumbs(8, (5,))]
    assert rig.views["operator"]["thumbs"] == 3 and rig.views[1]["step"]["given"]
    timer = rig.game.expect.timer
    assert timer is not None
    end = rig.host.timer_started + timer.seconds
    rig.driver.run_until(end + rig.table.settings.settle / 2)
    assert rig.press(2, "thumb", target=8).reason == "too_late"
    rig.until(w.Floor)
    assert rig.press(2, "thumb", target=8).reason == "not_now"
    assert rig.views["operator"]["put_up"] == {"8": 3}
    assert rig.game.days[-1].put_up == {8: 3}
    # a speaker who accuses nobody: the window passes, no pad is asked for a thumb
    assert rig.press(7, "floor").ok and rig.press(7, "end").ok
    assert isinstance(rig.game.expect, w.PutUp)
    assert all(rig.views[s]["step"] is None for s in EVERYONE)
    assert rig.press(1, "thumb", target=8).reason == "not_now"


def test_the_mafia_kill_when_every_mafioso_points_at_the_same_seat() -> None:
    rig = amateur_rig()
    to_night(rig)
    assert rig.press(4, "act", act="kill", target=1).reason == "not_now"  # a civilian
    assert rig.press(3, "act", act="kill", target=1).detail["agreed"] is False
    assert rig.press(5, "act", act="kill", target=1).detail["agreed"] is False
    assert rig.press(8, "act", act="kill", target=7).detail["agreed"] is False
    for seat in (3, 5, 8):  # each mafioso sees where his partners point; nobody decides alone
        assert rig.views[seat]["step"]["points"] == {"3": 1, "5": 1, "8": 7}
        assert rig.views[seat]["step"]["decides"]  # no don: all three must agree
    assert rig.table.deciders() == (3, 5, 8)
    assert not any(isinstance(a, Kill) for a in rig.game.history)
    assert rig.press(8, "act", act="kill", target=1).ok  # 8 comes round: agreed
    assert rig.game.history[-1] == Kill("mafia", 1)
    assert rig.press(3, "act", act="kill", target=7).reason == "already_acted"
    for seat in EVERYONE:
        if seat not in (3, 5, 8):
            assert '"points"' not in json.dumps(rig.views[seat]), seat
    assert '"points"' not in json.dumps(rig.views["operator"])


def test_no_agreement_by_the_end_of_the_time_is_a_miss() -> None:
    rig = amateur_rig()
    to_night(rig)
    assert rig.press(3, "act", act="kill", target=1).ok
    assert rig.press(5, "act", act="kill", target=2).ok  # 8 never points
    rig.until(w.NightAct, checks=True, role="commissar")
    assert not any(isinstance(a, Kill) for a in rig.game.history)
    rig.until(w.Speech)
    assert rig.views["operator"]["out"] == {}


def test_the_commissars_check_and_the_nurses_heal_are_theirs_alone() -> None:
    rig = amateur_rig()
    to_night(rig)
    for mafioso in (3, 5, 8):
        assert rig.press(mafioso, "act", act="kill", target=6).ok
    rig.until(w.NightAct, checks=True, role="commissar")
    # his grid: not himself; tonight's victim (6) still in it — leaving him out would tell
    assert rig.views[2]["step"] == {"type": "check", "role": "commissar", "done": None,
                                    "checkable": [1, 3, 4, 5, 6, 7, 8, 9, 10]}
    assert rig.press(2, "check", target=2).reason == "own_seat"  # the engine's refusal
    assert rig.press(6, "check", target=3).reason == "not_now"
    reply = rig.press(2, "check", target=3)
    assert reply.ok and reply.detail == {"target": 3, "says": "black"}
    assert rig.game.history[-1] == Check("commissar", 3)
    rig.until(w.NightAct, checks=False, role="nurse")
    assert rig.press(2, "act", act="save", target=6).reason == "not_now"
    assert "victims" not in rig.views[6]["step"]  # the nurse guesses: no stretcher
    reply = rig.press(6, "act", act="save", target=6)  # she heals herself, rightly
    assert reply.ok and reply.detail == {"act": "save", "target": 6}  # a guess: not told
    assert rig.views[6]["step"]["done"] == {"act": "save", "target": 6}
    assert rig.game.history[-1] == Save("nurse", 6)
    assert rig.game.nights[-1].saves.get("nurse") == SaveRecord(6, 6)
    for seat in EVERYONE:
        text = json.dumps(rig.views[seat])
        if seat != 2:
            assert '"says"' not in text, seat
        assert '"saved"' not in text, seat
    rig.until(w.Floor)
    assert rig.views["operator"]["out"] == {}  # healed: nobody leaves
    assert rig.views[2]["checks"] == [{"night": 2, "target": 3, "says": "black"}]


def test_amateur_closed_cards_no_screen_shows_the_role_of_who_left() -> None:
    """«Для ускладнення гри можна усувати з гри без відкриття картки»: with ``cards =
    "closed"`` the operator's screen and the pads show the night's victim as out, and nothing
    names the card (with the cards open the operator's phrases do)."""
    for cards, shown in (("open", True), ("closed", False)):
        rules = apply_options(find_rules("amateur"), {"cards": cards})
        rig = make_rig(roles=AMATEUR, rules=rules)
        rig.deal()
        to_night(rig)
        for mafioso in (3, 5, 8):
            assert rig.press(mafioso, "act", act="kill", target=1).ok
        rig.until(w.Floor)
        assert rig.views["operator"]["out"] == {"1": "shot"}
        said = rig.views["operator"]["said"]
        assert "Этой ночью убит игрок номер один" in said
        assert ("Роль: мирный житель" in said) is shown
        if not shown:
            for who, view in rig.views.items():
                text = json.dumps(view, ensure_ascii=False)
                assert "Роль" not in text and "откройте карту" not in text, who
            assert rig.views[1]["gone"] and rig.views[1]["card"] is None
