"""The microphone path end to end: a sounddevice input stream on the ALSA ``file`` plugin.

PortAudio reads the ALSA configuration once, at initialisation, so the capture runs in a fresh
subprocess with ``ALSA_CONFIG_PATH`` pointing at a config whose default capture device reads
``mic.raw``. The ALSA file plugin does not run in real time and returns garbage past the end of
the file, so mic.raw is padded with silence and the stream is stopped before its end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.listener import Listener
from narrator.audio.recognizer import Final
from narrator.audio.sources import PcmSource, pad
from narrator.audio.vosk_recognizer import VoskRecognizer
from tests.helpers import ALSA_BASE, alsa_file_device

HELLO = "안녕하세요"

CHILD = """
import json, sys
from narrator.audio.listener import Listener
from narrator.audio.recognizer import Final
from narrator.audio.sources import MicrophoneSource
from narrator.audio.vosk_recognizer import VoskRecognizer
model, seconds, grammar = sys.argv[1], float(sys.argv[2]), json.loads(sys.argv[3])
listener = Listener(MicrophoneSource(chunk_ms=100, max_seconds=seconds),
                    VoskRecognizer(model, phrases=grammar))
finals = [[e.text, [[w.word, w.start, w.end] for w in e.words]]
          for e in listener.events() if isinstance(e, Final)]
print(json.dumps(finals, ensure_ascii=False))
"""


@pytest.mark.skipif(not ALSA_BASE.exists(), reason="needs ALSA (alsa-utils / libasound2)")
def test_microphone_stream_gives_the_same_text_as_the_file(
    tmp_path: Path, ko_model: Any, ko_model_path: Path, ko_grammar: list[str],
    ko_pcm: dict[str, bytes],
) -> None:
    pcm = pad(ko_pcm[HELLO], 0.5, 1.5)
    device = alsa_file_device(tmp_path, mic_audio=pcm + pad(b"", 0.0, 2.0))  # past the end: silence
    done = device.run(CHILD, str(ko_model_path), str(len(pcm) / 32000),
                      json.dumps(ko_grammar, ensure_ascii=False), timeout=60)
    assert done.returncode == 0, done.stderr
    mic_finals = json.loads(done.stdout.strip().splitlines()[-1])

    file_events = Listener(PcmSource(pcm), VoskRecognizer(ko_model, phrases=ko_grammar)).events()
    file_finals = [[e.text, [[w.word, w.start, w.end] for w in e.words]]
                   for e in file_events if isinstance(e, Final)]
    assert [f[0] for f in mic_finals] == [f[0] for f in file_finals] == [HELLO]
    # The same bytes on the same timeline: the same word timings too.
    assert mic_finals == file_finals


STALL_CHILD = """
import time
from narrator.audio.sources import MicrophoneSource
from narrator.clock import MonotonicClock

said = []
def tell(back, why):
    print(("BACK " if back else "STALL ") + f"{time.monotonic():.3f} {why}", flush=True)
    said.append(back)

src = MicrophoneSource(chunk_ms=40, clock=MonotonicClock(), on_stall=tell)
print("OPEN", flush=True)
for chunk in src.chunks():
    print(f"CHUNK {time.monotonic():.3f}", flush=True)
    if True in said:  # it came back: any chunk after that ends the child
        break
src.close()
"""


@pytest.mark.skipif(not ALSA_BASE.exists(), reason="needs ALSA (alsa-utils / libasound2)")
def test_a_microphone_that_stops_delivering_is_noticed_within_a_second(tmp_path: Path) -> None:
    import contextlib
    import os
    import subprocess
    import sys

    fifo = tmp_path / "mic.fifo"
    os.mkfifo(fifo)
    device = alsa_file_device(tmp_path)
    device.conf.write_text(device.conf.read_text().replace(str(device.mic), str(fifo)))
    writer = os.open(fifo, os.O_RDWR)  # held open: the capture blocks, it never ends
    child = subprocess.Popen([sys.executable, "-c", STALL_CHILD], env=device.env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: list[str] = []
    try:
        os.write(writer, bytes(16000 * 2))  # one second of a quiet room, then nothing
        assert child.stdout is not None
        while not any(x.startswith("STALL") for x in lines):
            line = child.stdout.readline()
            assert line, lines
            lines.append(line.strip())
        os.write(writer, bytes(16000 * 2))  # the microphone delivers again
        while not any(x.startswith("BACK") for x in lines):
            line = child.stdout.readline()
            assert line, lines
            lines.append(line.strip())
        # the child ends at the chunk after «back» and stops the capture, whose thread may be
        # blocked reading the FIFO: keep it fed (a tenth of a second at a time, never blocking
        # this test) until the child is gone — under load one more second was not always
        # enough, and the stop waited for a read that never came
        os.set_blocking(writer, False)
        for _ in range(300):
            with contextlib.suppress(BlockingIOError):
                os.write(writer, bytes(3200))
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout=0.1)
                break
        assert child.poll() is not None, "the child did not end"
    finally:  # the process this test started, by its id
        child.kill()
        os.close(writer)
    stall = next(i for i, x in enumerate(lines) if x.startswith("STALL"))
    last_chunk = max(float(x.split()[1]) for x in lines[:stall] if x.startswith("CHUNK"))
    noticed = float(lines[stall].split()[1]) - last_chunk
    assert 0.4 < noticed < 1.0, lines[stall - 2: stall + 1]
    assert "microphone has delivered nothing" in lines[stall]
    assert any(x.startswith("BACK") and "delivers again" in x for x in lines)
