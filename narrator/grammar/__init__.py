"""narrator.grammar: what a player said, as intents (rules 2.3.1, 2.3.2).

``parse(text, lang, seats)`` turns one utterance — Vosk output or typed text — into a list of
:class:`~narrator.grammar.intents.Intent`; ``vocabulary`` / ``phrase_list`` give the words a
constrained recognizer must be able to hear; ``correct`` repairs near-miss number words and
fillers without ever touching a verb's tense or mood.
"""

from narrator.grammar.correct import correct
from narrator.grammar.intents import Intent, IntentKind
from narrator.grammar.parse import MAX_PHRASE, parse
from narrator.grammar.vocab import phrase_list, vocabulary

__all__ = ["MAX_PHRASE", "Intent", "IntentKind", "correct", "parse", "phrase_list", "vocabulary"]
