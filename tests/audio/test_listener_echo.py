"""The echo gate: the narrator's own voice in the microphone is never recognised."""

from __future__ import annotations

from typing import Any

from narrator.audio.listener import EchoGate, Listener
from narrator.audio.recognizer import Final
from narrator.audio.sources import PcmSource, pad
from narrator.audio.vosk_recognizer import VoskRecognizer

HELLO, THANKS = "안녕하세요", "감사합니다"


def test_gate_spans() -> None:
    spans: list[tuple[float, float]] = []
    gate = EchoGate(tail=0.1, on_close=lambda s, e: spans.append((s, e)))
    assert gate.is_open(1.0)
    gate.close(2.0, 3.0)
    assert gate.is_open(1.99) and not gate.is_open(2.0) and not gate.is_open(3.05)
    assert gate.is_open(3.1)
    assert not gate.is_open_span(1.5, 2.1) and gate.is_open_span(3.2, 4.0)
    gate.close_until(1.0)
    assert not gate.is_open(-5.0) and gate.is_open(1.2)
    assert spans == [(2.0, 3.1), (float("-inf"), 1.1)]


def test_the_narrators_voice_during_a_closed_gate_is_not_heard(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    # The microphone hears the narrator say 감사합니다, then a player say 안녕하세요.
    narrator = pad(ko_pcm[THANKS], 0.3, 0.0)
    player_at = len(narrator) / 32000 + 1.0
    mic = narrator + pad(ko_pcm[HELLO], 1.0, 1.5)

    # Without the gate, both are recognised.
    open_run = Listener(PcmSource(mic), VoskRecognizer(ko_model, phrases=ko_grammar))
    assert [e.text for e in open_run.events() if isinstance(e, Final)] == [THANKS, HELLO]

    # The player closes the gate for the span of its clip.
    gate = EchoGate(tail=0.15)
    gate.close(0.3, len(narrator) / 32000)
    listener = Listener(PcmSource(mic), VoskRecognizer(ko_model, phrases=ko_grammar), gate)
    events = list(listener.events())
    assert [e.text for e in events if isinstance(e, Final)] == [HELLO]
    # No event of any kind while the narrator spoke.
    assert all(e.t > len(narrator) / 32000 for e in events)
    final = next(e for e in events if isinstance(e, Final))
    assert final.words[0].start >= player_at - 0.2
    assert listener.gated_seconds > 0.5
