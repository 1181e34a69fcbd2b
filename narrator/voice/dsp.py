"""Clip clean-up shared by the pack builder, the recorder and on-the-fly synthesis."""

from __future__ import annotations

import math

from narrator.audio.clip import AudioClip, import_pydub

#: Loudness every clip is brought to (RMS, dBFS), so recorded and synthetic lines match.
TARGET_DBFS = -18.0
#: Highest peak allowed after the gain (dBFS): loudness never buys clipping.
PEAK_CEILING_DBFS = -1.0
#: Silence kept at each end after trimming (s): a hard cut at the first sample clicks.
EDGE_PAD = 0.015


def trim_and_normalise(
    clip: AudioClip,
    *,
    target_dbfs: float = TARGET_DBFS,
    silence_below_peak_db: float = 40.0,
    silence_floor_dbfs: float = -55.0,
) -> AudioClip:
    """Cut leading and trailing silence and bring the clip to ``target_dbfs`` RMS.

    Silence is anything quieter than ``silence_below_peak_db`` under the clip's peak (and never
    louder than ``silence_floor_dbfs``): a relative threshold works for both espeak's digital
    silence and a microphone's room noise. A clip that is all silence comes back empty.
    """
    pydub = import_pydub()
    seg = clip.to_segment()
    if len(clip.samples) == 0 or seg.max == 0:
        return AudioClip.silence(0, clip.rate)
    threshold = min(seg.max_dBFS - silence_below_peak_db, silence_floor_dbfs + 25.0)
    threshold = max(threshold, silence_floor_dbfs)
    chunk = 5  # ms
    start = pydub.silence.detect_leading_silence(seg, threshold, chunk)
    end = len(seg) - pydub.silence.detect_leading_silence(seg.reverse(), threshold, chunk)
    if end <= start:
        return AudioClip.silence(0, clip.rate)
    pad = round(EDGE_PAD * 1000)
    seg = seg[max(0, start - pad) : min(len(seg), end + pad)]
    if seg.rms == 0:
        return AudioClip.silence(0, clip.rate)
    gain = target_dbfs - seg.dBFS
    if math.isfinite(seg.max_dBFS):
        gain = min(gain, PEAK_CEILING_DBFS - seg.max_dBFS)
    return AudioClip.from_segment(seg.apply_gain(gain))
