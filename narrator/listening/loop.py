"""The hostless table's loop: a game run by what the microphone hears, on the stream's timeline.

One thread does everything, in the order of the audio stream, so that a recorded session
replays to the same protocol. For each chunk it pulls from the source, the loop brings the game
to the chunk's start (timers run at their deadlines; a step that waits for the operator's answer
is held until it comes — the desk says which), takes the operator's entries, and hands the chunk
to the ears (:class:`~narrator.listening.ears.Ears`) with the serial of the speech that may be
heard in it. A decision is applied at the stream time it was taken, its intents read once. Live
the clock is the monotonic one that also stamps the microphone's chunks; in replay a virtual
one. What the audio cannot give back goes to the session tap
(:class:`~narrator.listening.tap.SessionTap`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from narrator.audio.decider import Decision
from narrator.audio.format import AudioChunk
from narrator.audio.listener import Gate
from narrator.audio.recognizer import Recognizer
from narrator.audio.session import SessionRecorder
from narrator.audio.sources import AudioSource
from narrator.audio.vosk_recognizer import TABLE_CHUNK_MS
from narrator.clock import Clock
from narrator.engine import Action, Game, Malformed, Team
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.entries import prompt_for
from narrator.errors import NarratorError
from narrator.grammar import Intent
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver, InputSource
from narrator.host.hearing import Hearing
from narrator.host.intake import as_heard, heard_actions, read_input
from narrator.host.recorder import Fanout, InputLog
from narrator.host.speaker import Narration
from narrator.host.texts import action_words, reason, refused_kind, tx, word
from narrator.host.texts import seat as seat_words
from narrator.inputs import DELAY, ENTRY, GATED, Input, heard
from narrator.listening.ears import Ears
from narrator.listening.tap import SessionTap
from narrator.voice.manifest import Manifest

DEFAULT_CHUNK_MS = TABLE_CHUNK_MS  # a timer fires at most one chunk after its mark


@dataclass
class Heard:
    """One decision taken on speech, for the log and the tests."""

    t: float
    seat: int | None
    text: str
    actions: list[str] = field(default_factory=list)
    early: bool = False
    late: bool = False  # heard after the speech had ended: ignored


class Operator(Protocol):
    """The operator's terminal: told each new step of theirs, and each input not taken."""

    def prompt(self, text: str) -> None: ...

    def error(self, text: str) -> None: ...


class ListeningLoop:
    """One hostless game on injected collaborators. The operator's entries are handed in with
    :meth:`submit` (the terminal's thread, the console) or come from ``entries`` (a recording, a
    test); ``narration``: the narrator's voice (the host is put together by
    :func:`~narrator.host.assembly.assemble_host`); ``timer_delay``: how long the narrator will
    still speak (by default the narration's queue; a replay gives the recorded delays);
    ``session``: the recorded audio and protocol; ``recorder``: where the input events go;
    ``log``: the terminal; ``operator_steps``: the night steps and the votes wait for the
    operator's answer (the terminal; the console's pads do not hold them); ``driver``: one to
    attach to (an evening's, lent by its table session) instead of one of its own."""

    def __init__(self, game: Game, *, clock: Clock, source: AudioSource,
                 recognizer: Recognizer, hearing: Hearing, operator: Operator,
                 manifest: Manifest, entries: InputSource | None = None,
                 narration: Narration | None = None, journal: InputLog | None = None,
                 timer_delay: Callable[[], float] | None = None, echo: Gate | None = None,
                 session: SessionRecorder | None = None, recorder: InputLog | None = None,
                 log: Callable[[str], None] | None = None, assist: bool = False,
                 lang: str = "ru", chunk_ms: int = DEFAULT_CHUNK_MS,
                 operator_steps: bool = True, driver: Driver | None = None) -> None:
        self.game = game
        self.source = source
        self.operator = operator
        self.ears = Ears(recognizer, hearing, echo=echo, gated=self._gated)
        self.tap = SessionTap(session, recorder)
        self.lang = lang
        self.chunk_ms = chunk_ms
        self.assist = assist
        self.log: Callable[[str], None] = log or (lambda text: None)
        self.journal = journal
        logs = [x for x in (journal, recorder) if x is not None]
        # every delay the host waits for the narrator is recorded, for a replay to give back
        self._delay_source: Callable[[], float] = (
            timer_delay or (narration.delay if narration is not None else (lambda: 0.0)))
        self.parts = assemble_host(game, clock, manifest=manifest, narration=narration,
                                   journal=Fanout(*logs) if logs else None,
                                   delay=self._timer_delay)
        self.host, self.transcript = self.parts.host, self.parts.transcript
        #: who is asked, and whether the operator answered (the host's)
        self.desk = self.host.desk
        self.host.listeners.append(self._on_event)
        # the terminal operator answers each night step and vote (the game waits for it);
        # with the console's pads each step ends with its timer, as at a real table
        hold = self._hold if operator_steps else None
        if driver is None:
            driver = Driver(self.host.scheduler, self._intake, source=entries, hold=hold,
                            on_error=self._operator_error)
        else:  # an evening's, which runs the console between games too
            driver.attach(self.host.scheduler, self._intake, source=entries, hold=hold,
                          on_error=self._operator_error)
        self.driver = driver
        self.narration = narration
        self.started = self.driver.now()
        self.quit = False
        self.heard: list[Heard] = []
        self._speaker: int | None = None
        #: the speech the ears last listened to, and its speaker: a phrase decided after it
        #: ended belongs to them, not to whoever speaks now
        self._heard_speech: tuple[int, int | None] | None = None
        #: the serial of the operator's last step prompted (each is prompted once)
        self._prompted: int | None = None
        #: a resumed game: seconds its running timer had left (None: the timer in full)
        self.resume_left: float | None = None
        #: a resumed game: the operator's last entry in its journal, and how many actions the
        #: game had taken before it (see :meth:`_take_up`)
        self.resume_entry: tuple[int, Input] | None = None

    # -- state -----------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.quit or self.game.is_over or self.driver.stopping

    def submit(self, event: Input) -> None:
        """Hand in an operator's input (thread-safe): an ``entry`` or a ``stop``."""
        self.driver.submit(event)

    def protocol(self) -> dict[str, Any]:
        """The protocol (docs/protocol.md): the engine's, plus every phrase spoken."""
        return self.parts.protocol()

    def _stamp(self) -> str:
        minutes, seconds = divmod(self.driver.now() - self.started, 60.0)
        return f"{int(minutes):3d}:{seconds:04.1f}"

    @property
    def listening(self) -> bool:
        """The last chunk went to the recognizer (a speech was on)."""
        return self.ears.listening

    def _record(self, event: Input) -> None:
        self.tap.record(event)

    def _gated(self, start: float, end: float) -> None:
        self._record(Input(GATED, start, {"end": end}))

    # -- the host's hooks --------------------------------------------------------------------

    def _timer_delay(self) -> float:
        delay = float(self._delay_source())
        self._record(Input(DELAY, self.driver.now(), {"seconds": delay}))
        return delay

    def _on_event(self, event: ev.Event, at: float) -> None:
        if isinstance(event, ev.SpeechStarted):
            self._speaker = event.seat
            self._line("t_speech", who=self._seat(event.seat),
                       kind=word("speech", event.kind, self.lang))
        elif isinstance(event, ev.Refused):
            who = self._seat(event.seat) if event.seat is not None else tx("t_input", self.lang)
            target = "" if event.target is None else f" {event.target}"
            text = tx("t_refused", self.lang, who=who, kind=refused_kind(event.kind, self.lang),
                      target=target, reason=reason(event.reason, self.lang))
            self.log(f"!! {text}" if self.assist else f"{self._stamp()}  {text}")
        elif isinstance(event, ev.GameOver):
            if event.winner is Team.DRAW:
                self._line("t_over_draw")
            else:
                self._line("t_over_won", side=word("team", event.winner, self.lang))
        self._after()

    def _after(self) -> None:
        """After the state changed: tell the operator about a new step of theirs."""
        exp = self.game.expect
        if self.desk.awaits_human and self.game.step != self._prompted:
            self._prompted = self.game.step
            text = prompt_for(exp, self.game, self.lang)
            if text is not None:
                self.operator.prompt(text)

    def _take_up(self) -> None:
        """A resumed game: the operator's last entry is finished as it was typed. Its actions
        the journal lacks (the process died between two of them: «3:7 5:7») are applied, and
        a step it answered is not asked again — the operator need not know what was taken."""
        if self.resume_entry is None:
            return
        at, event = self.resume_entry
        history = self.game.history
        then = self.game.table_copy()
        then.start()
        for action in history[:at]:
            then.apply(action)
        try:
            reading = read_input(event, then)
        except NarratorError:
            return
        taken = [str(a) for a in history[at:]]
        wanted = list(reading.actions)
        if taken != [str(a) for a in wanted[: len(taken)]]:
            return  # the game went on after it
        for action in wanted[len(taken):]:
            if not self._apply(action):
                return
        if reading.done and self.game.step == then.step:
            self._prompted = self.game.step
            self.desk.answered()

    def _apply(self, action: Action) -> bool:
        try:
            self.host.apply(action)
        except NarratorError as e:
            self.operator.error(e.words(self.lang))
            self._line("t_not_taken", what=e.words(self.lang))
            return False
        return True

    # -- the operator ------------------------------------------------------------------------

    def _intake(self, event: Input) -> None:
        """An operator's input, taken at the game's time (the driver stamps it)."""
        self._record(event)
        reading = read_input(event, self.game)  # a NarratorError goes to operator.error
        if reading.quit:
            self._line("t_operator", what=tx("t_stop", self.lang))
            self.quit = True
            self.driver.stop()
            return
        step = self._prompted
        if self.journal is not None and event.type == ENTRY and (reading.actions or reading.done):
            # the entry itself, before its actions: a kill between two of them loses none
            self.journal.write(event)
        ok = all([self._apply(a) for a in reading.actions])
        if reading.actions:
            self._line("t_operator", what=self._actions(reading.actions))
        if reading.done and ok and step is not None:
            self.desk.answered(step)

    def _hold(self, deadline: float) -> bool:
        """The game must wait at ``deadline`` for the operator's answer to the current step."""
        exp = self.game.expect
        timer = self.host.timer
        if not self.desk.awaits_human or timer is None or timer != exp.timer:
            return False
        return deadline >= self.host.timer_started + timer.seconds - 1e-9

    # -- listening ---------------------------------------------------------------------------

    def _speech_heard(self, chunk: AudioChunk) -> int | None:
        """The serial of the speech whose speaker may be heard in ``chunk`` (None: none). A
        speaker is heard from the moment their time starts (after «Слово игроку …»), so the
        end of the previous speaker's phrase never counts for the next one."""
        exp = self.game.expect
        if self.finished or not isinstance(exp, w.Speech):
            return None
        if chunk.timestamp < self.host.timer_started - 1e-9:
            return None
        self._heard_speech = (self.game.step, exp.seat)
        return self.game.step

    def _decided(self, decision: Decision[list[Intent]]) -> None:
        self.driver.run_until(decision.t)
        if self.finished:
            return
        now = self.driver.now()
        in_speech = isinstance(self.game.expect, w.Speech) and self.ears.speech == self.game.step
        heard_speech = self._heard_speech
        # the speaker of the speech the phrase was heard in (the next one may have begun)
        seat = (heard_speech[1] if heard_speech is not None and heard_speech[0] == self.ears.speech
                else self._speaker)
        said = Heard(now, seat, decision.text, early=decision.early, late=not in_speech)
        self.heard.append(said)
        self._record(heard(now, decision.text, early=decision.early, revised=decision.revised))
        if not in_speech:
            self._line("t_late", text=decision.text)
            return
        intents = decision.meaning or []
        if decision.revised:  # what the early decision took stays taken
            done = decision.earlier or []
            if intents[: len(done)] != done:
                self._line("t_revised", text=decision.text)
            intents = intents[len(done):]
        speech = self.game.step
        for action in heard_actions(intents):
            if self.finished or self.game.step != speech:
                break
            action = as_heard(action, self.game)
            said.actions.append(str(action))
            if isinstance(action, Malformed):
                what = tx("t_heard_refused", self.lang, who=self._seat(self._speaker),
                          text=decision.text, reason=reason(action.reason, self.lang))
                self.log(f"!! {what}" if self.assist else f"{self._stamp()}  {what}")
            else:
                self._line("t_heard", who=self._seat(self._speaker), text=decision.text,
                           action=action_words(action, self.lang))
            self._apply(action)

    def _seat(self, seat: int | None) -> str:
        """``игрок 4``, or ``игрок 4 (Ника)`` with a nickname."""
        return seat_words(seat, self.game.names, self.lang)

    def _operator_error(self, error: NarratorError) -> None:
        """An input that means nothing now, told to the operator in the table's words."""
        self.operator.error(error.words(self.lang))

    def _line(self, key: str, **fields: object) -> None:
        """A line of the terminal's log, stamped, in the table's language."""
        self.log(f"{self._stamp()}  {tx(key, self.lang, **fields)}")

    def _actions(self, actions: Sequence[Action]) -> str:
        """The operator's actions as the log says them (a night's shots and checks included:
        the operator typed them at this terminal)."""
        return ", ".join(action_words(a, self.lang) for a in actions) or tx("t_nothing",
                                                                            self.lang)

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        """The table line to the session, then the game: begun, or resumed from a journal at
        its current step with the time its timer had left."""
        self.started = self.driver.now()
        self.transcript.origin = self.started  # its times count from the game's start
        self.tap.table(self.game, self.started, lang=self.lang, chunk_ms=self.chunk_ms)
        if self.game.started:
            exp = self.game.expect
            self._speaker = exp.seat if isinstance(exp, w.Speech) else None
            self.host.resume(self.resume_left)
            self._take_up()
        else:
            self.host.start()
        self._after()

    def run(self) -> ListeningLoop:
        """Play until the game is over, the operator stops it or the audio ends."""
        self.start()
        chunks = self.source.chunks()
        try:
            for chunk in chunks:
                self.tap.audio(chunk)
                self.driver.run_until(chunk.timestamp)  # the timers, the operator's entries
                self.driver.take()
                if self.finished:
                    break
                for decision in self.ears.hear(chunk, self._speech_heard(chunk)):
                    self._decided(decision)
                    if self.finished:
                        break
                if self.finished:
                    break
                # what falls due within the chunk runs now, once it has been heard: the chunk
                # arrived at its end, and the next one comes a chunk later (a timer's end,
                # «Десять секунд» would be a chunk late); the next chunk is heard after them,
                # as before
                self.driver.run_until(chunk.end)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
            self.source.close()
        self.tap.close(self.protocol())  # the game's end, or where it stopped
        return self
