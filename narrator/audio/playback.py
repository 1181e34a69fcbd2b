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
from the start of the part it was in. The bed is ducked while a line plays
(:mod:`narrator.audio.bed`); a line's record and the queue it waits in are
:mod:`narrator.audio.lines`'.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from narrator.audio.bed import Bed
from narrator.audio.clip import AudioClip, Samples, concat
from narrator.audio.format import AudioChunk
from narrator.audio.lines import LineQueue, PlayedLine
from narrator.audio.sinks import OutputLost, Sink
from narrator.clock import Clock

# a line's record is the player's callers' too: they name it from here
__all__ = ["AudioPlayer", "Callback", "ClipSource", "PlayedLine", "Speakable"]


class ClipSource(Protocol):
    """Where keys become audio: a :class:`~narrator.voice.pack.VoicePack`."""

    def get(self, key: str) -> AudioClip:
        """The clip for ``key`` (recorded, rendered or synthesized)."""
        ...

    def text(self, key: str) -> str:
        """The words of ``key``."""
        ...


Speakable = str | AudioClip | Sequence[str | AudioClip]


Callback = Callable[[PlayedLine], None]


@dataclass(slots=True)
class _Live:
    """The live thread, and what it is told and hands over under the player's lock."""

    thread: threading.Thread | None = None
    stopping: bool = False
    kick: bool = False  # a new line: render ahead of the clock at once
    out: list[AudioChunk] = field(default_factory=list)  # chunks rendered, to write unlocked


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
        self._queue = LineQueue()
        self._bed = Bed(self.rate, duck_db=duck_db, fade=fade)
        self._cond = threading.Condition()
        self._live = _Live()
        self._closed = False
        self._resampled: weakref.WeakKeyDictionary[AudioClip, AudioClip] = (
            weakref.WeakKeyDictionary()
        )
        # the lines said, in order (the protocol's "said"): the last MAX_LINES of them, their
        # audio let go once played, so that memory stays flat over a whole evening
        self.lines: deque[PlayedLine] = deque(maxlen=self.MAX_LINES)
        self._pending: list[tuple[list[Callback], PlayedLine]] = []  # callbacks due, fired unlocked

    # ----------------------------------------------------------------- public API

    @property
    def live(self) -> bool:
        """True once :meth:`start` runs the real-time thread."""
        return self._live.thread is not None

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
            (self._queue.urgent if urgent else self._queue.waiting).append(line)
            self.lines.append(line)
            self._live.kick = True
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
            tail = self._queue.voice_end + round(self.echo_tail * self.rate)
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
            if self._queue.playing is not None:
                cursor += len(self._queue.playing.audio) - self._queue.playing.offset
            for line in (*self._queue.urgent, *self._queue.waiting):
                cursor = max(cursor + gap, line.at) + len(line.audio) - line.offset
            return self.t0 + cursor / self.rate

    def set_bed(self, bed: AudioClip | None) -> None:
        """Loop ``bed`` under the voice (ducked while speaking); None fades it out."""
        with self._cond:
            if bed is None:
                self._bed.fade_out()
            else:
                self._bed.play(self._at_rate(bed).samples)

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
            q = self._queue
            for line in [*([q.playing] if q.playing else []), *q.urgent, *q.waiting]:
                line.dropped = True
                line.ended = t
                line.release()
                self._pending.append((self.on_end, line))
            q.playing = None
            q.urgent.clear()
            q.waiting.clear()
        self._fire_pending()

    def start(self) -> None:
        """Live: start the thread that feeds the sink in real time."""
        if self._live.thread is not None:
            return
        with self._cond:
            # Re-anchor the timeline: nothing was rendered before this moment.
            if self._pos == 0:
                self.t0 = self.clock.now()
            self._live.stopping = False
        thread = threading.Thread(target=self._run, name="narrator-playback", daemon=True)
        self._live.thread = thread
        thread.start()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Live: block until nothing is playing or queued; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy_locked(), timeout)

    def close(self) -> None:
        """Stop the live thread (if any) and close the sink; idempotent."""
        if self._closed:
            return
        self._closed = True
        thread = self._live.thread
        if thread is not None:
            with self._cond:
                self._live.stopping = True
                self._cond.notify_all()
            thread.join()
            self._live.thread = None
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
        return self._queue.busy()

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

    def _begin(self, line: PlayedLine, sample: int) -> None:
        self._queue.playing = line
        if line.started is None:
            line.started = self.t0 + sample / self.rate
            self._pending.append((self.on_start, line))

    def _mix_voice(self, out: Samples) -> bool:
        """Fill ``out`` with voice for samples ``[pos, pos + len(out))``; True if any voice."""
        q = self._queue
        n = len(out)
        i = 0
        voiced = False
        while i < n:
            at = self._pos + i
            cur = q.playing
            urgent_due = bool(q.urgent) and q.urgent[0].at <= at
            if cur is not None and not cur.urgent and urgent_due:
                # Cut in: the interrupted line resumes from the start of its current part.
                cur.offset = max(s for s in cur.starts if s <= cur.offset) if cur.starts else 0
                cur.interrupted += 1
                q.waiting.appendleft(cur)
                self._begin(q.urgent.popleft(), at)
                continue
            if cur is None:
                if urgent_due and at >= q.free_at:
                    self._begin(q.urgent.popleft(), at)
                    continue
                head_due = bool(q.waiting) and max(q.waiting[0].at, q.free_at) <= at
                if head_due and not urgent_due:
                    self._begin(q.waiting.popleft(), at)
                    continue
                nxt = q.next_start()
                i = n if nxt is None else min(n, max(i + 1, nxt - self._pos))
                continue
            limit = n
            if not cur.urgent and q.urgent:
                limit = min(limit, max(i + 1, q.urgent[0].at - self._pos))
            take = min(limit - i, len(cur.audio) - cur.offset)
            out[i : i + take] = cur.audio[cur.offset : cur.offset + take]
            cur.offset += take
            i += take
            voiced = voiced or take > 0
            if cur.offset >= len(cur.audio):
                self._end(cur, self._pos + i)
        return voiced

    def _end(self, line: PlayedLine, end: int) -> None:
        """``line`` played its last sample before ``end``: a pause before the next one."""
        line.ended = self.t0 + end / self.rate
        line.release()
        self._pending.append((self.on_end, line))
        self._queue.playing = None
        self._queue.voice_end = end
        self._queue.free_at = end + round(self.gap * self.rate)

    def _render_chunk_locked(self) -> None:
        n = self.chunk_samples
        voice = np.zeros(n, dtype=np.int16)
        voiced = self._mix_voice(voice)
        data = self._bed.mix(voice, voiced or self._queue.playing is not None)
        chunk = AudioChunk(data.tobytes(), self.sink.format, self.t0 + self._pos / self.rate)
        self._pos += n
        if self.live:
            self._live.out.append(chunk)
        else:
            self.sink.write(chunk)
        self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._live.stopping:
                    return
                target = self._sample_at(self.clock.now()) + self.lead_samples
                # A new line may run up to one more lead ahead: it should not wait for the
                # clock to catch up with what was rendered before it was said.
                allowance = self.lead_samples + self.chunk_samples if self._live.kick else 0
                if self._pos + self.chunk_samples > target + allowance:
                    wait = (self._pos + self.chunk_samples - target) / self.rate
                    self._cond.wait(timeout=wait)
                    continue
                self._live.kick = False
                self._render_chunk_locked()
                out, self._live.out = self._live.out, []
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
                if self._live.stopping:
                    return False
                self._cond.wait(timeout=self.retry)
                if self._live.stopping:
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
