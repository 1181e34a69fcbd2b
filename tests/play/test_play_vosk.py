"""The hostless table on the real Vosk path (the Korean CI model), recorded and replayed.

No Russian model in CI, so these tests use a *test grammar* on the Korean model: the espeak-ng
Korean clips in tests/fixtures/speech/ko/ stand for table phrases —

| Korean | stands for | intent |
| --- | --- | --- |
| 안녕하세요 | «выставляю номер пять» | nominate 5, accepted |
| 아니요 | «выставлю пятого» | nominate 5, refused (future_tense) |
| 감사합니다 | «спасибо» | end of speech |
| 좋아요 | anything else | no intent |

Everything else is the code that runs at a table: the listening loop, echo gate, recognizer,
early decider, engine, session recorder; and the replay reads the folder back.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.format import RECOGNIZER_FORMAT
from narrator.audio.listener import EchoGate
from narrator.audio.session import INPUTS, SessionRecorder
from narrator.audio.sources import PcmSource, load_pcm, pad, silence
from narrator.audio.vosk_recognizer import table_recognizer
from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import Game
from narrator.engine import waits as w
from narrator.grammar import Intent
from narrator.host.hearing import Hearing
from narrator.host.recorder import Recorder
from narrator.listening import DEFAULT_CHUNK_MS, ListeningLoop
from narrator.reasons import words as reason_words
from narrator.replay import session as session_replay
from narrator.testing import ScriptedOperator, korean_test_model
from narrator.voice.manifest import default_manifest
from tests.helpers import day_one

ROOT = Path(__file__).resolve().parents[2]
KO_DIR = ROOT / "tests" / "fixtures" / "speech" / "ko"
HELLO, THANKS, NO, GOOD = "안녕하세요", "감사합니다", "아니요", "좋아요"
START = 5000.0  # a monotonic-clock timeline, as from the microphone


@lru_cache(maxsize=1)
def _clips() -> dict[str, bytes]:
    manifest = json.loads((KO_DIR / "manifest.json").read_text("utf-8"))
    return {c["text"]: load_pcm(KO_DIR / c["file"]) for c in manifest["clips"]}


_MEANING = {
    HELLO: Intent("nominate", 5, True, None, HELLO),
    NO: Intent("nominate", 5, False, "future_tense", NO),
    THANKS: Intent("end_speech", None, True, None, THANKS),
}


def ko_parse(text: str) -> list[Intent]:
    found = [_MEANING[w] for w in text.split() if w in _MEANING]
    return found or [Intent("none", None, False, "no_intent", text)]


KO_HEARING = Hearing([HELLO, THANKS, NO, GOOD], ko_parse)


def mic_audio() -> tuple[bytes, tuple[float, float]]:
    """Seat 1 nominates and ends; seat 2 says it in the future tense, then ends; during seat
    3's speech the narrator's own «안녕하세요» comes back through the microphone."""
    c = _clips()
    parts = [pad(c[HELLO], 1.5, 0.8), pad(c[THANKS], 0.0, 1.2),  # seat 1
             pad(c[NO], 1.5, 1.2), pad(c[THANKS], 0.0, 1.2)]  # seat 2
    before = sum(len(p) for p in parts) + len(silence(1.0))
    echo = pad(c[HELLO], 2.0, 1.5)  # seat 3: the narrator's voice, gated
    span = (START + RECOGNIZER_FORMAT.duration(before) - 0.1,
            START + RECOGNIZER_FORMAT.duration(before + len(echo) - len(silence(1.5))))
    return b"".join(parts) + echo, span


def make_core(game: Game, audio: bytes, span: tuple[float, float], model: Any,
              session: SessionRecorder | None = None, recorder: Recorder | None = None,
              log: list[str] | None = None) -> ListeningLoop:
    echo = EchoGate(tail=0.1)
    echo.close(*span)
    delays = iter([0.8, 1.1, 0.9, 1.3])  # the announcements delay each speech timer
    operator = ScriptedOperator([])
    return ListeningLoop(
        game, clock=VirtualClock(START),
        source=PcmSource(audio, chunk_ms=DEFAULT_CHUNK_MS, start=START),
        recognizer=table_recognizer(model, list(KO_HEARING.phrases)), hearing=KO_HEARING,
        operator=operator, entries=operator, manifest=default_manifest("ru"),
        timer_delay=lambda: next(delays, 0.5), echo=echo, session=session, recorder=recorder,
        log=log.append if log is not None else None)


def test_speech_through_vosk_nominates_refuses_and_ends_early(ko_model: Any) -> None:
    audio, span = mic_audio()
    log: list[str] = []
    core = make_core(day_one(), audio, span, ko_model, log=log)
    core.run()
    game = core.game
    assert game.candidates == (5,)
    assert core.transcript.said.count("Принято") == 1
    assert [(r.seat, r.reason) for r in game.refused] == [(2, "future_tense")]
    assert any(reason_words("future_tense", "ru") in x for x in log)
    # both speeches ended early on «감사합니다»; the echo was not heard in seat 3's speech
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 3
    assert [h.actions for h in core.heard if not h.late] == [
        ["nominate 5"], ["end"], ["malformed nominate 5 future_tense"], ["end"]]
    assert all(h.actions == [] for h in core.heard if h.late)  # the tail of an ended speech
    # decided on the pause after the phrase, long before Vosk's endpoint (0.5 s of silence)
    hello_end = START + 1.5 + len(_clips()[HELLO].rstrip(b"\0")) / 32000
    assert 0.0 < core.heard[0].t - hello_end < 0.3
    assert max(h.t for h in core.heard if h.actions) - START < 12.0  # not the 60 s limit


def test_a_recorded_session_replays_to_the_same_protocol(ko_model: Any, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    audio, span = mic_audio()
    folder = tmp_path / "session"
    with SessionRecorder(folder) as session:
        recorder = Recorder(folder / INPUTS)
        live = make_core(day_one(), audio, span, ko_model, session, recorder)
        live.run()
        recorder.close()
    recorded = json.loads((folder / "protocol.json").read_text("utf-8"))
    assert recorded == json.loads(json.dumps(live.protocol(), ensure_ascii=False))
    assert live.game.candidates == (5,)

    result = session_replay.replay_session(folder, model=ko_model, hearing=KO_HEARING)
    assert result.divergence is None
    assert json.dumps(result.protocol(), ensure_ascii=False) == json.dumps(
        live.protocol(), ensure_ascii=False)
    assert [h.text for h in result.table.heard] == [h.text for h in live.heard]

    # the command line: `narrator replay DIR --json` (the test grammar and the loaded model)
    monkeypatch.setattr(session_replay, "game_hearing", lambda lang, seats: KO_HEARING)
    monkeypatch.setattr(session_replay, "load_model", lambda path: ko_model)
    monkeypatch.setenv("NARRATOR_MODEL", str(korean_test_model()))
    assert main(["replay", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == recorded
    assert main(["replay", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "seat 1 nominates 5" in out and "refused: seat 2 nominate 5 (future_tense)" in out
