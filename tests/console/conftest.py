"""A console table on a virtual clock (narrator.testing.TableRig): presses stamped by the test,
timers run by the test; and the browser the page tests share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.console.settings import ConsoleSettings
from narrator.engine import Game, Role
from narrator.testing import TableRig
from tests.console.browser import CHROMIUM, FLAGS
from tests.helpers import ROLES

EVERYONE = range(1, 11)


#: the console tests' rig is the one table rig (narrator.testing.TableRig)
Rig = TableRig


def make_rig(settings: ConsoleSettings | None = None, roles: dict[int, Role] | None = None,
             rules: Any = "crime-time", *, seats: int | None = None,
             dealt: dict[str, str] | None = None, lang: str = "ru") -> Rig:
    game = Game(rules, roles=ROLES if roles is None else roles, seats=seats, dealt=dealt)
    return TableRig(game, settings=settings, lang=lang)


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
