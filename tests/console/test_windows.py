"""The console's windows move a step's end through the host (``Host.end_step_at``): later, for
the presses still on their way, or to no moment, for the deal that waits for the cards. And a
view is a typed value, serialised once."""

from __future__ import annotations

import json

from narrator.console.settings import ConsoleSettings
from narrator.console.tokens import OPERATOR
from narrator.console.view import PadView
from narrator.console.views import all_views
from narrator.engine import waits as w
from tests.console.conftest import Rig, make_rig


def _speech(rig: Rig) -> tuple[int, float]:
    rig.deal()
    rig.until(w.Speech)
    timer = rig.game.expect.timer
    assert timer is not None
    return rig.game.expect.serial, rig.host.timer_started + timer.seconds


def test_a_step_ends_at_the_moment_the_host_is_told(rig: Rig) -> None:
    serial, end = _speech(rig)
    rig.host.end_step_at(end + 5)
    rig.driver.run_until(end + 4.9)
    assert rig.game.expect.serial == serial  # past its timer's end: still on
    rig.driver.run_until(end + 5)
    assert rig.game.expect.serial != serial and not rig.host.held


def test_a_step_told_to_end_at_no_moment_waits_until_its_timer_runs_again(rig: Rig) -> None:
    serial, end = _speech(rig)
    rig.host.end_step_at(None)
    rig.driver.run_until(end + 600)
    assert rig.game.expect.serial == serial and not rig.host.held  # no human host holds it
    rig.host.resume()  # its timer run again (an undo, a resume): it ends at its own end
    left = rig.host.time_left
    assert left is not None
    rig.driver.run_until(rig.host.now() + left)
    assert rig.game.expect.serial != serial


def test_a_voting_window_ends_its_settle_after_its_timer_and_takes_a_hand_sent_before() -> None:
    rig = make_rig()
    rig.to_the_vote()
    timer = rig.game.expect.timer
    assert timer is not None
    end = rig.host.timer_started + timer.seconds
    rig.driver.run_until(end + rig.table.settings.settle / 2)
    assert isinstance(rig.game.expect, w.Vote)  # the window waits for presses on their way
    assert rig.press(3, "vote", candidate=4, t=end - 0.01).ok  # stamped before «Спасибо»
    assert rig.press(5, "vote", candidate=4, t=end + 0.01).reason == "after_thanks"


def test_a_table_that_votes_by_hand_waits_for_the_count() -> None:
    rig = make_rig(ConsoleSettings(hand_votes=True))
    rig.to_the_vote()
    serial = rig.game.expect.serial
    rig.after(600)
    assert rig.game.expect.serial == serial and rig.views[OPERATOR]["timer"]["held"]
    assert rig.op("hands", candidate=4, count=3).ok
    assert rig.game.expect.serial != serial


def test_every_screen_shares_one_common_part_and_each_view_is_serialised_once(rig: Rig) -> None:
    rig.deal()
    views = all_views(rig.table)
    pads = [v for v in views.values() if isinstance(v, PadView)]
    assert len(pads) == 10 and all(v.common is pads[0].common for v in pads)
    view = views[3]
    assert view.message is view.message  # made once, kept
    for each in views.values():  # the shared text extended: the same JSON as the view's own
        assert json.loads(each.message) == {"view": each.json}
    assert view["seat"] == 3 and dict(view) == view.json  # it reads as the page's JSON
    assert views == all_views(rig.table)  # nothing changed, nothing new to send
