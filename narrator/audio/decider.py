"""Deciding on an utterance before Vosk's endpoint: stable partials, guarded verbs, revisions.

The decider sees every recognition event of a speech, in order, and says when the words heard so
far may be acted on. ``understand(text)`` (the grammar, injected) reads a text once: it returns
what the text means when it holds something to act on, a false value (None) when not yet — and
the decision carries that meaning, so nobody parses the text again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from narrator.audio.recognizer import Final, Partial, RecognitionEvent, Word

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Decision(Generic[M]):
    """An utterance the host may act on.

    ``early`` is True when it was decided on stable partials before Vosk's endpoint; ``end`` is
    the end of its last word on the stream timeline when known (finals) — for partials, the
    stream time at which the text became stable. ``meaning`` is what ``understand`` made of the
    text (None for a revision to a text that means nothing). ``revised`` marks a Final that
    contradicts an early decision made on the same utterance; ``earlier`` is that decision's
    meaning (what was acted on already).
    """

    text: str
    t: float
    early: bool
    meaning: M | None = None
    words: tuple[Word, ...] = ()
    end: float | None = None
    revised: bool = False
    earlier: M | None = None


class StableDecider(Generic[M]):
    """Decides on an utterance as soon as it is complete and stable, without the endpoint.

    Fires on a Partial when ``understand(text)`` means something, the same text has been seen
    for ``stable_partials`` consecutive partials spanning ``stable_ms`` of audio, and the
    speaker has paused: the last ``min_quiet_ms`` of audio were quiet. The pause matters:
    mid-word, Vosk's partial can show a shorter grammar word for a while (measured: «좋아요»
    inside «감사합니다»), and stability alone would take it.
    It refuses to fire early while any word is not trustworthy yet:

    - a word whose confidence is known (partial words on) and below ``min_conf``;
    - a word for which ``guard(word)`` is True (e.g. a verb whose future-tense twin is in the
      grammar: «выставляю» / «выставлю») until it has stayed the same, at the same place, for
      ``guard_stable_ms`` of audio. Plain Vosk partials carry no confidences in time, so
      this stability is the evidence used for them; set ``guard_stable_ms=None`` to require
      the Final for guarded words.

    Finals always decide (when they mean something); a Final after an early decision on the
    same utterance is reported only if its text differs (``revised=True``). A Final the
    voice-activity detector cut (``cut``: the speaker paused) that means nothing yet is the
    start of the phrase: what follows is read with it («выставляю … номер пять»).
    """

    def __init__(self, understand: Callable[[str], M | None], *, stable_partials: int = 2,
                 stable_ms: float = 50.0, min_quiet_ms: float = 100.0, min_conf: float = 0.9,
                 guard: Callable[[str], bool] | None = None,
                 guard_stable_ms: float | None = 400.0) -> None:
        self.understand = understand
        self.stable_partials = stable_partials
        self.stable_ms = stable_ms
        self.min_quiet_ms = min_quiet_ms
        self.min_conf = min_conf
        self.guard = guard
        self.guard_stable_ms = guard_stable_ms
        self.reset()

    def reset(self) -> None:
        """Forget the utterance in progress (a new speech)."""
        self._text = ""
        self._since = 0.0
        self._count = 0
        self._word_since: list[tuple[str, float]] = []
        self._early: Decision[M] | None = None
        self._meaning: tuple[str, M | None] = ("", None)
        self._carry = ""  # a cut utterance that meant nothing yet

    def _read(self, text: str) -> M | None:
        # a partial repeats its text chunk after chunk: read each text once
        if self._meaning[0] != text:
            self._meaning = (text, self.understand(text))
        return self._meaning[1]

    def _track_words(self, words: list[str], t: float) -> None:
        kept: list[tuple[str, float]] = []
        for i, w in enumerate(words):
            if i < len(self._word_since) and self._word_since[i][0] == w:
                kept.append(self._word_since[i])
            else:
                kept.append((w, t))
        self._word_since = kept

    def _trusted(self, event: Partial) -> bool:
        for word in event.words:
            if word.conf is not None and word.conf < self.min_conf:
                return False
        if self.guard is None:
            return True
        for w, since in self._word_since:
            if self.guard(w) and (
                self.guard_stable_ms is None
                or (event.t - since) * 1000.0 < self.guard_stable_ms
            ):
                return False
        return True

    def observe(self, event: RecognitionEvent) -> Decision[M] | None:
        """Feed every recognizer event; returns a Decision when one is due."""
        text = f"{self._carry} {event.text}".strip() if event.text else self._carry
        if isinstance(event, Final):
            early, self._early = self._early, None
            self._text, self._count, self._word_since, self._carry = "", 0, [], ""
            if early is not None:
                if text == early.text:
                    return None
                return Decision(text, event.t, False, self._read(text), event.words, event.end,
                                True, early.meaning)
            meaning = self._read(text)
            if meaning:
                return Decision(text, event.t, False, meaning, event.words, event.end)
            if event.cut:
                self._carry = text
            return None
        self._track_words(text.split(), event.t)
        if text != self._text:
            self._text, self._since, self._count = text, event.t, 1
        else:
            self._count += 1
        if self._early is not None or not event.text:
            return None
        stable_for = (event.t - self._since) * 1000.0
        if (
            self._count >= self.stable_partials
            and stable_for + 1e-6 >= self.stable_ms
            and event.quiet * 1000.0 + 1e-6 >= self.min_quiet_ms
            and self._trusted(event)
        ):
            meaning = self._read(text)
            if meaning:
                self._early = Decision(text, event.t, True, meaning, event.words, self._since)
                return self._early
        return None
