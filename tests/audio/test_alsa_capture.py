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
