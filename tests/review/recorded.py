"""A recorded session for the review's tests: day 1 of a crime-time game at a table, heard
through the real Vosk path (the Korean CI model, the test grammar of tests/play/test_play_vosk)
and recorded as ``narrator play --record`` records it.

| Korean | stands for |
| --- | --- |
| 안녕하세요 | «выставляю номер пять»: nominate 5, accepted |
| 아니요 | «выставлю пятого»: nominate 5, refused (future_tense) |
| 좋아요 | «выставляю номер семь»: nominate 7, accepted |
| 감사합니다 | «спасибо»: the speech ends |

Seat 1 nominates 5, seat 2 says it in the future tense, seat 3 nominates 7, every speech ends
on «감사합니다»; the operator gives seat 4 a foul and enters the hands of the vote.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from narrator.audio.listener import EchoGate
from narrator.audio.session import INPUTS, SessionRecorder
from narrator.audio.sources import PcmSource, load_pcm, pad, silence
from narrator.audio.vosk_recognizer import table_recognizer
from narrator.clock import VirtualClock
from narrator.grammar import Intent
from narrator.host.hearing import Hearing
from narrator.host.recorder import Recorder
from narrator.listening import DEFAULT_CHUNK_MS, ListeningLoop
from narrator.testing import ScriptedOperator
from narrator.voice.manifest import default_manifest
from tests.helpers import day_one

ROOT = Path(__file__).resolve().parents[2]
KO_DIR = ROOT / "tests" / "fixtures" / "speech" / "ko"
HELLO, THANKS, NO, GOOD = "안녕하세요", "감사합니다", "아니요", "좋아요"
START = 7000.0  # a monotonic-clock timeline, as from the microphone
#: the operator's entries: a foul while seat 1 speaks, then the hands for 5 and for 7
OPERATOR = ["f 4", "1 2 4 6", "3 5 7 8 9 10"]

_MEANING = {
    HELLO: Intent("nominate", 5, True, None, HELLO),
    NO: Intent("nominate", 5, False, "future_tense", NO),
    GOOD: Intent("nominate", 7, True, None, GOOD),
    THANKS: Intent("end_speech", None, True, None, THANKS),
}


def ko_parse(text: str) -> list[Intent]:
    found = [_MEANING[w] for w in text.split() if w in _MEANING]
    return found or [Intent("none", None, False, "no_intent", text)]


HEARING = Hearing([HELLO, THANKS, NO, GOOD], ko_parse)


@lru_cache(maxsize=1)
def clips() -> dict[str, bytes]:
    manifest = json.loads((KO_DIR / "manifest.json").read_text("utf-8"))
    return {c["text"]: load_pcm(KO_DIR / c["file"]) for c in manifest["clips"]}


def mic_audio() -> bytes:
    """Ten speeches of day 1, then the quiet of the vote."""
    c = clips()
    said = {1: [HELLO], 2: [NO], 3: [GOOD]}
    parts = []
    for seat in range(1, 11):
        parts += [pad(c[w], 1.2, 0.8) for w in said.get(seat, [])]
        parts.append(pad(c[THANKS], 0.8, 1.2))
    return b"".join(parts) + silence(20.0)


@dataclass
class Recorded:
    folder: Path
    loop: ListeningLoop
    audio: bytes


def record(folder: Path, model: Any) -> Recorded:
    """Play the table on ``model`` and record it in ``folder``."""
    audio = mic_audio()
    operator = ScriptedOperator(OPERATOR)
    with SessionRecorder(folder) as session:
        inputs = Recorder(folder / INPUTS)
        loop = ListeningLoop(
            day_one(), clock=VirtualClock(START),
            source=PcmSource(audio, chunk_ms=DEFAULT_CHUNK_MS, start=START),
            recognizer=table_recognizer(model, list(HEARING.phrases)), hearing=HEARING,
            operator=operator, entries=operator, manifest=default_manifest("ru"),
            timer_delay=lambda: 0.6, echo=EchoGate(tail=0.1), session=session, recorder=inputs)
        loop.run()
        inputs.close()
    return Recorded(folder, loop, audio)
