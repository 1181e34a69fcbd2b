"""End to end in a real browser: a 10-seat hostless game with ``narrator play --listen off``,
played to its end from ten seat pads and the operator view in Debian's Chromium (Playwright).

The game runs on the real clock with a club's short figures (``--timer``, ``--count-pace``)
and a voice pack of 40 ms clips, so it takes seconds, not an hour; the server stamps every
press itself. The script of the game: day 1 votes out a mafioso; night 2 the mafia hit a
civilian, the don checks the sheriff and the sheriff a mafioso, each answer on that pad alone;
day 2 votes out the other mafioso, and in his last word the operator removes the don for a
violation — the civilians win. The club asks for the best move (8.17): in his last word the
night's victim picks three seats on his pad, sees them picked, and sends them. The operator also gives a foul and takes it back, and downloads
the protocol, which must be the journal's.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from narrator.cli import main
from tests.console.browser import (
    ROLE_WORDS,
    Pages,
    end_game,
    journal_protocol,
    launched_game,
    needs_chromium,
    wait,
)

PACE = 1.0  # seconds a number of the count: a tap is taken HUNT_GRACE (0.3 s) back
FIGURES = ["--seed", "11", "--count-pace", str(PACE), "--timer", "agreement=1",
           "--timer", "don_noted=0.5", "--timer", "sheriff_first_night=0.5",
           "--timer", "check=1.5", "--timer", "vote_window=1", "--timer", "speech=20",
           "--timer", "last_word=20"]

pytestmark = needs_chromium


class Table(Pages):
    """The ten pads and the operator view, and the script of the game."""

    def __init__(self, ctx: Any, links: dict[str, Any], roles: dict[int, str],
                 shots_dir: Path) -> None:
        super().__init__(ctx, links)
        self.roles = roles
        self.shots_dir = shots_dir
        mafia = sorted(s for s, r in roles.items() if r == "mafia")
        self.don = next(s for s, r in roles.items() if r == "don")
        self.sheriff = next(s for s, r in roles.items() if r == "sheriff")
        civilians = sorted(s for s, r in roles.items() if r == "civilian")
        self.victim = civilians[0]
        # day → (the seat voted out, a second nomination), in nomination order
        self.days = {1: (mafia[0], civilians[1]), 2: (mafia[1], None)}
        self.nominated: set[tuple[int, int]] = set()
        self.hunted: set[int] = set()
        self.fouled = False
        self.removed = False
        self.best_named: list[int] = []
        self.op_shot = shots_dir / "console-operator.png"
        # no browser dialog asks anything: one would fail the test
        self.op.on("dialog", lambda dialog: (_ for _ in ()).throw(AssertionError(dialog.message)))
        self.shots: dict[str, str] = {}

    def hunt(self, night: int) -> None:
        """The mafia hit the victim on night 2 (on the number being spoken), miss later."""
        self.hunted.add(night)
        if night != 2:
            return
        shooters = [s for s, r in self.roles.items() if r in ("mafia", "don")
                    and not (self.view(self.pads[s]) or {}).get("gone")]
        first = self.pads[shooters[0]]
        wait(first, f"document.querySelector('#step .count') && "
                                f"document.querySelector('#step .count').textContent === "
                                f"'{self.victim}'")
        # the pad shows the number a press takes now: a tap on it is a shot on it
        for seat in shooters:
            self.click(self.pads[seat], "#step button.big")
        for seat in shooters:
            page = self.pads[seat]
            wait(page, "document.querySelector('#message').textContent === 'Выстрел принят'")
            # the number taken never shows in the open: behind the hold, as the card
            assert "Выстрел на" not in page.locator("#step").inner_text()
            assert self.held(page) == f"Выстрел на {self.victim}"

    def pad_turn(self, seat: int) -> None:
        page = self.pads[seat]
        asked = self.new_step(seat)
        if asked is None:
            return
        view, step = asked
        kind = step["type"]
        day = view["phase"]["number"]
        if kind == "card" and not step["seen"]:
            self.hold_card(page)
        elif kind == "check" and step["done"] is None:
            target = self.sheriff if step["role"] == "don" else self.days[2][0]
            if not self.click(page, "#step .grid button", str(target)):
                return
            wait(page, "Console.view().step && Console.view().step.done")
            # the answer shows only while held (a lit screen at night is read over a shoulder)
            assert page.locator("#step .result").is_hidden()
            self.shots[step["role"]] = self.held(page).splitlines()[-1]
            if step["role"] == "sheriff" and not (self.shots_dir / "console-pad.png").exists():
                page.screenshot(path=str(self.shots_dir / "console-pad.png"))
        elif kind == "speech" and step["speech"] == "day":
            out, other = self.days.get(day, (None, None))
            speakers = [s for s in view["living"] if s not in (out, other)]  # type: ignore[index]
            wants = {speakers[0]: out, speakers[1]: other}.get(seat) if out else None
            if wants and (day, wants) not in self.nominated:
                self.nominated.add((day, wants))
                assert self.click(page, "#step .grid button", str(wants))
                wait(page, f"Console.view().step && Console.view().step.standing === {wants}")
            self.click(page, "#step button.big")
        elif kind == "speech":
            if day == 2 and seat == self.days[2][0]:
                del self.acted[seat]  # he speaks on: the operator removes the don meanwhile
                return
            if step.get("best_move") and not self.best_named:
                self.best_move(page, step["best_move"])
            self.click(page, "#step button.big")  # a last word: «Спасибо»
        elif kind == "vote" and not step["voted"] and \
                step["candidate"] == self.days.get(day, (None,))[0]:
            self.click(page, "#step button.big")

    def best_move(self, page: Any, offered: list[int]) -> None:
        """The victim taps three seats (the black ones first), each shown picked, then sends."""
        black = [s for s in offered if self.roles[s] in ("mafia", "don")]
        named = (black + [s for s in offered if s not in black])[:3]
        for i, seat in enumerate(named):
            assert self.click(page, "#step .grid button", str(seat))
            picked = ", ".join(map(str, named[:i + 1]))
            wait(page, f"document.querySelector('#step').innerText.indexOf("
                       f"'Лучший ход: {picked}') >= 0")
        selected = page.locator("#step .grid button.sel").all_inner_texts()
        assert sorted(map(int, selected)) == sorted(named)
        assert self.click(page, "#step button", "Назвать лучший ход")
        wait(page, "document.querySelector('#message').textContent === 'Принято' && "
                   "!Console.view().step.best_move")
        self.best_named = named

    def operator_turn(self, view: dict[str, Any]) -> None:
        """Day 1: a foul to seat 2, taken back. Day 2, in the voted mafioso's last word: the
        don is removed for a violation (2.4.3), and the civilians win."""
        phase = view["phase"]
        if not self.fouled and phase["step"] == "speech":
            self.fouled = True
            self.click(self.op, "#seat-2 .acts button", "+ фол")
            wait(self.op, "Console.view().fouls['2'] === 1")
            assert self.op.locator("#seat-2 .what").inner_text() == "фолы: 1"
            self.click(self.op, "#undo")
            wait(self.op, "!('2' in Console.view().fouls)")
        if phase["step"] == "speech" and phase["speech"] == "last" and \
                phase["seat"] == self.days[2][0] and not self.removed:
            self.removed = True
            # a removal is asked again on the seat itself, apart from the foul
            self.click(self.op, f"#seat-{self.don} .acts button", "Удалить…")
            assert self.op.locator(f"#seat-{self.don}").get_attribute("class").endswith("arming")
            self.click(self.op, f"#seat-{self.don} .acts button", f"Да, удалить {self.don}")
            wait(self.op, f"Console.view().out['{self.don}'] === 'removed'")

    def play(self, limit: float) -> dict[str, Any]:
        """Each turn: the operator view says what the table waits for; the pads concerned act."""
        start = time.monotonic()
        deadline = start + limit
        last = None
        while time.monotonic() < deadline:
            op = self.view(self.op)
            if op is None:
                continue
            if op["winner"]:
                return op
            phase = op["phase"]
            if os.environ.get("NARRATOR_TRACE") and json.dumps(phase) != last:
                last = json.dumps(phase)
                print(f"{time.monotonic() - start:6.2f} {last}")
            self.operator_turn(op)
            step = phase["step"]
            if step == "vote" and phase["number"] == 2 and not self.op_shot.exists():
                self.op.screenshot(path=str(self.op_shot))
            if step == "dealing":
                seats = list(self.pads)
            elif step == "speech":
                seats = [phase["seat"]]
            elif step == "vote":
                seats = op["living"]
            elif step == "hunt":
                if phase["number"] not in self.hunted:
                    self.hunt(phase["number"])
                seats = []
            elif step in ("don_check", "sheriff_check"):
                seats = [self.don if step == "don_check" else self.sheriff]
            else:
                seats = []
            for seat in seats:
                self.pad_turn(seat)
        raise AssertionError(f"the game did not end in {limit} s: {self.view(self.op)}")


def test_a_hostless_game_is_played_to_the_end_from_ten_pads_and_the_operator(
        tmp_path: Path, browser_context: Any) -> None:
    club = tmp_path / "club.toml"
    club.write_text("best_move = true\n", encoding="utf-8")
    with launched_game(tmp_path, *FIGURES, "--rules-file", str(club)) as game:
        roles = game.roles
        shots = tmp_path / "shots"
        shots.mkdir()
        table = Table(browser_context, game.links, roles, shots)
        started = time.monotonic()
        end = table.play(limit=120)
        print(f"game played in {time.monotonic() - started:.1f} s")
        assert end["winner"] == "civilians"
        protocol, out = end_game(game, table.op)
    # the night: a hit on the number spoken, two checks, each answer on its own pad
    night2 = protocol["nights"][0]
    assert night2["shot"] == table.victim
    assert night2["don_check"] == {"target": table.sheriff, "result": True}
    assert night2["sheriff_check"] == {"target": table.days[2][0], "result": True}
    assert table.shots == {"don": "Шериф!", "sheriff": "Чёрный (мафия)"}
    assert [d["out"] for d in protocol["days"]] == [[table.days[1][0]], [table.days[2][0], table.don]]
    assert protocol["seats"][str(table.victim)]["out"] == {"how": "shot", "night": 2}
    assert protocol["seats"][str(table.don)]["out"] == {"how": "removed", "day": 2}
    assert protocol["days"][0]["nominations"] == list(table.days[1])
    assert protocol["seats"]["2"]["fouls"] == 0  # the operator's foul was taken back
    assert protocol["best_move"] == {"seat": table.victim, "named": table.best_named,
                                     "black_named": 3}
    # the protocol downloaded is the journal's: every press went through the journal
    assert {k: v for k, v in protocol.items() if k != "said"} == journal_protocol(game.journal)
    # and the best move reaches the rating system's record (8.17's legacy)
    record = tmp_path / "game.json"
    assert main(["export", "--format", "mafiaratings", str(game.journal), "--demo",
                 "-o", str(record)]) == 0
    players = json.loads(record.read_text(encoding="utf-8"))["players"]
    assert [p.get("legacy") for p in players] == \
        [table.best_named if s == table.victim else None for s in range(1, 11)]
    lines = [json.loads(x) for x in game.journal.read_text().splitlines()]
    sources = {x.get("type") for x in lines[1:]}
    # the foul taken back; each timer's start marked for a resume, a heartbeat while it runs
    assert sources == {"pad", "operator", "action", "undo", "timer", "beat"}  # (+ heartbeats)
    presses = [x for x in lines if x.get("type") == "pad" and x["do"] == "shoot"]
    assert {(p["seat"], p["target"]) for p in presses} == {
        (s, table.victim) for s, r in roles.items() if r in ("mafia", "don") and s != table.days[1][0]}
    assert "Победа мирных" in out
    # nothing the narrator printed names a card
    assert not ROLE_WORDS.search(out)
    assert {p.name for p in shots.iterdir()} == {"console-operator.png", "console-pad.png"}
