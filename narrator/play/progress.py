"""The console game's terminal: the game's progress, one line a step, nothing secret.

With the pads playing, the terminal is the operator's side door: it says which step the game
is at (the engine's words for it), whose card the deal still waits for, who speaks, what was
refused and why; never a card's name, nor the night's shots and checks (the terminal is
nobody's screen: a player may be reading over a shoulder).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from narrator import words as vocab
from narrator.console.table import ConsoleTable
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.host.host import Host
from narrator.host.texts import reason, refused_kind, screen_lang, tx, word
from narrator.host.texts import seat as seat_words

#: seconds between two looks at the cards the deal waits for
CARDS_EVERY = 10.0

class Progress:
    """Lines to ``out`` as ``host``'s game goes (``table``: the console's, for the deal)."""

    def __init__(self, host: Host, table: ConsoleTable, out: Callable[[str], None],
                 lang: str = "en") -> None:
        self.host = host
        #: the table's language (``--lang``): ru or uk (en: the API's)
        self.lang = lang
        self.table = table
        self.out = out
        self._cards: list[int] | None = None
        self.started = host.now()  # the stamps count from here (the game, or its resume)
        host.listeners.append(self._event)

    def _stamp(self) -> str:
        minutes, seconds = divmod(self.host.now() - self.started, 60.0)
        return f"{int(minutes):3d}:{seconds:04.1f}"

    def _say(self, text: str) -> None:
        self.out(f"{self._stamp()}  {text}")

    def _line(self, key: str, **fields: object) -> str:
        return tx(key, self.lang, **fields)

    def _who(self, seat: int) -> str:
        return seat_words(seat, self.host.game.names, self.lang)

    def _phase(self) -> str:
        phase = self.host.game.phase
        if screen_lang(self.lang) == "en":
            return str(phase)
        return vocab.phase(phase.time, phase.number, self.lang)

    def _event(self, event: ev.Event, at: float) -> None:
        game = self.host.game
        if isinstance(event, ev.TimerStarted):
            wait = game.expect
            match wait:
                case w.Speech():
                    self._say(self._line("t_speaks", phase=self._phase(),
                                         who=self._who(wait.seat),
                                         kind=word("speech", wait.speech, self.lang)))
                case w.NightAct() | w.Pause():
                    # no role's name on the terminal: it is nobody's screen
                    self._say(self._line("t_night_s", phase=self._phase(), s=wait.timer.seconds)
                              if wait.timer is not None
                              else self._line("t_night", phase=self._phase()))
                case (w.Deal() | w.Vote() | w.Crash() | w.Hunt() | w.Floor() | w.PutUp()
                      | w.Extra() | w.Over()):
                    self._say(self._line("t_step", phase=self._phase(),
                                         what=wait.label(screen_lang(self.lang))))
                case _:
                    assert_never(wait)
            if isinstance(wait, w.Deal) and self.table.dealing:
                self._cards = None
                self.host.scheduler.call_at(self.host.now(), "progress-cards", self._deal)
        elif isinstance(event, ev.Refused) and game.phase.is_day:
            # (a night's refusal would name the seat a role picked: the day's only)
            who = self._who(event.seat) if event.seat is not None else self._line("t_input")
            target = "" if event.target is None else f" {event.target}"
            self._say(self._line("t_refused", who=who, target=target,
                                 kind=refused_kind(event.kind, self.lang),
                                 reason=reason(event.reason, self.lang)))

    def _deal(self) -> None:
        """While the deal waits (2.1.1): whose card, when that changed."""
        waiting = self.table.waiting_for_cards()
        if not waiting:
            return
        if waiting != self._cards:
            self._cards = waiting
            seats = ", ".join(map(str, waiting))
            self._say(self._line("t_card" if len(waiting) == 1 else "t_cards", seats=seats))
        self.host.scheduler.call_at(self.host.now() + CARDS_EVERY, "progress-cards", self._deal)
