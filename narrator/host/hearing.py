"""Hearing during speeches: what the recognizer may hear, and how an utterance becomes actions.

A :class:`Hearing` bundles what the hostless loop needs to turn speech into engine actions: the
phrase list the recognizer is constrained to during a speech, the parse function (text →
intents, after near-miss correction; the decider reads each text once with it) and the guard on
verbs whose tense twin is also in the grammar («выставляю» / «выставлю»: never taken from a
partial until it has been stable for a while). :func:`game_hearing` is the real one, built on
:mod:`narrator.grammar`; tests inject others (a Korean test grammar for the Korean model).
:func:`action_for` turns one intent into the engine's action, for speech and table scripts alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from narrator.audio.decider import StableDecider
from narrator.engine import Action, BestMove, EndSpeech, Malformed, Nominate, Withdraw
from narrator.grammar import Intent, correct, parse, phrase_list
from narrator.grammar.lexicon import VERBS
from narrator.grammar.normalize import key
from narrator.reasons import Reason


def action_for(intent: Intent) -> Action | None:
    """The engine action for one intent; None for an utterance with no intent at all.

    A refused intent becomes :class:`Malformed` so that the refusal and its reason land in the
    protocol instead of vanishing (rule 2.3.1: the host ignores it, but we keep the record).
    """
    if not intent.accepted:
        if intent.kind == "none":
            return None
        return Malformed(intent.kind, intent.target, intent.reason or Reason.NO_INTENT)
    if intent.kind == "nominate" and intent.target is not None:
        return Nominate(intent.target)
    if intent.kind == "withdraw" and intent.target is not None:
        return Withdraw(intent.target)
    if intent.kind == "end_speech":
        return EndSpeech()
    if intent.kind == "best_move":  # 8.17: the engine judges the seats (three, not his own)
        return BestMove(intent.seats)
    return None


@dataclass(frozen=True)
class Hearing:
    """What is heard in a speech and what it means."""

    phrases: Sequence[str]
    parse: Callable[[str], list[Intent]]
    guard: Callable[[str], bool] | None = None

    def understand(self, text: str) -> list[Intent] | None:
        """The intents of ``text`` when it holds one (accepted or refused), else None: no
        decision may be taken on it yet."""
        intents = self.parse(text)
        return intents if any(i.kind != "none" for i in intents) else None

    def decider(self) -> StableDecider[list[Intent]]:
        """The early decider for one speech (stable partials, guarded verbs)."""
        return StableDecider(self.understand, guard=self.guard)


def _verb_keys(lang: str) -> frozenset[str]:
    return frozenset(key(w) for forms in VERBS[lang].values() for group in forms.values()
                     for w in group)


def _game_parse(text: str, lang: str, seats: int) -> list[Intent]:
    return parse(correct(text, lang, seats), lang, seats)


def game_hearing(lang: str, seats: int) -> Hearing:
    """The real grammar: phrase list, correction + parse, every verb form guarded."""
    verbs = _verb_keys(lang)
    return Hearing(phrase_list(lang, seats), partial(_game_parse, lang=lang, seats=seats),
                   lambda word: key(word) in verbs)
