"""The table desk (``host.desk``): what every front end asks of the step the game waits at.

A host on a virtual clock with a transcript voice; time moves only through the host's
scheduler (the driver runs it from deadline to deadline). Clause numbers are those of the
Crime Time rules (crime-time, the default ruleset) unless a test says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from narrator.assist.control import Controller
from narrator.clock import VirtualClock
from narrator.console.table import ConsoleTable, Press
from narrator.console.tokens import OPERATOR
from narrator.engine import (
    Action,
    EndSpeech,
    Foul,
    Game,
    HandCount,
    Hands,
    Nominate,
    Remove,
    Role,
    TakeFloor,
    TimeUp,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.entries import parse_operator_line
from narrator.errors import NarratorError
from narrator.host.assembly import assemble_host
from narrator.host.desk import Accusal, CardSeen, CardSkipped, Desk, Noted, Point
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.transcript import Transcript
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES

#: amateur, 10 seats: three mafia, the commissar, the nurse (as tests/console/test_pads_amateur)
AMATEUR = {3: Role.MAFIA, 5: Role.MAFIA, 8: Role.MAFIA, 2: Role.COMMISSAR, 6: Role.NURSE}


@dataclass
class Table:
    """A started host, its transcript, and a driver that moves the game's time."""

    host: Host
    transcript: Transcript
    driver: Driver = field(init=False)

    def __post_init__(self) -> None:
        self.driver = Driver(self.host.scheduler, lambda event: None)

    @property
    def game(self) -> Game:
        return self.host.game

    @property
    def desk(self) -> Desk:
        return self.host.desk

    @property
    def wait(self) -> w.Expect:
        return self.host.game.expect

    def next_step(self) -> None:
        """Run the timers until the game leaves the step it waits at."""
        serial = self.wait.serial
        for _ in range(100):
            assert self.driver.run_next(), f"nothing scheduled at {self.wait}"
            if self.wait.serial != serial:
                return
        raise AssertionError(f"the step never ended: {self.wait}")

    def until(self, kind: type[w.Wait] | tuple[type[w.Wait], ...], *,
              nominations: dict[int, int] | None = None, **attrs: Any) -> None:
        """Go on until the game waits for a ``kind`` of wait (with ``attrs``): the speeches are
        ended at once (the speakers in ``nominations`` nominate first, 2.3.1), every other
        step runs on its timer."""
        nominations = nominations or {}
        for _ in range(500):
            exp = self.wait
            if isinstance(exp, kind) and all(getattr(exp, k) == v for k, v in attrs.items()):
                return
            if isinstance(exp, w.Speech):
                if exp.speech == "day" and exp.seat in nominations:
                    self.host.apply(Nominate(nominations[exp.seat]))
                self.host.apply(EndSpeech())
            else:
                self.next_step()
        raise AssertionError(f"never reached {kind} {attrs}: {self.wait}")

    def after(self, seconds: float) -> None:
        self.driver.run_until(self.host.now() + seconds)

    def said_since(self, count: int) -> list[str]:
        return self.transcript.said[count:]

    def text(self, key: str) -> str:
        return self.transcript.manifest.text(key)


def make_table(rules: str = "crime-time", roles: dict[int, Role] | None = None) -> Table:
    game = Game(rules, roles=ROLES if roles is None else roles)
    parts = assemble_host(game, VirtualClock(), manifest=default_manifest("ru"))
    parts.host.start()
    return Table(parts.host, parts.transcript)


def rebuilt(table: Table) -> Table:
    """A second host at the same table, its game rebuilt from the first one's history (as a
    resumed journal rebuilds it); the desk knows nothing yet."""
    game = table.game.table_copy()
    parts = assemble_host(game, VirtualClock(), manifest=default_manifest("ru"))
    parts.host.start()
    for action in table.game.history:
        parts.host.apply(action)
    return Table(parts.host, parts.transcript)


def hunt_entry(table: Table, text: str = "7") -> tuple[Action, ...]:
    """The operator's entry for the hunt (2.1.2): every mafioso shot ``text``."""
    return parse_operator_line(text, table.game).actions


# -- 1. the deal's cards (2.1.1) -------------------------------------------------------------


def test_each_card_is_seen_or_skipped_once_and_the_rest_are_waited_for_in_seat_order() -> None:
    t = make_table()
    desk = t.desk
    assert isinstance(t.wait, w.Deal)
    assert desk.waiting_for_cards() == list(range(1, 11))
    assert desk.card_seen(3) is True
    assert desk.card_seen(3) is False  # a second press of the same card
    assert desk.card_skipped(3) is False  # seen: the operator cannot skip it now
    assert desk.card_skipped(7) is True
    assert desk.card_skipped(7) is False
    assert desk.card_seen(7) is False  # skipped: not seen after all
    assert desk.card_seen(1) is True
    assert desk.seen == {1, 3} and desk.skipped == {7}
    assert desk.waiting_for_cards() == [2, 4, 5, 6, 8, 9, 10]
    assert desk.saw_card(3) and not desk.saw_card(7) and not desk.saw_card(2)


def test_after_the_deal_its_step_is_gone_but_a_seat_that_saw_its_card_is_remembered() -> None:
    t = make_table()
    desk = t.desk
    assert desk.card_seen(2) and desk.card_skipped(5)
    t.next_step()  # the deal's time is up: the don wakes (2.1.1)
    assert isinstance(t.wait, w.Pause)
    assert desk.seen == frozenset() and desk.skipped == frozenset()
    assert desk.waiting_for_cards() == []
    assert desk.saw_card(2) and not desk.saw_card(5)  # a pad that asks again is answered


def test_a_card_pressed_after_the_deal_is_refused_and_forgets_nothing() -> None:
    t = make_table()
    desk = t.desk
    assert desk.card_seen(2)
    t.next_step()
    assert desk.card_seen(4) is False and desk.card_skipped(6) is False  # not dealing
    # a press refused after the deal forgets nothing: a pad that asks again is told it saw
    assert desk.saw_card(2)


def test_an_undone_foul_while_dealing_keeps_the_cards_seen_and_the_deals_step() -> None:
    t = make_table()
    desk = t.desk
    serial = t.wait.serial
    assert desk.card_seen(1) and desk.card_seen(2) and desk.card_skipped(9)
    t.after(5)
    desk.enter((Foul(4),), shown="foul 4")
    assert t.game.history == [Foul(4)]
    t.after(5)
    desk.undo()
    assert t.game.history == []
    assert isinstance(t.wait, w.Deal) and t.wait.serial == serial
    assert desk.seen == {1, 2} and desk.skipped == {9}
    assert desk.waiting_for_cards() == [3, 4, 5, 6, 7, 8, 10]
    assert t.host.time_left == pytest.approx(20.0, abs=1e-9)  # the deal's 30 s kept running


# -- 2. the mafia's points and the one accused, tied to the step ------------------------------


def test_the_mafias_points_belong_to_their_night_act_only() -> None:
    t = make_table("amateur", AMATEUR)
    t.until(w.NightAct, role="mafia")  # night 2: the mafia point at their victim
    t.desk.point(3, 1)
    t.desk.point(5, 7)
    assert t.desk.points == {3: 1, 5: 7}
    t.desk.enter((Foul(4),), shown="foul 4")  # a foul keeps the step: the points stay
    assert t.desk.points == {3: 1, 5: 7}
    t.next_step()  # nobody agreed: a miss; the commissar wakes
    assert isinstance(t.wait, w.NightAct) and t.wait.role == "commissar"
    assert t.desk.points == {}


def points_after_an_undone_foul(*, looked_at_the_next_step: bool) -> dict[int, int]:
    """The mafia point (amateur, night 2), the operator fouls 4, the mafia's time runs out (a
    miss), the foul is undone: the mafia's step comes back (its serial, its time left)."""
    t = make_table("amateur", AMATEUR)
    t.until(w.NightAct, role="mafia")
    serial = t.wait.serial
    t.desk.point(3, 1)
    t.desk.enter((Foul(4),), shown="foul 4")
    t.next_step()
    assert isinstance(t.wait, w.NightAct) and t.wait.role == "commissar"
    if looked_at_the_next_step:
        assert t.desk.points == {}  # gone with the step, as it should
    t.desk.undo()
    assert t.wait.serial == serial
    return dict(t.desk.points)


def test_reading_the_points_at_another_step_does_not_change_what_an_undo_brings_back() -> None:
    unseen = points_after_an_undone_foul(looked_at_the_next_step=False)
    seen = points_after_an_undone_foul(looked_at_the_next_step=True)
    # reading the points is no press: what an undo brings back does not depend on it
    assert seen == unseen == {3: 1}


def test_the_accused_holds_through_the_speech_and_the_thumbs_right_after_it() -> None:
    t = make_table("amateur", AMATEUR)
    t.until(w.Floor)
    desk = t.desk
    t.host.apply(TakeFloor(4))  # 4's hand was first
    assert isinstance(t.wait, w.Speech) and t.wait.seat == 4
    assert desk.accused is None
    desk.accuse(4, 8)
    assert desk.accused == 8
    desk.accuse(4, 7)  # he names another: the last one counts
    assert desk.accused == 7
    t.host.apply(EndSpeech())
    assert isinstance(t.wait, w.PutUp) and t.wait.seat == 4
    assert desk.accused == 7  # the thumbs' window after his speech
    t.next_step()
    assert isinstance(t.wait, w.Floor)
    assert desk.accused is None
    t.host.apply(TakeFloor(6))
    assert isinstance(t.wait, w.Speech) and desk.accused is None  # another speaker's speech


def test_the_thumbs_window_is_the_one_the_wait_opens_for_the_speaker_on_his_day() -> None:
    t = make_table("amateur", AMATEUR)
    t.until(w.Floor)
    t.host.apply(TakeFloor(4))
    t.desk.accuse(4, 8)
    t.host.apply(EndSpeech())
    assert isinstance(t.wait, w.PutUp) and t.wait.seat == 4 and t.desk.accused == 8
    t.until(w.NightAct)  # nobody put up, nobody voted on; the night's acts run out: no kill
    t.until(w.Floor)
    assert t.game.phase.number == 2 and 4 in t.game.living
    t.host.apply(TakeFloor(4))  # his speech of day 2: he accuses nobody
    assert t.desk.accused is None
    t.host.apply(EndSpeech())
    assert isinstance(t.wait, w.PutUp) and t.wait.seat == 4
    assert t.desk.accused is None  # day 1's accusal is not this window's


def test_an_accusation_by_one_who_is_not_speaking_names_nobody() -> None:
    t = make_table("amateur", AMATEUR)
    t.until(w.Floor)
    t.host.apply(TakeFloor(4))
    t.desk.accuse(6, 8)
    assert t.desk.accused is None


def test_without_put_up_windows_the_accused_is_gone_with_the_speech() -> None:
    t = make_table()  # crime-time: nominations (2.3.1), no thumbs after a speech
    t.until(w.Speech, seat=1)
    t.desk.accuse(1, 5)
    assert t.desk.accused == 5
    t.host.apply(EndSpeech())
    assert isinstance(t.wait, w.Speech) and t.wait.seat == 2
    assert t.desk.accused is None


# -- 3. awaits_human ---------------------------------------------------------------------------


def test_a_vote_waits_for_the_hosts_count_until_answered_and_the_next_one_asks_again() -> None:
    t = make_table()
    t.until(w.Speech)
    assert not t.desk.awaits_human  # a speech ends on its own
    t.until(w.Vote, nominations={2: 1, 3: 4})  # 2.4
    assert isinstance(t.wait, w.Vote) and t.wait.candidate == 1
    assert t.desk.awaits_human
    t.desk.answered()
    assert not t.desk.awaits_human
    # 1 is voted out on day 1 (six hands of ten), so the sheriff is not at the next night's check
    t.desk.enter(t.desk.hand_count(6), shown="6 hands", done=True)
    assert isinstance(t.wait, w.Vote) and t.wait.candidate == 4
    assert t.desk.awaits_human  # a new step is asked again
    t.until(w.Hunt)  # 2.1.2
    assert t.desk.awaits_human
    t.until(w.NightAct, role="don")  # 2.1.3
    assert t.desk.awaits_human
    t.until(w.NightAct, role="sheriff")
    assert not t.desk.awaits_human  # the sheriff left the table: his 15 s just run out


def test_the_hunt_and_both_checks_wait_for_the_host_with_the_checkers_at_the_table() -> None:
    t = make_table()
    t.until(w.Hunt)
    assert t.desk.awaits_human
    t.desk.answered()
    assert not t.desk.awaits_human
    t.until(w.NightAct, role="don")
    assert t.desk.awaits_human
    t.until(w.NightAct, role="sheriff")
    assert t.desk.awaits_human


# -- 4. enter(..., done=True) ------------------------------------------------------------------


def test_a_vote_answered_closes_its_window_at_once() -> None:
    t = make_table()
    t.until(w.Vote, nominations={1: 2, 2: 4})
    assert isinstance(t.wait, w.Vote) and t.wait.candidate == 2
    serial, now = t.wait.serial, t.host.now()
    t.after(0.25)  # within the vote's second (2.4)
    events = t.desk.enter(t.desk.hand_count(3), shown="3 hands", done=True)
    assert t.host.now() == now + 0.25
    assert isinstance(t.wait, w.Vote) and t.wait.candidate == 4 and t.wait.serial != serial
    assert ev.VoteCounted(candidate=2, votes=3) in events
    assert [e.text for e in t.desk.entries] == ["3 hands"]


def test_the_hunt_answered_while_held_ends_at_its_time() -> None:
    t = make_table()
    t.until(w.Hunt)
    t.host.hold()  # the count goes on; the step waits for the mafia's target
    serial, end = t.wait.serial, t.host.timer_started + 15.0
    t.after(3)
    t.desk.enter(hunt_entry(t), shown="the hunt's entry", done=True)
    assert not t.host.held and not t.desk.awaits_human
    assert isinstance(t.wait, w.Hunt) and t.wait.serial == serial  # the count goes on (2.1.2)
    t.driver.run_until(end - 0.01)
    assert isinstance(t.wait, w.Hunt)
    t.driver.run_until(end)
    assert isinstance(t.wait, w.NightAct) and t.wait.role == "don"
    assert t.game.history[-1] == TimeUp("hunt")


def test_the_hunt_answered_past_its_time_ends_at_once() -> None:
    t = make_table()
    t.until(w.Hunt)
    t.host.hold()
    end = t.host.timer_started + 15.0
    t.driver.run_until(end + 5)
    assert isinstance(t.wait, w.Hunt) and t.host.held  # held: the count is over, no end
    t.desk.enter(hunt_entry(t), shown="the hunt's entry", done=True)
    assert isinstance(t.wait, w.NightAct) and t.wait.role == "don"
    assert t.host.now() == end + 5


def test_an_entry_that_changes_nothing_is_not_logged() -> None:
    t = make_table()
    t.until(w.Speech)
    assert t.desk.enter((), shown="-", done=True) == []
    assert t.desk.entries == [] and t.desk.undoable() is None
    t.until(w.Hunt)
    t.desk.enter((), shown="-", done=True)  # not held: nothing to release
    assert t.desk.entries == []
    t.until(w.NightAct, role="don")
    t.host.hold()
    t.desk.enter((), shown="-", done=True)  # «-»: no check, but the held step is let go
    assert [e.text for e in t.desk.entries] == ["-"] and not t.host.held


# -- 5. undo -------------------------------------------------------------------------------------


def test_undo_of_a_closed_vote_brings_the_window_back_with_the_time_it_had_left() -> None:
    t = make_table()
    t.until(w.Vote, nominations={1: 2, 2: 4})
    serial, history = t.wait.serial, len(t.game.history)
    t.after(0.25)
    left = t.host.time_left
    assert left is not None and left < 1.0
    said = len(t.transcript.said)
    t.desk.enter(t.desk.hand_count(3), shown="3 hands", done=True)
    assert t.wait.serial != serial  # «Спасибо», three votes: said
    mark = t.desk.undo()
    assert mark.text == "3 hands" and t.desk.entries == []
    assert len(t.game.history) == history
    assert isinstance(t.wait, w.Vote) and t.wait.candidate == 2 and t.wait.serial == serial
    time_left = t.host.time_left
    assert time_left is not None and abs(time_left - left) < 1e-9
    assert t.desk.awaits_human  # asked again
    # the narrator had said the count: a correction, and the vote's question again (2.4)
    assert t.said_since(said)[-2:] == [t.text("correction"), t.text("who_for.2")]
    t.after(left)
    assert isinstance(t.wait, w.Vote) and t.wait.candidate == 4  # the window's end, as it was


def test_undo_takes_back_the_timers_ends_after_the_entry_too() -> None:
    t = make_table()
    t.until(w.Speech, seat=1)
    serial, history = t.wait.serial, len(t.game.history)
    t.after(20)
    t.desk.enter((Foul(4),), shown="foul 4")
    assert t.said_since(0)[-1] == t.text("foul.4")
    t.next_step()  # 1's minute runs out: 2 speaks
    t.next_step()  # and 3
    assert isinstance(t.wait, w.Speech) and t.wait.seat == 3
    assert t.desk.undoable() is t.desk.entries[-1]
    t.desk.undo()
    assert len(t.game.history) == history and Foul(4) not in t.game.history
    assert isinstance(t.wait, w.Speech) and t.wait.seat == 1 and t.wait.serial == serial
    assert t.host.time_left == pytest.approx(40.0, abs=1e-9)
    assert t.transcript.said[-1] == t.text("correction")


def test_undo_in_a_step_that_did_not_close_keeps_its_clock_running() -> None:
    t = make_table()
    t.until(w.Speech, seat=1)
    serial = t.wait.serial
    t.after(20)
    t.desk.enter((Foul(4),), shown="foul 4")
    t.after(10)
    t.desk.undo()
    assert t.wait.serial == serial and Foul(4) not in t.game.history
    assert t.host.time_left == pytest.approx(30.0, abs=1e-9)  # not back to the 40 s of the foul
    assert t.transcript.said[-1] == t.text("correction")  # «фол» had been said


def test_an_undone_removal_gives_the_day_its_vote_back() -> None:
    t = make_table()
    t.until(w.Speech, seat=3, nominations={1: 2, 2: 4})
    t.desk.enter((Remove(7),), shown="remove 7")  # 2.4.3: no vote today
    assert 7 in t.game.out and t.transcript.said[-1] == t.text("removed.7")
    t.desk.undo()
    assert 7 not in t.game.out and t.transcript.said[-1] == t.text("correction")
    t.until((w.Vote, w.Hunt))
    assert isinstance(t.wait, w.Vote) and t.wait.candidate == 2  # the nominations stand


def test_an_undo_after_nothing_was_said_says_no_correction() -> None:
    t = make_table()
    t.until(w.Vote, nominations={1: 2, 2: 4})
    said = len(t.transcript.said)
    t.desk.enter((Hands((1, 2)),), shown="hands 1 2")
    assert t.game.step_hands == {1, 2} and len(t.transcript.said) == said
    t.desk.undo()
    assert t.game.step_hands == frozenset() and len(t.transcript.said) == said


def test_undo_with_an_empty_log_is_refused() -> None:
    t = make_table()
    assert t.desk.undoable() is None
    with pytest.raises(NarratorError, match="nothing to undo"):
        t.desk.undo()


@pytest.mark.parametrize("other", [Nominate(5), EndSpeech()], ids=["nominate", "end"])
def test_undo_is_refused_once_another_input_came_after_the_entry(other: Action) -> None:
    t = make_table()
    t.until(w.Speech, seat=1)
    t.desk.enter((Foul(4),), shown="foul 4")
    assert t.desk.undoable() is not None
    t.host.apply(other)  # a pad's press or a phrase heard: not through the desk
    assert t.desk.undoable() is None
    history = list(t.game.history)
    with pytest.raises(NarratorError, match="too late to undo foul 4"):
        t.desk.undo()
    assert t.game.history == history and len(t.desk.entries) == 1


def test_undo_of_the_hunt_held_brings_the_step_back_held_and_waiting_for_the_host() -> None:
    t = make_table()
    t.until(w.Hunt)
    t.host.hold()
    serial = t.wait.serial
    t.after(4.5)
    left = t.host.time_left
    assert left is not None
    t.desk.enter(hunt_entry(t), shown="the hunt's entry", done=True)
    t.next_step()  # released: it ends at its time
    assert isinstance(t.wait, w.NightAct)
    t.desk.undo()  # the shots and the hunt's end
    assert isinstance(t.wait, w.Hunt) and t.wait.serial == serial
    assert t.game.hunt_shots == {}
    time_left = t.host.time_left
    assert time_left is not None and abs(time_left - left) < 1e-9
    assert t.host.held and t.desk.awaits_human


# -- 6. hand_count -------------------------------------------------------------------------------


def test_a_count_in_a_vote_is_the_hosts_count() -> None:
    t = make_table()
    t.until(w.Vote, nominations={1: 2, 2: 4})
    assert t.desk.hand_count(4) == (HandCount(4),)
    assert t.desk.hand_count(0) == ()
    assert t.desk.hand_count(10) == (HandCount(10),)
    with pytest.raises(NarratorError, match="only 10 players"):
        t.desk.hand_count(11)


def test_a_count_in_the_car_crash_stands_for_the_first_living_seats() -> None:
    t = make_table()
    t.until(w.Hunt)  # day 1: nobody nominated
    t.desk.enter(hunt_entry(t, "1"), shown="the hunt's entry", done=True)  # 2.1.2: 1 is shot
    # day 2, nine at the table: 3 : 3 : 3 twice (the abstainers count for 8, 2.4), so the
    # car crash (2.4.1, 2.4.2)
    hands = {4: (2, 3, 4), 6: (5, 6, 7)}
    for _ in range(200):
        exp = t.wait
        if isinstance(exp, w.Crash):
            break
        if isinstance(exp, w.Vote):
            if exp.candidate in hands:
                t.host.apply(Hands(hands[exp.candidate]))
            t.next_step()
        else:
            t.until((w.Vote, w.Crash), nominations={2: 4, 3: 6, 4: 8})
    assert isinstance(t.wait, w.Crash), t.game.notation()
    assert t.game.living == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert t.desk.hand_count(3) == (Hands((2, 3, 4)),)  # who they are does not matter
    assert t.desk.hand_count(0) == ()
    assert t.desk.hand_count(9) == (Hands((2, 3, 4, 5, 6, 7, 8, 9, 10)),)
    with pytest.raises(NarratorError, match="only 9 players"):
        t.desk.hand_count(10)
    events = t.desk.enter(t.desk.hand_count(5), shown="5 hands", done=True)
    assert any(isinstance(e, ev.CrashResult) and e.votes_for == 5 and e.passed for e in events)


def test_a_count_with_no_vote_open_is_refused() -> None:
    t = make_table()
    t.until(w.Speech)
    with pytest.raises(NarratorError, match="no vote is open"):
        t.desk.hand_count(3)


# -- 7. restore from a journal's presses ---------------------------------------------------------


def test_restore_reads_back_the_cards_of_the_current_deal() -> None:
    t = make_table()
    t.host.apply(Foul(4))  # a foul while dealing: the same step
    back = rebuilt(t)
    assert isinstance(back.wait, w.Deal)
    back.desk.restore([Noted(0, CardSeen(1)), Noted(0, CardSkipped(2)), Noted(1, CardSeen(3)),
                       Noted(2, CardSeen(5))])  # 5's: after the journal's last action, ignored
    assert back.desk.seen == {1, 3} and back.desk.skipped == {2}
    assert back.desk.waiting_for_cards() == [4, 5, 6, 7, 8, 9, 10]
    assert back.desk.card_seen(1) is False and back.desk.card_seen(5) is True


def test_restore_reads_back_the_mafias_points_of_this_night_only() -> None:
    t = make_table("amateur", AMATEUR)
    t.until(w.NightAct, role="mafia")
    night_2 = len(t.game.history)  # the mafia do not agree: a miss
    t.next_step()
    t.until(w.NightAct, role="mafia")
    night_3 = len(t.game.history)
    back = rebuilt(t)
    assert isinstance(back.wait, w.NightAct) and back.wait.role == "mafia"
    back.desk.restore([
        Noted(0, CardSeen(1)), Noted(0, CardSeen(2)),  # at the deal
        Noted(night_2, Point(3, 4)), Noted(night_2, Point(5, 9)),  # night 2
        Noted(night_3, Point(3, 1)), Noted(night_3, Point(5, 7)),  # night 3
        Noted(night_3 + 1, Point(5, 2)),  # after the journal's last action: ignored
    ])
    assert back.desk.points == {3: 1, 5: 7}
    assert back.desk.saw_card(1) and back.desk.saw_card(2) and not back.desk.saw_card(3)
    assert back.desk.seen == frozenset()  # not dealing


def test_restore_reads_back_the_one_accused_in_the_thumbs_after_his_speech() -> None:
    t = make_table("amateur", AMATEUR)
    t.until(w.Floor)
    t.host.apply(TakeFloor(4))
    speech = len(t.game.history)
    t.host.apply(EndSpeech())
    back = rebuilt(t)
    assert isinstance(back.wait, w.PutUp)
    back.desk.restore([Noted(speech, Accusal(4, 8))])
    assert back.desk.accused == 8


# -- one log for every front end on the host ------------------------------------------------------


def test_assist_and_the_console_on_one_host_share_one_entry_log() -> None:
    t = make_table()
    t.until(w.Speech, seat=1)
    controller = Controller(t.host, t.driver, t.transcript)
    messages: list[tuple[str, str]] = []
    controller.on_message = lambda kind, text: messages.append((kind, text))
    console = ConsoleTable(t.host)
    assert controller.desk is console.desk is t.desk

    reply = console.handle(Press(OPERATOR, "foul", {"seat": 4}, t.host.now()))
    assert reply.ok and t.game.history[-1] == Foul(4)
    controller.undo()  # assist's key takes back the console operator's foul
    t.driver.take()
    assert Foul(4) not in t.game.history and ("ok", "undone: foul 4") in messages

    controller.foul("6")
    t.driver.take()
    assert t.game.history[-1] == Foul(6) and len(t.desk.entries) == 1
    reply = console.handle(Press(OPERATOR, "undo", {}, t.host.now()))
    assert reply.ok and Foul(6) not in t.game.history and t.desk.entries == []
