"""Audio sources: where the recognizer's audio comes from.

Every source yields :class:`~narrator.audio.format.AudioChunk` objects in
:data:`~narrator.audio.format.RECOGNIZER_FORMAT` (16 kHz mono s16le), each stamped with where it
starts on the source's own stream timeline. A WAV file, a recorded session and the microphone all
go through exactly the same code downstream (the Wyoming pattern), so what is tested on files is
what runs at the table.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
import warnings
import wave
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk, AudioFormat
from narrator.clock import Clock
from narrator.errors import NarratorError

DEFAULT_CHUNK_MS = 100


@runtime_checkable
class AudioSource(Protocol):
    """A stream of recognizer-format chunks on one timeline."""

    @property
    def format(self) -> AudioFormat: ...

    def chunks(self) -> Iterator[AudioChunk]:
        """Yield chunks in order until the source ends or is closed."""
        ...

    def close(self) -> None:
        """Stop the stream; ``chunks()`` ends soon after."""
        ...


def _chunk_bytes(fmt: AudioFormat, chunk_ms: int) -> int:
    if chunk_ms <= 0:
        raise ValueError(f"chunk_ms must be positive, got {chunk_ms}")
    frame = fmt.width * fmt.channels
    return max(1, fmt.rate * chunk_ms // 1000) * frame


def silence(seconds: float, fmt: AudioFormat = RECOGNIZER_FORMAT) -> bytes:
    """``seconds`` of digital silence in ``fmt`` (rounded to whole frames)."""
    frames = round(seconds * fmt.rate)
    return b"\0" * (frames * fmt.width * fmt.channels)


def pad(audio: bytes, before: float = 0.0, after: float = 0.0,
        fmt: AudioFormat = RECOGNIZER_FORMAT) -> bytes:
    """``audio`` with silence added before and after (e.g. so Vosk can hear the endpoint)."""
    return silence(before, fmt) + audio + silence(after, fmt)


def _pydub() -> Any:
    with warnings.catch_warnings():
        # pydub warns at import when ffmpeg is absent; WAV does not need it ...
        warnings.simplefilter("ignore", RuntimeWarning)
        # ... and it imports audioop, deprecated on 3.11-3.12 (audioop-lts from 3.13).
        warnings.simplefilter("ignore", DeprecationWarning)
        import pydub
    return pydub


def load_pcm(path: str | Path, fmt: AudioFormat = RECOGNIZER_FORMAT) -> bytes:
    """Read an audio file and convert it to raw PCM in ``fmt`` (default 16 kHz mono s16le).

    PCM WAV is read with the standard library (no ffmpeg, no guessing); pydub converts the
    rate, width and channels. Other formats go through pydub and need ffmpeg. A missing or
    unreadable file is a one-line :class:`NarratorError`.
    """
    p = Path(path)
    if not p.is_file():
        raise NarratorError(f"audio file not found: {p}")
    pydub = _pydub()
    try:
        if p.suffix.lower() == ".wav":
            with wave.open(str(p), "rb") as w:
                seg = pydub.AudioSegment(
                    data=w.readframes(w.getnframes()), sample_width=w.getsampwidth(),
                    frame_rate=w.getframerate(), channels=w.getnchannels(),
                )
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                seg = pydub.AudioSegment.from_file(str(p))
        seg = seg.set_channels(fmt.channels).set_sample_width(fmt.width)
        seg = seg.set_frame_rate(fmt.rate)
    except (wave.Error, EOFError) as e:
        raise NarratorError(f"cannot read audio file {p}: not a PCM WAV file ({e})") from e
    except Exception as e:  # pydub raises bare Exceptions / CouldntDecodeError
        message = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise NarratorError(f"cannot read audio file {p}: {message}") from e
    raw: bytes = seg.raw_data
    return raw


class QuietRoom:
    """Silence on the stream's timeline from ``start`` until closed, at most ``chunks`` chunks:
    the microphone of a quiet room (a scripted recognizer hears the speech; tests, conform)."""

    def __init__(self, chunk_ms: int = 200, start: float = 0.0, *, chunks: int = 100_000) -> None:
        self.step = chunk_ms / 1000
        self.start = start
        self.limit = chunks
        self.closed = False

    @property
    def format(self) -> AudioFormat:
        return RECOGNIZER_FORMAT

    def chunks(self) -> Iterator[AudioChunk]:
        audio = b"\0" * (round(self.step * RECOGNIZER_FORMAT.rate) * 2)
        for n in range(self.limit):
            if self.closed:
                return
            yield AudioChunk(audio, RECOGNIZER_FORMAT, self.start + n * self.step)

    def close(self) -> None:
        self.closed = True


class PcmSource:
    """Raw PCM bytes already in the recognizer format, cut into fixed-size chunks.

    ``start`` is the stream time of the first sample; chunk timestamps follow from the sample
    count, never from a clock, so the timeline is exact and reproducible.
    """

    def __init__(self, audio: bytes, *, chunk_ms: int = DEFAULT_CHUNK_MS, start: float = 0.0,
                 fmt: AudioFormat = RECOGNIZER_FORMAT) -> None:
        frame = fmt.width * fmt.channels
        if len(audio) % frame:
            raise ValueError(f"PCM length {len(audio)} is not a whole number of frames")
        self._audio = audio
        self._fmt = fmt
        self._step = _chunk_bytes(fmt, chunk_ms)
        self.start = start
        self._closed = False

    @property
    def format(self) -> AudioFormat:
        """Always the recognizer format given at construction."""
        return self._fmt

    @property
    def duration(self) -> float:
        """Length of the whole stream in seconds."""
        return self._fmt.duration(len(self._audio))

    @property
    def audio(self) -> bytes:
        """The whole stream's PCM."""
        return self._audio

    def chunks(self) -> Iterator[AudioChunk]:
        """Yield the audio in order; the last chunk may be shorter."""
        for offset in range(0, len(self._audio), self._step):
            if self._closed:
                return
            yield AudioChunk(
                self._audio[offset : offset + self._step],
                self._fmt,
                self.start + self._fmt.duration(offset),
            )

    def close(self) -> None:
        """Stop yielding."""
        self._closed = True


class WavStreamSource:
    """A PCM WAV already in the recognizer format (a session's ``mic.wav``), read a chunk at a
    time: hours of audio are never held whole. The chunks and their timestamps are those of
    :class:`PcmSource` over the same samples. Raises ``ValueError`` for a WAV in another format
    (convert it with :func:`load_pcm`) and :class:`NarratorError` for one that cannot be read.
    """

    def __init__(self, path: str | Path, *, chunk_ms: int = DEFAULT_CHUNK_MS,
                 start: float = 0.0) -> None:
        self.path = Path(path)
        self._step = _chunk_bytes(RECOGNIZER_FORMAT, chunk_ms)
        self.start = start
        self._closed = False
        try:
            with wave.open(str(self.path), "rb") as w:
                fmt = AudioFormat(rate=w.getframerate(), width=w.getsampwidth(),
                                  channels=w.getnchannels())
                self.frames = w.getnframes()
        except (OSError, wave.Error, EOFError) as e:
            raise NarratorError(f"cannot read audio file {self.path}: {e}") from None
        if fmt != RECOGNIZER_FORMAT:
            raise ValueError(f"{self.path}: {fmt}, not the recognizer's {RECOGNIZER_FORMAT}")

    @property
    def format(self) -> AudioFormat:
        return RECOGNIZER_FORMAT

    @property
    def duration(self) -> float:
        """Length of the whole stream in seconds."""
        return self.frames / RECOGNIZER_FORMAT.rate

    def chunks(self) -> Iterator[AudioChunk]:
        """Yield the audio in order, read as it is yielded; the last chunk may be shorter."""
        frame = RECOGNIZER_FORMAT.width * RECOGNIZER_FORMAT.channels
        offset = 0
        try:
            with wave.open(str(self.path), "rb") as w:
                while not self._closed:
                    audio = w.readframes(self._step // frame)
                    if not audio:
                        return
                    yield AudioChunk(audio, RECOGNIZER_FORMAT,
                                     self.start + RECOGNIZER_FORMAT.duration(offset))
                    offset += len(audio)
        except (OSError, wave.Error, EOFError) as e:
            raise NarratorError(f"cannot read audio file {self.path}: {e}") from None

    def close(self) -> None:
        """Stop yielding."""
        self._closed = True


class WavFileSource(PcmSource):
    """An audio file (WAV, any rate/width/channels), converted to 16 kHz mono s16le and chunked.

    ``pad_before`` / ``pad_after`` add silence (seconds) around the file, e.g. so that Vosk sees
    the trailing silence it needs to end the utterance.
    """

    def __init__(self, path: str | Path, *, chunk_ms: int = DEFAULT_CHUNK_MS,
                 start: float = 0.0, pad_before: float = 0.0, pad_after: float = 0.0) -> None:
        self.path = Path(path)
        audio = pad(load_pcm(self.path), pad_before, pad_after)
        super().__init__(audio, chunk_ms=chunk_ms, start=start)


class ClockAnchor:
    """Keeps a capture's timeline on the game's clock although the sound card's clock drifts.

    A chunk's time is where its samples fall in the stream (the sample count since it opened),
    which is exact between two chunks but runs at the card's crystal, not the system's: 50 ppm
    apart is common, 0.18 s an hour, so decisions and the echo gate would drift off the game's
    timers over an evening; and it starts when the stream was asked to, which may be some
    blocks before the card really began. What the card cannot hide is when each block
    *arrives*: never before its last sample was captured, and otherwise late only by
    scheduling jitter. So the anchor keeps the least (arrival − end of the block on the
    timeline) over each :attr:`window` seconds of audio — jitter only ever adds to it — and
    moves the timeline by that floor: the blocks that come quickest end when they arrive.

    The first window's floor is taken at once (the stream's start); after that the correction
    moves at most :attr:`slew` seconds per second of audio (drift is far slower, a burst of
    late blocks far quicker), in whole samples (a session records the timeline it was heard
    on sample for sample); a floor that jumps ahead by more than :attr:`jump` seconds is a gap
    in the capture (the device stalled), taken at once too.
    """

    def __init__(self, *, window: float = 5.0, slew: float = 0.001, jump: float = 0.25,
                 rate: int = RECOGNIZER_FORMAT.rate) -> None:
        self.window = window
        self.slew = slew
        self.jump = jump
        self.rate = rate
        self.correction = 0.0  # seconds added to the sample-count timeline
        self._target = 0.0
        self._anchored = False  # the first window's floor is taken
        self._floor = float("inf")  # the floor of the window in progress
        self._window_end: float | None = None
        self._last: float | None = None  # the sample time of the last block stamped

    def stamp(self, at: float, end: float, arrived: float) -> float:
        """The game-clock time of a block whose samples span ``at``..``end`` on the
        sample-count timeline and which arrived at ``arrived`` on the game's clock."""
        self._floor = min(self._floor, arrived - end)
        if self._window_end is None:
            self._window_end = end + self.window
        elif end >= self._window_end:
            target = self._floor
            if not self._anchored or target - self.correction > self.jump:
                self.correction = target  # the stream's start, or a gap in the capture
                self._anchored = True
            self._target = target
            self._floor = float("inf")
            self._window_end = end + self.window
        if self._last is not None:
            most = self.slew * max(0.0, at - self._last)
            step = max(-most, min(most, self._target - self.correction))
            self.correction += step
        self._last = at
        return at + round(self.correction * self.rate) / self.rate


class MicrophoneSource:
    """The default (or a named) input device through a sounddevice ``RawInputStream``.

    The stream is opened at 16 kHz mono int16, so PortAudio/ALSA do the resampling and the
    chunks are already in the recognizer format. The timeline starts at ``clock.now()`` when the
    stream opens (0.0 without a clock) and advances by the sample count, not by reading a clock
    for every block: a late callback does not move audio on the timeline. With the host's
    monotonic clock this makes a chunk's timestamp comparable to when the narrator spoke, which
    is what the echo gate needs. With a clock, the timeline is kept on it by a
    :class:`ClockAnchor` from the moment each block arrives (the sound card's clock drifts
    from the system's); without one it is the sample count alone.

    ``max_seconds`` stops the stream after that much audio (tests, benchmarks).

    The queue between PortAudio's thread and the reader holds at most :data:`MAX_QUEUED`
    blocks: a capture faster than the reader (a virtual device, a stalled game) drops blocks
    (counted in ``dropped``) instead of growing without end, and the timeline skips what was
    dropped, so later audio keeps its true time.
    """

    MAX_QUEUED = 250  # 10 s of 40 ms blocks

    #: seconds with no audio from the device before it is said (polled every STALL_POLL s)
    STALL_SECONDS = 0.5
    STALL_POLL = 0.25

    def __init__(self, device: int | str | None = None, *, chunk_ms: int = DEFAULT_CHUNK_MS,
                 clock: Clock | None = None, max_seconds: float | None = None,
                 on_stall: Callable[[bool, str], None] | None = None) -> None:
        self.device = device
        self._chunk_ms = chunk_ms
        self._clock = clock
        self._max_bytes = (
            None if max_seconds is None
            else int(max_seconds * RECOGNIZER_FORMAT.rate) * RECOGNIZER_FORMAT.width
        )
        # (bytes dropped just before this block, the block, when it arrived); None: stop
        self._queue: queue.Queue[tuple[int, bytes, float] | None] = queue.Queue(self.MAX_QUEUED)
        #: keeps the timeline on the clock (None without one: the sample count alone)
        self.anchor = ClockAnchor() if clock is not None else None
        self._stop = threading.Event()
        self._stream: Any = None
        self._lost = 0  # bytes dropped since the last block queued (PortAudio's thread only)
        self._position = 0  # bytes on the timeline so far (the reader's thread only)
        self.start = 0.0
        self.overflows = 0
        self.dropped = 0
        #: told ``(False, why)`` when the device has delivered nothing for STALL_SECONDS, and
        #: ``(True, …)`` when it delivers again (from the reader's thread)
        self.on_stall = on_stall
        self.stalled = False

    @property
    def format(self) -> AudioFormat:
        """The recognizer format."""
        return RECOGNIZER_FORMAT

    def _open(self) -> None:
        try:
            import sounddevice as sd
        except OSError as e:  # libportaudio2 missing
            raise NarratorError(f"no audio input device: PortAudio is not available ({e})") from e
        try:
            sd.query_devices(self.device, kind="input")
        except (ValueError, sd.PortAudioError) as e:
            which = "default" if self.device is None else repr(self.device)
            raise NarratorError(f"no audio input device: {which} ({e})") from e

        frames = RECOGNIZER_FORMAT.rate * self._chunk_ms // 1000

        def callback(data: Any, n: int, _time: Any, status: Any) -> None:
            self._on_audio(bytes(data), status)

        try:
            self._stream = sd.RawInputStream(
                samplerate=RECOGNIZER_FORMAT.rate, channels=1, dtype="int16",
                blocksize=frames, device=self.device, callback=callback,
            )
            self.start = self._clock.now() if self._clock is not None else 0.0
            self._stream.start()
        except sd.PortAudioError as e:
            raise NarratorError(f"no audio input device: cannot open it ({e})") from e

    def _on_audio(self, data: bytes, status: Any) -> None:
        """PortAudio's callback: queue the block and get out; never block here."""
        if status.input_overflow:
            self.overflows += 1
        try:
            # when it arrived, read here on PortAudio's thread: the reader may be late
            self._queue.put_nowait((self._lost, data, self._now()))
        except queue.Full:
            self._lost += len(data)
            self.dropped += 1
        else:
            self._lost = 0

    def chunks(self) -> Iterator[AudioChunk]:
        """Open the device and yield what it captures until closed (or ``max_seconds``)."""
        self._open()
        try:
            yield from self._drain()
        finally:
            self._shutdown()

    def _now(self) -> float:
        return self._clock.now() if self._clock is not None else time.monotonic()

    def _drain(self) -> Iterator[AudioChunk]:
        # the timeline is the sample count (dropped blocks included), not a clock
        heard = self._now()  # when the device last delivered
        while not self._stop.is_set():
            try:
                item = self._queue.get(timeout=self.STALL_POLL)
            except queue.Empty:
                silent = self._now() - heard
                if not self.stalled and silent >= self.STALL_SECONDS:
                    self.stalled = True
                    if self.on_stall is not None:
                        self.on_stall(False, f"the microphone has delivered nothing for "
                                             f"{silent:.1f} s: check it")
                continue
            if item is None:
                break
            heard = self._now()
            if self.stalled:
                self.stalled = False
                if self.on_stall is not None:
                    self.on_stall(True, "the microphone delivers again")
            lost, data, arrived = item
            self._position += lost
            if self._max_bytes is not None:
                data = data[: max(0, self._max_bytes - self._position)]
            if data:
                at = self.start + RECOGNIZER_FORMAT.duration(self._position)
                self._position += len(data)
                if self.anchor is not None:
                    end = self.start + RECOGNIZER_FORMAT.duration(self._position)
                    at = self.anchor.stamp(at, end, arrived)
                yield AudioChunk(data, RECOGNIZER_FORMAT, at)
            if self._max_bytes is not None and self._position >= self._max_bytes:
                break

    def _shutdown(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            try:
                stream.stop()
            finally:
                stream.close()

    def close(self) -> None:
        """Stop capturing (safe from another thread)."""
        self._stop.set()
        with contextlib.suppress(queue.Full):  # a full queue: the reader sees the stop anyway
            self._queue.put_nowait(None)
