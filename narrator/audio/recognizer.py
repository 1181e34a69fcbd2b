"""What a speech recognizer is to the rest of narrator: chunks in, typed events out.

A :class:`Recognizer` is fed the stream's chunks in order and answers with :class:`Partial`
guesses and :class:`Final` utterances, on the stream's own timeline. Vosk implements it
(:class:`narrator.audio.vosk_recognizer.VoskRecognizer`); so does the scripted recognizer of
the tests (:class:`narrator.testing.ScriptedRecognizer`) — the listening loop knows only this
protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from narrator.audio.format import AudioChunk


@dataclass(frozen=True, slots=True)
class Word:
    """One recognized word; ``start``/``end`` on the stream timeline (seconds).

    ``conf`` is Vosk's posterior (0..1); ``None`` when Vosk gave none (plain partials).
    """

    word: str
    start: float
    end: float
    conf: float | None = None


@dataclass(frozen=True, slots=True)
class Partial:
    """The current best guess of an utterance in progress.

    ``t`` is the stream time of the end of the audio fed so far.
    """

    text: str
    t: float
    words: tuple[Word, ...] = ()
    quiet: float = 0.0  # seconds of quiet audio (below the recognizer's level) ending at t


@dataclass(frozen=True, slots=True)
class Final:
    """A finished utterance, with word timings and confidences.

    ``t`` is the stream time of the end of the audio fed when it was produced; ``endpoint`` is
    True when the utterance ended on trailing silence (Vosk's endpoint, or the voice-activity
    detector's: ``cut``), False when it was flushed.
    """

    text: str
    words: tuple[Word, ...]
    t: float
    endpoint: bool = True
    cut: bool = False  # ended by the voice-activity detector, not by Vosk's endpoint

    @property
    def end(self) -> float | None:
        """End of the last word on the stream timeline (None when empty)."""
        return self.words[-1].end if self.words else None


RecognitionEvent = Partial | Final


class Recognizer(Protocol):
    """A streaming recognizer, constrained (or not) to a list of phrases."""

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        """Feed the next chunk of the stream; the events it completes."""
        ...

    def flush(self) -> list[RecognitionEvent]:
        """End the current utterance now (end of stream): its Final, if anything was heard."""
        ...

    def reset(self) -> None:
        """Drop the utterance in progress (a new speaker); keep the grammar and the timeline."""
        ...

    def set_grammar(self, phrases: Sequence[str] | None) -> list[str]:
        """Constrain recognition to ``phrases`` (``None``: free speech); a new utterance
        starts. Returns the words that cannot be heard (missing from the model)."""
        ...
