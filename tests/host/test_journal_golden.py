"""The journal byte for byte: a short game written today is the file the narrator wrote before
the journal was split into rooms, and reading it back rebuilds the same contents.

The fixtures under ``tests/fixtures/journal`` were made by the journal as it stood before the
split (one module, ``narrator/host/journal.py``): ``short-game.jsonl`` by
:func:`write_short_game` (``vrn-dealt.jsonl`` by :func:`write_vrn_dealt`), ``*.rebuilt.json`` by
:func:`rebuilt` over each journal, ``bad.json`` by :func:`readings`: every damaged journal of
:data:`BAD` and the one line it was refused with. A change that alters a byte of what is
written, of what is read back or of what is said of a damaged journal fails here first. To make
them again after a change of format that is meant: ``python -m tests.host.test_journal_golden``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.engine import EndSpeech, Game, Nominate
from narrator.engine import waits as w
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.engine.tuning import with_settings
from narrator.errors import NarratorError
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver
from narrator.host.heartbeat import keep_heartbeat
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, JournalContents, load_journal
from narrator.inputs import ENTRY, OPERATOR, PAD, Input
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "journal"
#: the journals read back: the short game, one of version 1, and vrn's (what it deals besides
#: the cards, the maniac's side, is in its header)
READ = ("short-game", "version-1", "vrn-dealt")


def write_short_game(path: Path) -> None:
    """A short hostless game, journaled on a virtual clock: a header with figures, options and
    nicknames, the first night's timers, a speech with its marks and heartbeats, a nomination,
    a pad press, an operator press and an entry with their actions, an undo, a stop."""
    rules = with_settings(find_rules("crime-time"), count_pace=2.0, speech_seconds=45.0)
    rules = apply_options(rules, {"fouls": "sport"}, where="options")
    game = Game(rules, roles=ROLES, names={1: "Ника", 7: "Momento Mori"})
    journal = Journal.for_game(path, game, lang="uk", mode="play", fsync=False)
    host = assemble_host(game, VirtualClock(), manifest=default_manifest("uk"),
                         journal=journal).host
    driver = Driver(host.scheduler, lambda event: apply_input(host, event))
    keep_heartbeat(host, journal)
    host.start()
    while not isinstance(game.expect, w.Speech):
        assert driver.run_next()
    driver.run_until(host.timer_started + 3.5)  # three beats
    journal.write(Input(PAD, host.now(), {"seat": 1, "do": "nominate", "target": 5}))
    host.apply(Nominate(5))
    driver.run_until(host.now() + 1.25)
    journal.write(Input(OPERATOR, host.now(), {"do": "foul", "seat": 6}))
    journal.write(Input(ENTRY, host.now() + 0.1, {"text": "f 6"}))
    driver.run_until(host.now() + 0.5)
    host.apply(EndSpeech())
    driver.run_until(host.now() + 2.0)
    host.undo()
    driver.run_until(host.now() + 3.3)
    journal.write(Input(PAD, host.now(), {"seat": 1, "do": "end"}))  # after the last action
    journal.stop(host.now() + 0.123456789)
    journal.close()


def write_vrn_dealt(path: Path) -> None:
    """vrn's first night on a virtual clock: its header holds the maniac's side."""
    game = Game("vrn", seats=10, rng=random.Random(7), dealt={"maniac_side": "city"})
    journal = Journal.for_game(path, game, fsync=False)
    host = assemble_host(game, VirtualClock(), manifest=default_manifest("ru"),
                         journal=journal).host
    driver = Driver(host.scheduler, lambda event: apply_input(host, event))
    host.start()
    for _ in range(3):
        assert driver.run_next()
    journal.close()


VERSION_1 = (
    '{"journal": 1, "rules": "crime-time", "seats": 10, "roles": {"1": "sheriff", "3": "don", '
    '"5": "mafia", "9": "mafia"}}\n'
    '{"t": 1.0, "action": "timeup dealing"}\n'
    '{"t": 2.0, "action": "timeup don_noted"}\n'
    '{"t": 3.0, "action": "timeup agreement"}\n'
    '{"t": 4.0, "action": "timeup sheriff_noted"}\n'
    '{"t": 5.0, "action": "nominate 5"}\n'
    '{"t": 6.0, "undo": true}\n'
    '{"t": 7.0, "action": "nominate 7"}\n'
)


def rebuilt(contents: JournalContents) -> dict[str, Any]:
    """Everything a journal's reading gives, as JSON: the header, the entries with their lines,
    the presses and their places, the marks, the times; the game rebuilt and its time left."""
    game = contents.game()
    last = contents.last_entry()
    return {
        "header": contents.header.to_json(),
        "entries": [[t, str(a)] for t, a in contents.entries],
        "lines": contents.lines,
        "inputs": [e.to_json() for e in contents.inputs],
        "input_at": contents.input_at,
        "marks": [list(m) for m in contents.marks],
        "undone_at": contents.undone_at,
        "first_t": contents.first_t,
        "last_t": contents.last_t,
        "notation": game.notation(),
        "time_left": contents.time_left(game),
        "last_entry": None if last is None else [last[0], last[1].to_json()],
    }


def _journal(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.jsonl"
    path.unlink(missing_ok=True)  # (a journal is appended to: made again, it starts anew)
    if name == "short-game":
        write_short_game(path)
    elif name == "vrn-dealt":
        write_vrn_dealt(path)
    else:
        path.write_text(VERSION_1, encoding="utf-8")
    return path


def test_a_short_game_is_written_as_before(tmp_path: Path) -> None:
    path = tmp_path / "short-game.jsonl"
    write_short_game(path)
    assert path.read_bytes() == (FIXTURES / "short-game.jsonl").read_bytes()


def test_vrn_is_written_as_before(tmp_path: Path) -> None:
    path = tmp_path / "vrn-dealt.jsonl"
    write_vrn_dealt(path)
    assert path.read_bytes() == (FIXTURES / "vrn-dealt.jsonl").read_bytes()


@pytest.mark.parametrize("name", READ)
def test_a_journal_is_read_back_as_before(tmp_path: Path, name: str) -> None:
    expected = json.loads((FIXTURES / f"{name}.rebuilt.json").read_text(encoding="utf-8"))
    assert rebuilt(load_journal(_journal(tmp_path, name))) == expected


def _header(**changes: Any) -> str:
    head: dict[str, Any] = {"journal": 2, "rules": "crime-time", "seats": 10, "lang": "ru",
                            "mode": "assist", "settings": {},
                            "roles": {"1": "sheriff", "3": "don", "5": "mafia", "9": "mafia"}}
    head.update(changes)
    return json.dumps({k: v for k, v in head.items() if v is not DROP}, ensure_ascii=False)


DROP = object()  # a key left out of the header
VRN_ROLES = {"2": "sheriff", "3": "mafia", "4": "doctor", "6": "don", "9": "mafia", "10": "maniac"}
GOOD = _header() + "\n"

#: bad journals: every field of the header wrong in each way, and every kind of bad line
BAD: list[str] = [
    "", "\n", "[1]\n", '"journal"\n', '{"rules": "crime-time"}\n', "{\n",
    _header(journal=3), _header(journal=True), _header(journal="2"),
    _header(rules=DROP), _header(rules=5), _header(rules="poker"),
    _header(mode="poker"), _header(mode={"x": 1}), _header(mode="x" * 100),
    _header(lang="xx"), _header(lang=None),
    _header(seats=DROP), _header(seats="10"), _header(seats=0), _header(seats=3),
    _header(seats=True),
    _header(roles=DROP), _header(roles=[]), _header(roles={"5": "mafia"}),
    _header(roles={"²": "mafia"}), _header(roles={"5": "wizard"}),
    _header(roles={"1": "sheriff", "3": "don", "5": "mafia", "11": "mafia"}),
    _header(roles={"1": "sheriff", "3": "don", "5": "mafia", "100": "mafia"}),
    _header(roles={"1": "sheriff", "3": "don", "5": "mafia", "9": 7}),
    _header(settings=[1]), _header(settings={"count_pace": True}), _header(settings={"warp": 1}),
    _header(settings={"count_pace": -1}), _header(settings={"count_pace": "2"}),
    _header(options="x"), _header(options={"best_moves": 1}), _header(options={"fouls": "x"}),
    _header(names=[]), _header(names={"11": "x"}), _header(names={"1": ""}),
    _header(names={"x": "Ника"}),
    _header(dealt=[]), _header(dealt={"maniac_side": "city"}),
    _header(rules="vrn", roles=VRN_ROLES, dealt={"maniac_side": "x"}),
    _header(rules="vrn", roles=VRN_ROLES, dealt={"maniac": "city"}),
    _header(rules="vrn", roles=VRN_ROLES, dealt={}),  # (drawn again: no error)
    '{"journal": 2, "journal": 2}\n',
    *(GOOD + line + "\n" for line in (
        '{"t": 1, "action": "dance 3"}', '{"t": 5.0}', '{"t": "x", "action": "end"}',
        '{"t": true, "action": "end"}', '{"t": 1, "action": 5}', '{"t": 1, "undo": false}',
        "[1, 2]", '"end"', "{", '{"t": 1, "action": "end", "action": "end"}',
        '{"type": "heard", "t": 1, "text": "x"}', '{"type": "action", "t": 1}',
        '{"type": "timer", "t": 1, "name": "speech"}', '{"type": "pad", "t": 1}',
        '{"type": "entry", "t": 1}', '{"type": "action", "t": "x", "action": "end"}',
        '{"type": "action", "t": 1, "action": "nominate eleven"}',
        '{"type": "stop", "t": 1, "reason": 5}', '{"type": "dance", "t": 1}',
        '{"t": 1, "action": "shot 5 2"}')),
    GOOD + '{"t": 1, "act\n{"t": 2, "action": "end"}\n',
]


def readings(path: Path) -> list[list[str]]:
    """Each of :data:`BAD` written to ``path``, and what reading it and rebuilding its game
    says: the error's one line (the path as ``{path}``), or "ok"."""
    said = []
    for text in BAD:
        path.write_text(text, encoding="utf-8")
        try:
            load_journal(path).game()
            said.append([text, "ok"])
        except NarratorError as e:
            said.append([text, str(e).replace(str(path), "{path}")])
    path.unlink()
    return said


def test_every_bad_journal_is_the_line_it_was(tmp_path: Path) -> None:
    expected = json.loads((FIXTURES / "bad.json").read_text(encoding="utf-8"))
    assert readings(tmp_path / "j.jsonl") == expected


def main(folder: Path) -> None:
    """Write the fixtures again (the journals, what reading them gives, the errors)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in READ:
        path = _journal(folder, name)
        text = json.dumps(rebuilt(load_journal(path)), ensure_ascii=False, indent=1)
        (folder / f"{name}.rebuilt.json").write_text(text + "\n", encoding="utf-8")
    (folder / "version-1.jsonl").unlink()  # the test writes it from VERSION_1
    text = json.dumps(readings(folder / "bad.jsonl"), ensure_ascii=False, indent=1)
    (folder / "bad.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURES)
