"""The narrator's one playback queue, on an injected clock.

Audio is a timeline that starts when the :class:`AudioPlayer` is made: sample ``k`` plays at clock
time ``t0 + k / rate``. A line said at clock time ``T`` starts at ``T`` if the narrator is quiet
(and after the current line, plus a pause, if not); silence, or the night bed, fills every gap.
The timeline is rendered in fixed chunks (20 ms by default) by one of two drivers:

* **offline** (replay, ``--out-wav``, tests): on a :class:`~narrator.clock.VirtualClock`, the
  caller renders up to the clock with :meth:`AudioPlayer.sync` (``say`` and ``speaking`` do it too)
  and :meth:`AudioPlayer.drain` at the end. The same calls give the same samples, byte for byte.
* **live**: :meth:`AudioPlayer.start` runs a thread that keeps the sink fed up to ``lead`` seconds
  ahead of the real clock; a new line wakes it at once.

Urgent lines («Принято», «Десять секунд») go ahead of every queued announcement and cut into the
one playing at the next sample they are due (live: the next chunk); the interrupted line resumes
from the start of the part it was in. The bed is ducked while a line plays.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from narrator.audio.clip import AudioClip, Samples, concat
from narrator.audio.format import AudioChunk
from narrator.audio.sinks import OutputLost, Sink
from narrator.clock import Clock


class ClipSource(Protocol):
    """Where keys become audio: a :class:`~narrator.voice.pack.VoicePack`."""

    def get(self, key: str) -> AudioClip:
        """The clip for ``key`` (recorded, rendered or synthesized)."""
        ...

    def text(self, key: str) -> str:
        """The words of ``key``."""
        ...


Speakable = str | AudioClip | Sequence[str | AudioClip]


@dataclass(eq=False, slots=True)
class PlayedLine:
    """One thing said: a clip, a key, or a sentence joined from several."""

    parts: tuple[str, ...]  # the keys (``<clip>`` for a bare clip)
    text: str  # the words, joined from the pack's texts
    urgent: bool
    said_at: float  # clock time of ``say``
    started: float | None = None  # timeline time of its first sample
    ended: float | None = None  # timeline time after its last sample (or when dropped)
    interrupted: int = 0  # how often an urgent line cut in
    dropped: bool = False  # removed by :meth:`AudioPlayer.stop`
    audio: Samples = field(default_factory=lambda: np.zeros(0, dtype=np.int16), repr=False)
    starts: list[int] = field(default_factory=list, repr=False)  # sample offset of each part
    offset: int = field(default=0, repr=False)  # next sample to play
    at: int = field(default=0, repr=False)  # earliest timeline sample it may start
    rate: int = field(default=22050, repr=False)

    samples: int = field(default=-1, repr=False)  # length of the audio (kept once released)

    def __post_init__(self) -> None:
        if self.samples < 0:
            self.samples = len(self.audio)

    @property
    def duration(self) -> float:
        """Length of the audio in seconds, at the sink's rate."""
        return self.samples / self.rate

    def release(self) -> None:
        """Let the audio go once played (or dropped): a long session keeps only the record."""
        self.audio = _EMPTY
        self.starts = []

    @property
    def done(self) -> bool:
        """Played to the end (or dropped)."""
        return self.ended is not None


Callback = Callable[[PlayedLine], None]
_EMPTY: Samples = np.zeros(0, dtype=np.int16)


class AudioPlayer:
    """Plays lines to a :class:`~narrator.audio.sinks.Sink` on a timeline driven by ``clock``."""

    MAX_LINES = 500

    def __init__(
        self,
        sink: Sink,
        clock: Clock,
        voices: ClipSource | None = None,
        *,
        chunk: float = 0.02,
        gap: float = 0.12,
        lead: float = 0.06,
        duck_db: float = -12.0,
        fade: float = 0.08,
        echo_tail: float = 0.15,
        on_start: Callback | None = None,
        on_end: Callback | None = None,
    ) -> None:
        """
        ``chunk``: render granularity (s, ≤ 20 ms keeps cut-ins prompt); ``gap``: pause
        between the parts of a sentence and between lines; ``lead``: how far ahead of the clock
        the live thread fills the sink; ``duck_db``: bed level while speaking; ``fade``: bed
        ramp time; ``echo_tail``: how long ``speaking`` stays true after the last sample
        (device buffer and room echo), so the recognizer does not hear the narrator.
        ``on_start`` / ``on_end`` are called with the :class:`PlayedLine` as it starts and ends on
        the timeline: from the caller's thread offline, from the playback thread live.
        """
        self.sink = sink
        self.clock = clock
        self.voices = voices
        self.rate = sink.format.rate
        self.chunk_samples = max(1, round(chunk * self.rate))
        self.gap = gap
        self.lead_samples = round(lead * self.rate)
        self.duck = 10 ** (duck_db / 20.0)
        self.fade_samples = max(1, round(fade * self.rate))
        self.echo_tail = echo_tail
        self.on_start: list[Callback] = [on_start] if on_start else []
        self.on_end: list[Callback] = [on_end] if on_end else []
        #: live: told ``(False, why)`` when the sound card goes away, ``(True, …)`` when one is
        #: back (from the playback thread); meanwhile the timeline stands still
        self.on_output: list[Callable[[bool, str], None]] = []
        self.output_lost = False
        self.retry = 0.5  # seconds between attempts to get a sound card back
        self.t0 = clock.now()
        self._pos = 0  # next timeline sample to render
        self._urgent: deque[PlayedLine] = deque()
        self._queue: deque[PlayedLine] = deque()
        self._current: PlayedLine | None = None
        self._free_at = 0  # earliest sample a new line may start (a pause after the last one)
        self._voice_end = -(2**62)  # sample after the last voice sample rendered (none yet)
        self._bed: Samples | None = None
        self._bed_pos = 0
        self._bed_on = False
        self._bed_gain = 0.0
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._kick = False
        self._closed = False
        self._resampled: weakref.WeakKeyDictionary[AudioClip, AudioClip] = (
            weakref.WeakKeyDictionary()
        )
        # the lines said, in order (the protocol's "said"): the last MAX_LINES of them, their
        # audio let go once played, so that memory stays flat over a whole evening
        self.lines: deque[PlayedLine] = deque(maxlen=self.MAX_LINES)
        self._pending: list[tuple[list[Callback], PlayedLine]] = []  # callbacks due, fired unlocked
        self._out: list[AudioChunk] = []  # live: chunks rendered, to write unlocked

    # ----------------------------------------------------------------- public API

    @property
    def live(self) -> bool:
        """True once :meth:`start` runs the real-time thread."""
        return self._thread is not None

    @property
    def position(self) -> float:
        """Clock time of the next sample to be rendered."""
        return self.t0 + self._pos / self.rate

    def say(self, what: Speakable, urgent: bool = False, *,
            gap: float | Sequence[float] | None = None) -> PlayedLine:
        """Queue a key, a clip, or a sentence (a sequence of keys and clips) to be spoken;
        ``gap``: the pause between its parts (one figure, or one per boundary).

        Keys are resolved now (a missing clip is synthesized here, not on the audio path).
        """
        parts_in: list[str | AudioClip] = (
            [what] if isinstance(what, str | AudioClip) else list(what)
        )
        if not parts_in:
            raise ValueError("nothing to say")
        clips: list[AudioClip] = []
        names: list[str] = []
        words: list[str] = []
        for part in parts_in:
            if isinstance(part, AudioClip):
                clips.append(part)
                names.append("<clip>")
                continue
            if self.voices is None:
                raise ValueError(f"cannot say {part!r}: the player has no voice pack")
            clips.append(self.voices.get(part))
            names.append(part)
            words.append(self.voices.text(part))
        audio, starts = concat(
            [self._at_rate(c) for c in clips], self.gap if gap is None else gap, self.rate
        )
        now = self.clock.now()
        line = PlayedLine(
            tuple(names),
            " ".join(words),
            urgent,
            now,
            audio=audio.samples,
            starts=starts,
            rate=self.rate,
        )
        with self._cond:
            if not self.live:
                self._sync_locked(self._sample_at(now))
            line.at = max(self._sample_at(now), self._pos)
            (self._urgent if urgent else self._queue).append(line)
            self.lines.append(line)
            self._kick = True
            self._cond.notify_all()
        self._fire_pending()
        return line

    @property
    def speaking(self) -> bool:
        """A line is playing or queued, or the last one ended less than ``echo_tail`` ago."""
        with self._cond:
            now_sample = self._sample_at(self.clock.now())
            if not self.live:
                self._sync_locked(now_sample)
            busy = self._busy_locked()
            tail = self._voice_end + round(self.echo_tail * self.rate)
        self._fire_pending()
        return busy or now_sample < tail

    def busy_until(self) -> float | None:
        """Clock time when what is queued now will have played (None when quiet).

        An estimate: an urgent line said later moves it back.
        """
        with self._cond:
            if not self._busy_locked():
                return None
            cursor = self._pos
            gap = round(self.gap * self.rate)
            if self._current is not None:
                cursor += len(self._current.audio) - self._current.offset
            for line in (*self._urgent, *self._queue):
                cursor = max(cursor + gap, line.at) + len(line.audio) - line.offset
            return self.t0 + cursor / self.rate

    def set_bed(self, bed: AudioClip | None) -> None:
        """Loop ``bed`` under the voice (ducked while speaking); None fades it out."""
        with self._cond:
            if bed is None:
                self._bed_on = False
                return
            self._bed = self._at_rate(bed).samples
            self._bed_pos = 0
            self._bed_on = True

    def sync(self, until: float | None = None) -> None:
        """Offline: render every whole chunk up to clock time ``until`` (default: now)."""
        if self.live:
            return
        with self._cond:
            when = self.clock.now() if until is None else until
            self._sync_locked(self._sample_at(when))
        self._fire_pending()

    def drain(self) -> float:
        """Offline: render until every queued line has played; returns the timeline end.

        This renders past the clock; a line said later starts after it.
        """
        if self.live:
            raise RuntimeError("drain() is for offline rendering; use wait_idle() live")
        with self._cond:
            self._sync_locked(self._sample_at(self.clock.now()))
            while self._busy_locked():
                self._render_chunk_locked()
        self._fire_pending()
        return self.position

    def stop(self) -> None:
        """Drop the playing line and everything queued (e.g. the game is over)."""
        with self._cond:
            if not self.live:
                self._sync_locked(self._sample_at(self.clock.now()))
            t = self.position
            for line in [
                *([self._current] if self._current else []),
                *self._urgent,
                *self._queue,
            ]:
                line.dropped = True
                line.ended = t
                line.release()
                self._pending.append((self.on_end, line))
            self._current = None
            self._urgent.clear()
            self._queue.clear()
        self._fire_pending()

    def start(self) -> None:
        """Live: start the thread that feeds the sink in real time."""
        if self._thread is not None:
            return
        with self._cond:
            # Re-anchor the timeline: nothing was rendered before this moment.
            if self._pos == 0:
                self.t0 = self.clock.now()
            self._stopping = False
        self._thread = threading.Thread(target=self._run, name="narrator-playback", daemon=True)
        self._thread.start()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Live: block until nothing is playing or queued; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy_locked(), timeout)

    def close(self) -> None:
        """Stop the live thread (if any) and close the sink; idempotent."""
        if self._closed:
            return
        self._closed = True
        thread = self._thread
        if thread is not None:
            with self._cond:
                self._stopping = True
                self._cond.notify_all()
            thread.join()
            self._thread = None
        self.sink.close()

    # ----------------------------------------------------------------- internals

    def _at_rate(self, clip: AudioClip) -> AudioClip:
        if clip.rate == self.rate:
            return clip
        cached = self._resampled.get(clip)
        if cached is None:
            cached = clip.resampled(self.rate)
            self._resampled[clip] = cached
        return cached

    def _sample_at(self, t: float) -> int:
        return round((t - self.t0) * self.rate)

    def _busy_locked(self) -> bool:
        return self._current is not None or bool(self._urgent) or bool(self._queue)

    def _sync_locked(self, target: int) -> None:
        while self._pos + self.chunk_samples <= target:
            self._render_chunk_locked()

    def _fire_pending(self) -> None:
        # Callbacks run outside the lock: one may well call say().
        with self._cond:
            pending, self._pending = self._pending, []
        for callbacks, line in pending:
            for cb in callbacks:
                cb(line)

    def _next_start(self) -> int | None:
        """The first sample at which a queued line may start (None: nothing queued)."""
        heads = [q[0] for q in (self._urgent, self._queue) if q]
        if not heads:
            return None
        return min(max(h.at, self._free_at) for h in heads)

    def _begin(self, line: PlayedLine, sample: int) -> None:
        self._current = line
        if line.started is None:
            line.started = self.t0 + sample / self.rate
            self._pending.append((self.on_start, line))

    def _mix_voice(self, out: Samples) -> bool:
        """Fill ``out`` with voice for samples ``[pos, pos + len(out))``; True if any voice."""
        n = len(out)
        i = 0
        voiced = False
        while i < n:
            at = self._pos + i
            cur = self._current
            urgent_due = bool(self._urgent) and self._urgent[0].at <= at
            if cur is not None and not cur.urgent and urgent_due:
                # Cut in: the interrupted line resumes from the start of its current part.
                cur.offset = max(s for s in cur.starts if s <= cur.offset) if cur.starts else 0
                cur.interrupted += 1
                self._queue.appendleft(cur)
                self._begin(self._urgent.popleft(), at)
                continue
            if cur is None:
                if urgent_due and at >= self._free_at:
                    self._begin(self._urgent.popleft(), at)
                    continue
                head_due = bool(self._queue) and max(self._queue[0].at, self._free_at) <= at
                if head_due and not urgent_due:
                    self._begin(self._queue.popleft(), at)
                    continue
                nxt = self._next_start()
                i = n if nxt is None else min(n, max(i + 1, nxt - self._pos))
                continue
            limit = n
            if not cur.urgent and self._urgent:
                limit = min(limit, max(i + 1, self._urgent[0].at - self._pos))
            take = min(limit - i, len(cur.audio) - cur.offset)
            out[i : i + take] = cur.audio[cur.offset : cur.offset + take]
            cur.offset += take
            i += take
            voiced = voiced or take > 0
            if cur.offset >= len(cur.audio):
                end = self._pos + i
                cur.ended = self.t0 + end / self.rate
                cur.release()
                self._pending.append((self.on_end, cur))
                self._current = None
                self._voice_end = end
                self._free_at = end + round(self.gap * self.rate)
        return voiced

    def _mix_bed(self, voice: Samples, voiced: bool) -> Samples:
        bed = self._bed
        if bed is None or not len(bed):
            return voice
        n = len(voice)
        target = (self.duck if voiced or self._current is not None else 1.0) if self._bed_on else 0
        g0 = self._bed_gain
        step = n / self.fade_samples
        g1 = target if abs(target - g0) <= step else g0 + (step if target > g0 else -step)
        self._bed_gain = g1
        if g0 == 0 and g1 == 0:
            if not self._bed_on:
                self._bed = None
            return voice
        idx = (self._bed_pos + np.arange(n)) % len(bed)
        self._bed_pos = int((self._bed_pos + n) % len(bed))
        gains = np.linspace(g0, g1, n, endpoint=False, dtype=np.float32)
        mixed = voice.astype(np.int32) + (bed[idx].astype(np.float32) * gains).astype(np.int32)
        return np.clip(mixed, -32768, 32767).astype(np.int16)

    def _render_chunk_locked(self) -> None:
        n = self.chunk_samples
        voice = np.zeros(n, dtype=np.int16)
        voiced = self._mix_voice(voice)
        data = self._mix_bed(voice, voiced)
        chunk = AudioChunk(data.tobytes(), self.sink.format, self.t0 + self._pos / self.rate)
        self._pos += n
        if self.live:
            self._out.append(chunk)
        else:
            self.sink.write(chunk)
        self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._stopping:
                    return
                target = self._sample_at(self.clock.now()) + self.lead_samples
                # A new line may run up to one more lead ahead: it should not wait for the
                # clock to catch up with what was rendered before it was said.
                allowance = self.lead_samples + self.chunk_samples if self._kick else 0
                if self._pos + self.chunk_samples > target + allowance:
                    wait = (self._pos + self.chunk_samples - target) / self.rate
                    self._cond.wait(timeout=wait)
                    continue
                self._kick = False
                self._render_chunk_locked()
                out, self._out = self._out, []
            # Written outside the lock: a device write blocks while its buffer is full.
            try:
                for chunk in out:
                    self.sink.write(chunk)
            except OutputLost as e:
                if not self._recover(str(e)):
                    return
            self._fire_pending()

    def _recover(self, why: str) -> bool:
        """The sound card is gone: say so, try to get one back every ``retry`` s; the timeline
        stands still meanwhile (what was due while it was gone is not played in a rush), and
        goes on from where it stopped. False when the player was closed first."""
        lost_at = self.clock.now()
        self.output_lost = True
        for cb in self.on_output:
            cb(False, why)
        reopen = getattr(self.sink, "reopen", None)
        while True:
            with self._cond:
                if self._stopping:
                    return False
                self._cond.wait(timeout=self.retry)
                if self._stopping:
                    return False
            if reopen is None:
                continue  # a sink that cannot come back: wait for close()
            try:
                reopen()
            except OutputLost:
                continue
            break
        with self._cond:
            self.t0 += self.clock.now() - lost_at
        self.output_lost = False
        for cb in self.on_output:
            cb(True, "audio output back")
        return True
