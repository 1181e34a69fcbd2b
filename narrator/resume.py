"""``narrator resume JOURNAL``: take a journaled game up again, in the mode that wrote it.

The journal's header names its mode; the mode is looked up in an explicit table (never a
module name built from the file's contents), and an unknown mode is a one-line error.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

from narrator.arguments import ResumeArgs
from narrator.errors import NarratorError
from narrator.host.journal import JournalContents, load_journal, locked, repair_torn_tail

#: mode named in a journal header → the module whose ``resume(args, contents)`` takes it up
#: (imported only when needed: audio libraries, the terminal UI)
RESUMERS: dict[str, str] = {
    "play": "narrator.play.cli",
    "assist": "narrator.assist.cli",
}


def resumer(mode: str) -> Callable[[ResumeArgs, JournalContents], int]:
    """The ``resume`` function of ``mode``; NarratorError for a mode no table entry names."""
    module = RESUMERS.get(mode)
    if module is None:
        known = ", ".join(sorted(RESUMERS))
        raise NarratorError(f"journal mode {mode!r} is unknown (known: {known})")
    func: Callable[[ResumeArgs, JournalContents], int] = importlib.import_module(module).resume
    return func


def _not_a_folder(path: Path) -> None:
    """A folder is no journal: one line saying so, naming the journals it holds (a journal's
    first line is its header, ``{"journal": …}``), instead of a traceback or "not a regular
    file"."""
    if not path.is_dir():
        return
    held = []
    for candidate in sorted(path.glob("*.jsonl"))[:50]:
        try:
            with candidate.open("rb") as f:
                first = f.readline(4096)
        except OSError:
            continue
        if first.lstrip().startswith(b'{"journal"'):
            held.append(str(candidate))
    if held:
        shown = ", ".join(held[:3]) + (", …" if len(held) > 3 else "")
        raise NarratorError(f"{path} is a folder, not a journal; it holds {shown}: "
                            f"`narrator resume {held[0]}`")
    raise NarratorError(f"{path} is a folder, not a journal: give the journal's file "
                        f"(`narrator resume FILE`)")


def run(args: ResumeArgs) -> int:
    """Rebuild the game; ``--json`` prints the protocol so far, else the mode takes it up."""
    _not_a_folder(Path(args.journal))
    if not args.json:
        # before anything is loaded or opened: one writer only, and no torn tail to append to
        with locked(args.journal):
            note = repair_torn_tail(args.journal)
        if note is not None:
            print(f"narrator: {note}", file=sys.stderr)
    contents = load_journal(args.journal)
    take_up = resumer(contents.header.mode)  # before anything else: an unknown mode is refused
    if args.broadcast.address is not None and contents.header.mode != "play":
        raise NarratorError(f"--broadcast: an {contents.header.mode} game is not streamed "
                            "(narrator play and narrator evening are)")
    game = contents.game()
    if args.json:
        print(json.dumps(game.protocol(), ensure_ascii=False))
        return 0
    return take_up(args, contents)
