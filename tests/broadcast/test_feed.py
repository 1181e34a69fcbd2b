"""The stream's delayed feed on a virtual clock: a game's pictures and scene changes, each
released at its moment + the delay — nothing before, everything after, in order — and the
picture holds every card and night act (the table's screens hold none of them)."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.broadcast.feed import DelayedFeed
from narrator.broadcast.serve import watch
from narrator.clock import VirtualClock
from narrator.engine import Phase
from narrator.engine import waits as w
from tests.console.conftest import EVERYONE, Rig, make_rig
from tests.console.test_night_traffic import hit

DELAY = 60.0


def watched(rig: Rig, delay: float = DELAY) -> tuple[DelayedFeed, VirtualClock, list[dict[str, Any]]]:
    """A feed on the rig's game, read on a clock of its own (the stream's moment, moved by the
    test), and every picture as it was pushed."""
    reading = VirtualClock()
    feed = DelayedFeed(reading, delay)
    pushed: list[dict[str, Any]] = []
    push = feed.push

    def keep(picture: dict[str, Any]) -> None:
        before = feed._pushed
        push(picture)
        if feed._pushed != before:
            pushed.append(picture)

    feed.push = keep  # type: ignore[method-assign]
    watch(rig.host, feed, "ru")
    return feed, reading, pushed


def night_two(rig: Rig) -> None:
    """Day 1 with no nominations, night 2 with the mafia's hit on 8 and both checks."""
    rig.deal()
    for seat in EVERYONE:
        assert rig.press(seat, "end").ok
    rig.until(w.Hunt)
    hit(8, check=1, sheriff=5)(rig)
    rig.until(w.Speech)
    assert rig.game.phase == Phase.day(2)


def test_nothing_reaches_the_stream_before_its_moment_plus_the_delay() -> None:
    rig = make_rig()
    feed, reading, pushed = watched(rig)
    night_two(rig)
    assert len(pushed) > 20
    stamps = [p["at"] for p in pushed]
    assert stamps == sorted(stamps) and stamps[-1] > stamps[0] + 30
    # before the first picture's moment + the delay the stream has nothing at all
    reading.set(stamps[0] + DELAY - 0.001)
    early = feed.read()
    assert early.picture is None and early.scenes == ()
    seen: list[int] = []
    for i, at in enumerate(stamps):
        reading.set(max(reading.now(), at + DELAY - 0.001))
        before = feed.read()
        # the picture shown is an earlier one: never this one, nor any after it
        assert before.picture is not None or i == 0
        assert before.serial < i + 1 or stamps[before.serial - 1] + DELAY <= reading.now()
        reading.set(at + DELAY)
        after = feed.read()
        # at its moment it is out, with every picture stamped the same moment before it
        last_same = max(j for j, s in enumerate(stamps) if s == at)
        assert after.serial == last_same + 1
        assert after.picture == pushed[last_same]
        seen.append(after.serial)
    assert seen == sorted(seen) and seen[-1] == len(pushed)
    assert feed.waiting == 0


def test_the_scene_changes_come_in_order_each_at_its_moment_plus_the_delay() -> None:
    rig = make_rig()
    feed, reading, pushed = watched(rig)
    night_two(rig)
    changes = [(p["at"], p["scene"]) for i, p in enumerate(pushed)
               if i == 0 or p["scene"] != pushed[i - 1]["scene"]]
    assert [s for _, s in changes] == ["night", "day", "night", "day"]
    for at in sorted({a for a, _ in changes}):
        reading.set(at + DELAY - 0.001)
        early = [(c.at, c.scene) for c in feed.read().scenes]
        assert early == [c for c in changes if c[0] < at]
        reading.set(at + DELAY)
        released = [(c.at, c.scene) for c in feed.read().scenes]
        assert released == [c for c in changes if c[0] <= at]
    # a reader asks only for what came after its last one
    seqs = [c.seq for c in feed.read().scenes]
    assert seqs == sorted(seqs) and [c.seq for c in feed.read(seqs[1]).scenes] == seqs[2:]


def test_the_picture_holds_every_card_the_speaker_and_the_nights_acts() -> None:
    rig = make_rig()
    feed, reading, pushed = watched(rig)
    night_two(rig)
    reading.set(pushed[-1]["at"] + DELAY)
    last = feed.read().picture
    assert last is not None
    roles = {s["seat"]: s["role"] for s in last["seats"]}
    assert roles == {s: r.value for s, r in rig.game.roles.items()}
    assert [s["seat"] for s in last["seats"] if s["black"]] == [3, 5, 9]
    assert {s["seat"]: s["out"] for s in last["seats"] if s["out"]} == {8: "shot"}
    assert last["speaker"] == rig.game.expect.seat  # type: ignore[union-attr]
    acts = [(a["night"], a["role"], a["act"], a["target"], a["result"])
            for a in last["night_acts"]]
    assert (2, "mafia", "shot", 8, None) in acts
    assert (2, "don", "check", 1, True) in acts
    assert (2, "sheriff", "check", 5, True) in acts
    assert last["timer"] is not None and last["timer"]["ends"] > last["timer"]["starts"]
    assert last["phase"] == "d2" and last["scene"] == "day"


def test_a_vote_shows_the_nominations_and_the_hands() -> None:
    rig = make_rig()
    feed, reading, _ = watched(rig, delay=0)
    rig.to_the_vote()
    reading.set(rig.host.now())
    now = feed.read().picture
    assert now is not None and now["scene"] == "vote"
    assert now["nominations"] == [[1, 4], [2, 6]] and now["voting"] == 4
    assert now["candidates"] == [4, 6] and now["hands"] == []
    for seat in (2, 7):
        assert rig.press(seat, "vote", candidate=4).ok
    reading.set(rig.host.now())
    hands = feed.read().picture
    assert hands is not None and hands["hands"] == [2, 7]  # as each hand went up
    rig.until(w.Vote, candidate=6)
    rig.until((w.Speech, w.Pause, w.Hunt))  # the round is counted
    reading.set(rig.host.now())
    later = feed.read().picture
    assert later is not None and later["votes"][0]["candidates"] == [4, 6]
    assert later["votes"][0]["votes"]["4"] == 2


def test_a_picture_with_nothing_new_but_its_moment_is_not_kept_again() -> None:
    feed = DelayedFeed(VirtualClock(3.0), 0)
    feed.push({"at": 1.0, "scene": "day", "x": 1})
    feed.push({"at": 2.0, "scene": "day", "x": 1})
    feed.push({"at": 3.0, "scene": "day", "x": 2})
    out = feed.read()
    assert out.serial == 2 and out.picture == {"at": 3.0, "scene": "day", "x": 2}
    assert [c.scene for c in out.scenes] == ["day"]


def test_a_negative_delay_is_refused() -> None:
    with pytest.raises(ValueError):
        DelayedFeed(VirtualClock(), -1)
