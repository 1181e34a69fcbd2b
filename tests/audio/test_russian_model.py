"""Russian speech through the recognizer and the grammar — wherever a Russian model exists.

espeak-ng Russian renders every nomination form, the future-tense and subjunctive traps,
withdrawals and end phrases (scripts/make_speech_fixtures.py); the verdict on each must match
what the grammar gives for the text. Skipped, with how to get a model, when there is none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.decider import StableDecider
from narrator.audio.listener import Listener
from narrator.audio.recognizer import Final
from narrator.audio.sources import PcmSource, WavFileSource, load_pcm, pad
from narrator.audio.vosk_recognizer import VoskRecognizer

pytestmark = pytest.mark.russian_model

# Verb forms whose tense twin is also in the grammar: never trusted on a partial alone.
GUARDED = ("выставляю", "выставлю", "выставим", "выставил", "выдвигаю", "выдвину", "снимаю",
           "сниму")


@pytest.fixture(scope="module")
def ru_grammar() -> list[str]:
    from narrator.grammar.vocab import phrase_list

    return phrase_list("ru", 10)


def clips(folder: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((folder / "manifest.json").read_text("utf-8"))[
        "clips"
    ]
    return data


def heard(model: Any, grammar: list[str], wav: Path) -> str:
    rec = VoskRecognizer(model, phrases=grammar)
    src = WavFileSource(wav, pad_before=0.3, pad_after=1.0)
    return " ".join(e.text for e in Listener(src, rec).events() if isinstance(e, Final))


def test_the_russian_model_takes_the_game_grammar(ru_model: Any, ru_grammar: list[str]) -> None:
    rec = VoskRecognizer(ru_model, phrases=ru_grammar)
    assert rec.unk is not None
    assert "выставляю" not in rec.dropped_words and "пять" not in rec.dropped_words


def test_every_form_gets_the_right_verdict(
    ru_model: Any, ru_grammar: list[str], ru_clips: Path
) -> None:
    from narrator.grammar import parse
    from narrator.grammar.correct import correct

    wrong = []
    for clip in clips(ru_clips):
        text = heard(ru_model, ru_grammar, ru_clips / clip["file"])
        intents = parse(correct(text, "ru", 10), "ru", 10)
        got = (intents[0].kind, intents[0].target, intents[0].accepted) if intents else None
        if got != (clip["kind"], clip["target"], clip["accepted"]):
            wrong.append(f"{clip['text']!r} heard as {text!r} -> {got}")
    assert not wrong, "\n".join(wrong)


def test_a_nomination_is_decided_before_the_endpoint(
    ru_model: Any, ru_grammar: list[str], ru_clips: Path
) -> None:
    from narrator.grammar import parse

    clip = next(c for c in clips(ru_clips) if c["text"] == "выставляю номер пять")
    pcm = pad(load_pcm(ru_clips / clip["file"]), 0.3, 1.5)

    def complete(text: str) -> bool:
        return any(i.kind == "nominate" and i.target is not None for i in parse(text, "ru", 10))

    decider = StableDecider(complete, guard=lambda w: w in GUARDED)
    listener = Listener(PcmSource(pcm, chunk_ms=50), VoskRecognizer(ru_model, phrases=ru_grammar),
                        decider=decider)
    decisions = [(e, d) for e, d in listener.decisions() if d is not None]
    assert decisions, "no decision"
    first = decisions[0][1]
    assert first is not None and "пять" in first.text


def test_two_phrases_two_finals(ru_model: Any, ru_grammar: list[str], ru_clips: Path) -> None:
    by_text = {c["text"]: c for c in clips(ru_clips)}
    a = load_pcm(ru_clips / by_text["выставляю номер пять"]["file"])
    b = load_pcm(ru_clips / by_text["спасибо"]["file"])
    events = Listener(PcmSource(pad(a, 0.3, 1.2) + pad(b, 0.0, 1.2)),
                      VoskRecognizer(ru_model, phrases=ru_grammar)).events()
    texts = [e.text for e in events if isinstance(e, Final)]
    assert len(texts) == 2 and texts[1] == "спасибо"
