"""Fuzzing the journal loader: a journal bent in any way is loaded, or refused in one line naming
the file and the line — and a journal that loads gives a game, or one such line."""

from __future__ import annotations

import atexit
import os
import random
import shutil
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from narrator.clock import VirtualClock
from narrator.engine import Game, TimeUp
from narrator.errors import NarratorError
from narrator.host.host import Host
from narrator.host.journal import Journal, load_journal
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.testing import random_action
from narrator.voice.manifest import default_manifest
from tests.fuzz import hostile
from tests.fuzz.conftest import cases, count
from tests.fuzz.strategies import dumps, json_values, mutated, nasty_text

#: the journals are written in memory where the system has it (/dev/shm, a tmpfs): a case is a
#: file written and read back, and on a busy disk those writes took most of the fuzzer's time
SHM = Path("/dev/shm")
WORK = Path(tempfile.mkdtemp(prefix="narrator-fuzz-",
                             dir=SHM if SHM.is_dir() and os.access(SHM, os.W_OK) else None))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)
BATCH = 100


def _journal(seed: int) -> str:
    path = WORK / f"ref{seed}.jsonl"
    rng = random.Random(seed)
    game = Game(rng=rng)
    journal = Journal.for_game(path, game, fsync=False)
    host = Host(game, Scheduler(VirtualClock()), Transcript(default_manifest("ru")), journal)
    host.start()
    for _ in range(rng.randint(5, 120)):
        if game.is_over:
            break
        host.apply(random_action(game, rng))
        if rng.random() < 0.05 and game.history and not isinstance(game.history[-1], TimeUp):
            host.undo()
    journal.close()
    return path.read_text(encoding="utf-8")


JOURNALS = [_journal(seed) for seed in range(6)]
TARGET = WORK / "j.jsonl"


def check(text: str) -> None:
    count("journals")
    TARGET.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        contents = load_journal(TARGET)
        game = contents.game()
        contents.time_left(game)
    except NarratorError as e:
        assert "\n" not in str(e) and str(e).startswith(f"{TARGET}:"), repr(str(e))


@cases(60)
@given(st.integers(0, 2**63))
def test_hostile_journals(seed: int) -> None:
    rng = random.Random(seed)  # plain Python: Hypothesis' own randoms are slow
    for _ in range(BATCH):
        journal = rng.choice(JOURNALS)
        if rng.random() < 0.6:
            text = hostile.mutate(rng, journal, rng.randint(1, 3))
        else:
            extra = [hostile.json_line(rng) for _ in range(rng.randint(1, 3))]
            text = journal + "\n".join(extra) + ("\n" if rng.random() < 0.5 else "")
        check(text)


@cases(1_000)
@given(st.data())
def test_mutated_journals(data: st.DataObject) -> None:
    check(data.draw(mutated(data.draw(st.sampled_from(JOURNALS)))))


@cases(1_000)
@given(st.sampled_from(JOURNALS), st.lists(json_values.map(dumps) | nasty_text, max_size=4),
       st.booleans())
def test_random_lines_after_a_journal(journal: str, lines: list[str], newline: bool) -> None:
    check(journal + "\n".join(lines) + ("\n" if newline else ""))
