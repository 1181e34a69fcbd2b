"""The hostless table: a game run by what the microphone hears, on the stream's timeline.

One thread does everything, in the order of the audio stream, so that a recorded session
replays to the same protocol. For each chunk it pulls from the source, the loop brings the game
to the chunk's start (timers run at their deadlines; the end of a night step or a vote is held
until the operator answers it), takes the operator's entries, and feeds the chunk — during a
speech, through the echo gate; else silence — to the recognizer (constrained to the grammar,
reset at each speech). A decision of the decider is applied at the stream time it was taken,
its intents read once. Live the clock is the monotonic one that also stamps the microphone's
chunks; in replay a virtual one. What the audio cannot give back (entries, announcement delays,
gated chunks) goes to the session as input events, with each phrase heard and action taken.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from narrator.audio.decider import Decision
from narrator.audio.format import AudioChunk
from narrator.audio.listener import Gate, OpenGate, silenced
from narrator.audio.recognizer import Recognizer
from narrator.audio.session import SessionRecorder
from narrator.audio.sources import AudioSource
from narrator.audio.vosk_recognizer import TABLE_CHUNK_MS
from narrator.clock import Clock
from narrator.engine import Action, Game, Malformed
from narrator.engine import events as ev
from narrator.engine.entries import OPERATOR_STEPS, describe, prompt_for
from narrator.engine.options import options_of
from narrator.engine.rules import settings_of
from narrator.errors import NarratorError
from narrator.grammar import Intent
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver, InputSource
from narrator.host.hearing import Hearing
from narrator.host.intake import heard_actions, read_input
from narrator.host.recorder import Fanout, InputLog
from narrator.host.speaker import Narration
from narrator.host.transcript import seat_label
from narrator.inputs import DELAY, ENTRY, GATED, TABLE, Input, heard
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
    operator's answer (the terminal; the console's pads do not hold them)."""

    def __init__(self, game: Game, *, clock: Clock, source: AudioSource,
                 recognizer: Recognizer, hearing: Hearing, operator: Operator,
                 manifest: Manifest, entries: InputSource | None = None,
                 narration: Narration | None = None, journal: InputLog | None = None,
                 timer_delay: Callable[[], float] | None = None, echo: Gate | None = None,
                 session: SessionRecorder | None = None, recorder: InputLog | None = None,
                 log: Callable[[str], None] | None = None, assist: bool = False,
                 lang: str = "ru", chunk_ms: int = DEFAULT_CHUNK_MS,
                 operator_steps: bool = True) -> None:
        self.game = game
        self.source = source
        self.recognizer = recognizer
        self.hearing = hearing
        self.operator = operator
        self.echo = echo if echo is not None else OpenGate()
        self.session = session
        self.recorder = recorder
        self.lang = lang
        self.chunk_ms = chunk_ms
        self.assist = assist
        self.log: Callable[[str], None] = log or (lambda text: None)
        self.journal = journal
        logs = [x for x in (journal, recorder) if x is not None]
        self.parts = assemble_host(game, clock, manifest=manifest, narration=narration,
                                   journal=Fanout(*logs) if logs else None)
        self.host, self.transcript = self.parts.host, self.parts.transcript
        self.host.listeners.append(self._on_event)
        self._delay_source = timer_delay or self.host.timer_delay
        self.host.timer_delay = self._timer_delay
        # the terminal operator answers each night step and vote (the game waits for it);
        # with the console's pads each step ends with its timer, as at a real table
        self.driver = Driver(self.host.scheduler, self._intake, source=entries,
                             hold=self._hold if operator_steps else None,
                             on_error=operator.error)
        self.decider = hearing.decider()
        self.started = self.driver.now()
        self.quit = False
        self.listening = False
        self.heard: list[Heard] = []
        self._speech_id = 0
        self._listening_id = 0
        self._speaker: int | None = None
        self._grammar_set = False
        # steps by the game's serial (``Game.step``): the operator's last one prompted, and
        # the last one the operator answered
        self._prompted: int | None = None
        self._answered: int | None = None
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

    def _record(self, event: Input) -> None:
        if self.recorder is not None:
            self.recorder.write(event)

    # -- the host's hooks --------------------------------------------------------------------

    def _timer_delay(self) -> float:
        delay = float(self._delay_source())
        self._record(Input(DELAY, self.driver.now(), {"seconds": delay}))
        return delay

    def _on_event(self, event: ev.Event, at: float) -> None:
        if isinstance(event, ev.SpeechStarted):
            self._speech_id += 1
            self._speaker = event.seat
            self.log(f"{self._stamp()}  {self._seat(event.seat)}: {event.kind} speech")
        elif isinstance(event, ev.Refused):
            who = self._seat(event.seat) if event.seat is not None else "input"
            target = "" if event.target is None else f" {event.target}"
            text = f"{who} {event.kind}{target}: refused ({event.reason}), ignored"
            self.log(f"!! REFUSED {text}" if self.assist else f"{self._stamp()}  {text}")
        elif isinstance(event, ev.GameOver):
            self.log(f"{self._stamp()}  game over: {event.winner} won")
        self._after()

    def _checker_gone(self) -> bool:
        """A check (or another night act) whose role has left the table: its time runs out
        with no question. A checker shot in tonight's hunt is still at the table and checks
        (2.1.2: nobody knows the result until day) — the engine's ``actor_alive`` says so,
        as it does for assist and the pads."""
        exp = self.game.expect
        if exp.kind not in ("act", "check"):
            return False
        return not self.game.actor_alive(exp.role or "")

    def _after(self) -> None:
        """After the state changed: tell the operator about a new step of theirs."""
        exp = self.game.expect
        if exp.kind in OPERATOR_STEPS and self.game.step != self._prompted:
            self._prompted = self.game.step
            if self._checker_gone():
                self._answered = self.game.step
                return
            text = prompt_for(exp, self.game)
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
            self._prompted = self._answered = self.game.step

    def _apply(self, action: Action) -> bool:
        try:
            self.host.apply(action)
        except NarratorError as e:
            self.operator.error(str(e))
            self.log(f"{self._stamp()}  not taken: {e}")
            return False
        return True

    # -- the operator ------------------------------------------------------------------------

    def _intake(self, event: Input) -> None:
        """An operator's input, taken at the game's time (the driver stamps it)."""
        self._record(event)
        reading = read_input(event, self.game)  # a NarratorError goes to operator.error
        if reading.quit:
            self.log(f"{self._stamp()}  operator: stop")
            self.quit = True
            self.driver.stop()
            return
        step = self._prompted
        if self.journal is not None and event.type == ENTRY and (reading.actions or reading.done):
            # the entry itself, before its actions: a kill between two of them loses none
            self.journal.write(event)
        ok = all([self._apply(a) for a in reading.actions])
        if reading.actions:
            self.log(f"{self._stamp()}  operator: {describe(reading.actions)}")
        if reading.done and ok:
            self._answered = step

    def _hold(self, deadline: float) -> bool:
        """The game must wait at ``deadline`` for the operator's answer to the current step."""
        exp = self.game.expect
        timer = self.host.timer
        if exp.kind not in OPERATOR_STEPS or timer is None or timer is not exp.timer:
            return False
        if self._answered == self.game.step:
            return False
        return deadline >= self.host.timer_started + timer.seconds - 1e-9

    # -- listening ---------------------------------------------------------------------------

    def _listen(self, chunk: AudioChunk) -> AudioChunk:
        """What the recognizer hears of ``chunk``: silence outside speeches and where the echo
        gate is closed (noted); a new speech resets the recognizer and the decider."""
        # a speaker is heard from the moment their time starts (after «Слово игроку …»), so
        # the end of the previous speaker's phrase never counts for the next one
        self.listening = (not self.finished and self.game.expect.kind == "speech"
                          and chunk.timestamp >= self.host.timer_started - 1e-9)
        if not self.listening:
            return silenced(chunk)
        if self._listening_id != self._speech_id:
            if not self._grammar_set:
                self.recognizer.set_grammar(list(self.hearing.phrases))
                self._grammar_set = True
            else:
                self.recognizer.reset()
            self.decider.reset()
            self._listening_id = self._speech_id
        if self.echo.is_open_span(chunk.timestamp, chunk.end):
            return chunk
        self._record(Input(GATED, chunk.timestamp, {"end": chunk.end}))
        return silenced(chunk)

    def _decided(self, decision: Decision[list[Intent]]) -> None:
        self.driver.run_until(decision.t)
        if self.finished:
            return
        now = self.driver.now()
        in_speech = (self.game.expect.kind == "speech" and self._speech_id == self._listening_id)
        said = Heard(now, self._speaker, decision.text, early=decision.early, late=not in_speech)
        self.heard.append(said)
        self._record(heard(now, decision.text, early=decision.early, revised=decision.revised))
        if not in_speech:
            self.log(f"{self._stamp()}  heard after the speech, ignored: «{decision.text}»")
            return
        intents = decision.meaning or []
        if decision.revised:  # what the early decision took stays taken
            done = decision.earlier or []
            if intents[: len(done)] != done:
                self.log(f"{self._stamp()}  the end of the phrase changed it: "
                         f"«{decision.text}»; only what follows is taken")
            intents = intents[len(done):]
        speech = self._speech_id
        for action in heard_actions(intents):
            if self.finished or self._speech_id != speech:
                break
            said.actions.append(str(action))
            if isinstance(action, Malformed):
                what = f"{self._seat(self._speaker)}: «{decision.text}» refused ({action.reason})"
                self.log(f"!! {what}" if self.assist else f"{self._stamp()}  {what}")
            else:
                self.log(f"{self._stamp()}  {self._seat(self._speaker)}: «{decision.text}» → {action}")
            self._apply(action)

    def _seat(self, seat: int | None) -> str:
        """``seat 4``, or ``seat 4 (Ника)`` with a nickname."""
        return seat_label(seat, self.game.names) if seat is not None else "seat ?"

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        self.started = self.driver.now()
        table = {
            "rules": self.game.rules.name, "seats": self.game.seats, "lang": self.lang,
            "chunk_ms": self.chunk_ms,
            "roles": {str(s): r.value for s, r in sorted(self.game.roles.items())},
            "settings": settings_of(self.game.rules), "options": options_of(self.game.rules),
            "names": {str(s): n for s, n in sorted(self.game.names.items())},
            "history": [str(a) for a in self.game.history]}
        if self.game.dealt:  # besides the cards (the maniac's side)
            table["dealt"] = dict(self.game.dealt)
        self._record(Input(TABLE, self.started, table))
        if self.game.started:  # resumed from a journal: the current step, its time left
            self._speech_id += 1
            self._speaker = self.game.expect.seat
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
                if self.session is not None:
                    self.session.write_audio(chunk)
                self.driver.run_until(chunk.timestamp)
                self.driver.take()
                if self.finished:
                    break
                for event in self.recognizer.feed(self._listen(chunk)):
                    decision = self.decider.observe(event)
                    if decision is not None:
                        self._decided(decision)
                    if self.finished:
                        break
                if self.finished:
                    break
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
            self.source.close()
        if self.session is not None:  # the game's end, or where it stopped
            self.session.write_protocol(self.protocol())
        return self
