"""Timers travel as deadlines: a view does not change while the time runs, and every message
carries the game clock's ``now`` when it was sent, so a pad that (re)connects at any moment of
a speech counts down the true time left — not the length the step began with."""

from __future__ import annotations

import pytest

from narrator.console.tokens import OPERATOR
from narrator.console.views import all_views
from narrator.engine import waits as w
from tests.console.conftest import Rig, make_rig
from tests.console.test_security import Peer, Served


def speech_of_seat_1(rig: Rig) -> None:
    rig.deal()
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 1


def test_a_view_is_the_same_while_the_time_runs() -> None:
    rig = make_rig()
    speech_of_seat_1(rig)
    before = all_views(rig.table)
    rig.after(20.0)
    assert all_views(rig.table) == before  # nothing to send: the pages count down themselves
    timer = before[OPERATOR]["timer"]
    assert timer["ends"] - timer["starts"] == timer["total"] == rig.game.expect.timer.seconds  # type: ignore[union-attr]


def test_a_pad_that_connects_late_in_a_speech_is_told_the_time_left() -> None:
    rig = make_rig()
    speech_of_seat_1(rig)
    served = Served(rig)
    with served.client:
        served.step(lambda: None)  # the views of the speech's start are published
        rig.after(54.0)  # nothing changes for 54 s: no view is built again
        with served.client.websocket_connect(f"/ws/{served.pad(4)}") as ws:
            msg = ws.receive_json()
            assert "view" in msg
            timer = msg["view"]["timer"]
            left = timer["ends"] - msg["now"]
            assert abs(left - 6.0) < 0.01, msg
            assert Peer(ws) is not None


def test_the_hunt_pad_counts_from_the_counts_start_on_the_game_clock() -> None:
    rig = make_rig()
    rig.deal()
    rig.until(w.Hunt)
    view = all_views(rig.table)[5]  # a mafioso's pad
    step = view["step"]
    # «один» counts for a press from the count's start (and the grace after it), then a
    # number every pace: the moments are on the game clock, so the page counts by itself
    exp = rig.game.expect
    assert isinstance(exp, w.Hunt)
    begins = rig.host.timer_started + rig.table.settings.hunt_grace
    assert step["type"] == "hunt" and step["numbers"][0] == round(begins, 3)
    assert step["numbers"][1] - step["numbers"][0] == pytest.approx(exp.pace)
    assert len(step["numbers"]) == rig.game.seats
    rig.after(3.0)
    assert all_views(rig.table)[5]["step"] == step  # the page counts «четыре» itself
