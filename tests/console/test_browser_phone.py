"""The pages as a club holds them: phone-sized (390×844), in Debian's Chromium.

crime-time: an answer goes with its step (a speaker's «Принято» is gone once the next one
speaks, and never shows under «За» before a vote); the operator's view keeps what each step
needs above the fold — the undo, the vote's hands as they come in — with the timer on one line
and the pause drawn, not a glyph; a removal is asked again on the seat itself, apart from the
foul, and no browser dialog ever opens. amateur: the floor's short window counts down on the
pad; a speaker's grid leaves out himself and the seats out; the mafia are told the kill needs
them all; the commissar's grid leaves out himself and the seats the table knows are out, and
keeps tonight's victim.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from tests.console.browser import Pages, launched_game, needs_chromium, wait

pytestmark = needs_chromium

PHONE = {"width": 390, "height": 844}
CRIME_TIME = ["--seed", "11", "--count-pace", "0.3", "--timer", "agreement=1",
              "--timer", "don_noted=0.5", "--timer", "sheriff_first_night=0.5",
              "--timer", "check=1", "--timer", "vote_window=6", "--timer", "speech=30"]
AMATEUR = ["--rules", "amateur", "--seed", "3", "--timer", "mafia_meets=0.5",
           "--timer", "meet=0.5", "--timer", "floor=3", "--timer", "put_up=0.5",
           "--timer", "speech=30", "--timer", "agreement=1", "--timer", "check=20",
           "--timer", "justify=5", "--timer", "vote_window=1"]


class Phones(Pages):
    """The operator's page and the pads, all phone-sized; a dialog fails the test."""

    def __init__(self, ctx: Any, links: dict[str, Any]) -> None:
        super().__init__(ctx, links)
        for page in [self.op, *self.pads.values()]:
            page.set_viewport_size(PHONE)
            page.on("dialog", lambda d: (_ for _ in ()).throw(AssertionError(d.message)))

    def deal(self) -> None:
        for page in self.pads.values():
            wait(page, "!!Console.view() && !!Console.view().card")
            self.hold_card(page)

    def message(self, page: Any) -> str:
        text: str = page.evaluate("document.querySelector('#message').textContent")
        return text

    def above_the_fold(self, page: Any, selector: str) -> bool:
        box = page.locator(selector).bounding_box()
        return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]

    def remove(self, seat: int) -> None:
        self.op.bring_to_front()
        self.op.locator(f"#seat-{seat} .acts button").filter(has_text="Удалить…").click()
        self.op.locator(f"#seat-{seat} .acts button").filter(
            has_text=f"Да, удалить {seat}").click()
        wait(self.op, f"Console.view().out['{seat}'] === 'removed' || !!Console.view().winner")


def test_a_crime_time_table_at_phone_size(tmp_path: Path, browser_context: Any) -> None:
    with launched_game(tmp_path, *CRIME_TIME) as game:
        table = Phones(browser_context, game.links)
        op = table.op
        # the deal waits for the cards: no timer and no pause sign (nothing stands still)
        wait(op, "Console.view() && Console.view().phase.step === 'dealing'")
        assert op.evaluate("Console.view().timer") is None
        assert op.evaluate("document.querySelector('#timer').className") == "timer"
        assert op.evaluate("document.querySelector('#timer').textContent") == ""
        table.deal()
        wait(op, "Console.view().phase.step === 'speech' && Console.view().phase.seat === 1",
             timeout=40)
        one, two = table.pads[1], table.pads[2]
        # the timer stays on one line in the operator's header
        wait(op, "/с$/.test(document.querySelector('#timer').textContent)")
        assert op.evaluate("document.querySelector('#timer').getClientRects().length") == 1
        # seat 1 nominates 4: «Принято» on his pad — gone once seat 2 speaks
        table.click(one, "#step .grid button", "4")
        wait(one, "document.querySelector('#message').textContent === 'Принято'")
        table.click(one, "#step button.big")  # «Спасибо»
        wait(two, "Console.view().step && Console.view().step.type === 'speech'")
        wait(one, "document.querySelector('#message').textContent === ''")
        # the foul and the removal stand apart; the removal is asked again, on the seat
        foul = op.locator("#seat-6 .acts button").filter(has_text="+ фол")
        ask = op.locator("#seat-6 .acts button").filter(has_text="Удалить…")
        assert ask.get_attribute("class") == "remove" and foul.get_attribute("class") == "foul"
        assert ask.bounding_box()["width"] < foul.bounding_box()["width"]
        ask.click()
        assert op.locator("#seat-6").get_attribute("class").endswith("arming")
        op.locator("#seat-6 .acts button").filter(has_text="Отмена").click()
        assert "6" not in table.view(op)["out"]
        foul.click()
        wait(op, "Console.view().fouls['6'] === 1")
        assert table.above_the_fold(op, "#undo")  # the undo, whatever the step
        table.click(two, "#step .grid button", "5")  # (one candidate on day 1: no vote)
        wait(two, "Console.view().step.standing === 5")
        for seat in range(2, 11):
            wait(table.pads[seat], "Console.view().step && Console.view().step.type === "
                                   "'speech'")
            table.click(table.pads[seat], "#step button.big")
        # the vote on 4: no «Принято» left under «За»; the hands on the operator's view
        wait(one, "Console.view().step && Console.view().step.type === 'vote'")
        assert table.message(one) == ""
        wait(op, "!document.querySelector('#tally').hidden")
        assert "Руки за 4: 0" in op.locator("#tally").inner_text()
        for seat in (1, 2, 7):
            table.click(table.pads[seat], "#step button.big")
        wait(op, "Console.view().tally.hands.length === 3")
        assert "Руки за 4: 3" in op.locator("#tally").inner_text()
        assert "1 2 7" in op.locator("#tally").inner_text()
        assert table.above_the_fold(op, "#tally") and table.above_the_fold(op, "#undo")
        shots = os.environ.get("NARRATOR_SCREENSHOTS")
        if shots:
            op.screenshot(path=str(Path(shots) / "console-operator.png"))
        # a removal, then the mafia removed: the civilians win
        black = sorted(s for s, r in game.roles.items() if r in ("mafia", "don"))
        for seat in black:
            table.remove(seat)
        wait(op, "Console.view().winner === 'civilians'")
        assert table.message(op) == "" or "Принято" not in table.message(op)


def test_an_amateur_table_at_phone_size(tmp_path: Path, browser_context: Any) -> None:
    with launched_game(tmp_path, *AMATEUR) as game:
        table = Phones(browser_context, game.links)
        op = table.op
        roles = game.roles
        mafia = sorted(s for s, r in roles.items() if r == "mafia")
        commissar = next(s for s, r in roles.items() if r == "commissar")
        red = sorted(s for s, r in roles.items() if r != "mafia" and s != commissar)
        table.deal()
        # day 1 by raised hands: the short window counts down, big, on every pad
        first = table.pads[red[0]]
        wait(first, "Console.view().step && Console.view().step.type === 'floor'", timeout=30)
        wait(first, "/^[0-3]\\.\\d$/.test(document.querySelector('#step .count').textContent)")
        table.click(first, "#step button.big")  # his hand is first
        wait(first, "Console.view().step && Console.view().step.type === 'speech'")
        removed = red[-1]
        table.remove(removed)  # a violation, in the middle of the speech
        wait(first, f"Console.view().out['{removed}'] === 'removed'")
        grid = first.locator("#step .grid").first.inner_text().split()
        assert str(red[0]) not in grid and str(removed) not in grid  # not himself, not out
        assert str(commissar) in grid and len(grid) == 8
        table.click(first, "#step button.big")  # «Спасибо»
        # the others speak in turn (nobody put up): to the night
        deadline = time.monotonic() + 90
        while (view := table.view(op) or {})["phase"]["time"] == "day":
            assert time.monotonic() < deadline, view
            phase = view["phase"]
            if phase["step"] == "speech":
                seat = phase["seat"]
            elif phase["step"] == "floor":
                seat = next(s for s in view["living"] if s not in view.get("spoken", []))
            else:
                time.sleep(0.05)
                continue
            page = table.pads[seat]
            step = (table.view(page) or {}).get("step") or {}
            if step.get("type") in ("speech", "floor") and not step.get("spoken"):
                table.click(page, "#step button.big")
            time.sleep(0.05)
        # the mafia's kill: all of them on one seat, and each pad says so
        victim = red[1]
        for seat in mafia:
            page = table.pads[seat]
            wait(page, "Console.view().step && Console.view().step.type === 'act'", timeout=30)
            assert "Убийство — когда все мафиози укажут одного игрока" in \
                page.locator("#step").inner_text()
        for seat in mafia:
            table.click(table.pads[seat], "#step .grid button", str(victim))
        # the commissar: neither himself nor the seat out; tonight's victim still there
        pad = table.pads[commissar]
        wait(pad, "Console.view().step && Console.view().step.type === 'check'", timeout=30)
        grid = pad.locator("#step .grid").inner_text().split()
        assert str(commissar) not in grid and str(removed) not in grid
        assert str(victim) in grid
        shots = os.environ.get("NARRATOR_SCREENSHOTS")
        if shots:
            pad.screenshot(path=str(Path(shots) / "console-pad.png"))
        if game.proc.poll() is None:
            game.proc.kill()
