"""An evening in a real browser, shortly: game 1 ended at once by the operator's removals of
the black seats; in the lobby the operator view has the host's marks' form for it, a mark sent
shows there and is in game 1's journal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from narrator.host.journal import load_journal
from tests.console.browser import needs_chromium, wait
from tests.evening.test_evening_browser import evening, remove

pytestmark = needs_chromium


def test_the_lobby_takes_the_last_games_marks(tmp_path: Path, browser_context: Any) -> None:
    with evening(tmp_path) as ev:
        links = ev.start()
        op = browser_context.new_page()
        op.set_viewport_size({"width": 1000, "height": 900})
        op.goto(links["operator"])
        wait(op, "Console.view() && !!Console.view().lobby && !!Console.view().evening")
        assert op.locator("#marks").is_hidden()  # no game over yet: nothing to mark
        op.locator("button", has_text="Случайная рассадка").click()
        wait(op, "!document.querySelector('#start').disabled")
        op.locator("#start").click()
        wait(op, "!!Console.view() && !Console.view().lobby")
        for seat in sorted(s for s, r in ev.roles(1).items() if r in ("mafia", "don")):
            remove(op, seat)
        wait(op, "!!Console.view().lobby && !!Console.view().marks")
        row = op.locator("#mark-4")
        row.locator("input.points").fill("-0.2")
        row.locator("input[value=worst_move]").check()
        row.locator("input.comment").fill("ушёл не туда")
        row.locator("button").click()
        wait(op, "document.querySelector('#mark-given-4').textContent !== ''")
        assert op.locator("#mark-given-4").inner_text() == "-0.2, худший ход — ушёл не туда"
        assert ev.proc is not None
        ev.kill()
    game = load_journal(ev.dir / "game-01.jsonl").game()
    assert game.winner is not None and game.marks[4].titles == ("worst_move",)
    assert json.loads((ev.dir / "evening.json").read_text())["games"][0]["number"] == 1
