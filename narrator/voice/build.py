"""Render the default voice packs from their manifests with pyttsx3 (espeak-ng).

One phrase per engine call; each clip trimmed, normalised and saved as 22050 Hz mono 16-bit
WAV. Clips whose text is unchanged since the last build (``clips/index.json``) are skipped.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from narrator.audio.clip import PACK_RATE, AudioClip
from narrator.errors import NarratorError
from narrator.voice.dsp import trim_and_normalise
from narrator.voice.manifest import MANIFEST_NAME, Manifest, load_manifest
from narrator.voice.pack import CLIPS_DIR, read_index, write_index
from narrator.voice.synth import Synthesizer

#: Bump to re-render every clip after a change to the rendering itself.
BUILD_VERSION = "2"


@dataclass
class BuildResult:
    """What one pack build did."""

    lang: str
    pack: Path
    rendered: int
    skipped: int
    seconds: float


def _clip_hash(manifest: Manifest, key: str) -> str:
    return f"{BUILD_VERSION}:{manifest.text_hash(key)}"


def build_pack(
    manifest_path: Path,
    pack_dir: Path,
    *,
    force: bool = False,
    progress: Callable[[str], None] | None = None,
    synth: Synthesizer | None = None,
) -> BuildResult:
    """Render every clip of the manifest at ``manifest_path`` into ``pack_dir/clips``.

    ``progress`` is called with each key as it is done (rendered or skipped). When ``pack_dir``
    is not the manifest's own folder the manifest is copied there, so it is a complete pack.
    """
    started = time.perf_counter()
    manifest = load_manifest(manifest_path)
    pack_dir.mkdir(parents=True, exist_ok=True)
    target_manifest = pack_dir / MANIFEST_NAME
    if target_manifest.resolve() != manifest.path.resolve():
        shutil.copyfile(manifest.path, target_manifest)
    clips = pack_dir / CLIPS_DIR
    clips.mkdir(exist_ok=True)
    old = read_index(clips)
    index: dict[str, str] = {}
    rendered = skipped = 0
    own = synth is None
    engine = synth or Synthesizer(manifest.lang, clean=False)
    try:
        for key in manifest:
            wanted = _clip_hash(manifest, key)
            out = clips / f"{key}.wav"
            if not force and old.get(key) == wanted and out.is_file():
                index[key] = wanted
                skipped += 1
            else:
                raw = clips / f"{key}.raw.wav"
                engine.render_to_file(manifest.text(key), raw)
                try:
                    clip = trim_and_normalise(AudioClip.read_wav(raw).resampled(PACK_RATE))
                finally:
                    raw.unlink(missing_ok=True)
                if len(clip.samples) == 0:
                    raise NarratorError(f"{manifest.path}: espeak-ng rendered silence for {key!r}")
                clip.write_wav(out)
                index[key] = wanted
                rendered += 1
                # Save the index as we go: an interrupted build resumes where it stopped.
                if rendered % 25 == 0:
                    write_index(clips, {**old, **index})
            if progress is not None:
                progress(key)
    finally:
        if own:
            engine.close()
    # Clips of keys the manifest no longer has were ours (they are in the old index): remove.
    for key in set(old) - set(index):
        (clips / f"{key}.wav").unlink(missing_ok=True)
    write_index(clips, index)
    return BuildResult(manifest.lang, pack_dir, rendered, skipped, time.perf_counter() - started)
