"""One game at a table, put together one way for every mode.

A table session is what ``narrator play``, ``assist``, ``resume``, ``conform`` and the evening
each used to wire by hand: the host (the game, its scheduler on the injected clock, the
transcript, the narration — :func:`~narrator.host.assembly.assemble_host`), the driver that
runs it, and around them the live table's watchers (a journal that cannot be written pauses
the game, the heartbeat, a lost sound card pauses it) and the console when the mode has one.

The driver is the session's own, or one it is lent: an evening's, which outlives its games —
the console's presses and the operator's lines go to that one driver all night, and each
game :meth:`~narrator.host.driver.Driver.attach`-es to it and lets go at its end. The clock is
always given: monotonic at a real table, virtual in replay and tests (the same code). The real
table's is made in one place, :func:`table_clock`, which every front end (``play``, ``assist``,
``resume``, the evening) asks for it — so a table never runs on a clock of its own making, and a
test or a replay hands its virtual one through the same call.

The listening table (``narrator play`` with a microphone) is the same session with a
:class:`~narrator.listening.ListeningLoop` in it: the loop builds the host the same way and
hears the microphone on the driver it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from narrator.clock import Clock, MonotonicClock
from narrator.console.serve import (
    ConsoleOptions,
    GameConsole,
    Mount,
    console_table,
    open_console,
)
from narrator.console.table import ConsoleTable
from narrator.engine import Game
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver, ErrorSink
from narrator.host.faults import watch_journal
from narrator.host.heartbeat import keep_heartbeat
from narrator.host.host import Host
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, JournalContents
from narrator.host.recorder import InputLog
from narrator.host.speaker import Narration, watch_output
from narrator.host.transcript import Transcript
from narrator.inputs import Input
from narrator.listening import ListeningLoop
from narrator.voice.manifest import Manifest

Log = Callable[[str], None]


@dataclass
class TableSession:
    """A game's host, the driver it runs on, and what the mode put around them."""

    host: Host
    transcript: Transcript
    driver: Driver
    journal: InputLog | None = None
    narration: Narration | None = None
    #: the hostless table's listening loop (None: no microphone)
    loop: ListeningLoop | None = None
    #: the game's console, its own or the evening's mount (None: no console)
    console: GameConsole | None = None
    #: the driver is this game's alone: stopped at the end (a lent one is let go)
    owns_driver: bool = True
    closed: bool = field(default=False, init=False)

    @property
    def game(self) -> Game:
        return self.host.game

    @property
    def clock(self) -> Clock:
        return self.driver.clock

    def protocol(self) -> dict[str, Any]:
        """The game's protocol with ``said``: every phrase spoken, in order."""
        out = self.game.protocol()
        out["said"] = list(self.transcript.said)
        return out

    # -- around the game -------------------------------------------------------------------

    def serve(self, opts: ConsoleOptions | None, lang: str, *,
              resumed: JournalContents | None = None,
              mount: Mount | None = None) -> GameConsole:
        """The console on this game: its own server (``opts``), or the mount's (an
        evening's, whose options are its own) — which hands it the operator's lines through
        the same driver."""
        journal = self.journal
        if not isinstance(journal, Journal):
            raise ValueError("the console journals its presses: the session needs a journal")
        if mount is not None:
            self.console = mount.open(self.host, self.transcript, journal, self.driver,
                                      self.driver.submit, resumed)
        elif opts is not None:
            self.console = open_console(self.host, self.transcript, journal, lang, opts,
                                        self.driver.call, resumed=resumed)
        else:
            raise ValueError("a console is served on its options or an evening's mount")
        return self.console

    def pads(self, opts: ConsoleOptions, lang: str, *,
             resumed: JournalContents | None = None) -> ConsoleTable:
        """The console's table on this game, not served: what a test or ``conform`` presses
        as the pads would (its presses journaled like a served one's)."""
        if self.journal is None:
            raise ValueError("the console journals its presses: the session needs a journal")
        return console_table(self.host, self.transcript, self.journal, lang, opts,
                             resumed=resumed)

    def watch(self, log: Log) -> None:
        """A live table's watchers, each telling ``log`` in one line: a journal that cannot
        be written pauses the game (and it goes on once written again), the journal's
        heartbeat while a timer runs, and a sound card lost pauses it too."""
        if isinstance(self.journal, Journal):
            watch_journal(self.host, self.journal, self.driver.call, log)
        if self.journal is not None:
            keep_heartbeat(self.host, self.journal)
        if self.narration is not None:
            watch_output(self.narration, self.driver.call, self.host, log)

    # -- running ---------------------------------------------------------------------------

    def begin(self, left: float | None = None) -> None:
        """Start the game, or take a resumed one up at its step (its timer with ``left``
        seconds to go; None: in full)."""
        if self.game.started:
            self.host.resume(left)
        else:
            self.host.start()

    def run(self) -> None:
        """Drive the game until it is over or the driver is stopped; what was handed in by
        then is taken, and the console shows the final state."""
        while not self.game.is_over and not self.driver.stopping:
            self.driver.step()
        self.driver.take()
        if self.console is not None:
            self.console.table.publish_views()  # on the loop's thread still: the final state

    def release(self) -> None:
        """The game is done with its driver: its own is stopped, a lent one let go (the
        evening's goes on between games). Once; safe to call again."""
        if self.closed:
            return
        self.closed = True
        if self.owns_driver:
            self.driver.stop()
        elif not self.driver.stopping:
            self.driver.detach()


def table_clock(given: Clock | None = None) -> Clock:
    """The clock a table runs on: ``given`` when the caller brings one (a replay's or a test's
    virtual clock, the evening's, which its games share), else the real table's — monotonic,
    so no wall-clock adjustment moves a timer. Made here only, for every front end."""
    return given if given is not None else MonotonicClock()


def open_table(game: Game, clock: Clock, *, journal: InputLog | None = None,
               narration: Narration | None = None, manifest: Manifest | None = None,
               driver: Driver | None = None,
               intake: Callable[[Host, Input], object] | None = None,
               on_error: ErrorSink | None = None) -> TableSession:
    """A table session for ``game`` on ``clock`` (neither started nor resumed).

    ``intake`` applies an input to the host (by default :func:`apply_input`: a key, a press,
    a script line); ``driver``: one lent by the evening (attached here, let go by
    :meth:`TableSession.release`), else the session's own on ``clock``."""
    parts = assemble_host(game, clock, manifest=manifest, narration=narration, journal=journal)
    host = parts.host
    take = intake or apply_input

    def apply(event: Input) -> object:
        return take(host, event)

    if driver is None:
        own = Driver(host.scheduler, apply, on_error=on_error)
    else:
        driver.attach(host.scheduler, apply, on_error=on_error)
        own = driver
    return TableSession(host, parts.transcript, own, journal, narration,
                        owns_driver=driver is None)


def listening_table(loop: ListeningLoop, *, lent: bool = False) -> TableSession:
    """The session of a listening loop (which put its host together and drives it); its
    journal is the game's (the host writes to it and to a recorded session's inputs)."""
    return TableSession(loop.host, loop.transcript, loop.driver, loop.journal,
                        loop.narration, loop=loop, owns_driver=not lent)
