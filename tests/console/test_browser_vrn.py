"""End to end in a real browser: a game of ``vrn`` (in Ukrainian) with ``narrator play --listen
off``, played to its end from ten phone-sized seat pads and the operator view in Debian's
Chromium (Playwright).

The club's figures are short (``--timer``: the intro, the don's decision and the first night's
steps too), so the whole game takes about a minute of the real clock, most of it the
narrator's own pauses between sentences. The script (seed 1: maniac 5 playing for the city,
sheriff 6, don 7, doctor 8, mafia 9 and 10, civilians 1-4):

- the first night: the cards held on the pads, the maniac's side announced and shown on every
  screen; day 1, the introduction round, each speech ended «Дякую» from its pad;
- night 2: mafioso 9 points at 1, the don sees it on his pad and decides 1; the don checks 6
  («Шериф!»); the sheriff switches his pad to «Постріл» and shoots 9; the maniac kills 10; the
  doctor sees «На ношах: 1, 9, 10» and saves 1 — 9 and 10 leave in silence (black cards have
  no testament);
- day 2: the discussion, «Дякую» from each pad; seat 4 raises a hand for 30 s more and speaks
  again; the mandatory vote against every seat in turn: the don's hand against 1, every other
  hand against the don; he justifies and the re-vote, no fewer hands, sends him out — the last
  black card, and the city wins.

Each secret (the mafia's points and kill, the don's answer, the sheriff's shot, the maniac's
pick, the doctor's stretcher and save) is on its own pads and on no other page; the operator's
page never shows one; the protocol downloaded is the journal's; nothing printed names a card.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.console.browser import (
    ROLE_WORDS,
    Pages,
    end_game,
    journal_protocol,
    launched_game,
    needs_chromium,
    wait,
)

pytestmark = needs_chromium

#: (a night act's window holds what the test does on its pad meanwhile — read every page,
#: pick, hold the secret — on a busy machine too: 2 s was not always enough)
FIGURES = ["--rules", "vrn", "--seed", "1",
           "--timer", "mafia_meets=0.5", "--timer", "sheriff_first_night=0.5",
           "--timer", "noted=0.5", "--timer", "intro=5", "--timer", "decision=6",
           "--timer", "check=5", "--timer", "speech=10", "--timer", "last_word=5",
           "--timer", "extra_window=2", "--timer", "extra=5", "--timer", "justify=5",
           "--timer", "vote_window=1"]
#: what only a pad's own step shows: never on the operator's page
SECRET_TEXTS = ("Шериф!", "Не Шериф", "Чорний (мафія)", "Червоний (мирний)", "На ношах:",
                "Вказують", "Вибір зроблено", "Кого вбиває", "Кого рятує", "Кого перевіряє")
#: what no view but an acting pad's may hold at night
SECRET_KEYS = ('"done"', '"points"', '"victims"', '"result"', '"decides"', '"card"', '"role"')


class VrnTable(Pages):
    """The pads, the operator view, and the script of the game (see the module)."""

    def __init__(self, ctx: Any, links: dict[str, Any], roles: dict[int, str]) -> None:
        super().__init__(ctx, links)
        seat = {r: s for s, r in roles.items()}
        self.don, self.sheriff = seat["don"], seat["sheriff"]
        self.doctor, self.maniac = seat["doctor"], seat["maniac"]
        self.m1, self.m2 = sorted(s for s, r in roles.items() if r == "mafia")
        self.c1, self.c2, self.c3, self.raiser = sorted(
            s for s, r in roles.items() if r == "civilian")
        self.nights: set[str] = set()  # the night's steps played
        #: each secret as its own pad showed it: whose → the pad's step text
        self.secrets: dict[str, str] = {}
        self.saw_side: set[str] = set()

    # -- the secrets ---------------------------------------------------------------------------

    def only_on(self, seats: set[int], *marks: str) -> None:
        """Each of ``marks`` is on the pads of ``seats`` and on no other page; the other pads
        have no step at all, the operator's view no secret key."""
        for who, page in [("operator", self.op), *self.pads.items()]:
            text = self.text(page)
            view = json.dumps(self.view(page), ensure_ascii=False)
            if who in seats:
                # a secret of the step shows only while held: on the page and in its hold
                shown = text + "\n" + (self.held(page) if isinstance(who, int) else "")
                for mark in marks:
                    assert mark in shown, (who, mark, shown)
                continue
            for mark in marks:
                assert mark not in text, (who, mark, text)
            if who == "operator":
                for key in SECRET_KEYS:
                    assert key not in view, (key, view)
            else:
                assert (self.view(page) or {}).get("step") is None, (who, view)

    def step_text(self, seat: int) -> str:
        text: str = self.pads[seat].locator("#step").inner_text()
        return text

    def wait_step(self, seat: int, kind: str, role: str) -> None:
        wait(self.pads[seat], f"Console.view().step && Console.view().step.type === '{kind}' "
                              f"&& Console.view().step.role === '{role}'")

    def wait_done(self, seat: int) -> None:
        wait(self.pads[seat], "Console.view().step && Console.view().step.done")

    def grid(self, seat: int, target: int) -> None:
        assert self.click(self.pads[seat], "#step .grid button", str(target)), (seat, target)

    # -- night 2 -------------------------------------------------------------------------------

    def mafia_decides(self) -> None:
        """A partner points, the don sees it on his pad and decides."""
        mafia = {self.don, self.m1, self.m2}
        self.wait_step(self.don, "act", "mafia")
        self.wait_step(self.m1, "act", "mafia")
        assert "вирішує Дон" in self.step_text(self.m1)  # he only points
        self.grid(self.m1, self.c1)
        wait(self.pads[self.don], f"Console.view().step.points['{self.m1}'] === {self.c1}")
        assert "Вказують" not in self.step_text(self.don)  # behind the hold
        self.only_on(mafia, f"Вказують: {self.m1} → {self.c1}")
        self.grid(self.don, self.c1)
        self.wait_done(self.don)
        self.secrets["mafia"] = self.held(self.pads[self.don])
        self.only_on(mafia, f"Гравець {self.c1}\nВибір зроблено")

    def don_check(self) -> None:
        self.wait_step(self.don, "check", "don")
        self.grid(self.don, self.sheriff)
        self.wait_done(self.don)
        assert self.pads[self.don].locator("#step .result").is_hidden()  # until held
        assert "Шериф!" not in self.step_text(self.don)
        self.secrets["don"] = self.held(self.pads[self.don])
        assert self.secrets["don"] == f"Гравець {self.sheriff}\nШериф!"
        self.only_on({self.don}, f"Гравець {self.sheriff}\nШериф!")

    def sheriff_acts(self) -> None:
        """A check unless switched: the pad's mode switched to «Постріл», a shot at 9."""
        page = self.pads[self.sheriff]
        self.wait_step(self.sheriff, "act", "sheriff")
        sel = "#step .row button.sel"
        assert page.locator(sel).inner_text() == "Перевірка"
        assert len(page.locator("#step .grid button").all_inner_texts()) == 10  # any seat
        assert self.click(page, "#step .row button", "Постріл")
        wait(page, f"document.querySelector('{sel}').textContent === 'Постріл'")
        self.grid(self.sheriff, self.m1)
        self.wait_done(self.sheriff)
        assert page.locator("#step .result").is_hidden()
        self.secrets["sheriff"] = self.held(page)
        assert self.secrets["sheriff"] == f"Гравець {self.m1}\nВибір зроблено"
        self.only_on({self.sheriff}, "Шериф: перевірка або постріл",
                     f"Гравець {self.m1}\nВибір зроблено")

    def maniac_kills(self) -> None:
        self.wait_step(self.maniac, "act", "maniac")
        self.grid(self.maniac, self.m2)
        self.wait_done(self.maniac)
        self.secrets["maniac"] = self.held(self.pads[self.maniac])
        self.only_on({self.maniac}, "Кого вбиває маніяк?", f"Гравець {self.m2}\nВибір зроблено")

    def doctor_saves(self) -> None:
        """The stretcher in the night's order (the mafia's, the sheriff's shot, the maniac's)."""
        victims = [self.c1, self.m1, self.m2]
        page = self.pads[self.doctor]
        self.wait_step(self.doctor, "act", "doctor")
        stretcher = "На ношах: " + ", ".join(map(str, victims))
        assert stretcher in self.step_text(self.doctor)
        self.only_on({self.doctor}, stretcher)
        # his grid is the stretcher: no other seat to pick
        shown = page.locator("#step .grid button").all_inner_texts()
        assert [int(n) for n in shown] == victims
        self.grid(self.doctor, self.c1)
        self.wait_done(self.doctor)
        self.secrets["doctor"] = self.held(self.pads[self.doctor])
        self.only_on({self.doctor}, stretcher, f"Гравець {self.c1}\nВибір зроблено")

    # -- the pads' turns -----------------------------------------------------------------------

    def pad_turn(self, seat: int) -> None:
        page = self.pads[seat]
        asked = self.new_step(seat)
        if asked is None:
            return
        _, step = asked
        kind = step["type"]
        if kind == "card" and not step["seen"]:
            self.hold_card(page)
        elif kind == "speech":
            assert page.locator("#step .grid").count() == 0  # no nominations in vrn
            self.click(page, "#step button.big", "Дякую")
        elif kind == "extra" and seat == self.raiser and not step["raised"]:
            assert self.click(page, "#step button.big", "Рука: ще 30 секунд")
            wait(self.op, f"(Console.view().raised || []).indexOf({seat}) >= 0")
        elif kind == "vote" and not step["voted"] and \
                step["candidate"] == (self.c1 if seat == self.don else self.don):
            self.click(page, "#step button.big", "За")

    def watch(self, op: dict[str, Any]) -> None:
        """The operator's page never shows a secret; the maniac's side, once announced, is on
        the operator's page and on the pads."""
        text = self.text(self.op)
        for secret in SECRET_TEXTS:
            assert secret not in text, (secret, text)
        if op["declared"] and "op" not in self.saw_side:
            assert op["declared"] == {"maniac_side": "city"}
            assert "Маніяк грає за місто" in text
            self.saw_side.add("op")
        phase = {k: v for k, v in op["phase"].items() if k != "serial"}
        if phase == {"time": "day", "number": 1, "step": "speech", "seat": 1,
                     "speech": "intro", "label": "Знайомство: гравець 1"} \
                and "pad" not in self.saw_side:
            # the step's words are the engine's label, as the page shows them
            wait(self.op, "document.querySelector('#phase').innerText"
                          ".indexOf('День 1 · Знайомство: гравець 1') >= 0")
            for page in self.pads.values():
                wait(page, "document.querySelector('#table').innerText"
                           ".indexOf('Маніяк грає за місто') >= 0")
            self.saw_side.add("pad")

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
                self.watch(op)
                return op
            phase = op["phase"]
            if json.dumps(phase) != last:
                last = json.dumps(phase)
                print(f"{time.monotonic() - start:6.2f} {last}")
            self.watch(op)
            step = phase["step"]
            if step in ("mafia_decides", "don_check", "sheriff_acts", "maniac_kills",
                        "doctor_saves") and step not in self.nights:
                self.nights.add(step)
                getattr(self, step)()
            seats: list[int] = []
            if step == "dealing":
                seats = list(self.pads)
            elif step == "speech":
                seats = [phase["seat"]]
            elif step in ("vote", "extra"):
                seats = op["living"]
            for seat in seats:
                self.pad_turn(seat)
        raise AssertionError(f"the game did not end in {limit} s: {self.view(self.op)}")


def test_a_vrn_game_is_played_to_the_end_from_ten_pads_and_the_operator(
        tmp_path: Path, browser_context: Any) -> None:
    with launched_game(tmp_path, *FIGURES, lang="uk") as game:
        assert game.dealt == {"maniac_side": "city"}
        table = VrnTable(browser_context, game.links, game.roles)
        started = time.monotonic()
        end = table.play(limit=150)
        print(f"game played in {time.monotonic() - started:.1f} s")
        assert end["winner"] == "civilians"
        protocol, out = end_game(game, table.op)
    assert table.saw_side == {"op", "pad"}
    assert set(table.secrets) == {"mafia", "don", "sheriff", "maniac", "doctor"}
    # the protocol downloaded is the journal's: every press went through the journal
    assert {k: v for k, v in protocol.items() if k != "said"} == journal_protocol(game.journal)
    # the night as the pads played it; the day: the hand for more time, the vote, the re-vote
    don, m1, m2, c1 = table.don, table.m1, table.m2, table.c1
    assert protocol["nights"] == [{
        "night": 2, "shot": c1, "don_check": {"target": table.sheriff, "result": True},
        "sheriff_check": None, "sheriff_shot": m1, "maniac": m2,
        "doctor_save": {"target": c1, "saved": c1}}]
    assert protocol["seats"][str(m1)]["out"] == {"how": "sheriff_shot", "night": 2}
    assert protocol["seats"][str(m2)]["out"] == {"how": "maniac", "night": 2}
    assert protocol["seats"][str(c1)]["out"] is None  # saved
    day1, day2 = protocol["days"]
    assert day1["rounds"] == [] and day1["out"] == []  # the introduction: no vote
    assert day2["extra"] == [table.raiser] and day2["justified"] == [don]
    assert [r["votes"] for r in day2["rounds"]] == [
        {str(s): {c1: 1, don: 7}.get(s, 0) for s in range(1, 9)}, {str(don): 7}]
    assert day2["out"] == [don]
    assert protocol["maniac_side"] == "city"
    presses = [json.loads(x) for x in game.journal.read_text().splitlines()[1:]]
    pads = {(x["seat"], x["do"]) for x in presses if x.get("type") == "pad"}
    assert {(m1, "act"), (don, "act"), (don, "check"), (table.sheriff, "act"),
            (table.maniac, "act"), (table.doctor, "act"), (table.raiser, "extra")} <= pads
    assert "Перемога мирних" in out  # (the table's Ukrainian)
    assert not ROLE_WORDS.search(out)
