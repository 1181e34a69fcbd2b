"""From what the grammar heard to what the engine is told."""

from __future__ import annotations

from narrator.engine import Action, EndSpeech, Malformed, Nominate, Withdraw
from narrator.grammar.intents import Intent


def action_for(intent: Intent) -> Action | None:
    """The engine action for one intent; None for an utterance with no intent at all.

    A refused intent becomes :class:`Malformed` so that the refusal and its reason land in the
    protocol instead of vanishing (rule 2.3.1: the host ignores it, but we keep the record).
    """
    if not intent.accepted:
        if intent.kind == "none":
            return None
        return Malformed(intent.kind, intent.target, intent.reason or "refused")
    if intent.kind == "nominate" and intent.target is not None:
        return Nominate(intent.target)
    if intent.kind == "withdraw" and intent.target is not None:
        return Withdraw(intent.target)
    if intent.kind == "end_speech":
        return EndSpeech()
    return None
