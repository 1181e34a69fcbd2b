"""Recording a club's own host into a voice pack.

The work is in pure functions over a :class:`FrameSource` (a sounddevice ``InputStream``, or a
fake in tests): :func:`capture` reads until told to stop, :func:`finish_take` trims and
normalises, :func:`save_take` writes the clip, the index entry and a copy of the manifest. The
interactive loop in :func:`record_session` only asks questions and calls them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from narrator.audio.clip import PACK_RATE, AudioClip
from narrator.errors import NarratorError
from narrator.voice.dsp import trim_and_normalise
from narrator.voice.manifest import MANIFEST_NAME, Manifest
from narrator.voice.pack import CLIPS_DIR, MAX_SECONDS, MIN_RMS, read_index, write_index

#: Longest take kept (s): a forgotten Enter should not fill the disk.
MAX_TAKE_SECONDS = 30.0


class FrameSource(Protocol):
    """What :func:`capture` reads: ``read(frames) -> (array of int16, overflowed)``."""

    def read(self, frames: int) -> tuple[Any, bool]: ...


def capture(
    stream: FrameSource,
    rate: int,
    stop: Callable[[], bool],
    *,
    block: float = 0.05,
    max_seconds: float = MAX_TAKE_SECONDS,
) -> AudioClip:
    """Read ``stream`` in blocks of ``block`` seconds until ``stop()`` is true; mono int16."""
    frames = max(1, round(block * rate))
    blocks: list[np.ndarray[Any, np.dtype[np.int16]]] = []
    total = 0
    while not stop() and total < max_seconds * rate:
        data, _overflowed = stream.read(frames)
        arr = np.asarray(data)
        if arr.ndim == 2:
            # Mix down a multi-channel microphone.
            arr = arr.astype(np.int32).mean(axis=1)
        if arr.dtype != np.int16:
            arr = np.clip(arr, -32768, 32767).astype(np.int16)
        blocks.append(arr.reshape(-1))
        total += len(blocks[-1])
    samples = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.int16)
    return AudioClip(samples.astype(np.int16, copy=False), rate)


@dataclass(frozen=True)
class Take:
    """A processed recording and what is wrong with it, if anything."""

    clip: AudioClip
    problem: str | None  # None: good to keep


def finish_take(raw: AudioClip) -> Take:
    """Trim, normalise and resample a raw take to the pack rate, and judge it."""
    if raw.rms() < MIN_RMS / 10:
        return Take(AudioClip.silence(0, PACK_RATE), "nothing was heard (is the microphone on?)")
    clip = trim_and_normalise(raw.resampled(PACK_RATE))
    if clip.duration < 0.1:
        return Take(clip, "the take is too short")
    if clip.duration > MAX_SECONDS:
        return Take(clip, f"the take is longer than {MAX_SECONDS:g} s")
    return Take(clip, None)


def save_take(pack_dir: Path, manifest: Manifest, key: str, clip: AudioClip) -> Path:
    """Write ``clip`` as the pack's clip for ``key``, with its index entry and the manifest."""
    if key not in manifest:
        raise NarratorError(f"{manifest.path}: no phrase {key!r}")
    clips = pack_dir / CLIPS_DIR
    out = clips / f"{key}.wav"
    clip.write_wav(out)
    index = read_index(clips)
    index[key] = manifest.text_hash(key)
    write_index(clips, index)
    copy = pack_dir / MANIFEST_NAME
    text = manifest.to_json()
    if not copy.is_file() or copy.read_text(encoding="utf-8") != text:
        copy.write_text(text, encoding="utf-8")
    return out


def keys_to_record(manifest: Manifest, pack_dir: Path, only: Sequence[str] | None) -> list[str]:
    """The keys a session walks: ``only`` (re-recorded even if present), else what is missing."""
    if only:
        unknown = [k for k in only if k not in manifest]
        if unknown:
            raise NarratorError(f"{manifest.path}: no phrase {', '.join(map(repr, unknown))}")
        return list(only)
    return [k for k in manifest if not (pack_dir / CLIPS_DIR / f"{k}.wav").is_file()]


Ask = Callable[[str], str]
OpenStream = Callable[[int], AbstractContextManager[FrameSource]]


def record_session(
    manifest: Manifest,
    pack_dir: Path,
    *,
    only: Sequence[str] | None,
    open_stream: OpenStream,
    ask: Ask = input,
    say: Callable[[str], None] = print,
    rate: int = PACK_RATE,
) -> int:
    """The interactive loop: Enter starts and stops a take; r redo, s skip, q save and quit.

    Returns how many clips were saved.
    """
    keys = keys_to_record(manifest, pack_dir, only)
    if not keys:
        say(f"{pack_dir}: every phrase is recorded (use --only KEY to redo one)")
        return 0
    saved = 0
    say("Enter: start / stop a take; then Enter keeps it, r redoes, s skips, q saves and quits.")
    for i, key in enumerate(keys):
        say(f"\n[{i + 1}/{len(keys)}] {key}: «{manifest.text(key)}»")
        while True:
            answer = ask("Enter to record (s skip, q quit) ").strip().lower()
            if answer == "s":
                break
            if answer == "q":
                say(f"saved {saved} clip(s) to {pack_dir}")
                return saved
            take = _one_take(open_stream, rate, ask)
            if take.problem:
                say(f"  {take.problem}; again")
                continue
            say(f"  {take.clip.duration:.2f} s")
            answer = ask("Enter keep, r redo, s skip, q save and quit ").strip().lower()
            if answer == "r":
                continue
            if answer == "s":
                break
            save_take(pack_dir, manifest, key, take.clip)
            saved += 1
            if answer == "q":
                say(f"saved {saved} clip(s) to {pack_dir}")
                return saved
            break
    say(f"saved {saved} clip(s) to {pack_dir}")
    return saved


def _one_take(open_stream: OpenStream, rate: int, ask: Ask) -> Take:
    # The stream is read in a thread so that the main thread can wait for the second Enter.
    stop = threading.Event()
    result: list[AudioClip] = []
    errors: list[BaseException] = []
    with open_stream(rate) as stream:

        def reader() -> None:
            try:
                result.append(capture(stream, rate, stop.is_set))
            except BaseException as e:  # reported in the main thread
                errors.append(e)

        thread = threading.Thread(target=reader, daemon=True)
        thread.start()
        try:
            ask("  recording... Enter to stop ")
        finally:
            stop.set()
            thread.join()
    if errors:
        raise NarratorError(f"recording failed: {errors[0]}")
    return finish_take(result[0])
