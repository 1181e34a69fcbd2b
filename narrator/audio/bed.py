"""The night bed: a clip looped under the voice, ducked while the narrator speaks, faded in and
out rather than cut (a cut is a click the table hears)."""

from __future__ import annotations

import numpy as np

from narrator.audio.clip import Samples


class Bed:
    """The bed's loop and its level, mixed under each chunk of voice."""

    def __init__(self, rate: int, *, duck_db: float = -12.0, fade: float = 0.08) -> None:
        """``duck_db``: the bed's level while speaking; ``fade``: its ramp time (s)."""
        self.duck = 10 ** (duck_db / 20.0)
        self.fade_samples = max(1, round(fade * rate))
        self._samples: Samples | None = None
        self._pos = 0
        self._on = False
        self._gain = 0.0

    def play(self, samples: Samples) -> None:
        """Loop ``samples`` (at the sink's rate) from their start."""
        self._samples = samples
        self._pos = 0
        self._on = True

    def fade_out(self) -> None:
        """Fade the bed out; it is let go once silent."""
        self._on = False

    def mix(self, voice: Samples, speaking: bool) -> Samples:
        """``voice`` with the bed under it, ducked while ``speaking``."""
        bed = self._samples
        if bed is None or not len(bed):
            return voice
        n = len(voice)
        target = (self.duck if speaking else 1.0) if self._on else 0
        g0 = self._gain
        step = n / self.fade_samples
        g1 = target if abs(target - g0) <= step else g0 + (step if target > g0 else -step)
        self._gain = g1
        if g0 == 0 and g1 == 0:
            if not self._on:
                self._samples = None
            return voice
        idx = (self._pos + np.arange(n)) % len(bed)
        self._pos = int((self._pos + n) % len(bed))
        gains = np.linspace(g0, g1, n, endpoint=False, dtype=np.float32)
        mixed = voice.astype(np.int32) + (bed[idx].astype(np.float32) * gains).astype(np.int32)
        return np.clip(mixed, -32768, 32767).astype(np.int16)
