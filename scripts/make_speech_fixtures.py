#!/usr/bin/env python3
"""Render test speech with espeak-ng (offline) as 16 kHz mono 16-bit WAV files.

    .venv/bin/python scripts/make_speech_fixtures.py                 # Korean → tests/fixtures/speech/ko
    .venv/bin/python scripts/make_speech_fixtures.py --lang ru --out /tmp/ru

Korean clips are committed (the Korean Vosk model from PyPI is what CI has); the Russian ones
are rendered into a temporary folder by the tests that need a Russian model. Each folder gets a
``manifest.json``: ``{"clips": [{"file": …, "text": …, …}]}`` with what the clip says and, for
Russian, what the grammar should make of it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "fixtures" / "speech"

# Korean: words that espeak-ng says well enough for the Korean small model to recognise them
# with a grammar (checked: 안녕하세요, 감사합니다, 아니요, 좋아요; numbers are not, and a one-syllable
# word such as 네 gets inserted at the onset of other words, so the grammar leaves it out).
KOREAN: list[dict[str, Any]] = [
    {"file": "annyeong.wav", "text": "안녕하세요"},
    {"file": "gamsa.wav", "text": "감사합니다"},
    {"file": "aniyo.wav", "text": "아니요"},
    {"file": "joayo.wav", "text": "좋아요"},
]
KOREAN_GRAMMAR = ["안녕하세요", "감사합니다", "아니요", "좋아요"]

# Russian: every form the grammar must tell apart, with the expected first intent.
RUSSIAN: list[dict[str, Any]] = [
    {"text": "выставляю номер пять", "kind": "nominate", "target": 5, "accepted": True},
    {"text": "выставляю игрока номер три", "kind": "nominate", "target": 3, "accepted": True},
    {"text": "выставляю седьмого", "kind": "nominate", "target": 7, "accepted": True},
    {"text": "выдвигаю номер девять", "kind": "nominate", "target": 9, "accepted": True},
    {"text": "выношу на голосование номер два", "kind": "nominate", "target": 2,
     "accepted": True},
    {"text": "выставляю кандидатуру номер десять", "kind": "nominate", "target": 10,
     "accepted": True},
    {"text": "выставлю номер пять", "kind": "nominate", "target": 5, "accepted": False},
    {"text": "буду выставлять номер четыре", "kind": "nominate", "target": 4,
     "accepted": False},
    {"text": "выставим номер шесть", "kind": "nominate", "target": 6, "accepted": False},
    {"text": "я бы выставил номер восемь", "kind": "nominate", "target": 8, "accepted": False},
    {"text": "хочу выставить номер один", "kind": "nominate", "target": 1, "accepted": False},
    {"text": "снимаю номер пять", "kind": "withdraw", "target": 5, "accepted": True},
    {"text": "спасибо", "kind": "end_speech", "target": None, "accepted": True},
    {"text": "пас", "kind": "end_speech", "target": None, "accepted": True},
]


def _pydub() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # no ffmpeg needed for WAV
        warnings.simplefilter("ignore", DeprecationWarning)  # audioop, before Python 3.13
        import pydub

    return pydub


def render(text: str, voice: str, out: Path, *, speed: int = 160) -> Path:
    """Speak ``text`` with espeak-ng voice ``voice`` into ``out`` (16 kHz mono s16le WAV)."""
    if shutil.which("espeak-ng") is None:
        raise RuntimeError("espeak-ng is not installed (apt-get install espeak-ng)")
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "raw.wav"
        subprocess.run(
            ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(raw), text],
            check=True, capture_output=True,
        )
        seg = _pydub().AudioSegment.from_wav(str(raw))
        seg = seg.set_channels(1).set_sample_width(2).set_frame_rate(16000)
        out.parent.mkdir(parents=True, exist_ok=True)
        seg.export(str(out), format="wav")
    return out


def make(lang: str, out: Path) -> list[dict[str, Any]]:
    """Render every clip of ``lang`` ("ko" or "ru") into ``out`` and write its manifest."""
    if lang == "ko":
        clips = [dict(c) for c in KOREAN]
        voice = "ko"
    elif lang == "ru":
        clips = [dict(c, file=f"ru{i:02d}.wav") for i, c in enumerate(RUSSIAN)]
        voice = "ru"
    else:
        raise ValueError(f"no fixtures for language {lang!r}")
    for clip in clips:
        render(clip["text"], voice, out / clip["file"])
    manifest: dict[str, Any] = {"lang": lang, "voice": f"espeak-ng {voice}", "clips": clips}
    if lang == "ko":
        manifest["grammar"] = KOREAN_GRAMMAR
    (out / "manifest.json").write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    return clips


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--lang ko|ru``, ``--out DIR``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--lang", choices=("ko", "ru"), default="ko")
    p.add_argument("--out", type=Path, help="folder (default tests/fixtures/speech/LANG)")
    args = p.parse_args(argv)
    out = args.out or DEFAULT_OUT / args.lang
    clips = make(args.lang, out)
    size = sum((out / c["file"]).stat().st_size for c in clips)
    print(f"{len(clips)} clips, {size / 1024:.0f} KiB in {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
