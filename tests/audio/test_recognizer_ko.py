"""The whole Vosk path with a real model (Korean, from PyPI): grammar, streaming, timings,
endpointing, early decisions."""

from __future__ import annotations

from typing import Any

import pytest

from narrator.audio.decider import Decision, StableDecider
from narrator.audio.format import AudioChunk
from narrator.audio.listener import Listener
from narrator.audio.recognizer import Final, Partial, RecognitionEvent
from narrator.audio.sources import PcmSource, pad, silence
from narrator.audio.vosk_recognizer import VoskRecognizer
from narrator.errors import NarratorError

HELLO, THANKS = "안녕하세요", "감사합니다"


def run(rec: VoskRecognizer, pcm: bytes, *, chunk_ms: int = 100,
        start: float = 0.0) -> list[RecognitionEvent]:
    return list(Listener(PcmSource(pcm, chunk_ms=chunk_ms, start=start), rec).events())


def finals(events: list[RecognitionEvent]) -> list[Final]:
    return [e for e in events if isinstance(e, Final)]


def test_model_reports_its_unknown_token(ko_model: Any, ko_model_path: Any) -> None:
    rec = VoskRecognizer(ko_model, phrases=[HELLO], model_path=ko_model_path)
    assert rec.unk == "<UNK>"
    assert rec.phrases == [HELLO]


def test_words_missing_from_the_model_are_dropped_and_reported(ko_model: Any) -> None:
    rec = VoskRecognizer(ko_model, phrases=[HELLO, "выставляю пять", THANKS])
    assert rec.phrases == [HELLO, THANKS]
    assert rec.dropped_words == ["выставляю", "пять"]


def test_a_grammar_with_no_known_word_is_an_error(ko_model: Any) -> None:
    class NoUnk:  # a model with neither the words nor an unknown token
        def vosk_model_find_word(self, _w: str) -> int:
            return -1

    with pytest.raises(NarratorError, match="no word the speech model knows"):
        VoskRecognizer(NoUnk(), phrases=["выставляю"])


@pytest.mark.parametrize("text", [HELLO, THANKS, "아니요", "좋아요"])
def test_streaming_a_clip_gives_its_final_with_timings(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes], text: str
) -> None:
    rec = VoskRecognizer(ko_model, phrases=ko_grammar)
    pcm = pad(ko_pcm[text], 0.5, 1.0)
    start = 100.0  # an arbitrary stream timeline: times must come back on it
    got = finals(run(rec, pcm, start=start))
    assert [f.text for f in got] == [text]
    (word,) = got[0].words
    assert word.word == text
    span_end = start + len(pcm) / 32000
    assert start + 0.5 - 0.15 <= word.start < word.end <= start + 0.5 + len(ko_pcm[text]) / 32000
    assert word.end <= got[0].t <= span_end
    assert word.conf is not None and word.conf > 0.5


def test_chunk_size_does_not_change_the_result(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    pcm = pad(ko_pcm[HELLO], 0.3, 1.0)
    a = finals(run(VoskRecognizer(ko_model, phrases=ko_grammar), pcm, chunk_ms=50))
    b = finals(run(VoskRecognizer(ko_model, phrases=ko_grammar), pcm, chunk_ms=100))
    assert [f.text for f in a] == [f.text for f in b] == [HELLO]
    assert abs(a[0].words[0].end - b[0].words[0].end) < 0.05


def test_endpointing_two_phrases_separated_by_silence(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    pcm = pad(ko_pcm[HELLO], 0.3, 1.2) + pad(ko_pcm[THANKS], 0.0, 1.2)
    events = run(VoskRecognizer(ko_model, phrases=ko_grammar), pcm)
    got = finals(events)
    assert [f.text for f in got] == [HELLO, THANKS]
    # Both ended by Vosk's own endpoint on silence, not by the end of the stream.
    assert all(f.endpoint for f in got)
    # The second utterance's times are on the same timeline, after the first.
    second_start = 0.3 + len(ko_pcm[HELLO]) / 32000 + 1.2
    assert got[0].words[-1].end < second_start <= got[1].words[0].start + 0.2
    # Partials came first, while the phrase was still being heard.
    first_final = events.index(got[0])
    assert any(isinstance(e, Partial) and e.text == HELLO for e in events[:first_final])


def test_timeline_gaps_are_mapped_back(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    # Chunks that jump on the timeline (lost audio) keep word times on the stream timeline.
    rec = VoskRecognizer(ko_model, phrases=ko_grammar)
    rec.feed(AudioChunk(silence(1.0), timestamp=0.0))
    pcm = pad(ko_pcm[HELLO], 0.3, 1.5)
    events: list[RecognitionEvent] = []
    for chunk in PcmSource(pcm, start=50.0).chunks():
        events += rec.feed(chunk)
    events += rec.flush()
    (final,) = finals(events)
    assert 50.0 < final.words[0].start < final.words[0].end < 50.0 + len(pcm) / 32000


def test_set_grammar_per_phase_keeps_the_timeline(
    ko_model: Any, ko_pcm: dict[str, bytes]
) -> None:
    rec = VoskRecognizer(ko_model, phrases=[HELLO])
    first = finals(run(rec, pad(ko_pcm[HELLO], 0.3, 1.2)))
    assert [f.text for f in first] == [HELLO]
    rec.set_grammar([THANKS, "아니요"])
    events: list[RecognitionEvent] = []
    t0 = rec.position
    for chunk in PcmSource(pad(ko_pcm[THANKS], 0.3, 1.2), start=t0).chunks():
        events += rec.feed(chunk)
    (final,) = finals(events)
    assert final.text == THANKS
    assert final.words[0].start > t0


def test_out_of_grammar_speech_is_the_unknown_token(
    ko_model: Any, ko_pcm: dict[str, bytes]
) -> None:
    rec = VoskRecognizer(ko_model, phrases=["아니요"])
    got = finals(run(rec, pad(ko_pcm[THANKS], 0.3, 1.2)))
    assert HELLO not in " ".join(f.text for f in got)
    assert all(w.word in ("<UNK>", "아니요") for f in got for w in f.words)


def test_early_decision_fires_before_the_endpoint(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    pcm = pad(ko_pcm[HELLO], 0.3, 1.5)
    decider = StableDecider(lambda text: text == HELLO, stable_partials=2, stable_ms=100)
    rec = VoskRecognizer(ko_model, phrases=ko_grammar)
    listener = Listener(PcmSource(pcm, chunk_ms=50), rec, decider=decider)
    decisions: list[Decision[bool]] = []
    final: Final | None = None
    for event, decision in listener.decisions():
        if decision is not None:
            decisions.append(decision)
        if isinstance(event, Final):
            final = event
    assert final is not None and final.text == HELLO
    # One decision only: the early one; the agreeing Final is not reported again.
    assert [(d.text, d.early) for d in decisions] == [(HELLO, True)]
    assert decisions[0].t < final.t
    # Early enough to matter: well before Vosk's own endpoint on trailing silence.
    assert final.t - decisions[0].t >= 0.3
    assert decisions[0].t - final.words[-1].end < 0.3


def test_guarded_words_wait_for_the_final(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    pcm = pad(ko_pcm[HELLO], 0.3, 1.5)
    decider = StableDecider(lambda text: text == HELLO, guard=lambda w: w == HELLO,
                            guard_stable_ms=None)
    rec = VoskRecognizer(ko_model, phrases=ko_grammar)
    out = [d for _, d in Listener(PcmSource(pcm), rec, decider=decider).decisions() if d]
    assert [(d.text, d.early) for d in out] == [(HELLO, False)]
    assert out[0].end is not None and out[0].words[0].conf is not None


def test_a_shorter_word_seen_mid_word_is_not_decided(
    ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    # Inside 감사합니다 Vosk's partial shows 좋아요 for a while; the pause rule keeps the
    # decider from taking it.
    pcm = pad(ko_pcm[THANKS], 0.3, 1.5)
    decider = StableDecider(lambda text: text in ko_grammar)
    rec = VoskRecognizer(ko_model, phrases=ko_grammar)
    out = [d for _, d in Listener(PcmSource(pcm, chunk_ms=50), rec, decider=decider).decisions()
           if d is not None]
    assert [(d.text, d.revised) for d in out] == [(THANKS, False)]
