"""The game journal: every accepted input, appended and flushed before it is acted on.

A journal is JSON lines: a header (ruleset, seats, the dealt roles, language, mode), then one
``{"t": seconds, "action": "nominate 5"}`` per input, in the actions' text form. A source that
has inputs of its own (the table console's presses) writes each as an input event first,
``{"input": {"type": "pad", "t": …, …}}``, then the actions it led to. Replaying the
actions on a game with the same roles gives back the same state (the engine is deterministic),
so a killed process resumes at the same phase: ``narrator resume JOURNAL``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from narrator.engine import Action, EngineError, Game, Role, parse_action
from narrator.engine.rules import find_rules, settings_of, with_settings
from narrator.errors import NarratorError
from narrator.inputs import Input, InputError


@dataclass
class JournalHeader:
    rules: str
    seats: int
    roles: dict[int, Role]
    lang: str = "ru"
    mode: str = "assist"
    settings: dict[str, float] = field(default_factory=dict)  # changed figures (count pace, …)

    def to_json(self) -> dict[str, Any]:
        return {"journal": 1, "rules": self.rules, "seats": self.seats, "lang": self.lang,
                "mode": self.mode, "settings": self.settings,
                "roles": {str(s): r.value for s, r in sorted(self.roles.items())}}


class Journal:
    """Appends actions to ``path``; each line is flushed and synced before the action runs."""

    def __init__(self, path: str | Path, header: JournalHeader, *, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        exists = self.path.exists() and self.path.stat().st_size > 0
        self._file: IO[str] = self.path.open("a", encoding="utf-8")
        if not exists:
            self._write(header.to_json())

    @classmethod
    def for_game(cls, path: str | Path, game: Game, *, lang: str = "ru", mode: str = "assist",
                 fsync: bool = True) -> Journal:
        header = JournalHeader(game.rules.name, game.seats, dict(game.roles), lang, mode,
                               settings_of(game.rules))
        return cls(path, header, fsync=fsync)

    def _write(self, obj: dict[str, Any]) -> None:
        self._file.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())

    def append(self, action: Action, at: float) -> None:
        self._write({"t": round(at, 3), "action": str(action)})

    def append_input(self, event: Input) -> None:
        """An input event as it arrived (before the actions it leads to are taken)."""
        self._write({"input": event.to_json()})

    def append_undo(self, at: float) -> None:
        """The host took back the last action."""
        self._write({"t": round(at, 3), "undo": True})

    def close(self) -> None:
        self._file.close()


@dataclass
class JournalContents:
    header: JournalHeader
    entries: list[tuple[float, Action]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)  # the sources' own events, in order

    def game(self) -> Game:
        """A game brought to the journal's last state (events of the replay discarded)."""
        rules = with_settings(find_rules(self.header.rules), **self.header.settings)
        game = Game(rules, seats=self.header.seats, roles=self.header.roles)
        game.start()
        for i, (_, action) in enumerate(self.entries, start=2):
            try:
                game.apply(action)
            except EngineError as e:
                raise NarratorError(f"journal line {i}: {e}") from None
        return game


def load_journal(path: str | Path) -> JournalContents:
    """Read a journal; a torn last line (the process died mid-write) is ignored."""
    name = str(path)
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise NarratorError(f"{name}: cannot read the journal ({e.__class__.__name__})") from e
    if not lines:
        raise NarratorError(f"{name}:1: expected a journal header, got an empty file")
    try:
        head = json.loads(lines[0])
        roles = {int(s): Role(r) for s, r in head["roles"].items()}
        settings = {str(k): float(v) for k, v in head.get("settings", {}).items()}
        header = JournalHeader(head["rules"], int(head["seats"]), roles, head.get("lang", "ru"),
                               head.get("mode", "assist"), settings)
    except (json.JSONDecodeError, KeyError, ValueError, TypeError, AttributeError) as e:
        raise NarratorError(f"{name}:1: not a journal header ({e.__class__.__name__})") from None
    contents = JournalContents(header)
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            if "input" in obj:
                contents.inputs.append(Input.from_json(obj["input"]))
                continue
            if obj.get("undo"):
                if contents.entries:
                    contents.entries.pop()
                continue
            contents.entries.append((float(obj["t"]), parse_action(obj["action"])))
        except (json.JSONDecodeError, KeyError, ValueError, TypeError, AttributeError,
                InputError) as e:
            if number == len(lines):
                break  # a torn last line: the input was never acted on
            raise NarratorError(f"{name}:{number}: not a journal entry ({e})") from None
        except EngineError as e:
            raise NarratorError(f"{name}:{number}: {e}") from None
    return contents
