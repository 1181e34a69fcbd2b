"""The console's timing windows: the moments a press is taken in, over the host's timers.

The host runs each step's timer and ends the step at its end; the console moves that end where
a table of phones needs it, through the host (:meth:`~narrator.host.host.Host.end_step_at`),
each time a timer runs — a new step's, or one run again by a resume, an undo or the end of a
pause (:meth:`Windows.timer_started`, a timer listener of the host):

- **dealing** (2.1.1): with seat pads the narrator waits until every seat has seen its card (or
  the operator skipped it), then the night goes on. While it waits, the narrator says whose
  cards it waits for (:data:`CARD_PROMPT_AFTER` seconds into the deal, then every
  :data:`CARD_PROMPT_EVERY` seconds): a prompt, heard and in the transcript, but not in the
  protocol's ``said``;
- **the hunt** (2.1.2): a press registers on the number being spoken ``hunt_grace`` seconds
  before the server received it — a tap arrives a little after the word that prompted it, and
  nobody reacts within a quarter of a second to a new word. The count's end waits that long too,
  so a press on the last number is not lost;
- **a voting window** (2.4): a press counts when the server received it before the window's end
  («Спасибо»); later presses are refused with ``after_thanks``. With ``hand_votes`` the table
  votes by hand: each window waits for the operator's count instead;
- **the floor, the thumbs, the hands for more time**: each window takes a press the server
  received before its end (``too_late`` after), like a vote.

A window's end waits ``settle`` seconds more than its timer, for a press stamped before the end
and still on its way to the loop's thread.
"""

from __future__ import annotations

from typing import assert_never

from narrator.console.settings import ConsoleSettings
from narrator.engine import Timer, TimeUp
from narrator.engine import waits as w
from narrator.host.host import Host
from narrator.host.narration import cards_awaited

#: seconds into the deal (2.1.1, from its timer's start) before the narrator first names the
#: seats whose card it still waits for, and between two such prompts while it waits
CARD_PROMPT_AFTER = 20.0
CARD_PROMPT_EVERY = 20.0
_CARD_PROMPT = "console-card-prompt"  # the prompt's scheduler key


class Windows:
    """When the step the game waits at takes a press, and when it ends (see the module)."""

    def __init__(self, host: Host, settings: ConsoleSettings) -> None:
        self.host = host
        self.settings = settings

    # -- dealing (2.1.1) ---------------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        """The deal waits for the cards (2.1.1, with seat pads)."""
        return self.settings.wait_for_cards and isinstance(self.host.game.expect, w.Deal)

    def waiting_for_cards(self) -> list[int]:
        """Seats whose card has not been seen (nor skipped) while dealing."""
        return self.host.desk.waiting_for_cards() if self.dealing else []

    def deal_done(self) -> None:
        """End the deal once every card is seen or skipped."""
        if self.dealing and not self.waiting_for_cards():
            self.host.scheduler.cancel(_CARD_PROMPT)
            self.host.apply(TimeUp("dealing"))

    def _prompt_cards_at(self, when: float) -> None:
        """Name the seats the deal waits for at ``when`` (and on, every
        :data:`CARD_PROMPT_EVERY` seconds, while it waits)."""
        host = self.host
        host.scheduler.cancel(_CARD_PROMPT)
        serial = host.game.expect.serial

        def prompt() -> None:
            if not self.dealing or host.game.expect.serial != serial or host.paused:
                return  # (a paused game schedules its prompt again as its timer resumes)
            waiting = self.waiting_for_cards()
            if not waiting:
                return
            host.say(cards_awaited(waiting))
            self._prompt_cards_at(host.now() + CARD_PROMPT_EVERY)

        host.scheduler.call_at(when, _CARD_PROMPT, prompt)

    def step_changed(self) -> None:
        """An event of the game: a deal that has ended, however it did, prompts no more."""
        if not self.dealing:
            self.host.scheduler.cancel(_CARD_PROMPT)

    # -- the moments a press is taken in -------------------------------------------------------

    def number_at(self, t: float) -> int | None:
        """The number of the count a press arriving at ``t`` registers on (None: before «один»
        or after the count)."""
        exp = self.host.game.expect
        started = self.host.timer_started
        if not isinstance(exp, w.Hunt) or t < started:
            return None
        # a press in the grace after «один» is still on «один» (the count's first number)
        return exp.number_at(max(0.0, t - self.settings.hunt_grace - started))

    def before_the_count(self, t: float) -> bool:
        """A press at ``t`` came in the hunt, before «один»."""
        return isinstance(self.host.game.expect, w.Hunt) and t < self.host.timer_started

    def late(self, t: float) -> bool:
        """A press at ``t`` arrived after the open window's end."""
        timer = self.host.game.expect.timer
        return timer is not None and t > self.host.timer_started + timer.seconds

    # -- the windows' ends ---------------------------------------------------------------------

    def timer_started(self, timer: Timer) -> None:
        """Hold or stretch the step where the console needs it (see the module); a host's
        timer listener: a new step's timer, or one run again (a journal, an undo, a pause)."""
        host, settings = self.host, self.settings
        wait = host.game.expect
        if wait.timer != timer:
            return  # (a timer the game has already moved past)
        end = host.timer_started + timer.seconds
        match wait:
            case w.Deal() if settings.wait_for_cards:
                host.end_step_at(None)  # the deal ends with the last card
                if not self.waiting_for_cards():
                    self.deal_done()  # (a journal read back: every card was seen already)
                else:  # the prompt, CARD_PROMPT_AFTER s in (a resumed deal: from now on)
                    self._prompt_cards_at(max(host.timer_started, host.now())
                                          + CARD_PROMPT_AFTER)
            case w.Vote() | w.Crash() if settings.hand_votes:
                host.end_step_at(None)  # the window waits for the operator's count
            case w.Vote() | w.Crash() | w.Floor() | w.PutUp() | w.Extra():
                host.end_step_at(end + settings.settle)
            case w.Hunt():
                host.end_step_at(end + settings.hunt_grace + settings.settle)
            case w.Pause() | w.Deal() | w.Speech() | w.NightAct() | w.Over():
                pass
            case _:
                assert_never(wait)
