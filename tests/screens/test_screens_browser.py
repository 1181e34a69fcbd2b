"""Every screen at the size it is used — a phone's 390×844, a laptop's 1366×768, a TV's
1920×1080 — in one Chromium: an evening (a 20-name roster: its seating row, the roster's
fields, a game through the operator's page — the deal, a speech ended from the page, the
clock paused and resumed, the removals that end it —, «Итоги вечера» on the operator's page
and on a pad, the evening ended from the page), a broadcast of a two-candidate vote and its
re-vote, and a tournament director's page. In each state at each size: no horizontal overflow
of the page nor of any table's box, no text cut inside a control, and the numbers shown the
protocol's. ``NARRATOR_SCREENSHOTS=DIR`` keeps a PNG of each (docs/screens.md shows them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.engine import waits as w
from tests.console.browser import CHROMIUM, FLAGS, REPO, needs_chromium, quick_pack, wait

pytestmark = needs_chromium

SIZES = {"phone": (390, 844), "laptop": (1366, 768), "tv": (1920, 1080)}
NAMES = ["Ника", "Бублик", "Кот Бегемот", "Лис", "Ёж", "Сова", "Волк", "Заяц", "Бобр", "Уж",
         "Барон Мюнхгаузен", "Тень", "Рысь", "Кит", "Гром", "Momento Mori", "Лиса Алиса", "Дым",
         "Ворон", "Филин"]
FIGURES = ["--seed", "5", "--timer", "agreement=1", "--timer", "don_noted=0.5",
           "--timer", "sheriff_first_night=0.5"]
#: what a page fails at, measured: the page's and every table's box wider than it is, a
#: control (button, label, select) whose text is cut, a column heading broken inside a word, a
#: seat's number inside another's dropdown
FITS = r"""() => {
  const bad = [], de = document.documentElement;
  const seen = (e) => e.offsetParent !== null && e.getClientRects().length > 0;
  if (de.scrollWidth > de.clientWidth) bad.push(`page ${de.scrollWidth} > ${de.clientWidth}`);
  document.querySelectorAll("table").forEach((t) => {
    if (!seen(t)) return;
    const box = t.parentElement;
    if (t.scrollWidth > t.clientWidth + 1) bad.push(`table ${t.className} ${t.scrollWidth} > ${t.clientWidth}`);
    if (box.scrollWidth > box.clientWidth + 1) bad.push(`table box ${box.className || box.id} ${box.scrollWidth} > ${box.clientWidth}`);
    if (t.getBoundingClientRect().right > de.clientWidth + 1) bad.push(`table ${t.className} past the page`);
  });
  document.querySelectorAll("th").forEach((h) => {  // a heading broken inside a word («Мест/о»)
    if (!seen(h)) return;
    const cs = getComputedStyle(h), room = h.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;font:" + cs.font;
    document.body.appendChild(probe);
    for (const word of (h.textContent || "").split(/\s+/).filter(Boolean)) {
      probe.textContent = word;
      if (probe.getBoundingClientRect().width > room + 1) bad.push(`heading «${word}» broken`);
    }
    probe.remove();
  });
  document.querySelectorAll("button, label, select, .tally-count, .to-last").forEach((c) => {
    if (!seen(c)) return;
    if (c.scrollWidth > c.clientWidth + 1) bad.push(`${c.tagName} «${(c.textContent || "").slice(0, 30)}» cut: ${c.scrollWidth} > ${c.clientWidth}`);
    if (c.getBoundingClientRect().right > de.clientWidth + 1) bad.push(`${c.tagName} «${(c.textContent || "").slice(0, 30)}» past the page`);
  });
  document.querySelectorAll("input[placeholder]").forEach((i) => {
    if (!seen(i) || i.value) return;  // a placeholder cut («ID в Mafial»)
    const probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;font:" + getComputedStyle(i).font;
    probe.textContent = i.placeholder;
    document.body.appendChild(probe);
    const spin = i.type === "number" ? 18 : 0;  // (the number's spinner takes its room)
    const room = i.clientWidth - parseFloat(getComputedStyle(i).paddingLeft) - parseFloat(getComputedStyle(i).paddingRight) - spin;
    if (probe.getBoundingClientRect().width > room + 1) bad.push(`placeholder «${i.placeholder}» cut`);
    probe.remove();
  });
  document.querySelectorAll("select").forEach((c) => {
    if (!seen(c) || c.selectedIndex < 0) return;  // the chosen name cut («Барон Мюнх»)
    const probe = document.createElement("span");
    probe.style.cssText = "position:absolute;visibility:hidden;white-space:nowrap;font:" + getComputedStyle(c).font;
    probe.textContent = c.options[c.selectedIndex].textContent;
    document.body.appendChild(probe);
    const room = c.clientWidth - parseFloat(getComputedStyle(c).paddingLeft) - parseFloat(getComputedStyle(c).paddingRight) - 20;  // (its arrow)
    if (probe.getBoundingClientRect().width > room + 1) bad.push(`select «${probe.textContent}» cut`);
    probe.remove();
  });
  const picks = [...document.querySelectorAll(".seat-pick")].filter(seen);
  picks.forEach((p, i) => {
    const num = p.querySelector(".num").getBoundingClientRect();
    picks.forEach((q, j) => {
      if (i === j) return;
      const sel = q.querySelector("select").getBoundingClientRect();
      const inside = num.left < sel.right - 1 && num.right > sel.left + 1 && num.top < sel.bottom - 1 && num.bottom > sel.top + 1;
      if (inside) bad.push(`seat ${i + 1}'s number inside seat ${j + 1}'s dropdown`);
    });
  });
  return bad;
}"""
#: the sockets a page opens (a page told the end opens no more)
SOCKETS = """
window.__sockets = 0; window.__got = [];
const Native = window.WebSocket;
window.WebSocket = function (url, protocols) {
  window.__sockets += 1;
  const ws = new Native(url, protocols);
  ws.addEventListener("message", (m) => window.__got.push(m.data));
  return ws;
};
window.WebSocket.prototype = Native.prototype;
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Chromium for every page of the module (the pages reused across states)."""
    from playwright.sync_api import sync_playwright

    root = tmp_path_factory.mktemp("screens")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(root / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield ctx
        finally:
            ctx.close()


def shoot(page: Any, name: str) -> None:
    shots = os.environ.get("NARRATOR_SCREENSHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / f"{name}.png"))


def fits(page: Any, state: str, sizes: dict[str, tuple[int, int]] = SIZES,
         ready: str = "true", show: str | None = None) -> None:
    """At each size: the page fits (see :data:`FITS`), and its screenshot is kept (scrolled to
    ``show`` when given)."""
    for size, (width, height) in sizes.items():
        page.set_viewport_size({"width": width, "height": height})
        wait(page, ready)
        if show is not None:
            page.evaluate(f"document.querySelector({json.dumps(show)}).scrollIntoView()")
        page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        bad = page.evaluate(FITS)
        assert bad == [], f"{state} at {size} ({width}×{height}): {bad}"
        shoot(page, f"{state}-{size}")


# -- an evening ----------------------------------------------------------------------------------


class Evening:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.dir = tmp / "evening"
        self.links_file = tmp / "links.json"
        self.pack = quick_pack(tmp)
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> dict[str, Any]:
        cmd = [sys.executable, "-m", "narrator", "evening", str(self.dir), "--listen", "off",
               "--console", "127.0.0.1:0", "--links", str(self.links_file), "--wav",
               "--voices", str(self.pack), "--players", ",".join(NAMES), *FIGURES]
        self.proc = subprocess.Popen(cmd, cwd=self.tmp, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
        deadline = time.monotonic() + 30
        while not self.links_file.exists() or \
                not self.links_file.read_text().strip().endswith("}"):
            assert self.proc.poll() is None, self.output()
            assert time.monotonic() < deadline, "the evening never wrote its links"
            time.sleep(0.05)
        links: dict[str, Any] = json.loads(self.links_file.read_text())
        return links

    def output(self) -> str:
        if self.proc is None or self.proc.stdout is None:
            return ""
        if self.proc.poll() is None:
            self.proc.kill()
        return self.proc.stdout.read()

    def roles(self, game: int) -> dict[int, str]:
        head = json.loads((self.dir / f"game-{game:02d}.jsonl").read_text().splitlines()[0])
        return {int(s): r for s, r in head["roles"].items()}

    def protocol(self, game: int) -> dict[str, Any]:
        from narrator.host.journal import load_journal

        return load_journal(self.dir / f"game-{game:02d}.jsonl").game().protocol()


def view(page: Any) -> dict[str, Any]:
    out: dict[str, Any] = page.evaluate("Console.view()") or {}
    return out


def click(page: Any, selector: str, text: str | None = None) -> None:
    found = page.locator(selector)
    if text is not None:
        found = found.filter(has_text=text)
    found.first.click()


def test_an_evening_at_every_size(browser: Any, tmp_path: Path) -> None:
    ev = Evening(tmp_path)
    try:
        links = ev.start()
        op = browser.new_page()
        op.add_init_script(SOCKETS)
        op.goto(links["operator"])
        wait(op, "!!Console.view() && !!Console.view().evening && "
                 "document.querySelectorAll('.seat-pick').length === 10")
        # the lobby: the seating row of a 20-name roster, the roster's fields, the buttons
        fits(op, "evening-lobby")
        names = op.evaluate("[...document.querySelectorAll('#seat-pick-1 option')].length")
        assert names == len(NAMES) + 1  # every player present, and «—»
        # the roster says each player's seat, never a roster number that reads as one
        evening = view(op)["evening"]
        for seat, number in evening["seating"].items():
            name = next(p["name"] for p in evening["players"] if p["number"] == number)
            assert op.locator(f"#player-{number} .who").inner_text() == f"{name} · место {seat}"
        click(op, "#start")
        wait(op, "!!Console.view() && !Console.view().lobby && "
                 "Console.view().phase.step === 'dealing'", 30)
        # the deal waits for the cards: no timer and no pause sign
        assert op.evaluate("Console.view().timer") is None
        assert op.evaluate("document.querySelector('#timer').className") == "timer"
        fits(op, "evening-deal")
        for seat in range(1, 11):  # every card skipped from the operator's page
            wait(op, f"!!document.querySelector('#seat-{seat} .acts button')")
            click(op, f"#seat-{seat} .acts button", "Пропустить")
        wait(op, "Console.view().phase.step === 'speech' && Console.view().phase.seat === 1", 40)
        # a speech ended from the page, the clock paused and resumed from it
        wait(op, "!document.querySelector('#time-up').hidden")
        fits(op, "evening-speech")
        click(op, "#clock")
        wait(op, "Console.view().clock === 'resume' && !!Console.view().paused")
        fits(op, "evening-paused")
        click(op, "#clock")
        wait(op, "Console.view().clock === 'pause' && !Console.view().paused")
        click(op, "#time-up")
        wait(op, "Console.view().phase.seat === 2")
        roles = ev.roles(1)
        black = [s for s, r in roles.items() if r in ("mafia", "don")]
        for seat in black:  # the mafia removed: the civilians win
            click(op, f"#seat-{seat} .acts button", "Удалить…")
            click(op, f"#seat-{seat} .acts button", f"Да, удалить {seat}")
            wait(op, f"!!Console.view().lobby || Console.view().out['{seat}'] === 'removed'")
        wait(op, "!!Console.view().lobby && !!Console.view().lobby.results && "
                 "Console.view().lobby.results.players.length > 0", 30)
        fits(op, "evening-results", ready="!!document.querySelector('.results-table')",
             show="#results-title")
        # the total of each player in sight at each size, the rest on its second line
        shown = op.evaluate("[...document.querySelectorAll('.results-table tr.main-line')]"
                            ".map(r => [r.children[1].textContent, r.children[2].textContent])")
        results = view(op)["lobby"]["results"]["players"]
        assert shown == [[p["name"], str(p["points"])] for p in results]
        # a player's pad between games: the same results, fitting a phone
        pad = browser.new_page()
        pad.goto(links["players"][next(k for k in links["players"] if k.endswith(" Ника"))])
        fits(pad, "evening-pad-results", ready="!!document.querySelector('.results-table')",
             show="#results-title")
        pad.close()
        # the evening ended from the page; a double tap gets both answers; no reconnecting
        click(op, "#close-evening")
        button = op.locator("#close-evening")
        wait(op, "document.querySelector('#close-evening').textContent === 'Да, закончить вечер'")
        op.evaluate("() => { const b = document.querySelector('#close-evening'); "
                    "b.click(); b.click(); }")
        wait(op, "!!Console.ended()", 20)
        assert op.locator("#ended").inner_text() == "Вечер закончен. Спасибо за игру!"
        replies = [json.loads(m) for m in op.evaluate("window.__got")]
        answered = [m for m in replies if "reply" in m]
        assert len({m["reply"] for m in answered[-2:]}) == 2  # both taps answered
        sockets = op.evaluate("window.__sockets")
        assert ev.proc is not None
        ev.proc.wait(timeout=20)
        time.sleep(0)  # (the page had its chance to reconnect: it did not)
        wait(op, "document.querySelector('#link').className === 'link off'")
        assert op.evaluate("window.__sockets") == sockets
        fits(op, "evening-ended", sizes={"phone": SIZES["phone"]})
        del button
        # the counts of the game are the protocol's (the engine's own, read back)
        assert ev.protocol(1)["winner"] == "civilians"
    except BaseException:
        print(ev.output())
        raise
    finally:
        if ev.proc is not None and ev.proc.poll() is None:
            ev.proc.kill()


# -- a table that votes by hand ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_hand_vote_box_of_the_last_candidate_says_who_counts_for_him(browser: Any,
                                                                          lang: str) -> None:
    """The operator types each window's hands; the last candidate's box says, before the
    count, how many living players have not voted — every one of them counts for him (2.4) —
    in the table's words, the view's figure; the count taken is that figure."""
    from narrator.console.server import start_console
    from narrator.console.settings import ConsoleSettings
    from narrator.engine import Game
    from narrator.testing import TableRig
    from tests.console.conftest import ROLES

    rig = TableRig(Game("crime-time", roles=ROLES), lang=lang,
                   settings=ConsoleSettings(lang=lang, hand_votes=True))
    rig.to_the_vote()  # 4, then 6
    assert rig.op("hands", candidate=4, count=3).ok
    rig.until(w.Vote, candidate=6)
    console = start_console(rig.table, lambda job: job())  # (the rig stands still from here)
    try:
        page = browser.new_page()
        page.goto(console.links["operator"])
        wait(page, "!!Console.view() && Console.view().to_last === 7 && "
                   "!document.querySelector('#to-last').hidden")
        said = {"ru": "Не голосовали: 7 — все за 6 (руки и воздержавшиеся, 2.4)",
                "uk": "Не голосували: 7 — усі за 6 (руки й ті, хто утримався, 2.4)"}[lang]
        assert page.locator("#to-last").inner_text() == said
        # the vote waits for the count: the header says so in words, no pause sign (the game
        # is not paused)
        assert page.locator("#timer").inner_text() == {"ru": "ждёт", "uk": "чекає"}[lang]
        sizes = SIZES if lang == "ru" else {"phone": SIZES["phone"]}
        fits(page, f"operator-hand-vote-{lang}" if lang != "ru" else "operator-hand-vote",
             sizes=sizes)
        page.fill("#count", "2")
        click(page, "#vote button")
        wait(page, "Console.view().phase.step !== 'vote'")
        rnd = rig.game.days[0].rounds[0]
        assert rnd.votes == {4: 3, 6: 7} and rnd.abstained == 5  # the 7 said: 2 hands + 5
        page.close()
    finally:
        console.stop()


# -- a broadcast ---------------------------------------------------------------------------------


def test_a_broadcast_of_a_vote_and_its_revote_at_every_size(browser: Any) -> None:
    from tests.broadcast.test_browser import DELAY, Stage, at

    stage = Stage()
    try:
        rig = stage.rig
        rig.deal()
        assert rig.press(1, "nominate", target=4).ok
        assert rig.press(1, "end").ok
        assert rig.press(2, "nominate", target=6).ok
        for seat in range(2, 11):
            rig.until(w.Speech, seat=seat)
            assert rig.press(seat, "end").ok
        rig.until(w.Vote, candidate=4)
        for seat in (1, 2, 3, 5, 6):
            assert rig.press(seat, "vote", candidate=4).ok
        rig.until(w.Vote, candidate=6)
        for seat in (7, 8):
            assert rig.press(seat, "vote", candidate=6).ok
        in_six = rig.host.now()
        rig.until(w.Vote, candidate=4, round=2)
        for seat in (1, 2, 3):
            assert rig.press(seat, "vote", candidate=4).ok
        rig.until(w.Vote, candidate=6, round=2)
        for seat in (5, 6, 7):
            assert rig.press(seat, "vote", candidate=6).ok
        in_revote = rig.host.now()
        rig.until((w.Speech, w.Pause, w.Hunt))
        done = rig.host.now()
        rounds = rig.game.protocol()["days"][0]["rounds"]
        page = browser.new_page()
        page.goto(stage.cast.url)
        # 6's window of the first round: its own hands, never 4's
        at(page, stage.stream, in_six + DELAY)
        votes = page.locator("#votes").text_content() or ""
        assert "за 4: 1, 2, 3, 5, 6" in votes and "за 6: 7, 8 + 3 воздержавшихся" in votes
        hands = json.loads(page.locator("#votes").get_attribute("data-hands") or "{}")
        assert hands == {"4": [1, 2, 3, 5, 6], "6": [7, 8]}
        fits(page, "broadcast-vote")
        # the re-vote: the first round as the protocol has it, the second's own hands
        at(page, stage.stream, in_revote + DELAY)
        votes = page.locator("#votes").text_content() or ""
        first = rounds[0]["votes"]
        assert votes.startswith(f"4: {first['4']}, 6: {first['6']} (2 рук + 3 воздержавшихся)")
        assert "за 4: 1, 2, 3; за 6: 5, 6, 7 + 4 воздержавшихся" in votes
        fits(page, "broadcast-revote")
        at(page, stage.stream, done + DELAY)
        votes = page.locator("#votes").text_content() or ""
        second = rounds[1]["votes"]
        assert votes.splitlines() == [
            f"4: {first['4']}, 6: {first['6']} (2 рук + 3 воздержавшихся)",
            f"4: {second['4']}, 6: {second['6']} (3 рук + 4 воздержавшихся)"]
        fits(page, "broadcast-day")
        page.close()
    finally:
        stage.cast.stop()


# -- a tournament's director -----------------------------------------------------------------------


def test_the_tournament_directors_page_at_every_size(browser: Any, tmp_path: Path) -> None:
    from narrator.console.server import ConsoleServer
    from narrator.tournament.web import build_app
    from tests.tournament.director_helpers import BLACK_WIN, FakeClock, body, make_director

    director = make_director(tmp_path, FakeClock(), name="Кубок клуба")
    tables = director.store.tables()
    director.receive(tables[0], body(tmp_path, 1, 1))
    director.receive(tables[1], body(tmp_path, 1, 2, BLACK_WIN))
    server = ConsoleServer(build_app(director), "127.0.0.1", 0).start()
    try:
        base = f"http://127.0.0.1:{server.port}"
        page = browser.new_page()
        page.goto(f"{base}/director/{director.tournament.token}")
        ready = "document.querySelectorAll('.t-player img').length > 0"
        fits(page, "tournament-director", ready=ready)
        fits(page, "tournament-director-standings", ready=ready, show=".t-standings")
        # its tables as the evening's results: the number, where its game is and its games
        # on the row, its contact, console and link under them; the standings' place, name
        # and points on the row (the director's own), games and wins under them
        rows = ("(sel) => [...document.querySelectorAll(sel + ' tr.main-line')].map((r) => "
                "[[...r.children].map((c) => c.textContent), "
                "r.nextElementSibling ? r.nextElementSibling.textContent : null])")
        seen = director.director_view()
        tables_shown = page.evaluate(rows, ".t-tables-now")
        assert [t[0] for t in tables_shown] == [
            [str(t["table"]), t["phase"], str(g["games"])]
            for t, g in zip(seen["tables"], seen["games"], strict=True)]
        assert [t[1] for t in tables_shown] == [
            f"Связь: 0 с назад · Пульт стола: — · Ссылка стола: {t['join']}"
            for t in seen["tables"]]
        standings_shown = page.evaluate(rows, ".t-standings")
        assert standings_shown == [
            [[str(s["place"]), s["name"], f"{s['points']:.2f}"],
             f"Игр {s['games']} · Побед {s['wins']}"] for s in seen["standings"]]
        tv = browser.new_page()
        tv.goto(f"{base}/tv")
        fits(tv, "tournament-board", ready="!!document.querySelector('#table-2')")
        shown = tv.evaluate("[...document.querySelectorAll('.t-board table tr')].slice(1)"
                            ".map(r => [r.children[1].textContent, r.children[4].textContent])")
        want = [[s["name"], f"{s['points']:.2f}"] for s in director.view()["standings"]]
        assert shown == want
        page.close()
        tv.close()
    finally:
        server.stop()


# -- a tournament's table --------------------------------------------------------------------------


def test_a_tournament_tables_pad_shows_the_tournaments_standings(browser: Any,
                                                                 tmp_path: Path) -> None:
    """A 20-player tournament's table between games: its operator's seating row and its pads'
    standings — the tournament's, as the director gave them."""
    from narrator.clock import VirtualClock
    from narrator.console.server import serve
    from narrator.evening.front import EveningFront
    from tests.evening.test_evening import new_book

    lines = [{"place": i, "name": name, "games": 3, "points": round(4.2 - i * 0.2, 2),
              "wins": 3 - i % 3} for i, name in enumerate(NAMES, start=1)]
    book = new_book(tmp_path / "table", NAMES)
    for seat, player in enumerate(book.players[:10], start=1):
        book.seat(seat, player.number)
    front = EveningFront(book, VirtualClock())
    front.tournament = lambda: {"name": "Кубок клуба", "system": "fiim", "standings": lines}
    _, server, base = serve(front, lambda job: job(), "127.0.0.1:0", book)
    front.base = base
    try:
        op = browser.new_page()
        op.goto(f"{base}/op/{book.operator}")
        fits(op, "tournament-table-lobby",
             ready="document.querySelectorAll('.seat-pick').length === 10")
        pad = browser.new_page()
        pad.goto(front.link(book.players[11].token))
        fits(pad, "tournament-table-pad", ready="!!document.querySelector('.results-table')",
             show="#results-title")
        assert pad.locator("#results-title").inner_text().lower() == \
            "турнирная таблица · кубок клуба (фиим)"
        shown = pad.evaluate("[...document.querySelectorAll('.results-table tr.main-line')]"
                             ".map(r => [...r.children].map(c => c.textContent))")
        assert shown == [[str(x["place"]), x["name"], f"{x['points']:.2f}"] for x in lines]
        op.close()
        pad.close()
    finally:
        server.stop()
