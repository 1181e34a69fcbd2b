"""The operator's page ends a speech and stops and starts the clock, as the terminal's keys do:
the page sends a press, the engine (a ``TimeUp``) or the host's clock (its pause) decides; a
dead phone of a speaker no longer leaves only the terminal or the 60 s limit."""

from __future__ import annotations

from narrator.console.tokens import OPERATOR
from narrator.engine import waits as w
from tests.console.conftest import make_rig


def test_the_operator_ends_a_speech_and_it_is_undone_as_an_entry() -> None:
    rig = make_rig()
    rig.table.publish_views()
    assert not rig.views[OPERATOR]["can_end"]  # the deal ends with its cards only
    assert rig.op("time_up").reason == "not_now"
    rig.deal()
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 1
    assert rig.views[OPERATOR]["can_end"] and rig.views[OPERATOR]["clock"] == "pause"
    assert rig.op("time_up").ok
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 2
    assert rig.op("undo").ok  # an entry like any other of the operator's
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 1


def test_a_pause_holds_the_timer_and_the_pads_until_the_operator_resumes() -> None:
    rig = make_rig()
    rig.deal()
    rig.after(20)
    left = rig.host.time_left
    serial = rig.game.expect.serial
    assert rig.op("pause").ok
    assert rig.views[OPERATOR]["clock"] == "resume" and not rig.views[OPERATOR]["can_end"]
    assert rig.views[OPERATOR]["paused"] == "ведущий остановил время"
    assert rig.op("pause").reason == "paused"
    assert rig.press(1, "end").reason == "paused"  # nothing is taken while it stands still
    rig.after(600)
    assert rig.game.expect.serial == serial  # the minute did not run out
    assert rig.op("resume").ok
    assert rig.views[OPERATOR]["clock"] == "pause"
    assert rig.host.time_left == left
    rig.after(left + 5)
    assert rig.game.expect.serial != serial  # the rest of the minute ran, then it ended
    assert rig.op("resume").reason == "not_now"
