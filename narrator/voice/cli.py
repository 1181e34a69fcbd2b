"""``narrator voices build | record | check``."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from narrator.arguments import VoicesBuildArgs, VoicesCheckArgs, VoicesRecordArgs
from narrator.errors import NarratorError
from narrator.voice.build import build_pack
from narrator.voice.manifest import MANIFEST_NAME, default_voices_root, load_manifest
from narrator.voice.pack import VoicePack
from narrator.voice.record import FrameSource, record_session

LANGS = ("ru", "uk")


def _ticker(bar: Any) -> Callable[[str], None]:
    def tick(_key: str) -> None:
        bar.update(1)

    return tick


def run_build(args: VoicesBuildArgs) -> int:
    """Render the default packs (``--lang`` to pick, ``--out`` for another root, ``--force``)."""
    from tqdm import tqdm

    source = default_voices_root()
    out_root = Path(args.out) if args.out else source
    langs = args.langs or LANGS
    quiet: bool = args.quiet
    started = time.perf_counter()
    for lang in langs:
        manifest_path = source / lang / MANIFEST_NAME
        total = len(load_manifest(manifest_path))
        bar = tqdm(total=total, desc=f"voices/{lang}", unit="clip", disable=quiet, leave=True)
        try:
            result = build_pack(
                manifest_path,
                out_root / lang,
                force=args.force,
                progress=_ticker(bar),
            )
        finally:
            bar.close()
        if not quiet:
            print(
                f"{result.pack}: {result.rendered} rendered, {result.skipped} up to date"
                f" ({result.seconds:.1f} s)"
            )
    if not quiet:
        print(f"done in {time.perf_counter() - started:.1f} s")
    return 0


def run_check(args: VoicesCheckArgs) -> int:
    """Print the pack's report: 0 complete, 1 clips missing or broken, 2 manifest broken."""
    pack = VoicePack.load(Path(args.pack), synthesize=False)
    report = pack.check()
    print(report.format())
    return 0 if report.ok else 1


@contextmanager
def _microphone(rate: int) -> Iterator[FrameSource]:
    from narrator.audio.devices import import_sounddevice, input_device

    input_device()
    sd = import_sounddevice()
    try:
        stream = sd.InputStream(samplerate=rate, channels=1, dtype="int16")
        stream.start()
    except Exception as e:
        raise NarratorError(f"no audio input device: {str(e).splitlines()[0]}") from e
    try:
        yield stream
    finally:
        stream.stop()
        stream.close()


def run_record(args: VoicesRecordArgs) -> int:
    """Walk the manifest and record each phrase from the microphone into ``--out``."""
    from narrator.audio.devices import input_device

    out = Path(args.out)
    existing = out / MANIFEST_NAME
    # The repository manifest is the source of keys and texts; a copy goes into the pack.
    manifest = load_manifest(default_voices_root() / args.lang / MANIFEST_NAME)
    if existing.is_file() and load_manifest(existing).lang != manifest.lang:
        raise NarratorError(f"{existing}: this pack is not in '{args.lang}'")
    input_device()  # fail before the first prompt, not in the middle of a take
    if not sys.stdin.isatty():
        raise NarratorError("voices record is interactive: run it in a terminal")
    record_session(manifest, out, only=args.only, open_stream=_microphone)
    return 0
