"""The game journal: every accepted input, appended and synced before it is acted on.

A journal is JSON lines: a header (ruleset, seats, the dealt roles, language, mode), then one
input event per line (:mod:`narrator.inputs`), written by the host's recorder:
``{"type": "action", "t": seconds, "action": "nominate 5"}`` for each action the engine took,
``{"type": "undo", "t": seconds}`` when the host took one back, ``{"type": "timer", "t": …,
"name": "speech", "started": …}`` whenever a timer starts, and ``{"type": "stop", …}`` where the
host quit; while a timer runs, ``{"type": "beat", "t": …}`` at most once a second (the game
was still running then: :mod:`narrator.host.heartbeat`). Replaying the actions on a game with
the same roles gives back the same state (the engine is deterministic), so a killed process
resumes at the same phase — and, from the last timer mark and the last line's time, with the
time its running timer had left: ``narrator resume JOURNAL``. The header carries the club's
options and the players' nicknames, so a resume needs no other file. A source with inputs of
its own writes each as it came before the actions it leads to — the table console's presses,
``{"type": "pad", "t": …, "seat": 3, "do": "shoot", …}`` — and they are kept apart
(:attr:`JournalContents.inputs`). Journals of version 1 (lines without a ``type``) are read too.

Faults it survives: a process killed mid-line leaves a torn tail, which is cut away (a copy of
the file as it was is kept) before anything is appended after it; a second process writing the
same journal is refused by an OS file lock; the file is readable by its owner only (it holds
the roles). A damaged journal is one line naming the file, the file's line and the field.

Its rooms, each named for its job (imports point down the list):

- :mod:`~narrator.host.journal.header` — the first line: :class:`JournalHeader`, its fields
  written and read one by one, each error naming its field;
- :mod:`~narrator.host.journal.records` — the lines after it, each read into a typed record
  (an action, an undo, a timer's mark, a press, a moment), and the journal's size
  (:data:`LIMITS`);
- :mod:`~narrator.host.journal.file` — the durable file: :class:`Journal` (the lock, the
  synced append, a write that fails), :func:`repair_torn_tail`, :func:`locked`;
- :mod:`~narrator.host.journal.rebuild` — :func:`load_journal`: the records made into
  :class:`JournalContents` (the game, the time left, the presses, the last entry).

Every name callers use is importable from here, whichever room holds it.
"""

# The system calls of the durable file, reachable from here as they were from the one module
# the journal used to be: the tests that fail a write (``journal.os.write``, ``journal.os.fsync``,
# ``journal.shutil.copyfileobj``) patch them through this package. They are the modules
# themselves, so a patch here is a patch where the file calls them.
import os as os
import shutil as shutil

from narrator.host.journal.file import TORN_SUFFIX, Journal, locked, repair_torn_tail
from narrator.host.journal.header import LANGS, MODES, VERSION, JournalHeader, read_header
from narrator.host.journal.rebuild import JournalContents, load_journal
from narrator.host.journal.records import LIMITS, Record, read_records

__all__ = [
    "LANGS",
    "LIMITS",
    "MODES",
    "TORN_SUFFIX",
    "VERSION",
    "Journal",
    "JournalContents",
    "JournalHeader",
    "Record",
    "load_journal",
    "locked",
    "read_header",
    "read_records",
    "repair_torn_tail",
]
