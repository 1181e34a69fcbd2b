"""In a real browser: once a console game is over, the operator view's form per seat gives the
host's marks (points, a title, a comment); the marks given show on the page, a refusal shows
the engine's reason, the downloaded protocol and the journal hold the mark. The game is ended
quickly: the operator removes the black seats at the terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from narrator.cli import main
from tests.console.browser import launched_game, needs_chromium, wait

pytestmark = needs_chromium


def test_the_operators_mark_form_after_the_game(tmp_path: Path, browser_context: Any) -> None:
    with launched_game(tmp_path, "--seed", "1") as game:
        op = browser_context.new_page()
        op.set_viewport_size({"width": 1000, "height": 820})
        op.goto(game.links["operator"])
        wait(op, "Console.view() !== null")
        assert op.locator("#marks").is_hidden()  # no form while the game is on
        assert game.proc.stdin is not None
        for seat in sorted(s for s, r in game.roles.items() if r in ("mafia", "don")):
            game.proc.stdin.write(f"r {seat}\n")
        game.proc.stdin.flush()
        wait(op, "!!Console.view().marks")
        row = op.locator("#mark-4")
        row.locator("input.points").fill("0.3")
        row.locator("button").click()  # points without a comment: the engine's reason
        wait(op, "document.querySelector('#message').textContent.indexOf('Нужен комментарий') >= 0")
        assert op.locator("#mark-given-4").inner_text() == ""
        row.locator("input[value=best_player]").check()
        row.locator("input.comment").fill("нашла шерифа")
        row.locator("button").click()
        wait(op, "document.querySelector('#mark-given-4').textContent !== ''")
        assert op.locator("#mark-given-4").inner_text() == "+0.3, лучший игрок — нашла шерифа"
        with op.expect_download() as download:
            op.locator("#protocol").click()
        protocol = json.loads(Path(download.value.path()).read_text())
        game.proc.stdin.write("\n")
        game.proc.stdin.flush()
        assert game.proc.wait(timeout=30) == 0
    mark = {"seat": 4, "points": 0.3, "titles": ["best_player"], "comment": "нашла шерифа"}
    assert protocol["marks"] == [mark]
    record = tmp_path / "game.json"  # the mark is MafiaRatings' bonus and comment
    assert main(["export", "--format", "mafiaratings", str(game.journal), "--demo",
                 "-o", str(record)]) == 0
    fourth = json.loads(record.read_text(encoding="utf-8"))["players"][3]
    assert (fourth["bonus"], fourth["comment"]) == ([0.3, "bestPlayer"], "нашла шерифа")
    lines = [json.loads(x) for x in game.journal.read_text().splitlines()[1:]]
    assert any(x.get("type") == "operator" and x.get("do") == "mark" for x in lines)
