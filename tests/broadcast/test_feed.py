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


def _vote_pictures(pushed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [p for p in pushed if p["voting"] is not None]


def test_a_two_candidate_vote_and_its_revote_show_each_candidates_own_hands() -> None:
    """The stream once showed «за 6: 1, 2, 3, 5, 6» — the hands for 4 — in 6's window. Each
    window shows its own candidate's hands (the engine's round), and each round's counts are
    the protocol's, the abstainers for the last candidate said apart (2.4)."""
    rig = make_rig()
    _, _, pushed = watched(rig, delay=0)
    rig.to_the_vote()
    for seat in (1, 2, 3, 5, 6):
        assert rig.press(seat, "vote", candidate=4).ok
    rig.until(w.Vote, candidate=6)
    for seat in (7, 8):
        assert rig.press(seat, "vote", candidate=6).ok
    rig.until(w.Vote, candidate=4, round=2)  # 5 : 2 + 3 abstaining — a tie (2.4.1)
    for seat in (1, 2, 3):
        assert rig.press(seat, "vote", candidate=4).ok
    rig.until(w.Vote, candidate=6, round=2)
    for seat in (5, 6, 7):
        assert rig.press(seat, "vote", candidate=6).ok
    rig.until((w.Speech, w.Pause, w.Hunt))  # 4 : 3, 6 : 3 + 4 abstaining — 6 leaves
    protocol = rig.game.protocol()["days"][0]["rounds"]
    assert protocol == [{"candidates": [4, 6], "votes": {"4": 5, "6": 5}},
                        {"candidates": [4, 6], "votes": {"4": 3, "6": 7}}]
    seen: dict[tuple[int, int], set[int]] = {}
    for p in _vote_pictures(pushed):
        rnd = len(p["votes"])  # the rounds counted before this one
        hands = p["round_hands"]
        assert p["hands"] == hands[str(p["voting"])]  # the window's own candidate's
        for c, h in hands.items():
            seen.setdefault((rnd, int(c)), set()).update(h)
    assert seen == {(0, 4): {1, 2, 3, 5, 6}, (0, 6): {7, 8},
                    (1, 4): {1, 2, 3}, (1, 6): {5, 6, 7}}
    last = pushed[-1]
    for shot, rnd in zip(last["votes"], protocol, strict=True):
        assert shot["candidates"] == rnd["candidates"] and shot["votes"] == rnd["votes"]
    assert [v["abstained"] for v in last["votes"]] == [3, 4]
    # the hands + the abstainers of each round are its protocol counts
    for (r, c), h in seen.items():
        abstained = last["votes"][r]["abstained"] if c == 6 else 0
        assert len(h) + abstained == protocol[r]["votes"][str(c)]
    # in the last window the abstainers still to count are said as they stand
    six = [p for p in _vote_pictures(pushed) if p["voting"] == 6 and not p["votes"]]
    assert six[0]["abstaining"] == 10 - 5 and six[-1]["abstaining"] == 3


def test_the_deal_waiting_for_the_cards_shows_no_running_timer() -> None:
    rig = make_rig()
    _, _, pushed = watched(rig, delay=0)
    assert isinstance(rig.game.expect, w.Deal)
    rig.after(600)  # the deal waits for every card however long
    assert isinstance(rig.game.expect, w.Deal)
    deal = [p for p in pushed if p["step"] == "deal"]
    assert deal and deal[-1]["timer"] is None
    rig.deal()
    assert pushed[-1]["timer"] is not None  # the first speech's minute runs
