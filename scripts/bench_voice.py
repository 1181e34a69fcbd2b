#!/usr/bin/env python3
"""Benchmark the voice path on the real clock.

1. say(key) → first voice sample written to the sink, with a pack clip (target < 20 ms);
2. the same with on-the-fly synthesis, the pack having no clip (target < 150 ms);
3. timer accuracy: the driver on the MonotonicClock: marks («Десять секунд»-like) over ``--seconds``
   (default 120) while the player runs live with a night bed (target: late by < 50 ms).

The sink stands in for a sound card: it accepts chunks at once and notes when the first voice
sample arrives (the player's live thread paces itself on the clock). Prints p50/p95/max.

    .venv/bin/python scripts/bench_voice.py [--seconds 120] [--trials 40] [--voices DIR]
                                            [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from narrator.audio.format import AudioChunk, AudioFormat
from narrator.audio.noise import soft_noise
from narrator.audio.playback import AudioPlayer
from narrator.clock import MonotonicClock
from narrator.host.driver import Driver
from narrator.host.scheduler import Scheduler
from narrator.voice.manifest import default_voices_root
from narrator.voice.pack import VoicePack


class FirstSampleSink:
    """A device stand-in: notes the time of the first chunk holding voice after ``arm()``."""

    def __init__(self, rate: int = 22050) -> None:
        self.format = AudioFormat(rate=rate)
        self._armed = False
        self.hit = threading.Event()
        self.at = 0.0

    def arm(self) -> None:
        self.hit.clear()
        self._armed = True

    def write(self, chunk: AudioChunk) -> None:
        # The bed is silent during the latency runs, so any non-zero sample is the voice.
        if self._armed and np.frombuffer(chunk.audio, dtype="<i2").any():
            self.at = time.perf_counter()
            self._armed = False
            self.hit.set()

    def close(self) -> None:
        pass


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


FIGURES: list[dict[str, object]] = []
QUIET = False


def report(name: str, ms: list[float], target: float) -> bool:
    p50, p95, worst = statistics.median(ms), pct(ms, 0.95), max(ms)
    ok = p95 < target
    FIGURES.append({"name": f"{name} (p95)", "value": round(p95, 2), "unit": "ms",
                    "target": f"< {target:g}", "ok": ok})
    if not QUIET:
        print(
            f"{name:<34} p50 {p50:7.2f} ms  p95 {p95:7.2f} ms  max {worst:7.2f} ms"
            f"  (target p95 < {target:g} ms: {'ok' if ok else 'MISSED'})"
        )
    return ok


def latency(pack: VoicePack, keys: list[str], trials: int, fresh: bool) -> list[float]:
    """say(key) → first voice sample; ``fresh`` forgets synthesized clips between trials."""
    sink = FirstSampleSink()
    player = AudioPlayer(sink, MonotonicClock(), pack)
    player.start()
    out: list[float] = []
    rng = np.random.default_rng(0)
    try:
        for i in range(trials):
            key = keys[i % len(keys)]
            if fresh:
                pack._synth_cache.clear()  # the bench wants the synthesis cost every time
            sink.arm()
            t = time.perf_counter()
            player.say(key)
            if not sink.hit.wait(timeout=5):
                raise RuntimeError(f"no audio for {key}")
            out.append((sink.at - t) * 1000)
            player.stop()
            # Lines come tens of milliseconds apart at a table, not back to back.
            time.sleep(0.03 + 0.05 * rng.random())
    finally:
        player.close()
    return out


def timers(pack: VoicePack, seconds: float) -> list[float]:
    """Lateness (ms) of scheduler marks on the real clock, with the player live."""
    clock = MonotonicClock()
    sched = Scheduler(clock)
    sink = FirstSampleSink()
    player = AudioPlayer(sink, clock, pack)
    player.set_bed(soft_noise(8.0, sink.format.rate))
    player.start()
    late: list[float] = []
    start = clock.now()
    # A speech-like pattern: a mark at 50 s and 60 s of each minute, and a denser sprinkle of
    # marks at odd offsets so that there are enough samples in a short run.
    marks = sorted(
        {m for base in np.arange(0, seconds, 60.0) for m in (base + 50.0, base + 60.0)}
        | {float(x) for x in np.arange(1.37, seconds, 1.37)}
    )
    for m in marks:
        if m > seconds:
            continue
        deadline = start + m

        def fire(deadline: float = deadline) -> None:
            late.append((clock.now() - deadline) * 1000)
            player.say("ten_seconds", urgent=True)

        sched.call_at(deadline, f"mark{m}", fire)
    driver = Driver(sched, lambda event: None)
    try:
        # The host loop's way of waiting: the driver waits on the clock for each deadline.
        while driver.run_next():
            pass
    finally:
        player.close()
    return late


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="timer run (default 120)")
    parser.add_argument("--trials", type=int, default=40, help="latency trials (default 40)")
    parser.add_argument("--voices", metavar="DIR", help="pack folder (default voices/ru)")
    parser.add_argument("--quick", action="store_true", help="8 trials, 5 s of timers")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    global QUIET
    QUIET = args.json
    if args.quick:
        args.seconds, args.trials = 5.0, 8

    pack_dir = Path(args.voices) if args.voices else default_voices_root() / "ru"
    ok = True
    with VoicePack.load(pack_dir) as pack:
        missing = [k for k in pack if pack.clip(k) is None]
        if missing:
            print(f"{pack_dir}: {len(missing)} clips missing; run `narrator voices build`",
                  file=sys.stderr)
            return 1
        keys = ["accepted", "withdrawn", "ten_seconds", "thanks"]
        latency(pack, keys, 5, fresh=False)  # warm-up: caches, threads
        ok &= report("say(key) -> first sample, clip", latency(pack, keys, args.trials, False), 20)

    # The same pack with no clips at all: everything is synthesized on the fly.
    tmp = Path(tempfile.mkdtemp(prefix="narrator-bench-"))
    try:
        shutil.copyfile(pack_dir / "manifest.json", tmp / "manifest.json")
        with VoicePack.load(tmp) as empty:
            empty.synthesizer().start()  # the host does this at start-up (warm_up)
            keys = [f"who_for.{n}" for n in range(1, 11)] + ["accepted", "withdrawn"]
            ms = latency(empty, keys, args.trials, fresh=True)
            ok &= report("say(key) -> first sample, synth", ms, 150)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    with VoicePack.load(pack_dir) as pack:
        if not QUIET:
            print(f"timer marks on the real clock for {args.seconds:g} s ...", flush=True)
        late = timers(pack, args.seconds)
        ok &= report(f"timer lateness ({len(late)} marks)", late, 50)
    if args.json:
        print(json.dumps({"bench": "voice", "figures": FIGURES}, ensure_ascii=False))
        return 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
