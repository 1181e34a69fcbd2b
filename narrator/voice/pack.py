"""Voice packs: a folder with ``manifest.json`` and ``clips/<key>.wav``.

A pack with missing clips still works: :meth:`VoicePack.get` synthesizes what is missing on the
fly (pyttsx3 in a worker subprocess, see :mod:`narrator.voice.synth`). ``clips/index.json``
records, per clip, a hash of the text it was made from, so a re-worded phrase is re-rendered by
``narrator voices build`` and reported by ``narrator voices check``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from narrator.audio.clip import AudioClip
from narrator.errors import NarratorError
from narrator.reading import read_json
from narrator.voice.keys import spoken_keys
from narrator.voice.manifest import MANIFEST_NAME, Manifest, load_manifest
from narrator.voice.synth import Synthesizer

CLIPS_DIR = "clips"
INDEX_NAME = "index.json"
#: Quality bounds a clip must meet: a level floor (RMS, fraction of full scale) and a length.
MIN_RMS = 0.005
MIN_SECONDS = 0.15
MAX_SECONDS = 8.0


def read_index(clips_dir: Path) -> dict[str, str]:
    """``{key: text hash}`` of the clips in ``clips_dir`` (empty if absent or unreadable)."""
    try:
        data = read_json(clips_dir / INDEX_NAME, "the clips' index", limit=16 << 20)
    except NarratorError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items()}


def write_index(clips_dir: Path, index: dict[str, str]) -> None:
    """Write ``clips/index.json`` atomically."""
    clips_dir.mkdir(parents=True, exist_ok=True)
    tmp = clips_dir / (INDEX_NAME + ".part")
    tmp.write_text(json.dumps(index, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    tmp.replace(clips_dir / INDEX_NAME)


@dataclass
class PackReport:
    """What :meth:`VoicePack.check` found, by key."""

    pack: Path
    total: int
    missing: list[str] = field(default_factory=list)
    unreadable: dict[str, str] = field(default_factory=dict)  # key -> why
    silent: list[str] = field(default_factory=list)
    too_short: list[str] = field(default_factory=list)
    too_long: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)  # text changed since the clip was made
    lacking: list[str] = field(default_factory=list)  # said by the narrator, not in the manifest

    @property
    def broken(self) -> list[str]:
        """Keys whose clip exists but is not usable."""
        return [*self.unreadable, *self.silent, *self.too_short, *self.too_long]

    @property
    def ok(self) -> bool:
        """The manifest holds every key the narrator says and each has a usable clip (stale
        clips are a warning, not a failure)."""
        return not self.missing and not self.broken and not self.lacking

    def format(self) -> str:
        """A human-readable report, one finding per line."""
        good = self.total - len(self.missing) - len(self.broken)
        lines = [f"{self.pack}: {good}/{self.total} clips usable"]

        def section(title: str, keys: list[str]) -> None:
            if keys:
                lines.append(f"{title} ({len(keys)}): {', '.join(keys)}")

        section("not in the manifest, but the narrator says them", self.lacking)
        section("missing", self.missing)
        for key, why in self.unreadable.items():
            lines.append(f"unreadable: {key}: {why}")
        section(f"silent (RMS below {MIN_RMS})", self.silent)
        section(f"too short (under {MIN_SECONDS} s)", self.too_short)
        section(f"too long (over {MAX_SECONDS} s)", self.too_long)
        section("made from older text (rebuild or re-record)", self.stale)
        if self.ok:
            lines.append("complete")
        return "\n".join(lines)


class VoicePack:
    """A voice pack on disk: the manifest, its clips, and synthesis for what is missing."""

    def __init__(self, path: Path, manifest: Manifest, *, synthesize: bool = True) -> None:
        """Prefer :meth:`load`. ``synthesize=False`` makes :meth:`get` fail on a missing clip."""
        self.path = path
        self.manifest = manifest
        self.synthesize_missing = synthesize
        self._cache: dict[str, AudioClip | None] = {}
        self._synth_cache: dict[str, AudioClip] = {}
        self._synth: Synthesizer | None = None
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: Path | str, *, synthesize: bool = True) -> VoicePack:
        """Open the pack in folder ``path``; NarratorError if its manifest is missing or broken."""
        path = Path(path)
        if not path.is_dir():
            raise NarratorError(f"{path}: voice pack folder not found")
        return cls(path, load_manifest(path / MANIFEST_NAME), synthesize=synthesize)

    @property
    def lang(self) -> str:
        """The manifest's language code."""
        return self.manifest.lang

    def keys(self) -> list[str]:
        """Every clip key of the manifest."""
        return self.manifest.keys()

    def __iter__(self) -> Iterator[str]:
        return iter(self.manifest)

    def text(self, key: str) -> str:
        """What ``key`` says (the words of the protocol's ``said`` list)."""
        return self.manifest.text(key)

    def clip_path(self, key: str) -> Path:
        """Where the clip for ``key`` lives (whether or not it exists)."""
        return self.path / CLIPS_DIR / f"{key}.wav"

    def clip(self, key: str) -> AudioClip | None:
        """The recorded or rendered clip for ``key`` (decoded, cached), or None if it has none.

        KeyError for a key the manifest does not have; an unreadable clip counts as none.
        """
        if key not in self.manifest:
            raise KeyError(f"voice pack {self.path} has no phrase {key!r}")
        with self._lock:
            if key in self._cache:
                return self._cache[key]
        path = self.clip_path(key)
        clip: AudioClip | None = None
        if path.is_file():
            try:
                clip = AudioClip.read_wav(path)
            except NarratorError:
                clip = None
            if clip is not None and len(clip.samples) == 0:
                clip = None
        with self._lock:
            self._cache[key] = clip
        return clip

    def synthesizer(self) -> Synthesizer:
        """The pack's on-the-fly synthesizer (started on first use)."""
        with self._lock:
            if self._synth is None:
                self._synth = Synthesizer(self.lang)
            return self._synth

    def get(self, key: str) -> AudioClip:
        """The clip for ``key``, synthesized on the fly (and cached) if the pack has none."""
        clip = self.clip(key)
        if clip is not None:
            return clip
        with self._lock:
            cached = self._synth_cache.get(key)
        if cached is not None:
            return cached
        if not self.synthesize_missing:
            raise NarratorError(f"voice pack {self.path} has no clip for {key!r}")
        clip = self.synthesizer().synthesize(self.text(key))
        with self._lock:
            self._synth_cache[key] = clip
        return clip

    def warm_up(self) -> None:
        """Start the synthesis worker now if any clip is missing (so the game never waits)."""
        if any(self.clip(k) is None for k in self.keys()):
            self.synthesizer().start()

    def check(self) -> PackReport:
        """Report missing, unreadable, silent, too short or too long, and stale clips by key."""
        report = PackReport(self.path, len(self.manifest))
        report.lacking = self.manifest.lacking(spoken_keys())
        index = read_index(self.path / CLIPS_DIR)
        for key in self.keys():
            path = self.clip_path(key)
            if not path.is_file():
                report.missing.append(key)
                continue
            try:
                clip = AudioClip.read_wav(path)
            except NarratorError as e:
                report.unreadable[key] = str(e).split(": ", 1)[-1]
                continue
            if clip.rms() < MIN_RMS:
                report.silent.append(key)
            elif clip.duration < MIN_SECONDS:
                report.too_short.append(key)
            elif clip.duration > MAX_SECONDS:
                report.too_long.append(key)
            # Built clips store "<build version>:<hash>", recorded ones the bare hash.
            if key in index and index[key].rsplit(":", 1)[-1] != self.manifest.text_hash(key):
                report.stale.append(key)
        return report

    def close(self) -> None:
        """Stop the synthesis worker, if one was started."""
        with self._lock:
            synth, self._synth = self._synth, None
        if synth is not None:
            synth.close()

    def __enter__(self) -> VoicePack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def load_pack(path: Path | str, *, synthesize: bool = True) -> VoicePack:
    """Shorthand for :meth:`VoicePack.load`."""
    return VoicePack.load(path, synthesize=synthesize)
