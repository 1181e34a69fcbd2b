"""What a phone receives at night, and when, tells it nothing it may not know.

A player needs only their own link and a browser's developer tools to watch their socket. So
the rule: during a night step, every connection without a part in the act receives
byte-identical frames at the same times, whatever is pressed. The frames here are what the
server's hub would send each connection (a view goes out only when it changed for it), with
the game time each went out at. A part in the act: the seat that acts; in crime-time's hunt a
mafioso's partners have none (2.1.2: they shoot with eyes closed); in vrn and amateur the
mafia's partners see each other's points by design.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from narrator.console.hub import Hub
from narrator.console.tokens import OPERATOR, Who
from narrator.engine import Phase, Role
from narrator.engine import waits as w
from tests.console.conftest import EVERYONE, Rig, make_rig

Frames = dict[Who, list[tuple[float, str]]]


class _NowLoop:
    """An event loop stand-in: the hub's sends happen at once, on this thread."""

    def is_closed(self) -> bool:
        return False

    def call_soon_threadsafe(self, fn: Callable[..., Any], *args: Any) -> None:
        fn(*args)


def wired(rig: Rig) -> Frames:
    """Record, for each identity, the frames the real hub would send it (at what time)."""
    hub = Hub(rig.table, lambda fn: fn())
    hub.loop = _NowLoop()  # type: ignore[assignment]
    frames: Frames = {}

    def send_all(changed: dict[Who, str]) -> None:
        for who, text in changed.items():
            frames.setdefault(who, []).append((round(rig.host.now(), 6), text))

    hub._send_all = send_all  # type: ignore[method-assign]
    rig.table.publish = hub.publish
    rig.table.publish_views()  # every phone connected: its view now
    return frames


def night(presses: Callable[[Rig], None]) -> tuple[Frames, float]:
    """Day 1 with no nominations, then night 2 played with ``presses`` (which runs the night
    to the day); the frames of the night, and the moment the day began."""
    rig = make_rig()
    rig.deal()
    for seat in EVERYONE:
        assert rig.press(seat, "end").ok
    rig.until(w.Hunt)
    frames = wired(rig)
    start = rig.host.now()
    presses(rig)
    rig.until(w.Speech)
    assert rig.game.phase == Phase.day(2)
    day = min(t for seq in frames.values() for t, text in seq if '"day"' in text
              and '"time": "day"' in text)
    return {who: [(t - start, x) for t, x in seq if t < day] for who, seq in frames.items()}, day - start


def at_number(rig: Rig, number: int) -> None:
    """Run the count to the middle of ``number``."""
    pace = rig.game.rules.count_pace
    rig.driver.run_until(rig.host.timer_started + (number - 1) * pace + 0.6 * pace)


def hit(target: int, shooters: tuple[int, ...] = (3, 5, 9), *, check: int | None = None,
        check_at: float = 1.0, sheriff: int | None = None) -> Callable[[Rig], None]:
    def play(rig: Rig) -> None:
        if shooters:
            at_number(rig, target)
            for mafioso in shooters:
                assert rig.press(mafioso, "shoot").ok
        rig.until(w.NightAct, checks=True, role="don")
        if check is not None:
            rig.after(check_at)
            assert rig.press(3, "check", target=check).ok
        rig.until(w.NightAct, checks=True, role="sheriff")
        if sheriff is not None:
            rig.after(check_at)
            assert rig.press(1, "check", target=sheriff).ok
    return play


def others(frames: Frames, parts: set[Who]) -> Frames:
    return {who: seq for who, seq in frames.items() if who not in parts}


ROLES = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}
CIVILIANS: set[Who] = {s for s in EVERYONE if s not in ROLES} | {OPERATOR}


def test_2_1_2_a_hit_and_a_miss_look_the_same_to_every_phone_without_a_part() -> None:
    a, day_a = night(hit(8, check=1, sheriff=5))
    b, day_b = night(hit(0, shooters=(), check=None, sheriff=None))
    assert day_a == day_b  # the night's steps run out in full either way
    # the civilians and the operator: nothing of the hunt, the checks, their times
    assert others(a, {3, 5, 9, 1}) == others(b, {3, 5, 9, 1})
    assert set(a) >= CIVILIANS


def test_2_1_2_a_mafiosos_partners_learn_nothing_of_his_shot() -> None:
    # 2.1.2: the mafia shoot with eyes closed: 5's shot reaches neither 3 nor 9
    a, _ = night(hit(8, shooters=(3, 9)))
    b, _ = night(hit(8, shooters=(3, 5, 9)))
    c, _ = night(hit(2, shooters=(3, 9)))
    assert others(a, {5}) == others(b, {5})
    assert a[5] == c[5]  # and 5 learns nothing of theirs
    assert a[5] != b[5]  # (his own press shows on his own pad)


def test_2_1_3_a_check_early_late_or_none_looks_the_same_to_everyone_else() -> None:
    early, _ = night(hit(8, check=1, check_at=0.5, sheriff=3, ))
    late, _ = night(hit(8, check=2, check_at=9.0, sheriff=9))
    none, _ = night(hit(8))
    for run in (late, none):
        assert others(early, {3, 1}) == others(run, {3, 1})


# -- vrn: the don's kill, the sheriff's check or shot, the maniac's kill, the doctor's save ---

VRN = {4: Role.DON, 7: Role.MAFIA, 10: Role.MAFIA, 2: Role.SHERIFF, 9: Role.DOCTOR,
       1: Role.MANIAC}
VRN_PARTS: set[Who] = {4, 7, 10, 2, 9, 1}


def vrn_night(acts: dict[str, tuple[int, str, int]], at: float = 1.0) -> Frames:
    """vrn's introduction round, then night 2 with ``acts`` (role → the seat that presses, the
    act, the target), each pressed ``at`` seconds into its step; the frames before the day."""
    rig = make_rig(roles=VRN, rules="vrn", dealt={"maniac_side": "city"})
    rig.deal()
    for seat in EVERYONE:
        rig.until(w.Speech, seat=seat)
        assert rig.press(seat, "end").ok
    rig.until(w.NightAct, checks=False, role="mafia")
    frames = wired(rig)
    start = rig.host.now()
    while rig.game.phase == Phase.night(2):
        exp = rig.game.expect
        if isinstance(exp, w.NightAct) and exp.role in acts and rig.game.acted(exp.role) is None:
            seat, act, target = acts[exp.role]
            rig.after(at)
            assert rig.press(seat, "act", act=act, target=target).ok
            if rig.game.acted(exp.role) is None:  # (a partner only points)
                continue
        rig.step()
    day = rig.host.now()
    return {who: [(t - start, x) for t, x in seq if t < day] for who, seq in frames.items()}


def test_vrn_who_acted_how_and_when_looks_the_same_to_the_rest() -> None:
    # what the narrator says aloud, everyone hears, by the rule text: a miss of the mafia
    # («Мафия не договорилась») and the count on the doctor's stretcher («на носилках двоє»).
    # So the runs keep those the same: the mafia kill 3; two seats on the stretcher. What
    # differs — the sheriff's check or shot, the maniac's seat, the doctor's pick or none, and
    # when each was pressed — reaches nobody else.
    shot = vrn_night({"mafia": (4, "kill", 3), "sheriff": (2, "kill", 7),
                      "maniac": (1, "kill", 3), "doctor": (9, "save", 3)})
    check = vrn_night({"mafia": (4, "kill", 3), "sheriff": (2, "check", 4),
                       "maniac": (1, "kill", 6), "doctor": (9, "save", 6)}, at=8.0)
    none = vrn_night({"mafia": (4, "kill", 3), "maniac": (1, "kill", 8)}, at=3.0)
    for run in (check, none):
        assert others(shot, VRN_PARTS) == others(run, VRN_PARTS)
    assert set(shot) >= {3, 5, 6, 8, OPERATOR}
