"""The host: ties the engine to a clock, a scheduler, a voice and a journal.

Every input, whatever its source (a table script, the keyboard, the console, the listener),
goes through :meth:`Host.apply`: it is journaled, applied to the engine, and the events are
narrated and turned into timers. The host itself never sleeps and reads the game's time from
its scheduler; the :class:`~narrator.host.driver.Driver` moves that time, on the real clock
(play, assist) or a virtual one (replay, tests).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from narrator.engine import Action, Game, Timer, TimeUp
from narrator.engine import events as ev
from narrator.host.desk import Desk
from narrator.host.narration import TEN_SECONDS, Line, count_line, lines_for, reworded
from narrator.host.recorder import InputLog
from narrator.host.scheduler import Scheduler
from narrator.inputs import ACTION, TIMER, UNDO, Input

_TIMER_KEYS = ("timer", "timer-warning", "timer-tick")


class Voice(Protocol):
    """Where the narrator's lines go (a transcript, a playback queue, both)."""

    def say(self, line: Line, at: float) -> None: ...


class Tee:
    """A voice that says each line to several voices (audio and a transcript, say)."""

    def __init__(self, *voices: Voice) -> None:
        self.voices = voices

    def say(self, line: Line, at: float) -> None:
        for voice in self.voices:
            voice.say(line, at)


class Host:
    """Runs one game: inputs in, speech and timers out."""

    def __init__(self, game: Game, scheduler: Scheduler, voice: Voice,
                 journal: InputLog | None = None, *,
                 delay: Callable[[], float] | None = None) -> None:
        self.game = game
        self.scheduler = scheduler
        self.clock = scheduler.clock
        self.voice = voice
        self.journal = journal
        self.timer: Timer | None = None
        self.timer_started: float = 0.0
        #: the current step waits for the host past its timer's end (:meth:`hold`)
        self.held = False
        #: why the game stands still (:meth:`pause`), cause → one line: the sound is gone, the
        #: journal cannot be written
        self.pauses: dict[str, str] = {}
        self._paused: tuple[float | None, bool] = (None, False)
        self.listeners: list[Callable[[ev.Event, float], None]] = []
        #: called with the timer each time one runs: a new step's, or one resumed (a journal
        #: read back, an undo) — a front end that holds or stretches a timer hooks in here
        self.timer_listeners: list[Callable[[Timer], None]] = []
        #: how many lines the narrator has said (an undo after one says a correction)
        self.said = 0
        #: called with each line the narrator says, when it says it (a screen that shows them)
        self.line_listeners: list[Callable[[Line], None]] = []
        #: called after each action applied or undone, events or none (a hand in a vote
        #: changes no step: a screen that shows the hands hooks in here)
        self.action_listeners: list[Callable[[], None]] = []
        #: called when a front end moves the step's end (:meth:`end_step_at`: the deal that
        #: waits for every card, a window that waits for the count) — a screen that shows
        #: whether the timer runs hooks in here
        self.end_listeners: list[Callable[[], None]] = []
        #: the table's desk: who is asked, what was pressed, what undo takes back
        self.desk = Desk(self)
        #: seconds until the narrator is quiet: live, a timer starts when its announcement
        #: ends. Given once, at assembly (the narration's queue, a replay's recorded delays)
        self._delay: Callable[[], float] = delay or (lambda: 0.0)

    def start(self) -> list[ev.Event]:
        events = self.game.start()
        self._handle(events)
        return events

    def apply(self, action: Action, *,
              accepted: Callable[[Action], None] | None = None) -> list[ev.Event]:
        """Apply ``action`` and act on its events; once the engine has taken it (and before it
        acts), the action is journaled and ``accepted`` is called."""

        def take(taken: Action) -> None:
            if self.journal is not None:
                self.journal.write(Input(ACTION, self.now(), {"action": str(taken)}))
            if accepted is not None:
                accepted(taken)

        events = self.game.apply(action, accepted=take)
        self._handle(events)
        for listener in self.action_listeners:
            listener()
        return events

    def undo(self) -> Action:
        """Take back the last input (a host's override); the current timer restarts in full."""
        if self.journal is not None and self.game.history:
            self.journal.write(Input(UNDO, self.now()))
        action = self.game.pop()
        self.resume()
        for listener in self.action_listeners:
            listener()
        return action

    def resume(self, left: float | None = None) -> None:
        """After rebuilding the game from a journal (or an undo): run its current timer again,
        in full, or with ``left`` seconds to go (a killed game continues where it was)."""
        timer = self.game.expect.timer
        if timer is not None:
            elapsed = 0.0 if left is None else min(timer.seconds, max(0.0, timer.seconds - left))
            self._start_timer(timer, elapsed)
        else:
            self._cancel_timer()

    def take_back(self, count: int) -> list[Action]:
        """Undo the last ``count`` inputs (one host entry may be several actions), each
        journaled; the timers are left alone — the caller restores them (:meth:`resume`)."""
        taken: list[Action] = []
        for _ in range(count):
            if not self.game.history:
                break
            if self.journal is not None:
                self.journal.write(Input(UNDO, self.now()))
            taken.append(self.game.pop())
        return taken

    def hold(self) -> None:
        """Keep the current step open past its timer's end until :meth:`release` (a vote
        waits for the host's count, the hunt for the mafia's target); the count and the
        warning are still said at their time."""
        self.end_step_at(None)
        self.held = True

    def release(self) -> None:
        """End a held step at its timer's end, or now if that has passed."""
        timer = self.timer
        if timer is None:
            return
        end = self.timer_started + timer.seconds
        self.held = False
        if end <= self.now():
            self.scheduler.cancel("timer")
            self._time_up(timer.name)  # a late answer: the step ends now
        else:
            self.end_step_at(end)

    def end_step_at(self, when: float | None) -> None:
        """End the step the game waits at at ``when`` instead of at its timer's end: later,
        when a front end gives the presses already on their way a moment (the console's
        voting window takes a hand sent before «Спасибо»), or at no moment (None) until an
        input ends it (the console's deal waits for every card). Only the end moves: the count
        and the warning are still said at their time, and the step's next timer — a new step,
        or this one run again by a resume or an undo — ends at its own end again. Unlike
        :meth:`hold` it marks nothing held: that is the human host's, which undo and a pause
        keep."""
        self.scheduler.cancel("timer")
        timer = self.timer
        if when is not None and timer is not None:
            name, serial = timer.name, self.game.expect.serial

            def time_up() -> None:
                if self.game.expect.serial == serial:  # (the step has not ended otherwise)
                    self._time_up(name)

            self.scheduler.call_at(when, "timer", time_up)
        for listener in self.end_listeners:
            listener()

    @property
    def timer_runs(self) -> bool:
        """The running timer ends its step at a moment (False: no timer, a pause, or a step
        that waits for inputs — the deal waiting for every card, a window held for the
        count)."""
        return self.timer is not None and self.scheduler.has("timer")

    @property
    def paused(self) -> bool:
        """The game stands still (:meth:`pause`)."""
        return bool(self.pauses)

    @property
    def pause_reason(self) -> str | None:
        """Why the game stands still, in one line (None: it does not)."""
        return "; ".join(self.pauses.values()) or None

    def pause(self, cause: str = "sound", why: str = "the sound is gone") -> None:
        """Stop the game's clock for ``cause`` (the sound card is gone: nobody would hear the
        narrator; the journal cannot be written: nothing could be taken up again): the running
        timer keeps the time it has left, and nothing is due until every cause is gone."""
        first = not self.pauses
        self.pauses[cause] = why
        if not first:
            return
        self._paused = (self.time_left, self.held)
        self._cancel_timer()

    def unpause(self, cause: str = "sound") -> None:
        """Go on after :meth:`pause` once no cause is left: the timer with the time it had
        left (a timer mark is journaled, so a resume after this knows it too)."""
        if cause not in self.pauses:
            return
        del self.pauses[cause]
        if self.pauses:
            return
        left, held = self._paused
        self.resume(left)
        if held:
            self.hold()

    def now(self) -> float:
        """The game's time (the scheduler's)."""
        return self.scheduler.now()

    def say(self, line: Line) -> None:
        """Say ``line`` now, in the ruleset's wording — but a prompt, which is a front end's
        word and not the game's, as it is (vrn drops the numbers of its ballot, not those of
        «Ждём карты игроков номер три и номер семь»)."""
        for said in [line] if line.prompt else reworded([line], self.game.rules.lines):
            self._say(said, self.now())

    @property
    def time_left(self) -> float | None:
        """Seconds left on the running engine timer."""
        if self.timer is None:
            return None
        return max(0.0, self.timer_started + self.timer.seconds - self.now())

    def _handle(self, events: list[ev.Event]) -> None:
        now = self.now()
        for event in events:
            for line in lines_for(event, self.game.rules.lines):
                self._say(line, now)
            if isinstance(event, ev.TimerStarted):
                self._start_timer(event.timer)
            elif isinstance(event, ev.GameOver):
                self._cancel_timer()
            for listener in self.listeners:
                listener(event, now)

    def _say(self, line: Line, at: float) -> None:
        self.said += 1
        self.voice.say(line, at)
        for listener in self.line_listeners:
            listener(line)

    def _cancel_timer(self) -> None:
        for key in _TIMER_KEYS:
            self.scheduler.cancel(key)
        self.timer = None
        self.held = False

    def _start_timer(self, timer: Timer, elapsed: float = 0.0) -> None:
        """Run ``timer``; ``elapsed`` seconds of it have already gone (a resumed game): what was
        due in them (a warning, numbers of the count) is not said again."""
        self._cancel_timer()
        now = self.now() + (self._delay() if not elapsed else 0.0)
        start = now - elapsed
        self.timer, self.timer_started = timer, start
        if self.journal is not None:  # for a resume to continue it with the time it had left
            self.journal.write(Input(TIMER, now, {"name": timer.name, "started": start}))
        name = timer.name
        self.scheduler.call_at(start + timer.seconds, "timer", lambda: self._time_up(name))
        if timer.warning_at is not None and timer.warning_at >= elapsed:
            self.scheduler.call_at(start + timer.warning_at, "timer-warning",
                                   lambda: self.say(TEN_SECONDS))
        if timer.tick:
            for k in range(round(timer.seconds / timer.tick)):
                if k * timer.tick < elapsed:
                    continue
                line = count_line(k + 1)
                self.scheduler.call_at(start + k * timer.tick, "timer-tick",
                                       lambda line=line: self.say(line))  # type: ignore[misc]
        for listener in self.timer_listeners:
            listener(timer)

    def _time_up(self, name: str) -> None:
        self.timer = None
        self.apply(TimeUp(name))
