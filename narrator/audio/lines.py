"""The lines a player says: the record of each one, and the queue they wait in.

A line's times are the player's timeline's; its audio is let go once played, so that a whole
evening's record stays small.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from narrator.audio.clip import Samples

_EMPTY: Samples = np.zeros(0, dtype=np.int16)


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
    dropped: bool = False  # removed by the player's ``stop``
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


@dataclass(slots=True)
class LineQueue:
    """The lines waiting to be said — the urgent ones first — and the one playing, in timeline
    samples."""

    urgent: deque[PlayedLine] = field(default_factory=deque)
    waiting: deque[PlayedLine] = field(default_factory=deque)
    playing: PlayedLine | None = None
    free_at: int = 0  # earliest sample a new line may start (a pause after the last one)
    voice_end: int = -(2**62)  # sample after the last voice sample rendered (none yet)

    def busy(self) -> bool:
        return self.playing is not None or bool(self.urgent) or bool(self.waiting)

    def next_start(self) -> int | None:
        """The first sample at which a queued line may start (None: nothing queued)."""
        heads = [q[0] for q in (self.urgent, self.waiting) if q]
        if not heads:
            return None
        return min(max(h.at, self.free_at) for h in heads)
