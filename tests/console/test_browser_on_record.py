"""The club's colours on record (6.7) on a real pad, in Debian's Chromium: a tap makes a seat
red, a second tap black; «Оставить под протокол» sends them; the protocol keeps them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.console.browser import end_game, launched_game, needs_chromium, wait
from tests.console.test_browser_phone import CRIME_TIME, Phones

pytestmark = needs_chromium


def test_6_7_5_the_speaker_leaves_colours_on_record_on_his_pad(tmp_path: Path,
                                                                 browser_context: Any) -> None:
    rules = tmp_path / "club.toml"
    rules.write_text('on_record = "all"\n', encoding="utf-8")
    with launched_game(tmp_path, *CRIME_TIME, "--rules-file", str(rules)) as game:
        table = Phones(browser_context, game.links)
        op = table.op
        wait(op, "Console.view() && Console.view().phase.step === 'dealing'")
        table.deal()
        wait(op, "Console.view().phase.step === 'speech' && Console.view().phase.seat === 1",
             timeout=40)
        one = table.pads[1]
        wait(one, "!!Console.view().step && !!Console.view().step.on_record")
        assert table.view(one)["step"]["on_record"] == list(range(2, 11))  # not himself
        table.click(one, "#step .grid button", "3")  # red
        wait(one, "document.querySelector('#step').innerText.indexOf('3 красный') >= 0")
        table.click(one, "#step .grid button", "7")
        table.click(one, "#step .grid button", "7 красный")  # again: black
        wait(one, "document.querySelector('#step').innerText.indexOf('7 чёрный') >= 0")
        table.click(one, "#step button", "Оставить под протокол")
        wait(one, "document.querySelector('#step').innerText.indexOf('3 красный') < 0")
        black = sorted(s for s, r in game.roles.items() if r in ("mafia", "don"))
        for seat in black:
            table.remove(seat)
        wait(op, "Console.view().winner === 'civilians'")
        protocol, _ = end_game(game, op)
    assert protocol["on_record"] == [
        {"seat": 1, "day": 1, "speech": "day", "red": [3], "black": [7]}]
