"""What the hostless table hears: the recognizer, the decider and the echo gate, per speech."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from narrator.audio.decider import Decision
from narrator.audio.format import AudioChunk
from narrator.audio.listener import Gate, OpenGate, silenced
from narrator.audio.recognizer import Recognizer
from narrator.grammar import Intent
from narrator.host.hearing import Hearing


class Ears:
    """The speeches, heard. :meth:`hear` takes each chunk of the stream with the serial of the
    speech whose speaker may be heard in it (None: nobody is, and the recognizer gets silence):
    a new speech resets the recognizer (its grammar set once, at the first) and the decider,
    so that the end of one speaker's phrase never counts for the next. The echo gate silences
    the narrator's own voice coming back through the microphone; ``gated(start, end)`` is told
    each span it closed."""

    def __init__(self, recognizer: Recognizer, hearing: Hearing, *, echo: Gate | None = None,
                 gated: Callable[[float, float], None] | None = None) -> None:
        self.recognizer = recognizer
        self.hearing = hearing
        self.echo = echo if echo is not None else OpenGate()
        self.decider = hearing.decider()
        self._gated = gated or (lambda start, end: None)
        #: the serial of the speech the recognizer was last reset for (None: none yet)
        self.speech: int | None = None
        #: the last chunk went to the recognizer as heard (not silenced for want of a speech)
        self.listening = False
        self._grammar_set = False

    def hear(self, chunk: AudioChunk, speech: int | None) -> Iterator[Decision[list[Intent]]]:
        """The decisions taken on ``chunk`` (see the class)."""
        for event in self.recognizer.feed(self._listen(chunk, speech)):
            decision = self.decider.observe(event)
            if decision is not None:
                yield decision

    def _listen(self, chunk: AudioChunk, speech: int | None) -> AudioChunk:
        self.listening = speech is not None
        if speech is None:
            return silenced(chunk)
        if self.speech != speech:
            if not self._grammar_set:
                self.recognizer.set_grammar(list(self.hearing.phrases))
                self._grammar_set = True
            else:
                self.recognizer.reset()
            self.decider.reset()
            self.speech = speech
        if self.echo.is_open_span(chunk.timestamp, chunk.end):
            return chunk
        self._gated(chunk.timestamp, chunk.end)
        return silenced(chunk)
