"""Host-assist: the Textual app a human host drives the narrator with.

The app gets its collaborators injected: a :class:`Session` (the host, its live loop, the
transcript of what was said) or, when the cards are still to be entered, a ``setup`` callable
that makes one from the seats of the don, the mafia and the sheriff (the deal's form,
:mod:`narrator.assist.cards`). It never runs the loop itself: the command runs it on a thread,
the tests step it on a VirtualClock.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, RichLog, Static

from narrator.assist.cards import Deal, RolesScreen, card_fields, parse_cards, parse_roles
from narrator.assist.control import Controller, Snapshot
from narrator.assist.keys import bindings, waiting_text
from narrator.engine import Colour, Exit, Role, Rules
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.texts import card, departure, timer, tx
from narrator.host.transcript import Transcript
from narrator.table.session import TableSession

# the deal's form is the cards' module; its callers name it from here, with the app
__all__ = ["AssistApp", "Deal", "GameScreen", "Session", "Setup", "card_fields", "parse_cards",
           "parse_roles"]

_ROLE_STYLE = {Role.CIVILIAN: "", Role.SHERIFF: "bold red", Role.MAFIA: "bold",
               Role.DON: "bold reverse"}
_MESSAGE_STYLE = {"ok": "dim", "error": "bold red", "refused": "yellow"}
#: the longest marks' line: ``m``, the seat, points, the three titles and a comment of 300
MARK_LINE = 360


@dataclass
class Session:
    """What the app drives: a started (or resumed) host and the loop that runs it."""

    host: Host
    loop: Driver
    transcript: Transcript
    journal: Path | None = None
    #: what the log shows first, before any entry: (kind, text) as ``add_message`` takes them
    #: (a resumed game: where it was taken up, and where its narration goes on)
    notes: list[tuple[str, str]] = field(default_factory=list)
    #: the table session the host and loop come from (None: a screen given them bare)
    table: TableSession | None = None


Setup = Callable[[Deal], Session]


class GameScreen(Screen[None]):
    """The table, the phase, the timer, what was said, and the host's keys — in the table's
    language (:meth:`in_lang` gives the screen whose key bar is in it)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("en")

    @classmethod
    def in_lang(cls, session: Session, lang: str = "en", *, debug: bool = False) -> GameScreen:
        """The screen in ``lang``: Textual reads a screen's key bar from its class, so each
        language is a subclass whose bindings are worded in it."""
        kind = _SCREENS.get(lang)
        if kind is None:
            kind = _SCREENS[lang] = type(f"GameScreen_{lang}", (cls,),
                                         {"BINDINGS": bindings(lang)})
        return kind(session, lang, debug=debug)

    def __init__(self, session: Session, lang: str = "en", *, debug: bool = False) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        #: the notation line under the candidates (``crime-time d1:day@2 …``): a developer's
        self.notation = debug
        self.controller = Controller(session.host, session.loop, session.transcript, lang)
        self.buffer = ""
        self.show_roles = False
        self.snap: Snapshot | None = None
        self.messages: list[tuple[str, str]] = []
        #: a quit or a removal waiting for the host's «y» (any other key: no)
        self.confirming: tuple[str, str] | None = None
        #: once the game is over, ``m`` opens a line of text for the host's marks (the
        #: comment is words, not the digits the number line takes)
        self.marking = False
        self._ui_thread = threading.get_ident()
        self._aloop: asyncio.AbstractEventLoop | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="phase")
            yield Static(id="timer")
        yield Static(id="table")
        yield Static(id="noms")
        yield Static(id="input")
        with Horizontal(id="bottom"):
            yield Static(id="said")
            # (wrapped at the pane's own width: RichLog's default 78 columns cut a line in a
            # pane of 40 — the quit prompt at 80 and 120 columns)
            yield RichLog(id="log", markup=False, wrap=True, min_width=1)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._ui_thread = threading.get_ident()
        self._aloop = asyncio.get_running_loop()
        self.controller.on_snapshot = lambda snap: self._in_ui(lambda: self.show(snap))
        self.controller.on_message = lambda kind, text: self._in_ui(
            lambda: self.add_message(kind, text))
        if self.session.journal is not None:
            self.add_message("ok", tx("journal", self.lang, path=self.session.journal))
        for kind, text in self.session.notes:
            self.add_message(kind, text)
        self.controller.refresh()
        self.set_interval(0.2, self._tick)
        self._render_input()

    # -- from the loop's thread ---------------------------------------------------------------

    def _in_ui(self, fn: Callable[[], None]) -> None:
        if threading.get_ident() == self._ui_thread:
            fn()
            return
        if self._aloop is not None:
            with contextlib.suppress(RuntimeError):  # the app has closed
                self._aloop.call_soon_threadsafe(fn)

    def _tick(self) -> None:
        self.controller.refresh()
        self._render_timer()

    def show(self, snap: Snapshot) -> None:
        self.snap = snap
        self.query_one("#phase", Static).update(Text(snap.phase, style="bold"))
        self.query_one("#table", Static).update(self._table(snap))
        line = Text(snap.standing or "")
        if snap.voting:
            line.append(f"{'   ' if snap.standing else ''}{tx('voting_on', self.lang)}"
                        f"{', '.join(map(str, snap.voting))}", style="bold")
        if self.notation:  # the notation: a developer's line, not the table's
            line.append(f"\n{snap.notation}", style="dim")
        self.query_one("#noms", Static).update(line)
        said = Text(tx("said", self.lang) + "\n", style="bold")
        for text in snap.said:
            said.append(text + "\n", style="")
        self.query_one("#said", Static).update(said)
        self._render_input()
        self._render_timer()

    def add_message(self, kind: str, text: str) -> None:
        self.messages.append((kind, text))
        self.query_one("#log", RichLog).write(Text(text, style=_MESSAGE_STYLE.get(kind, "")))

    # -- rendering --------------------------------------------------------------------------

    def _table(self, snap: Snapshot) -> Text:
        lang = self.lang
        out = Text()
        for s in snap.seats:
            mark = "▶" if snap.speaker == s.seat else " "
            style = "dim strike" if s.out else ("bold" if snap.speaker == s.seat else "")
            out.append(f"{mark}{s.seat:>2} ", style=style)
            if s.name:
                out.append(f"{s.name[:12]} ", style=style)
            out.append(tx("out", lang) + departure(s.out, lang) if s.out else tx("in", lang),
                       style="dim" if s.out else "green")
            if s.fouls:
                out.append(f" {tx('fouls', lang)} {s.fouls}", style="yellow")
            if self.show_roles and s.shot_tonight:  # 2.1.2: told to the table at day only
                out.append(f" {_killed(s.how, lang)} {tx('tonight', lang)}", style="bold red")
            elif self.show_roles and s.out is Exit.SHOT and s.how is not Exit.SHOT:
                out.append(f" ({_killed(s.how, lang)})", style="red")  # who killed: the host's
            if self.show_roles and s.role is not Role.CIVILIAN:
                # every card of every ruleset (vrn's doctor and maniac, amateur's commissar)
                shown = s.role.name if lang == "en" else card(s.role.value, lang)
                out.append(f" {shown}", style=_ROLE_STYLE.get(s.role, "bold"))
            out.append("   ")
            if s.seat % 5 == 0:
                out.append("\n")
        if snap.marks:  # the host's own, after the game
            out.append("\n" + tx("marks", lang), style="bold")
            out.append(" · ".join(snap.marks))
        if self.show_roles:  # the host's eyes only: the nights' shots and checks
            for line in snap.secrets:
                out.append(f"\n  {line}", style="bold")
        return out

    def _render_timer(self) -> None:
        snap = self.snap
        widget = self.query_one("#timer", Static)
        if snap is None or snap.timer is None or snap.over:
            widget.update("")
            return
        left = 0.0 if snap.timer_ends is None else max(
            0.0, min(snap.timer_seconds, snap.timer_ends - self.session.host.clock.now()))
        if snap.held and left <= 0:  # its time is over: the step waits for the host
            widget.update(Text(waiting_text(snap.wait, self.lang), style="bold yellow"))
            return
        minutes, seconds = divmod(left, 60.0)
        style = "bold red" if left <= 10 else "bold"
        widget.update(Text(f"{timer(snap.timer, self.lang)} {int(minutes)}:{seconds:04.1f}",
                           style=style))

    def _render_input(self) -> None:
        hint = self.snap.hint if self.snap else ""
        if self.marking:  # the line as typed, its end in view (a comment runs long)
            text = Text(tx("marks", self.lang), style="bold")
            text.append(self.buffer[-80:], style="reverse")
            text.append(f"    {tx('marks_keys', self.lang)}", style="dim")
        else:
            text = Text(tx("number", self.lang), style="bold")
            text.append(self.buffer or "_", style="reverse" if self.buffer else "dim")
            text.append(f"    {hint}", style="dim")
        self.query_one("#input", Static).update(text)

    # -- keys ---------------------------------------------------------------------------------

    def _take(self) -> str:
        text, self.buffer = self.buffer, ""
        self._render_input()
        return text

    def _answered(self) -> bool:
        """A key while a quit or a removal waits for «y»: it means no (and does nothing
        else)."""
        if self.confirming is None:
            return False
        what, _ = self.confirming
        self.confirming = None
        self.add_message("ok", tx("not_done", self.lang, what=tx(what, self.lang)))
        return True

    def _confirm(self, what: str, arg: str, question: str) -> None:
        self.confirming = (what, arg)
        self.add_message("error", tx("confirm", self.lang, question=question))

    def on_key(self, event: events.Key) -> None:
        """While a quit or a removal waits for «y», any other key means no; once the game is
        over, ``m`` opens the marks' line, which takes every key until Enter or Escape."""
        if self.confirming is not None and event.key != "y":
            event.prevent_default()
            event.stop()
            self._answered()
        elif self.marking or (event.key == "m" and self.session.host.game.is_over):
            event.prevent_default()
            event.stop()
            self._mark_key(event)

    def _mark_key(self, event: events.Key) -> None:
        """A key of the marks' line: ``m 4 +0.3 bp -- why`` (a number typed before ``m`` is
        its seat), Enter gives it, Escape drops it."""
        if not self.marking:
            self.marking = True
            seat = self._take().strip()
            self.buffer = f"m {seat} " if seat else "m "
        elif event.key == "enter":
            self.marking = False
            self.controller.mark(self._take().removeprefix("m").strip())
        elif event.key == "escape":
            self.marking = False
            self._take()
        elif event.key == "backspace":
            self.buffer = self.buffer[:-1]
            if not self.buffer:
                self.marking = False
        elif event.is_printable and event.character and len(self.buffer) < MARK_LINE:
            self.buffer += event.character
        self._render_input()

    def action_yes(self) -> None:
        if self.confirming is None:
            return
        what, arg = self.confirming
        self.confirming = None
        if what == "quit":
            self.app.exit()
        else:
            self.controller.remove(arg)

    def action_quit(self) -> None:
        if self._answered():
            return
        self._take()
        if self.session.host.game.is_over:  # nothing left to lose: no question
            self.app.exit()
            return
        self._confirm("quit", "", tx("quit_q", self.lang))

    def action_digit(self, ch: str) -> None:
        if self._answered():
            return
        if len(self.buffer) < 12:  # seats by commas ("3,7") and "7-4"
            self.buffer += ch
        self._render_input()

    def action_erase(self) -> None:
        if self._answered():
            return
        self.buffer = self.buffer[:-1]
        self._render_input()

    def action_clear(self) -> None:
        if self._answered():
            return
        self._take()

    def action_enter(self) -> None:
        if self._answered():
            return
        self.controller.enter(self._take())

    def action_next(self) -> None:
        if self._answered():
            return
        if self.buffer and self.snap is not None and isinstance(self.snap.wait, w.Vote | w.Crash):
            self.controller.enter(self._take())  # a count typed, then Space: that count
            return
        self._take()
        self.controller.next()

    def action_time_up(self) -> None:
        if self._answered():
            return
        self._take()
        self.controller.time_up()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys a ruleset has no use for are neither shown nor taken: a withdrawal where
        nobody nominates by words (vrn, amateur), a shot where nobody shoots (amateur)."""
        rules = self.session.host.game.rules
        if action == "withdraw":
            return bool(rules.nominations)
        if action == "shot":  # (a key binding's action: not the game's word)
            return bool({"shots", "sheriff_shot"} & rules.night_keys)
        if action == "tech_foul":  # 9.6.2: only where the club gives technical fouls
            return rules.tech_fouls == "yes"
        if action == "on_record":  # 6.7: only where the club keeps colours on record
            return rules.on_record != "none"
        if action == "best_move":  # 8.17: only where the club asks for the best move
            return bool(rules.best_move)
        return True

    def action_withdraw(self) -> None:
        if self._answered():
            return
        self.controller.withdraw(self._take())

    def action_on_record(self, colour: str) -> None:
        if self._answered():
            return
        self.controller.on_record(self._take(), Colour(colour))

    def action_best_move(self) -> None:
        if self._answered():
            return
        self.controller.best_move(self._take())

    def action_shot(self) -> None:
        if self._answered():
            return
        self.controller.shot(self._take())

    def action_check(self) -> None:
        if self._answered():
            return
        self.controller.check(self._take())

    def action_foul(self) -> None:
        if self._answered():
            return
        self.controller.foul(self._take())

    def action_tech_foul(self) -> None:
        if self._answered():
            return
        self.controller.tech_foul(self._take())

    def action_remove(self) -> None:
        if self._answered():
            return
        seat = self._take().strip()
        if not seat:
            self.add_message("error", tx("seat_first", self.lang))
            return
        self._confirm("remove", seat, tx("remove_q", self.lang, seat=seat))

    def action_undo(self) -> None:
        if self._answered():
            return
        self._take()
        self.controller.undo()

    def action_roles(self) -> None:
        if self._answered():
            return
        self.show_roles = not self.show_roles
        if self.snap is not None:
            self.show(self.snap)


class AssistApp(App[None]):
    """``narrator assist``: give it a session, or a ``setup`` to make one from the cards."""

    TITLE = "narrator · host-assist"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #top { height: 1; }
    #phase { width: 1fr; }
    #timer { width: 30; content-align: right middle; }
    #table { height: auto; margin: 1 0; }
    #noms { height: 2; }
    #input { height: 1; margin: 1 0; }
    #bottom { height: 1fr; }
    #said { width: 1fr; }
    #log { width: 1fr; border-left: solid $primary; }
    #roles { width: 70; height: auto; margin: 2 4; }
    #roles-error { margin-top: 1; }
    """

    def __init__(self, session: Session | None = None, *, setup: Setup | None = None,
                 seats: int = 10, rules: Rules | None = None,
                 names: dict[int, str] | None = None, lang: str = "en",
                 debug: bool = False) -> None:
        super().__init__()
        self.names = names or {}
        #: the screens' language (``--lang``: ru or uk; the API's English by default)
        self.lang = lang
        self.title = tx("title", lang)
        self.notation = debug
        if session is None and (setup is None or rules is None):
            raise ValueError("AssistApp needs a session, or a setup with the rules")
        self.session = session
        self.setup = setup
        self.seats = seats
        self.rules = rules
        self.game_screen: GameScreen | None = None
        self.error: str | None = None  # why the game could not start

    def on_mount(self) -> None:
        if self.session is not None:
            self._start(self.session)
            return
        assert self.rules is not None
        self.push_screen(RolesScreen.in_lang(self.seats, self.rules, self.names, self.lang),
                         self._dealt)

    def _dealt(self, deal: Deal | None) -> None:
        if deal is None or self.setup is None:
            return
        try:
            self.session = self.setup(deal)
        except NarratorError as e:
            self.error = str(e)
            self.exit(return_code=2)
            return
        self._start(self.session)

    def _start(self, session: Session) -> None:
        self.game_screen = GameScreen.in_lang(session, self.lang, debug=self.notation)
        self.push_screen(self.game_screen)


def _killed(how: Exit | None, lang: str = "en") -> str:
    """How a night's victim left the game, as the host reads it (``sheriff shot``)."""
    return departure(str(how or Exit.SHOT), lang)


#: the screen's class per language (see :meth:`GameScreen.in_lang`)
_SCREENS: dict[str, type[GameScreen]] = {}
