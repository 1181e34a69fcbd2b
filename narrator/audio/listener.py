"""The listening loop: source → echo gate → recognizer → events (and early decisions).

While the narrator speaks, the microphone hears the speaker. That audio must not reach the
recognizer, or the narrator would nominate players with its own voice. The player closes the
:class:`EchoGate` for the span of each clip (plus a tail for the room's echo); the listener
replaces gated audio with silence of the same length rather than dropping it, so the stream
timeline and Vosk's own clock stay in step and an utterance cut by the narrator still ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from narrator.audio.decider import Decision, StableDecider
from narrator.audio.format import AudioChunk
from narrator.audio.recognizer import RecognitionEvent, Recognizer
from narrator.audio.sources import AudioSource


class Gate(Protocol):
    """What the listener asks: may audio at stream time ``t`` be heard?"""

    def is_open(self, t: float) -> bool: ...

    def is_open_span(self, start: float, end: float) -> bool: ...


class EchoGate:
    """Closed spans of the stream timeline during which the narrator is speaking.

    Thread-safe: the player closes it from its own thread. ``tail`` seconds are added after
    each span for reverberation and the output latency. ``on_close(start, end)`` is called for
    every span, tail included (a session recorder logs them so a replay gates the same audio).
    """

    def __init__(self, *, tail: float = 0.15,
                 on_close: Callable[[float, float], None] | None = None) -> None:
        self.tail = tail
        self.on_close = on_close
        self._spans: list[tuple[float, float]] = []
        self._lock = threading.Lock()

    def close(self, start: float, end: float) -> None:
        """Gate the span [start, end + tail) of the stream timeline."""
        span = (start, end + self.tail)
        with self._lock:
            self._spans.append(span)
            # Keep the list short: only spans that can still matter are needed, but since
            # chunks may lag behind the player, drop only those far in the past.
            if len(self._spans) > 256:
                self._spans = self._spans[-128:]
        if self.on_close is not None:
            self.on_close(*span)

    def close_until(self, t: float) -> None:
        """Gate everything up to ``t`` (+ tail): the narrator speaks until then."""
        self.close(float("-inf"), t)

    def is_open(self, t: float) -> bool:
        """True when no closed span covers stream time ``t``."""
        return self.is_open_span(t, t)

    def is_open_span(self, start: float, end: float) -> bool:
        """True when no closed span overlaps [start, end]."""
        with self._lock:
            return not any(s <= end and start < e for s, e in self._spans)


class OpenGate:
    """A gate that never closes (no speaker, or a replay of already-gated audio)."""

    def is_open(self, t: float) -> bool:
        """Always True."""
        return True

    def is_open_span(self, start: float, end: float) -> bool:
        """Always True."""
        return True


def silenced(chunk: AudioChunk) -> AudioChunk:
    """Silence in place of ``chunk``: same length, same place on the timeline."""
    return AudioChunk(b"\0" * len(chunk.audio), chunk.format, chunk.timestamp)


class Listener:
    """Feeds a source through a gate into a recognizer and yields its events (tests, the
    benchmark, tools; the hostless table pulls its chunks itself, in the same order).

    ``decider``, when given, turns events into :class:`Decision` objects (``decisions()``).
    """

    def __init__(self, source: AudioSource, recognizer: Recognizer, gate: Gate | None = None,
                 *, decider: StableDecider[Any] | None = None) -> None:
        self.source = source
        self.recognizer = recognizer
        self.gate: Gate = gate if gate is not None else OpenGate()
        self.decider = decider
        self.gated_seconds = 0.0
        self._stopped = False

    def _gated(self, chunk: AudioChunk) -> AudioChunk:
        if self.gate.is_open_span(chunk.timestamp, chunk.end):
            return chunk
        self.gated_seconds += chunk.duration
        return silenced(chunk)

    def events(self, *, flush: bool = True) -> Iterator[RecognitionEvent]:
        """Every recognition event, in order, until the source ends or ``stop()``.

        At the end of the source the utterance in progress is flushed as a Final.
        """
        for chunk in self.source.chunks():
            yield from self.recognizer.feed(self._gated(chunk))
            if self._stopped:
                break
        if flush:
            yield from self.recognizer.flush()

    def decisions(self) -> Iterator[tuple[RecognitionEvent, Decision[Any] | None]]:
        """Each event with the decider's verdict on it (None when no decision is due)."""
        if self.decider is None:
            raise ValueError("Listener.decisions() needs a decider")
        for event in self.events():
            yield event, self.decider.observe(event)

    def stop(self) -> None:
        """Stop after the current chunk and close the source."""
        self._stopped = True
        self.source.close()
