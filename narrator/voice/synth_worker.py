"""The speech worker: a subprocess that owns one pyttsx3 engine and renders phrases to WAV files.

pyttsx3 is not thread-safe, queues badly and prints to stdout, so it lives alone in this
process. Protocol (JSON, one object per line): the worker first answers
``{"ready": true, "voice": ID}`` or ``{"error": MESSAGE}``; then for each request
``{"text": ..., "path": ...}`` it writes the WAV and answers ``{"ok": true}`` or
``{"error": MESSAGE}``. Run as ``python -m narrator.voice.synth_worker LANG [RATE]``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO


def _send(out: TextIO, obj: dict[str, Any]) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")
    out.flush()


def voice_matches(voice_id: str, lang: str) -> bool:
    """espeak-ng ids look like ``zle/ru``; ``ru`` is accepted as a request for it."""
    return voice_id == lang or voice_id.rsplit("/", 1)[-1] == lang


def keep_tail(engine: Any) -> None:
    """Work around pyttsx3 2.99 dropping the last audio buffer of a phrase.

    Its espeak callback writes the file on the end-of-message event *before* appending the
    samples delivered with that same event; when a short phrase arrives in one buffer together
    with that event, the file comes out empty (seen for «два» about one time in ten). So append
    those samples first and hand the original callback an empty buffer.
    """
    import ctypes

    from pyttsx3.drivers import _espeak

    driver = engine.proxy._driver
    original = driver._onSynth

    def on_synth(wav: Any, numsamples: int, events: Any) -> int:
        if numsamples > 0 and getattr(driver, "_speaking", False):
            i = 0
            while events[i].type != _espeak.EVENT_LIST_TERMINATED:
                if events[i].type == _espeak.EVENT_MSG_TERMINATED:
                    size = numsamples * ctypes.sizeof(ctypes.c_short)
                    driver._data_buffer += ctypes.string_at(wav, size)
                    return int(original(wav, 0, events))
                i += 1
        return int(original(wav, numsamples, events))

    _espeak.SetSynthCallback(on_synth)


def wav_frames(path: str) -> int:
    """Frames in the WAV at ``path`` (0 if unreadable)."""
    import wave

    try:
        with wave.open(path, "rb") as w:
            return w.getnframes()
    except (OSError, EOFError, wave.Error):
        return 0


def main(argv: list[str]) -> int:
    """Serve requests on stdin until it closes."""
    lang = argv[0]
    rate = int(argv[1]) if len(argv) > 1 else 0
    # The protocol gets a private copy of stdout; fd 1 itself goes to stderr, because pyttsx3
    # prints "Audio saved to ..." and espeak may print too, which would corrupt the protocol.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        import pyttsx3

        engine = pyttsx3.init()
        # Without this empty run the first runAndWait returns before the file is written.
        engine.runAndWait()
        keep_tail(engine)
        engine.setProperty("voice", lang)
        voice = str(engine.getProperty("voice"))
        # An unknown voice id is silently ignored, so check that it took effect.
        if not voice_matches(voice, lang):
            _send(out, {"error": f"espeak-ng has no voice for '{lang}' (got '{voice}')"})
            return 1
        if rate:
            engine.setProperty("rate", rate)
    except Exception as e:
        _send(out, {"error": f"speech engine failed to start: {e}"})
        return 1
    _send(out, {"ready": True, "voice": voice})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            for _attempt in range(3):
                # One phrase per runAndWait: several queued save_to_file calls keep only the last.
                engine.save_to_file(str(req["text"]), str(req["path"]))
                engine.runAndWait()
                # Belt and braces: an empty file is retried rather than passed on as silence.
                if wav_frames(req["path"]) > 0:
                    break
            else:
                raise RuntimeError("the engine wrote no audio")
            _send(out, {"ok": True})
        except Exception as e:
            _send(out, {"error": str(e) or type(e).__name__})
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
