"""The hostless table's core: the game, driven by the microphone's timeline.

One thread does everything, in the order of the audio stream, so that a recorded session
replays to the same protocol:

- every captured chunk first brings the game up to the chunk's start: operator inputs are
  polled, timers whose deadline has come run (the game clock is a :class:`VirtualClock` set to
  stream times — live, the microphone's timeline is the monotonic clock, so it follows real
  time one chunk behind);
- during a speech the chunk goes through the echo gate to the recognizer (constrained to the
  grammar's phrases, reset at each speech); outside speeches the recognizer hears silence;
- a decision (early, on stable partials, or on Vosk's Final) is parsed and each intent applied
  through :func:`~narrator.host.hearing.action_for` at the stream time it was decided.

The operator is polled at fixed points (each counted: ``polls``); a night step or a voting
window does not end before the operator has answered it (the game is held at its deadline).
Whatever is not deterministic from the audio — the operator's inputs with their poll index,
how long each announcement delayed its timer, which chunks the echo gate silenced — is
written to the session; the replay (:mod:`narrator.replay.session`) reads it back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from narrator.audio.listener import Gate, Listener, OpenGate
from narrator.audio.recognizer import Decision, Recognizer
from narrator.audio.session import SessionRecorder
from narrator.audio.sources import AudioSource
from narrator.clock import VirtualClock
from narrator.engine import Action, Game, Malformed, Role
from narrator.engine import events as ev
from narrator.errors import NarratorError
from narrator.grammar import Intent
from narrator.host.entries import OPERATOR_STEPS, Operator, describe, prompt_for
from narrator.host.hearing import Hearing, action_for
from narrator.host.host import ActionLog, Host, Tee, Voice
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.voice.manifest import Manifest

DEFAULT_CHUNK_MS = 40  # a timer fires at most one chunk after its mark during a speech


@dataclass
class Heard:
    """One decision taken on speech, for the log and the tests."""

    t: float
    seat: int | None
    text: str
    actions: list[str] = field(default_factory=list)
    early: bool = False
    late: bool = False  # heard after the speech had ended: ignored


class _Tap:
    """The host's action log: the game journal and the session record."""

    def __init__(self, journal: ActionLog | None, recorder: SessionRecorder | None) -> None:
        self.journal = journal
        self.recorder = recorder

    def append(self, action: Action, at: float) -> None:
        if self.journal is not None:
            self.journal.append(action, at)
        if self.recorder is not None:
            self.recorder.record_input(at, applied=str(action))

    def append_undo(self, at: float) -> None:
        if self.journal is not None:
            self.journal.append_undo(at)


class _PhaseGate:
    """Open only during a speech, and then only where the echo gate is open."""

    def __init__(self, core: PlayCore, echo: Gate) -> None:
        self.core = core
        self.echo = echo

    def is_open(self, t: float) -> bool:
        return self.is_open_span(t, t)

    def is_open_span(self, start: float, end: float) -> bool:
        if not self.core.listening:
            return False
        if self.echo.is_open_span(start, end):
            return True
        if self.core.recorder is not None:
            self.core.recorder.record_input(start, gated=end)
        return False


class PlayCore:
    """One hostless game on injected collaborators (clock, audio, recognizer, operator, voice).

    ``clock`` is the game clock (a VirtualClock set to stream times), ``source`` the audio,
    ``recognizer`` any :class:`Recognizer` (a stub in tests), ``hearing`` the grammar,
    ``timer_delay`` how long the narrator will still speak (live: the player's queue),
    ``echo`` the echo gate, ``recorder`` a session recorder, ``log`` the operator's terminal.
    """

    def __init__(self, game: Game, *, clock: VirtualClock, source: AudioSource,
                 recognizer: Recognizer, hearing: Hearing, operator: Operator,
                 manifest: Manifest, voice: Voice | None = None,
                 journal: ActionLog | None = None,
                 timer_delay: Callable[[], float] | None = None, echo: Gate | None = None,
                 recorder: SessionRecorder | None = None,
                 log: Callable[[str], None] | None = None, assist: bool = False,
                 lang: str = "ru", chunk_ms: int = DEFAULT_CHUNK_MS) -> None:
        self.game = game
        self.clock = clock
        self.scheduler = Scheduler(clock)
        self.source = source
        self.recognizer = recognizer
        self.hearing = hearing
        self.operator = operator
        self.recorder = recorder
        self.lang = lang
        self.chunk_ms = chunk_ms
        self.assist = assist
        self.log: Callable[[str], None] = log or (lambda text: None)
        self.transcript = Transcript(manifest)
        out: Voice = self.transcript if voice is None else Tee(self.transcript, voice)
        self.host = Host(game, self.scheduler, out, _Tap(journal, recorder))
        self.host.listeners.append(self.transcript.note)
        self.host.listeners.append(self._on_event)
        self._delay_source = timer_delay or (lambda: 0.0)
        self.host.timer_delay = self._timer_delay
        self.gate = _PhaseGate(self, echo if echo is not None else OpenGate())
        self.decider = hearing.decider()
        self.listener: Listener | None = None
        self.started = clock.now()
        self.polls = 0
        self.quit = False
        self.listening = False
        self.heard: list[Heard] = []
        self._speech_id = 0
        self._listening_id = 0
        self._speaker: int | None = None
        self._grammar_set = False
        self._early: list[Intent] = []
        self._step_timer: object | None = None
        self._answered: object | None = None

    # -- state -----------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.quit or self.game.is_over

    def protocol(self) -> dict[str, Any]:
        """SPEC §5: the engine's protocol plus every phrase spoken."""
        out = self.game.protocol()
        out["said"] = list(self.transcript.said)
        return out

    def _stamp(self) -> str:
        minutes, seconds = divmod(self.clock.now() - self.started, 60.0)
        return f"{int(minutes):3d}:{seconds:04.1f}"

    # -- the host's hooks --------------------------------------------------------------------

    def _timer_delay(self) -> float:
        delay = float(self._delay_source())
        if self.recorder is not None:
            self.recorder.record_input(self.clock.now(), delay=delay)
        return delay

    def _on_event(self, event: ev.Event, at: float) -> None:
        if isinstance(event, ev.SpeechStarted):
            self._speech_id += 1
            self._speaker = event.seat
            self.log(f"{self._stamp()}  seat {event.seat}: {event.kind} speech")
        elif isinstance(event, ev.Refused):
            who = f"seat {event.seat}" if event.seat is not None else "input"
            target = "" if event.target is None else f" {event.target}"
            text = f"{who} {event.kind}{target}: refused ({event.reason}), ignored"
            self.log(f"!! REFUSED {text}" if self.assist else f"{self._stamp()}  {text}")
        elif isinstance(event, ev.GameOver):
            self.log(f"{self._stamp()}  game over: {event.winner} won")

    def _checker_gone(self) -> bool:
        """A check whose checker is out of the game: its time runs out with no question."""
        exp = self.game.expect
        if exp.kind != "check":
            return False
        seat = self.game.seat_of(Role.DON if exp.role == "don" else Role.SHERIFF)
        return seat is None or not self.game.is_alive(seat)

    def _after(self) -> None:
        """After the state changed: tell the operator about a new step of theirs."""
        exp = self.game.expect
        if exp.kind in OPERATOR_STEPS and exp.timer is not self._step_timer:
            self._step_timer = exp.timer
            if self._checker_gone():
                self._answered = exp.timer
                return
            text = prompt_for(exp, self.game)
            if text is not None:
                self.operator.prompt(text)

    def _apply(self, action: Action) -> bool:
        try:
            self.host.apply(action)
        except NarratorError as e:
            self.operator.error(str(e))
            self.log(f"{self._stamp()}  not taken: {e}")
            return False
        self._after()
        return True

    # -- operator ----------------------------------------------------------------------------

    def _poll(self, *, block: bool) -> None:
        self.polls += 1
        got = self.operator.poll(self.game, self.polls, block=block)
        if got is None:
            return
        if self.recorder is not None:
            self.recorder.record_input(self.clock.now(), poll=self.polls,
                                       actions=[str(a) for a in got.actions], done=got.done,
                                       quit=got.quit, text=got.text)
        if got.quit:
            self.log(f"{self._stamp()}  operator: stop")
            self.quit = True
            return
        step = self._step_timer
        ok = all([self._apply(a) for a in got.actions])
        if got.actions:
            self.log(f"{self._stamp()}  operator: {describe(got.actions)}")
        if got.done and ok:
            self._answered = step

    def _hold(self, deadline: float) -> bool:
        """The game must wait at ``deadline`` for the operator's answer to the current step."""
        exp = self.game.expect
        timer = self.host.timer
        if exp.kind not in OPERATOR_STEPS or timer is None or timer is not exp.timer:
            return False
        if self._answered is exp.timer:
            return False
        return deadline >= self.host.timer_started + timer.seconds - 1e-9

    def advance(self, target: float) -> None:
        """Bring the game to stream time ``target``: operator inputs, then due timers."""
        while not self.finished:
            self._poll(block=False)
            if self.finished:
                return
            deadline = self.scheduler.next_deadline()
            if deadline is None or deadline > target:
                break
            if self._hold(deadline):
                self._poll(block=True)
                continue
            if deadline > self.clock.now():
                self.clock.set(deadline)
            self.scheduler.run_due()
            self._after()
        if not self.finished and target > self.clock.now():
            self.clock.set(target)

    # -- listening ---------------------------------------------------------------------------

    def _on_chunk(self, chunk: Any) -> None:
        if self.recorder is not None:
            self.recorder.write_audio(chunk)
        self.advance(chunk.timestamp)
        # a speaker is heard from the moment their time starts (after «Слово игроку …»), so
        # the end of the previous speaker's phrase never counts for the next one
        listening = (not self.finished and self.game.expect.kind == "speech"
                     and chunk.timestamp >= self.host.timer_started - 1e-9)
        if listening and self._listening_id != self._speech_id:
            if not self._grammar_set:
                self.recognizer.set_grammar(list(self.hearing.phrases))
                self._grammar_set = True
            else:
                self.recognizer.reset()
            self.decider.reset()
            self._early = []
            self._listening_id = self._speech_id
        self.listening = listening

    def _decided(self, decision: Decision) -> None:
        self.advance(decision.t)
        if self.finished:
            return
        in_speech = (self.game.expect.kind == "speech" and self._speech_id == self._listening_id)
        heard = Heard(self.clock.now(), self._speaker, decision.text, early=decision.early,
                      late=not in_speech)
        self.heard.append(heard)
        if not in_speech:
            self.log(f"{self._stamp()}  heard after the speech, ignored: «{decision.text}»")
            return
        intents = self.hearing.parse(decision.text)
        if decision.early:
            self._early = intents
        elif decision.revised:
            done = self._early
            if intents[: len(done)] == done:
                intents = intents[len(done):]
            else:
                self.log(f"{self._stamp()}  the end of the phrase changed it: "
                         f"«{decision.text}»; only what follows is taken")
                intents = intents[len(done):]
        speech = self._speech_id
        for intent in intents:
            if self.finished or self._speech_id != speech:
                break
            action = action_for(intent)
            if action is None:
                continue
            heard.actions.append(str(action))
            if isinstance(action, Malformed):
                what = f"seat {self._speaker}: «{decision.text}» refused ({action.reason})"
                self.log(f"!! {what}" if self.assist else f"{self._stamp()}  {what}")
            else:
                self.log(f"{self._stamp()}  seat {self._speaker}: «{decision.text}» → {action}")
            self._apply(action)

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        self.started = self.clock.now()
        if self.recorder is not None:
            self.recorder.record_input(self.started, table={
                "rules": self.game.rules.name, "seats": self.game.seats, "lang": self.lang,
                "chunk_ms": self.chunk_ms,
                "roles": {str(s): r.value for s, r in sorted(self.game.roles.items())},
                "history": [str(a) for a in self.game.history]})
        if self.game.started:  # resumed from a journal: the current step's timer in full
            self._speech_id += 1
            self._speaker = self.game.expect.seat
            self.host.resume()
        else:
            self.host.start()
        self._after()

    def run(self) -> PlayCore:
        """Play until the game is over, the operator stops it or the audio ends."""
        self.start()
        self.listener = Listener(self.source, self.recognizer, self.gate,
                                 on_chunk=self._on_chunk)
        events = self.listener.events(flush=False)
        try:
            for event in events:
                decision = self.decider.observe(event)
                if decision is not None:
                    self._decided(decision)
                if self.finished:
                    self.listener.stop()
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()
        if self.recorder is not None:  # the game's end, or where it stopped
            self.recorder.write_protocol(self.protocol())
        return self
