"""The evening's page script arriving late: the first view reaches the page while the browser
still fetches evening.js (a loaded machine, a slow Wi-Fi). The page connects only once every
script has run, so the lobby (the seating, «Случайная рассадка») is drawn from that first view;
before, the view went to the game's page alone and the lobby stayed empty until the next one."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.console.browser import needs_chromium, wait
from tests.evening.test_evening_browser import evening

pytestmark = needs_chromium


def test_a_late_evening_script_still_draws_the_lobby(tmp_path: Path, browser_context: Any) -> None:
    with evening(tmp_path) as ev:
        links = ev.start()
        op = browser_context.new_page()

        def late(route: Any) -> None:
            time.sleep(1.0)  # the script's fetch held back; the page meanwhile runs its tasks
            route.continue_()

        op.route("**/static/evening.js", late)
        op.goto(links["operator"])
        wait(op, "Console.view() && !!Console.view().lobby && !!Console.view().evening")
        wait(op, "!!document.querySelector('#seat-pick-1')")
        assert op.locator("button", has_text="Случайная рассадка").count() == 1
        ev.kill()
