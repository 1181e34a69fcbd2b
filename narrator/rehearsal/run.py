"""The listening test on a stream: each phrase announced, listened for, answered, recorded.

One loop, in the order of the microphone's chunks (as the hostless table's): for each phrase
the narrator says whose turn it is and reads the phrase out («Слово игроку номер четыре.
Выставляю номер пять») while the echo gate keeps its voice from the recognizer; the window
opens when it falls quiet, the reader says the phrase, and the window closes a moment after a
decision (a revision or a second phrase still counts) or when its time is up. A decision the
game answers is answered as at the table («Принято», «Снято»), the echo gate on; the night bed
plays under everything. Live the clock is the monotonic one that stamps the microphone; in
tests a virtual one, the narration rendered offline on it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from narrator.audio.clip import AudioClip
from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk
from narrator.audio.listener import EchoGate
from narrator.audio.playback import PlayedLine
from narrator.audio.recognizer import Recognizer
from narrator.audio.session import SessionRecorder
from narrator.audio.sources import AudioSource
from narrator.clock import Clock, VirtualClock
from narrator.engine import events as ev
from narrator.host.hearing import Hearing
from narrator.host.narration import lines_for
from narrator.host.speaker import Narration
from narrator.rehearsal.judge import Judge, Outcome
from narrator.rehearsal.prompts import Prompt
from narrator.rehearsal.record import ListenWriter, Window

#: what the narrator says to ask for a phrase: keys of the pack and clips
Announcement = Sequence[str | AudioClip]


@dataclass(frozen=True)
class Timing:
    """``window``: seconds a phrase is listened for at most; ``settle``: seconds more after a
    decision (a revision, a second phrase of the same reader still count)."""

    window: float = 6.0
    settle: float = 1.5


def regular(chunks: Iterator[AudioChunk], chunk_ms: int) -> Iterator[AudioChunk]:
    """The microphone's chunks on a gap-free timeline of fixed chunks, as the session's
    ``mic.wav`` will hold them and its replay read them (a lost block is silence, an overlap
    is cut): the live test hears exactly what its replay will."""
    fmt = RECOGNIZER_FORMAT
    step = fmt.bytes_per_second * chunk_ms // 1000
    frame = fmt.width * fmt.channels
    buf = b""
    start: float | None = None
    offset = 0
    for chunk in chunks:
        if start is None:
            start = chunk.timestamp
        gap = chunk.timestamp - (start + fmt.duration(offset + len(buf)))
        audio = chunk.audio
        if gap > 0.5 / fmt.rate:
            buf += b"\0" * (round(gap * fmt.rate) * frame)
        elif gap < -0.5 / fmt.rate:
            audio = audio[round(-gap * fmt.rate) * frame:]
        buf += audio
        while len(buf) >= step:
            yield AudioChunk(buf[:step], fmt, start + fmt.duration(offset))
            offset += step
            buf = buf[step:]


def echo_hooks(narration: Narration, echo: EchoGate) -> None:
    """The narrator's own voice never reaches the recognizer: the gate closes while it plays."""

    def started(line: PlayedLine) -> None:
        if line.started is not None:
            echo.close(line.started, line.started + line.duration)

    def ended(line: PlayedLine) -> None:
        if line.started is not None and line.ended is not None:
            echo.close(line.started, line.ended)

    narration.player.on_start.append(started)
    narration.player.on_end.append(ended)


class ListenRun:
    """The test of ``prompts`` on ``source``. ``narration``: the narrator's voice (None: a
    silent test, the windows open at once); ``announce(prompt)``: what it says to ask for a
    phrase; ``session``/``writer``: the recording; ``log``: the terminal."""

    def __init__(self, prompts: Sequence[Prompt], *, source: AudioSource, clock: Clock,
                 recognizer: Recognizer, hearing: Hearing, seats: int, chunk_ms: int,
                 rules: str = "crime-time", narration: Narration | None = None,
                 announce: Callable[[Prompt], Announcement] | None = None,
                 echo: EchoGate | None = None, session: SessionRecorder | None = None,
                 writer: ListenWriter | None = None, log: Callable[[str], None] | None = None,
                 timing: Timing = Timing(), music: bool = True) -> None:
        self.prompts = list(prompts)
        self.source = source
        self.clock = clock
        self.narration = narration
        self.announce = announce or (lambda p: [f"speech.{p.seat}"])
        self.echo = echo if echo is not None else EchoGate(tail=0.0)
        if narration is not None and echo is None:
            self.echo = EchoGate(tail=narration.player.echo_tail)
            echo_hooks(narration, self.echo)
        self.session = session
        self.writer = writer
        self.log = log or (lambda text: None)
        self.timing = timing
        self.music = music
        self.chunk_ms = chunk_ms
        self.judge = Judge(recognizer, hearing, seats=seats, rules=rules, echo=self.echo,
                           gated=writer.gated if writer is not None else None, said=self._answer)
        self._next = 0  # the phrase to ask for next
        self._asked = False  # it was announced; its window opens when the narrator is quiet
        self._opened: tuple[int, float] | None = None  # the open window: its chunk and time
        self._last: float | None = None  # the open window's last decision

    @property
    def listening(self) -> Prompt | None:
        """The phrase whose window is open (the tests' players read it then)."""
        return self.judge.current.prompt if self.judge.current is not None else None

    @property
    def done(self) -> bool:
        return self._next >= len(self.prompts) and self.judge.current is None

    def _now(self, t: float) -> None:
        if isinstance(self.clock, VirtualClock):
            self.clock.set(max(self.clock.now(), t))
        if self.narration is not None and not self.narration.player.live:
            self.narration.player.sync()

    def _quiet(self, chunk: AudioChunk) -> bool:
        if self.narration is None:
            return True
        return (self.narration.delay() <= 0.0 and not self.narration.player.speaking
                and self.echo.is_open_span(chunk.timestamp, chunk.end))

    def _answer(self, events: list[ev.Event]) -> None:
        """The narrator answers a decision as at the table («Принято», «Снято»)."""
        if self.narration is None:
            return
        for event in events:
            if isinstance(event, ev.Nominated | ev.Withdrawn):
                for line in lines_for(event):
                    self.narration.say(line, self.clock.now())

    def _ask(self) -> None:
        prompt = self.prompts[self._next]
        self.log(f"{prompt.n:>3}/{len(self.prompts)}  seat {prompt.seat} reads: «{prompt.text}»")
        if self.narration is not None:
            self.narration.player.say(list(self.announce(prompt)))
        self._asked = True

    def _close(self, k: int, t: float) -> Outcome:
        assert self._opened is not None
        outcome = self.judge.close(t)
        if self.writer is not None:
            self.writer.window(Window(outcome.prompt, self._opened[0], k))
        heard = f"«{outcome.heard}»" if outcome.said else "nothing heard"
        self.log(f"         {heard} → {outcome.label}: {outcome.result}")
        self._opened = self._last = None
        self._next += 1
        self._asked = False
        return outcome

    def run(self) -> list[Outcome]:
        """Ask for every phrase (or until the audio ends); the outcomes in order."""
        if self.narration is not None and self.music:
            self.narration.player.set_bed(self.narration.bed)
        chunks = regular(self.source.chunks(), self.chunk_ms)
        k, last = -1, None
        try:
            for k, chunk in enumerate(chunks):
                last = chunk
                self._now(chunk.end)
                if self.session is not None:
                    self.session.write_audio(chunk)
                if self.done:
                    break
                if not self._asked:
                    self._ask()
                if self._opened is None and self._quiet(chunk):
                    self.judge.open(self.prompts[self._next], chunk.timestamp)
                    self._opened = (k, chunk.timestamp)
                for said in self.judge.hear(chunk):
                    if said.labels:
                        self._last = said.t
                if self._opened is not None and (
                        chunk.end >= self._opened[1] + self.timing.window - 1e-9
                        or (self._last is not None
                            and chunk.end >= self._last + self.timing.settle - 1e-9)):
                    self._close(k, chunk.end)
            if self._opened is not None and last is not None:  # the audio ended in a window
                self._close(k, last.end)
        finally:
            close: Any = getattr(chunks, "close", None)
            if close is not None:
                close()
            self.source.close()
            if self.narration is not None:
                self.narration.player.set_bed(None)
        return self.judge.outcomes
