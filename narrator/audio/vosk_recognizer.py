"""The Vosk recognizer: a :class:`~narrator.audio.recognizer.Recognizer` on a Vosk model.

Measured with vosk 0.3.45 (and the Korean small model) — the facts this module is built on:

- ``SetGrammar`` / the grammar argument must be JSON with ``ensure_ascii=False``: escaped
  ``\\uXXXX`` words are not found in the vocabulary and are silently dropped.
- Words missing from the model's vocabulary are dropped by Vosk with a warning; we filter them
  first (``Model.vosk_model_find_word``) and report them instead.
- ``SetPartialWords(True)`` makes partials lag by more than a second (and, with a grammar, be
  empty until the endpoint), so it is off by default: plain partials show the best path while
  the word is still being spoken, which is what the early decision needs.
- Word times in results are counted from the recognizer's first sample, across utterances.
  We map them back to the stream timeline, including across gaps in the timestamps.
- ``SetEndpointerDelays`` does not exist in 0.3.45 (it came later); endpointing comes from the
  model's ``conf/model.conf`` (rule2 0.5 s of trailing silence after speech in the small
  models). We call it when a newer Vosk has it.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk
from narrator.audio.recognizer import Final, Partial, RecognitionEvent, Word
from narrator.audio.vad import EnergyVad, LevelVad, Vad
from narrator.errors import NarratorError

UNKNOWN_TOKENS = ("[unk]", "<UNK>", "<unk>")


def _vosk() -> Any:
    import vosk

    # -1 hides Vosk's LOG lines (model loading chatter); warnings stay visible.
    vosk.SetLogLevel(-1)
    return vosk


def load_model(path: str | Path) -> Any:
    """Load a ``vosk.Model`` from a folder; a bad folder is a one-line NarratorError."""
    p = Path(path)
    if not (p / "am" / "final.mdl").is_file():
        raise NarratorError(f"not a Vosk model folder (no am/final.mdl): {p}")
    vosk = _vosk()
    try:
        return vosk.Model(str(p))
    except Exception as e:  # vosk raises a bare Exception("Failed to create a model")
        raise NarratorError(f"cannot load the Vosk model at {p}: {e}") from e


def unknown_token(model: Any, model_path: str | Path | None = None) -> str | None:
    """The model's unknown-word token (``[unk]`` in most models, ``<UNK>`` in some).

    Asked of the model's vocabulary first; falls back to ``graph/words.txt``.
    """
    for token in UNKNOWN_TOKENS:
        if model.vosk_model_find_word(token) >= 0:
            return token
    if model_path is not None:
        words = Path(model_path) / "graph" / "words.txt"
        if words.exists():
            vocab = {line.split(" ", 1)[0] for line in words.read_text("utf-8").splitlines()}
            for token in UNKNOWN_TOKENS:
                if token in vocab:
                    return token
    return None


@dataclass
class _Timeline:
    """Maps Vosk's sample-count time to the stream timeline, across timestamp gaps."""

    vosk_starts: list[float] = field(default_factory=list)
    stream_starts: list[float] = field(default_factory=list)
    fed: float = 0.0  # seconds fed to Vosk so far
    stream_end: float = 0.0  # stream time of the end of the last chunk

    def add(self, chunk: AudioChunk) -> None:
        # A new segment whenever the chunk does not continue where the last one ended.
        if not self.vosk_starts or abs(chunk.timestamp - self.stream_end) > 1e-6:
            self.vosk_starts.append(self.fed)
            self.stream_starts.append(chunk.timestamp)
        self.fed += chunk.duration
        self.stream_end = chunk.end

    def to_stream(self, vosk_time: float) -> float:
        if not self.vosk_starts:
            return vosk_time
        i = max(0, bisect.bisect_right(self.vosk_starts, vosk_time) - 1)
        return self.stream_starts[i] + (vosk_time - self.vosk_starts[i])


class VoskRecognizer:
    """A streaming Vosk recognizer constrained (optionally) to a phrase list.

    ``model`` is a loaded ``vosk.Model`` (load it once, share it) or a folder. The grammar is a
    list of phrases (``narrator.grammar.vocab.phrase_list``); the model's unknown token is
    appended so that out-of-grammar speech comes out as ``[unk]``/``<UNK>`` instead of being
    forced onto a game phrase. ``None`` means the model's full language model. ``vad`` tells
    how long the audio has been quiet (each Partial carries it): by default a chunk below
    ``quiet_dbfs`` is quiet. With ``end_after`` (seconds), the detector ends the utterance:
    once it has heard speech and then that much quiet, the Final comes at once (``cut=True``),
    without waiting for Vosk's own endpoint (half a second of silence in the small models).
    """

    def __init__(self, model: Any, *, phrases: Sequence[str] | None = None,
                 rate: int = RECOGNIZER_FORMAT.rate, partial_words: bool = False,
                 endpointer_delays: tuple[float, float, float] | None = None,
                 model_path: str | Path | None = None, quiet_dbfs: float = -40.0,
                 vad: Vad | None = None, end_after: float | None = None) -> None:
        if isinstance(model, str | Path):
            model_path = Path(model)
            model = load_model(model)
        self.model = model
        self.model_path = None if model_path is None else Path(model_path)
        self.rate = rate
        self.partial_words = partial_words
        self.endpointer_delays = endpointer_delays
        self.unk = unknown_token(model, self.model_path)
        self.phrases: list[str] | None = None
        self.dropped_words: list[str] = []
        self.vad: Vad = vad if vad is not None else LevelVad(quiet_dbfs)
        self.end_after = end_after
        self._spoke = False  # the detector heard speech in the utterance in progress
        self._last_partial = ""
        self._timeline = _Timeline()
        self._rec: Any = None
        self.set_grammar(phrases)

    # -- grammar ---------------------------------------------------------------------------

    def _in_vocab(self, word: str) -> bool:
        return bool(self.model.vosk_model_find_word(word) >= 0)

    def set_grammar(self, phrases: Sequence[str] | None) -> list[str]:
        """Constrain recognition to ``phrases`` (per game phase); ``None`` = free speech.

        Starts a new utterance (what was pending is discarded), keeps the stream timeline.
        Phrases with a word the model does not know are dropped; returns those words.
        """
        vosk = _vosk()
        dropped: list[str] = []
        if phrases is None:
            self.phrases = None
            rec = vosk.KaldiRecognizer(self.model, self.rate)
        else:
            kept: list[str] = []
            for phrase in phrases:
                words = phrase.split()
                missing = [w for w in words if not self._in_vocab(w)]
                if missing:
                    dropped.extend(w for w in missing if w not in dropped)
                elif words and phrase not in kept:
                    kept.append(phrase)
            grammar = [*kept]
            if self.unk is not None:
                grammar.append(self.unk)
            if not grammar:
                raise NarratorError("the grammar has no word the speech model knows")
            self.phrases = kept
            rec = vosk.KaldiRecognizer(
                self.model, self.rate, json.dumps(grammar, ensure_ascii=False)
            )
        rec.SetWords(True)
        rec.SetPartialWords(self.partial_words)
        if self.endpointer_delays is not None and hasattr(rec, "SetEndpointerDelays"):
            rec.SetEndpointerDelays(*self.endpointer_delays)
        self._rec = rec
        self.dropped_words = dropped
        self._last_partial = ""
        self._spoke = False
        # A fresh KaldiRecognizer counts time from zero again: start a new mapping, keep the
        # stream position so a chunk that follows continues the same timeline.
        end = self._timeline.stream_end
        self._timeline = _Timeline(stream_end=end)
        return dropped

    # -- streaming -------------------------------------------------------------------------

    @property
    def position(self) -> float:
        """Stream time of the end of the audio fed so far."""
        return self._timeline.stream_end

    def _words(self, items: list[dict[str, Any]]) -> tuple[Word, ...]:
        to_stream = self._timeline.to_stream
        return tuple(
            Word(
                str(w["word"]),
                round(to_stream(float(w["start"])), 6),
                round(to_stream(float(w["end"])), 6),
                float(w["conf"]) if "conf" in w else None,
            )
            for w in items
        )

    def _final(self, raw: str, endpoint: bool, cut: bool = False) -> Final | None:
        data = json.loads(raw)
        text = str(data.get("text", "")).strip()
        self._last_partial = ""
        if not text:
            return None
        return Final(text, self._words(data.get("result", [])), self.position, endpoint, cut)

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        """Feed one chunk; returns a Final when Vosk ended an utterance, else a Partial when
        the partial text changed or is non-empty (every chunk, so stability can be counted).
        """
        if chunk.format != RECOGNIZER_FORMAT:
            raise ValueError(f"recognizer needs {RECOGNIZER_FORMAT}, got {chunk.format}")
        self._timeline.add(chunk)
        self.vad.feed(chunk.audio)
        self._spoke = self._spoke or self.vad.quiet == 0.0
        if self._rec.AcceptWaveform(chunk.audio):
            self._spoke = False
            final = self._final(self._rec.Result(), endpoint=True)
            return [final] if final is not None else []
        if self._spoke and self.end_after is not None and self.vad.quiet >= self.end_after - 1e-9:
            self._spoke = False
            final = self._final(self._rec.FinalResult(), endpoint=True, cut=True)
            return [final] if final is not None else []
        data = json.loads(self._rec.PartialResult())
        text = str(data.get("partial", "")).strip()
        if not text and not self._last_partial:
            return []
        self._last_partial = text
        return [Partial(text, self.position, self._words(data.get("partial_result", [])),
                        round(self.vad.quiet, 6))]

    def flush(self) -> list[RecognitionEvent]:
        """End the current utterance now (end of stream): its Final, if anything was heard."""
        final = self._final(self._rec.FinalResult(), endpoint=False)
        return [final] if final is not None else []

    def reset(self) -> None:
        """Drop the utterance in progress (e.g. a new speaker), keep grammar and timeline."""
        self._rec.Reset()
        self._last_partial = ""
        self._spoke = False


#: the table ends an utterance after this much quiet (the voice-activity detector's), and feeds
#: the recognizer chunks of this many milliseconds: measured by scripts/bench_latency.py —
#: the end of the last word → a decision, p95 ~160 ms clean and over table noise (Vosk's
#: partials alone: ~370 ms, some words show in them only 0.3-0.45 s after they end)
TABLE_END_AFTER = 0.10
TABLE_CHUNK_MS = 20


def table_recognizer(model: Any, phrases: Sequence[str], *,
                     model_path: str | Path | None = None) -> VoskRecognizer:
    """The recognizer as the table listens: the grammar's phrases, the energy detector ending
    each utterance after :data:`TABLE_END_AFTER` s of quiet (and telling the decider of pauses).
    A recorded session is replayed with the same."""
    return VoskRecognizer(model, phrases=phrases, model_path=model_path, vad=EnergyVad(),
                          end_after=TABLE_END_AFTER)
