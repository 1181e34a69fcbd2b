"""A whole tournament on loopback, through the pads only: 20 players, 2 tables, 3 rounds.

``narrator tournament run`` is the director's box; two ``narrator evening --join … --listen
off`` processes are the tables. Every player is a websocket client that follows his one link
on the director's box: it says his next table and seat, and once that table is at his round,
his pad there — which he opens, and plays on. Each table's operator is a websocket client too.

Each game, played on the real clock in a few seconds (the tables' short figures and a voice
pack of 40 ms clips): the cards seen on the pads, day 1's speeches ended on the pads, the
first speakers putting up a black seat and a red one, every pad voting the black out; in his
last word the operator removes the two other black seats — the civilians win.

On the way: the director is killed (SIGKILL) once round 1 is in, round 2 begins at both tables
while it is down, and it is started again mid-round; table 1's box is killed mid-game in
round 2 and started again: its game goes on at its step, its pads come back by themselves.
At the end: six games stored, each round of each table once; every player's link answered
whenever the director was up; the standings are FIIM's points (version 7) by hand — a win 1,
a removal −0.5 (the removed seat's player), 0.3 to every player (nobody is given the worst
move), nothing else in such games.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.console.browser import quick_pack
from tests.tournament.director_helpers import write_plan
from tests.tournament.ws_pads import Box, Page, get_json, get_status, until

NAMES = [f"Игрок{i:02d}" for i in range(1, 21)]
ROUNDS = [[list(range(10)), list(range(10, 20))],
          [list(range(0, 20, 2)), list(range(1, 20, 2))],
          [[*range(10, 15), *range(5)], [*range(15, 20), *range(5, 10)]]]
FIGURES = ["--seed", "7", "--timer", "agreement=1", "--timer", "don_noted=0.5",
           "--timer", "sheriff_first_night=0.5", "--timer", "vote_window=2",
           "--timer", "speech=30", "--timer", "last_word=30"]
LIMIT = 150.0  # seconds for the whole tournament (it takes some 40 here)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Phone:
    """A player's phone: his director's page, polled; the pad it links to, held open."""

    def __init__(self, name: str, link: str) -> None:
        self.name = name
        self.link = link
        self.state: dict[str, Any] | None = None
        self.page: Page | None = None
        self.answered = 0
        self.missed = 0  # polls not answered while the director was up
        self.pads: list[str] = []  # every pad link the page gave, in order

    def refresh(self) -> None:
        state = get_json(self.link + "/state.json")
        if state is None:
            self.missed += 1
            return
        self.answered += 1
        self.state = state
        pad = (state.get("next") or {}).get("pad")
        if pad and (self.page is None or self.page.url != pad):
            if self.page is not None:
                self.page.close()
            self.page = Page(pad)
            self.pads.append(pad)

    def at(self, console: str) -> Page | None:
        page = self.page
        return page if page is not None and page.url.startswith(console + "/") else None


class TableBot:
    """One table's operator and the script of each game (see the module)."""

    def __init__(self, number: int, box: Box, folder: Path, phones: dict[str, Phone]) -> None:
        self.number = number
        self.box = box
        self.folder = folder
        self.phones = phones
        self.op: Page | None = None
        self.console = ""
        self.allowed = 1  # the rounds the test lets this table start
        self.started: list[int] = []  # the games started (their numbers)
        self.game: dict[str, Any] = {}  # this game's script state
        self.speeches = 0

    def up(self) -> None:
        links = json.loads(until(lambda: _links(self.folder.parent / f"links-{self.number}.json"),
                                 60, f"table {self.number}'s links"))
        self.console = links["operator"].split("/op/")[0]
        if self.op is None:
            self.op = Page(links["operator"])
        self.game.pop("acted", None)  # (a box started again: its steps may repeat)

    def pads(self, names: dict[str, str]) -> dict[int, Page]:
        out = {}
        for seat, name in names.items():
            page = self.phones[name].at(self.console)
            if page is not None and page.up:
                out[int(seat)] = page
        return out

    def step(self) -> None:
        view = self.op.view if self.op is not None else None
        if view is None:
            return
        if "lobby" in view and view["lobby"] is not None:
            self._lobby(view)
        else:
            self._play(view)

    def _lobby(self, view: dict[str, Any]) -> None:
        lobby, ev = view["lobby"], view.get("evening") or {}
        plan = ev.get("plan")
        if lobby["playing"] is not None or plan is None or plan["round"] > self.allowed:
            return
        if lobby["next"] in self.started:
            return
        seated = {str(s): self._name(n, ev) for s, n in ev["seating"].items()}
        pads = self.pads(seated)
        if len(pads) < 10 or any(((p.view or {}).get("player") or {}).get("seat") != seat
                                 for seat, p in pads.items()):
            return  # every player of the round on his pad, showing his seat, first
        assert self.op is not None and self.op.press("start")
        self.started.append(lobby["next"])

    @staticmethod
    def _name(number: int, ev: dict[str, Any]) -> str:
        return next(str(p["name"]) for p in ev["players"] if p["number"] == number)

    def _script(self, number: int) -> dict[str, Any]:
        if self.game.get("number") != number:
            head = json.loads((self.folder / f"game-{number:02d}.jsonl").read_text(
                encoding="utf-8").splitlines()[0])
            roles = {int(s): r for s, r in head["roles"].items()}
            black = sorted(s for s, r in roles.items() if r in ("mafia", "don"))
            red = sorted(s for s, r in roles.items() if r not in ("mafia", "don"))
            self.game = {"number": number, "out": black[0], "other": red[0],
                         "remove": black[1:], "nominated": [], "removed": [], "speeches": 0}
        self.game.setdefault("acted", set())
        return self.game

    def _once(self, key: tuple[Any, ...]) -> bool:
        acted: set[tuple[Any, ...]] = self.game["acted"]
        if key in acted:
            return False
        acted.add(key)
        return True

    def _play(self, view: dict[str, Any]) -> None:
        number = (view.get("evening") or {}).get("game")
        if number is None or not view.get("names"):
            return
        script = self._script(number)
        pads = self.pads(view["names"])
        phase = view["phase"]
        step, serial = phase["step"], phase["serial"]
        if step == "dealing":
            for seat, pad in pads.items():
                card = (pad.view or {}).get("step") or {}
                if card.get("type") == "card" and not card.get("seen") and \
                        self._once(("seen", number, seat, serial)):
                    pad.press("seen")
        elif step == "speech":
            self._speech(script, phase, pads, view.get("out") or {})
        elif step == "vote":
            for seat, pad in pads.items():
                asked = (pad.view or {}).get("step") or {}
                if asked.get("type") == "vote" and not asked.get("voted") and \
                        asked.get("candidate") == script["out"] and \
                        self._once(("vote", serial, seat)):
                    pad.press("vote", candidate=script["out"])
        elif phase["time"] == "night" and phase["number"] >= 2:  # (night 1: the deal)
            # (a game gone astray — a vote missed on a loaded machine — ends: every black
            # seat still in is removed; the hand computation reads the removals)
            script["remove"] = sorted(set(script["remove"]) | {script["out"]})
            self._remove_all(script, view.get("out") or {})

    def _speech(self, script: dict[str, Any], phase: dict[str, Any],
                pads: dict[int, Page], view_out: dict[str, str]) -> None:
        seat, serial = phase["seat"], phase["serial"]
        pad = pads.get(seat)
        if pad is None or not self._once(("speech", serial)):
            return
        if phase.get("speech") == "last":
            # in the black's last word the operator removes the two other black seats (no
            # end pressed till then: the last word's seat must not end before they are out)
            if seat == script["out"] and self._remove_all(script, view_out):
                self.game["acted"].discard(("speech", serial))
                return
            pad.press("end")
            return
        script["speeches"] += 1
        for target in (script["out"], script["other"]):
            if target not in script["nominated"] and target != seat:
                script["nominated"].append(target)
                pad.press("nominate", target=target)
                break
        pad.press("end")

    def _remove_all(self, script: dict[str, Any], out: dict[str, str]) -> bool:
        """The operator removes the seats to remove; whether one is not out yet."""
        assert self.op is not None
        for seat in script["remove"]:
            if seat not in script["removed"] and str(seat) not in out:
                script["removed"].append(seat)
                self.op.press("remove", seat=seat)
        return any(str(seat) not in out for seat in script["remove"])


def _links(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    return text if text.strip().endswith("}") else None


@contextmanager
def _tournament(tmp: Path) -> Iterator[dict[str, Any]]:
    write_plan(tmp, ROUNDS, NAMES)
    roster = tmp / "club.csv"
    roster.write_text("nickname,mafiaratings_id\n" + "".join(
        f"{n},{500 + i}\n" for i, n in enumerate(NAMES)), encoding="utf-8")
    port = _free_port()
    director = Box(["tournament", "run", str(tmp / "cup"), "--plan", str(tmp / "plan.json"),
                    "--roster", str(roster), "--name", "Кубок", "--console",
                    f"127.0.0.1:{port}"], tmp)
    pack = quick_pack(tmp)
    with ExitStack() as stack:
        stack.callback(director.stop)
        director.start().wait_for(f"player {NAMES[-1]}: ")
        tables = {}
        for n in (1, 2):
            join = director.found(rf"table {n}: (\S+)")
            assert join is not None
            box = Box(["evening", str(tmp / f"table{n}"), "--join", join.group(1), "--table",
                       str(n), "--listen", "off", "--console", "127.0.0.1:0", "--links",
                       str(tmp / f"links-{n}.json"), "--wav", "--voices", str(pack),
                       *FIGURES], tmp)
            stack.callback(box.stop)
            tables[n] = box.start()
        yield {"director": director, "tables": tables, "port": port}


def test_a_tournament_of_two_tables_and_three_rounds_through_the_pads(tmp_path: Path) -> None:
    with _tournament(tmp_path) as t:
        director: Box = t["director"]
        board = f"http://127.0.0.1:{t['port']}/tv/state.json"
        phones = {}
        for name in NAMES:
            found = director.found(rf"player {name}: (\S+)")
            assert found is not None
            phones[name] = Phone(name, found.group(1))
        bots = {n: TableBot(n, box, tmp_path / f"table{n}", phones)
                for n, box in t["tables"].items()}
        for bot in bots.values():
            bot.up()
        try:
            _play(t, bots, phones, board)
        finally:
            for phone in phones.values():
                if phone.page is not None:
                    phone.page.close()
            for bot in bots.values():
                if bot.op is not None:
                    bot.op.close()
        _check(t, phones, board, tmp_path)


def _in(board: str) -> set[tuple[int, int]]:
    state = get_json(board)
    if state is None:
        return set()
    return {(r["round"], t["table"]) for t in state["games"] for r in t["rounds"] if r["in"]}


def _play(t: dict[str, Any], bots: dict[int, TableBot], phones: dict[str, Phone],
          board: str) -> None:
    import time

    deadline = time.monotonic() + LIMIT
    director: Box = t["director"]
    stage = "round 1"
    killed_table = False
    polled = 0.0
    traced = ""
    began = time.monotonic()
    while stage != "done":
        assert time.monotonic() < deadline, f"the tournament stuck at {stage}: " + \
            "\n".join(director.lines[-5:] + bots[1].box.lines[:60] + bots[2].box.lines[-10:])
        if director.proc is not None and director.proc.poll() is None and \
                time.monotonic() >= polled + 0.5:  # (a phone's page polls every 2 s)
            polled = time.monotonic()
            for phone in phones.values():
                phone.refresh()
        for bot in bots.values():
            bot.step()
        time.sleep(0.05)
        if stage == "round 1" and _in(board) >= {(1, 1), (1, 2)} and all(
                (p.state or {}).get("next", {}).get("round") == 2 and
                (p.state or {}).get("next", {}).get("pad") for p in phones.values()):
            director.kill()  # between rounds: every phone holds his round 2 link
            for bot in bots.values():
                bot.allowed = 2
            stage = "round 2, the director down"
        elif stage == "round 2, the director down" and not killed_table and \
                bots[1].game.get("number") == 2 and bots[1].game.get("speeches", 0) >= 3:
            bots[1].box.kill()  # table 1's box mid-game
            killed_table = True
            bots[1].box.start()
            bots[1].up()
            director.start().wait_for(f"player {NAMES[-1]}: ")  # and the director again
            stage = "round 2"
        elif stage == "round 2" and _in(board) >= {(2, 1), (2, 2)}:
            for bot in bots.values():
                bot.allowed = 3
            stage = "round 3"
        elif stage == "round 3" and len(_in(board)) == 6:
            stage = "done"
        if os.environ.get("NARRATOR_TRACE") and stage != traced:
            traced = stage
            print(f"{time.monotonic() - began:6.1f} s: {stage}")


def _check(t: dict[str, Any], phones: dict[str, Phone], board: str, tmp: Path) -> None:
    state = get_json(board)
    assert state is not None
    assert _in(board) == {(r, n) for r in (1, 2, 3) for n in (1, 2)}
    assert [g["games"] for g in state["games"]] == [3, 3]  # each table's round once
    expected = {name: 0.0 for name in NAMES}
    for n in (1, 2):
        folder = tmp / f"table{n}"
        book = json.loads((folder / "evening.json").read_text(encoding="utf-8"))
        names = {p["number"]: p["name"] for p in book["players"]}
        assert len(book["games"]) == 3 and not list((folder / "outbox").iterdir())
        for entry in book["games"]:
            lines = (folder / entry["journal"]).read_text(encoding="utf-8").splitlines()
            head = json.loads(lines[0])
            seated = {int(s): names[p] for s, p in entry["seating"].items()}
            roles = {int(s): r for s, r in head["roles"].items()}
            for seat, role in roles.items():
                expected[seated[seat]] += 0.3  # version 7's auto-bonus, every player
                if role not in ("mafia", "don"):
                    expected[seated[seat]] += 1.0  # the civilians won every game
            actions = [json.loads(x).get("action", "") for x in lines[1:]]
            removed = [int(a.split()[1]) for a in actions if a.startswith("remove ")]
            assert len(removed) >= 2, actions
            for seat in removed:
                expected[seated[seat]] -= 0.5  # FIIM: a removal −0.5
    got = {line["name"]: line["points"] for line in state["standings"]}
    assert got == pytest.approx(expected)
    assert all(line["games"] == 3 for line in state["standings"])
    assert all(p.answered > 0 and p.missed == 0 for p in phones.values()), \
        [(p.name, p.answered, p.missed) for p in phones.values()]
    # one pad link a round, each at the table of his round; an old round's link opens nothing
    plan = {NAMES[p]: [(t + 1, seats.index(p) + 1) for rnd in ROUNDS
                       for t, seats in enumerate(rnd) if p in seats] for p in range(20)}
    consoles = {n: json.loads((tmp / f"links-{n}.json").read_text())["operator"].split("/op/")[0]
                for n in (1, 2)}
    for phone in phones.values():
        assert [next(n for n, c in consoles.items() if url.startswith(c + "/pad/"))
                for url in phone.pads] == [t for t, _ in plan[phone.name]]
        assert len(set(phone.pads)) == 3
        old = get_status(phone.pads[0])
        assert old == 403, (phone.name, old)  # (the console refuses a token it does not take)
    assert t["tables"][1].found(r"игра 2: продолжаем — ")
