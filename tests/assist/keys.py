"""Driving the assist app in tests: keys in through Textual's pilot, the live loop stepped on
a virtual clock (:class:`KeyDriver`), and the sessions and scenarios the assist tests share.

The host's own driver is :class:`narrator.host.driver.Driver`; this one presses keys.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from narrator.assist.cli import make_session
from narrator.assist.ui import AssistApp, GameScreen, Session
from narrator.clock import VirtualClock
from narrator.engine import Game, Role, Rules
from narrator.engine import waits as w
from narrator.host.journal import Journal
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES

__all__ = ["INF", "KeyDriver", "Scenario", "check", "hunt", "new_session", "play", "timers"]

INF = float("inf")


def new_session(journal: Path, roles: dict[int, Role] | None = None,
                rules: Rules | str = "crime-time") -> Session:
    game = Game(rules, roles=roles or ROLES)
    session = make_session(game, VirtualClock(), journal=Journal.for_game(journal, game, fsync=False),
                           manifest=default_manifest("ru"))
    session.host.start()
    return session


Scenario = Callable[[AssistApp, Pilot[None], "KeyDriver"], Awaitable[None]]


def timers(exp: w.Expect) -> bool:
    """A step that only waits for its timer."""
    return isinstance(exp, w.Pause | w.Deal)


def hunt(exp: w.Expect) -> bool:
    return isinstance(exp, w.Hunt)


def check(exp: w.Expect) -> bool:
    return isinstance(exp, w.NightAct) and exp.checks


class KeyDriver:
    """Keys in through the pilot, the loop stepped on the fake clock."""

    def __init__(self, session: Session, pilot: Pilot[None], screen: GameScreen) -> None:
        self.session = session
        self.pilot = pilot
        self.screen = screen
        self.loop = session.loop
        self.game = session.host.game

    async def keys(self, *keys: str) -> None:
        await self.pilot.press(*keys)
        self.loop.step(timeout=0)  # the loop runs the inputs (and publishes a snapshot)

    async def type(self, text: str, key: str = "enter") -> None:
        await self.keys(*[("minus" if ch == "-" else ch) for ch in text], key)

    def run_timers(self, waiting: Callable[[w.Expect], bool] = timers) -> None:
        """Let the clock run while the game only waits on its timers (or what ``waiting``
        says)."""
        for _ in range(200):
            if not waiting(self.game.expect):
                break
            self.loop.step(timeout=INF)
        self.session.loop.submit(self.screen.controller.publish)
        self.loop.step(timeout=0)

    @property
    def said(self) -> list[str]:
        return self.session.transcript.said

    @property
    def phase(self) -> str:
        return self.game.notation().split()[1]

    def log(self, kind: str | None = None) -> list[str]:
        return [text for k, text in self.screen.messages if kind is None or k == kind]

    async def day_speeches(self, nominations: dict[int, int]) -> None:
        """Every day speech, ended with Space; ``nominations`` by speaker."""
        while isinstance(self.game.expect, w.Speech) and self.game.expect.speech == "day":
            seat = self.game.expect.seat
            if seat in nominations:
                await self.type(str(nominations[seat]))
            await self.keys("space")


def play(session: Session, scenario: Scenario) -> None:
    async def go() -> None:
        app = AssistApp(session)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.game_screen
            assert screen is not None
            await scenario(app, pilot, KeyDriver(session, pilot, screen))

    asyncio.run(go())
