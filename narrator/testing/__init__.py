"""Test doubles and helpers, kept out of the production modules.

- random complete games (:func:`random_action`, :func:`play_random_game`): property tests and the
  engine benchmark;
- :class:`TableRig`: a game at a table on a virtual clock, with its console's table unserved
  (the tests press as the pads and the operator, and run the timers);
- :func:`advance`: a game brought to a wait (a kind of wait, a condition, a phase), its time
  let run out on the way — or its host's driver, its table's clock, run;
- :class:`ScriptedOperator`: operator lines given in advance, for the hostless loop;
- :class:`ScriptedRecognizer`: a :class:`~narrator.audio.recognizer.Recognizer` that says
  scripted utterances instead of hearing audio;
- :func:`korean_test_model`: the one real Vosk model installable from PyPI, which exercises the
  whole Vosk path where no Russian model is present;
- :func:`lines_of`: heard decisions as text;
- audio stand-ins: :class:`MemorySink` (the narration kept in memory, no device),
  :class:`SilenceSource` and :class:`ConcatSource` (streams built from parts on one timeline),
  :class:`DriftingCard` (a sound card whose clock is off the system's, on a virtual clock).
"""

from narrator.testing.games import (
    AdvanceError,
    advance,
    end_speeches,
    past_the_pauses,
    play_random_game,
    random_action,
    time_up,
)
from narrator.testing.sounds import (
    ConcatSource,
    DriftingCard,
    MemorySink,
    ScriptedOperator,
    ScriptedRecognizer,
    SilenceSource,
    Utterances,
    korean_test_model,
    lines_of,
)
from narrator.testing.table import TableRig

__all__ = ["AdvanceError", "ConcatSource", "DriftingCard", "MemorySink", "ScriptedOperator",
           "ScriptedRecognizer", "SilenceSource", "TableRig", "Utterances", "advance",
           "end_speeches", "korean_test_model", "lines_of", "past_the_pauses",
           "play_random_game", "random_action", "time_up"]
