"""One phrase of the listening test, heard and decided as a game would.

The audio goes to the game's own ears (:class:`~narrator.listening.ears.Ears`: the recognizer on
the game's grammar, reset for each phrase, the early decider, the echo gate). Each decision's
intents become the engine's actions as in a game (:func:`~narrator.host.intake.heard_actions`,
:func:`~narrator.host.intake.as_heard`, the part a revision adds only), and the engine says on a
game staged for the phrase whether it takes each one or why not. The end of the last word comes
from the recognizer's Final of that utterance (an early decision is taken before it), so the
latency is the decider's wait on the stream's own timeline, the same in a replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from narrator.audio.decider import Decision
from narrator.audio.format import AudioChunk
from narrator.audio.listener import Gate
from narrator.audio.recognizer import Final, RecognitionEvent, Recognizer
from narrator.engine import Game
from narrator.engine import events as ev
from narrator.errors import NarratorError
from narrator.grammar import Intent
from narrator.host.hearing import Hearing
from narrator.host.intake import as_heard, heard_actions
from narrator.listening.ears import Ears
from narrator.rehearsal.prompts import NOTHING, Prompt, label, stage

RIGHT, WRONG, MISSED = "right", "wrong", "missed"


@dataclass
class Said:
    """One decision taken in a phrase's window: its text, when (stream time), the end of its
    last word, what the engine made of it."""

    text: str
    t: float
    end: float | None
    labels: list[str] = field(default_factory=list)
    early: bool = False


@dataclass
class Outcome:
    """A phrase's result: what was heard and decided between ``opened`` and ``closed``."""

    prompt: Prompt
    opened: float
    closed: float | None = None
    said: list[Said] = field(default_factory=list)

    @property
    def label(self) -> str:
        """Every decision's labels, in order (``nothing``: none)."""
        return ", ".join(x for s in self.said for x in s.labels) or NOTHING

    @property
    def heard(self) -> str:
        """The texts decided on (empty: nothing)."""
        return " / ".join(s.text for s in self.said)

    @property
    def result(self) -> str:
        """right (the decision expected), missed (nothing, where something was due), wrong."""
        got, want = self.label, self.prompt.expect
        if got == want:
            return RIGHT
        return MISSED if got == NOTHING else WRONG

    @property
    def taken_wrongly(self) -> bool:
        """Wrong, and the game took an action it was not to take (a nomination from free
        speech, from a future tense, of another seat): what a table cannot live with."""
        if self.result != WRONG:
            return False
        want = set(self.prompt.expect.split(", "))
        return any(not x.startswith("refused ") and x not in want
                   for s in self.said for x in s.labels)

    @property
    def latency(self) -> float | None:
        """Seconds from the end of the last word to the first decision (None: none, or the
        word's end unknown)."""
        first = next((s for s in self.said if s.labels), None)
        if first is None or first.end is None:
            return None
        return max(0.0, first.t - first.end)


class _WordEnds:
    """The recognizer, with the end of each Final's last word kept (the latency's start)."""

    def __init__(self, inner: Recognizer) -> None:
        self.inner = inner
        self.finals: list[tuple[float, float]] = []  # (stream time, end of the last word)

    def _keep(self, events: list[RecognitionEvent]) -> list[RecognitionEvent]:
        for e in events:
            if isinstance(e, Final) and e.end is not None:
                self.finals.append((e.t, e.end))
        return events

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        return self._keep(self.inner.feed(chunk))

    def flush(self) -> list[RecognitionEvent]:
        return self._keep(self.inner.flush())

    def reset(self) -> None:
        self.inner.reset()

    def set_grammar(self, phrases: Sequence[str] | None) -> list[str]:
        return self.inner.set_grammar(phrases)


class Judge:
    """The phrases' windows, heard one after another on one stream. :meth:`open` a phrase's
    window at a chunk, :meth:`hear` every chunk (outside a window the recognizer gets
    silence), :meth:`close` it: its :class:`Outcome`. ``said(events)``: told the engine's
    events of each decision (the narrator answers «Принято» as in a game); ``gated(start,
    end)``: each chunk of a window the echo gate closed."""

    def __init__(self, recognizer: Recognizer, hearing: Hearing, *, seats: int,
                 rules: str = "crime-time", echo: Gate | None = None,
                 gated: Callable[[float, float], None] | None = None,
                 said: Callable[[list[ev.Event]], None] | None = None) -> None:
        self.words = _WordEnds(recognizer)
        self.ears = Ears(self.words, hearing, echo=echo, gated=gated)
        self.seats = seats
        self.rules = rules
        self._said = said or (lambda events: None)
        self.current: Outcome | None = None
        self.game: Game | None = None
        self.outcomes: list[Outcome] = []

    def open(self, prompt: Prompt, t: float) -> None:
        """Listen for ``prompt`` from stream time ``t`` (a fresh utterance, a fresh game)."""
        self.game = stage(prompt, rules=self.rules, seats=self.seats)
        self.current = Outcome(prompt, t)
        self.words.finals.clear()

    def hear(self, chunk: AudioChunk) -> list[Said]:
        """Hear ``chunk``: the decisions it completes within the open window (a decision
        after the window closed is the tail of a phrase already judged: dropped)."""
        current = self.current
        speech = current.prompt.n if current is not None else None
        out = []
        for decision in self.ears.hear(chunk, speech):
            if self.current is None:
                continue
            said = self._decide(decision)
            self.current.said.append(said)
            out.append(said)
        return out

    def close(self, t: float) -> Outcome:
        """The open window's outcome, each early decision given the end of its last word from
        the Final that closed its utterance."""
        outcome = self.current
        if outcome is None:
            raise NarratorError("no phrase is being heard")
        outcome.closed = t
        for said in outcome.said:
            if said.early:  # its Final came after it, in the window (the endpoint's 0.5 s)
                ends = [end for when, end in self.words.finals if when >= said.t]
                if ends:
                    said.end = ends[0]
        self.outcomes.append(outcome)
        self.current = self.game = None
        return outcome

    def _decide(self, decision: Decision[list[Intent]]) -> Said:
        assert self.game is not None
        intents = decision.meaning or []
        if decision.revised:  # what the early decision took stays taken (as in a game)
            intents = intents[len(decision.earlier or []):]
        said = Said(decision.text, decision.t, decision.end if not decision.early else None,
                    early=decision.early)
        said.labels = decide(self.game, intents, self._said)
        if decision.early and said.end is None:
            said.end = decision.end  # (until its Final says when the word ended)
        return said


def decide(game: Game, intents: Sequence[Intent],
           said: Callable[[list[ev.Event]], None] | None = None) -> list[str]:
    """The engine's word on a phrase's intents in ``game``: each action's label, applied when
    the engine takes it (a refusal the rules foresee is recorded, as in a game)."""
    labels = []
    step = game.step
    for action in heard_actions(intents):
        if game.is_over or game.step != step:  # «Спасибо» ended the speech
            break
        action = as_heard(action, game)
        reason = game.refusal(action)
        labels.append(label(action, reason))
        try:
            events = game.apply(action)
        except NarratorError:
            continue  # not taken at all (the step does not take it): the label says why
        if said is not None:
            said(events)
    return labels


def typed(prompt: Prompt, parse: Callable[[str], list[Intent]], *, seats: int,
          rules: str = "crime-time") -> str:
    """The label the prompt's text gives typed, not heard: what a perfect ear would make of
    it (the prompt list is checked against it)."""
    return ", ".join(decide(stage(prompt, rules=rules, seats=seats), parse(prompt.text))) \
        or NOTHING
