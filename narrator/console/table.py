"""The console's side of the game: pad and operator presses → input events → the host.

Everything here runs on the thread that drives the host (the live loop): the server stamps a
press with the game clock when it arrives and hands it over; :meth:`ConsoleTable.handle` reads
it into its typed press (:mod:`narrator.console.presses`), checks it against what the game
waits for and the moment it came in, records it as an input event (before it is acted on),
applies it through the host and answers the pad with a :class:`Reply` — a stable reason code
when it is refused. After every change the views are rebuilt and published, one rebuild for a
batch of changes.

The table is made of rooms, each with one job:

- :mod:`~narrator.console.pads` takes a seat's presses, :mod:`~narrator.console.operator` the
  operator's (both on :class:`~narrator.console.taking.Taker`: the journal first, then the
  host);
- :mod:`~narrator.console.windows` holds the timing rules the console adds to the host's
  timers (the deal waits for the cards, the hunt's grace, a window's end);
- :mod:`~narrator.console.restore` reads a journal's presses back on a resume;
- :mod:`~narrator.console.views` builds what each screen may see, as the typed values of
  :mod:`~narrator.console.view`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from narrator.clock import Clock
from narrator.console.operator import OperatorPresses
from narrator.console.pads import SeatPresses
from narrator.console.presses import Press, PressError, read_operator_press, read_pad_press
from narrator.console.restore import Restorer
from narrator.console.settings import ConsoleSettings
from narrator.console.taking import Record, Reply, refused
from narrator.console.tokens import OPERATOR
from narrator.console.view import Publish
from narrator.console.views import all_views
from narrator.console.windows import Windows
from narrator.engine import Actor, EngineError, Mark
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.host.host import Host
from narrator.inputs import Input
from narrator.reasons import Reason

#: (the names the modes and the evening take from the table)
__all__ = ["ConsoleTable", "Press", "Publish", "Record", "Reply", "refused"]


class ConsoleTable:
    """Pads and operator on one host. ``record(event)`` writes each press as an
    :class:`~narrator.inputs.Input` (type ``pad`` or ``operator``) before it is acted on;
    ``publish(views)`` gets every identity's view after each change; ``said()`` gives the
    phrases spoken so far (public: everyone heard them); ``protocol()`` the game's protocol,
    kept for the operator once the game is over."""

    def __init__(self, host: Host, *, settings: ConsoleSettings | None = None,
                 record: Record | None = None, publish: Publish | None = None,
                 said: Callable[[], list[str]] | None = None,
                 protocol: Callable[[], dict[str, Any]] | None = None) -> None:
        self.host = host
        self.game = host.game
        self.settings = settings or ConsoleSettings()
        self.record: Record = record or (lambda event: None)
        self.publish: Publish = publish or (lambda views: None)
        self.said: Callable[[], list[str]] = said or (lambda: [])
        self.protocol: Callable[[], dict[str, Any]] = protocol or self.game.protocol
        #: the protocol, once the game is over (before, it would tell every secret)
        self.final_protocol: dict[str, Any] | None = None
        #: the host's marks the kept protocol holds (a later mark, or its undo, renews it)
        self._final_marks: dict[int, Mark] = {}
        #: the table's desk (the host's): the step's presses, the operator's entries and undo
        self.desk = host.desk
        self.windows = Windows(host, self.settings)

        def journal(event: Input) -> None:  # (``record`` may be set later)
            self.record(event)

        self.pads = SeatPresses(host, self.settings, self.windows, journal)
        self.operator = OperatorPresses(host, self.settings, self.windows, journal)
        self.restorer = Restorer(host, self.windows, self.handle, self.publish_views)
        self._dirty = False
        host.listeners.append(self._on_event)
        host.timer_listeners.append(self.windows.timer_started)
        # what the narrator says is on the operator's view: it goes out when it is said, not
        # with the next press (which would tell its moment: a shot during the count)
        host.line_listeners.append(lambda line: self._changed())

    @property
    def clock(self) -> Clock:
        """The game's clock: presses are stamped on it, views' deadlines are on it."""
        return self.host.clock

    @property
    def lang(self) -> str:
        """The pages' language (a reply's words are in it)."""
        return self.settings.lang

    # -- presses -----------------------------------------------------------------------------

    def handle(self, press: Press) -> Reply:
        """Read, check, record and apply one press; then publish the views."""
        try:
            reply = self._handle(press)
        except PressError as e:  # a field that is not what the press takes: named
            reply = Reply(False, e.reason, {"field": e.field})
        except EngineError as e:
            # the engine's message names the state (with roles): never shown to a pad; its
            # reason is a code that tells nothing of a card
            reply = refused(e.reason)
        self.publish_views()
        return reply

    def _handle(self, press: Press) -> Reply:
        who = press.who
        if self.host.paused:
            # the game stands still (the journal cannot be written, the sound is gone):
            # nothing is taken that could be lost; the views say why
            return refused(Reason.PAUSED)
        seats = self.game.seats
        if who == OPERATOR:
            return self.operator.handle(read_operator_press(press, seats), press.t)
        if isinstance(who, int) and not isinstance(who, bool) and 1 <= who <= seats:
            return self.pads.handle(read_pad_press(press, seats), who, press.t)
        return refused(Reason.BAD_REQUEST)

    # -- what the views and the front ends ask of the table --------------------------------------

    @property
    def dealing(self) -> bool:
        """The deal's timer is held for the cards (2.1.1, with seat pads)."""
        return self.windows.dealing

    def waiting_for_cards(self) -> list[int]:
        """Seats whose card has not been seen (nor skipped) while dealing."""
        return self.windows.waiting_for_cards()

    def number_at(self, t: float) -> int | None:
        """The number of the count a press arriving at ``t`` registers on."""
        return self.windows.number_at(t)

    def checker_role(self, seat: int) -> Actor | None:
        """The role whose check ``seat`` makes now, if any."""
        return self.pads.checker_role(seat)

    def actor(self, seat: int) -> Actor | None:
        """The role whose night act ``seat``'s pad takes now, if any."""
        return self.pads.actor(seat)

    def deciders(self) -> tuple[int, ...]:
        """Whose points make the mafia's kill (the engine's: the wait's)."""
        exp = self.game.expect
        return exp.deciders if isinstance(exp, w.NightAct) else ()

    def speech_puts_up(self) -> bool:
        """The speech in progress may accuse a seat for the thumbs after it (the wait's)."""
        return self.pads.speech_puts_up()

    def accused_now(self) -> int | None:
        """The one the speaker accuses (his speech, or the thumbs after it; the desk's)."""
        return self.desk.accused

    # -- a resume ------------------------------------------------------------------------------

    def restore(self, inputs: Sequence[Input], input_at: Sequence[int]) -> None:
        """A game rebuilt from its journal: its presses read back (:mod:`narrator.console.
        restore`; ``input_at``: how many of the game's actions came before each)."""
        self.restorer.restore(inputs, input_at)

    # -- the views -----------------------------------------------------------------------------

    def _on_event(self, event: ev.Event, at: float) -> None:
        self.windows.step_changed()
        if isinstance(event, ev.GameOver):
            self.publish_views()  # the last event: nobody may be left to run a later flush
            return
        self._changed()

    def _changed(self) -> None:
        """The views changed: one rebuild for the whole batch (of events, of lines said)."""
        if not self._dirty:
            self._dirty = True
            self.host.scheduler.call_at(self.host.now(), "console-views", self._flush)

    def _flush(self) -> None:
        if self._dirty:
            self.publish_views()

    def publish_views(self) -> None:
        self._dirty = False
        if self.game.is_over and (self.final_protocol is None
                                  or self._final_marks != self.game.marks):
            self.final_protocol = self.protocol()
            self._final_marks = dict(self.game.marks)
        elif not self.game.is_over:
            self.final_protocol = None
        self.publish(all_views(self))
