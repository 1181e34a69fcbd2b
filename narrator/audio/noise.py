"""The night bed: music from a file, or a generated soft noise that loops without a seam."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from narrator.audio.clip import AudioClip, import_pydub
from narrator.errors import NarratorError


def soft_noise(
    seconds: float = 8.0, rate: int = 22050, level_dbfs: float = -30.0, seed: int = 0
) -> AudioClip:
    """A soft brown-ish noise bed (like a distant room), ``level_dbfs`` RMS, loopable.

    Made in the frequency domain with a 1/f² slope and a low-pass above ~1.5 kHz, so it sits
    under the voice instead of hissing; an inverse FFT of a whole period loops seamlessly.
    Deterministic for a given ``seed``.
    """
    n = max(2, round(seconds * rate))
    rng = np.random.default_rng(seed)
    freqs = np.fft.rfftfreq(n, d=1.0 / rate)
    spectrum = rng.normal(size=len(freqs)) + 1j * rng.normal(size=len(freqs))
    shape = np.zeros_like(freqs)
    nz = freqs > 20.0  # nothing under 20 Hz: it would only move the speaker cone
    shape[nz] = 1.0 / np.maximum(freqs[nz], 60.0) / (1.0 + (freqs[nz] / 1500.0) ** 4)
    signal = np.fft.irfft(spectrum * shape, n=n)
    rms = float(np.sqrt(np.mean(signal**2)))
    if rms > 0:
        signal *= (10 ** (level_dbfs / 20.0)) / rms
    return AudioClip.from_float(signal, rate)


def load_music(path: Path | str, rate: int = 22050, level_dbfs: float = -26.0) -> AudioClip:
    """``--night-music FILE``: decoded with pydub (WAV without ffmpeg), mono, at ``rate``.

    The level is set to ``level_dbfs`` RMS so any file sits under the voice the same way.
    """
    path = Path(path)
    if not path.is_file():
        raise NarratorError(f"{path}: night music file not found")
    pydub = import_pydub()
    try:
        # from_wav needs no ffmpeg/ffprobe (from_file would look for them and warn).
        if path.suffix.lower() == ".wav":
            seg = pydub.AudioSegment.from_wav(str(path))
        else:
            seg = pydub.AudioSegment.from_file(str(path))
    except Exception as e:
        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        hint = "" if path.suffix.lower() == ".wav" else " (non-WAV files need ffmpeg)"
        raise NarratorError(f"{path}: cannot read the night music{hint}: {why}") from e
    seg = seg.set_channels(1).set_sample_width(2).set_frame_rate(rate)
    if seg.rms > 0:
        seg = seg.apply_gain(level_dbfs - seg.dBFS)
    clip = AudioClip.from_segment(seg)
    if len(clip.samples) == 0:
        raise NarratorError(f"{path}: the night music is empty")
    return clip
