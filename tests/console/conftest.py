"""A console table on a virtual clock: presses stamped by the test, timers run by the test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.console.settings import ConsoleSettings
from narrator.console.table import ConsoleTable, Press, Reply
from narrator.console.tokens import OPERATOR, Who
from narrator.engine import Game, Role
from narrator.engine import waits as w
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.transcript import Transcript
from narrator.inputs import Input
from narrator.voice.manifest import default_manifest
from tests.console.browser import CHROMIUM, FLAGS
from tests.helpers import ROLES

EVERYONE = range(1, 11)


@dataclass
class Rig:
    clock: VirtualClock
    game: Game
    host: Host
    transcript: Transcript
    table: ConsoleTable
    inputs: list[Input] = field(default_factory=list)
    views: dict[Who, dict[str, Any]] = field(default_factory=dict)
    driver: Driver = field(init=False)

    def __post_init__(self) -> None:
        # moves the game's time (and the virtual clock) from deadline to deadline
        self.driver = Driver(self.host.scheduler, lambda event: None)

    def press(self, who: Who, do: str, *, t: float | None = None, **data: Any) -> Reply:
        return self.table.handle(Press(who, do, data, self.clock.now() if t is None else t))

    def op(self, do: str, **data: Any) -> Reply:
        return self.press(OPERATOR, do, **data)

    def step(self) -> None:
        """Run the clock to the next deadline."""
        assert self.driver.run_next(), "nothing scheduled"

    def until(self, kind: type[w.Wait] | tuple[type[w.Wait], ...], **attrs: Any) -> None:
        """Run timers until the game waits for a ``kind`` of wait (with ``attrs``: e.g.
        ``checks=True`` for a checker's night step)."""
        for _ in range(1000):
            exp = self.game.expect
            if isinstance(exp, kind) and all(getattr(exp, k) == v for k, v in attrs.items()):
                return
            self.step()
        raise AssertionError(f"never reached {kind} {attrs}: {self.game.expect}")

    def deal(self) -> None:
        """Every seat sees its card; the first night runs to the first day speech (or, by
        raised hands, to the first call for a hand)."""
        for seat in range(1, self.game.seats + 1):
            assert self.press(seat, "seen").ok
        for _ in range(1000):
            if isinstance(self.game.expect, w.Speech | w.Floor):
                return
            self.step()

    def to_the_vote(self) -> None:
        """Day 1 to the vote on seat 4 (seat 1 nominated 4, seat 2 nominated 6)."""
        self.deal()
        assert self.press(1, "nominate", target=4).ok
        assert self.press(1, "end").ok
        assert self.press(2, "nominate", target=6).ok
        for seat in range(2, 11):
            self.until(w.Speech, seat=seat)
            assert self.press(seat, "end").ok
        self.until(w.Vote, candidate=4)

    def after(self, seconds: float) -> None:
        self.driver.run_until(self.host.now() + seconds)


def make_rig(settings: ConsoleSettings | None = None, roles: dict[int, Role] | None = None,
             rules: Any = "crime-time", *, seats: int | None = None,
             dealt: dict[str, str] | None = None, lang: str = "ru") -> Rig:
    clock = VirtualClock()
    game = Game(rules, roles=ROLES if roles is None else roles, seats=seats, dealt=dealt)
    parts = assemble_host(game, clock, manifest=default_manifest(lang))
    host, transcript = parts.host, parts.transcript
    rig_inputs: list[Input] = []
    views: dict[Who, dict[str, Any]] = {}
    table = ConsoleTable(host, settings=settings, record=rig_inputs.append,
                         publish=lambda published: views.update(  # as each page gets it
                             {who: json.loads(view.message)["view"]
                              for who, view in published.items()}),
                         said=lambda: list(transcript.said))
    rig = Rig(clock, game, host, transcript, table, rig_inputs, views)
    host.start()
    return rig


@pytest.fixture
def rig() -> Rig:
    return make_rig()


@pytest.fixture
def browser_context(tmp_path: Path) -> Iterator[Any]:
    """One Chromium profile for every page of the table (downloads accepted: the protocol)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
            accept_downloads=True)
        try:
            yield ctx
        finally:
            ctx.close()
