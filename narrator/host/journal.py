"""The game journal: every accepted input, appended and synced before it is acted on.

A journal is JSON lines: a header (ruleset, seats, the dealt roles, language, mode), then one
input event per line (:mod:`narrator.inputs`), written by the host's recorder:
``{"type": "action", "t": seconds, "action": "nominate 5"}`` for each action the engine took,
``{"type": "undo", "t": seconds}`` when the host took one back. Replaying the actions on a game
with the same roles gives back the same state (the engine is deterministic), so a killed process
resumes at the same phase: ``narrator resume JOURNAL``. A source with inputs of its own writes
each as it came before the actions it leads to — the table console's presses,
``{"type": "pad", "t": …, "seat": 3, "do": "shoot", …}`` — and they are kept apart
(:attr:`JournalContents.inputs`). Journals of version 1 (lines without a ``type``) are read too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.engine import Action, EngineError, Game, Role, parse_action
from narrator.engine.rules import find_rules, settings_of, with_settings
from narrator.errors import NarratorError
from narrator.host.recorder import Recorder
from narrator.inputs import OPERATOR, PAD, Input, InputError

VERSION = 2


@dataclass
class JournalHeader:
    rules: str
    seats: int
    roles: dict[int, Role]
    lang: str = "ru"
    mode: str = "assist"
    settings: dict[str, float] = field(default_factory=dict)  # changed figures (count pace, …)
    dealt: dict[str, str] = field(default_factory=dict)  # besides the cards (the maniac's side)

    def to_json(self) -> dict[str, Any]:
        out = {"journal": VERSION, "rules": self.rules, "seats": self.seats, "lang": self.lang,
               "mode": self.mode, "settings": self.settings,
               "roles": {str(s): r.value for s, r in sorted(self.roles.items())}}
        if self.dealt:
            out["dealt"] = dict(self.dealt)
        return out


class Journal(Recorder):
    """The recorder of one game's journal: each line synced before the input is acted on."""

    def __init__(self, path: str | Path, header: JournalHeader, *, fsync: bool = True) -> None:
        super().__init__(path, header=header.to_json(), fsync=fsync)

    @classmethod
    def for_game(cls, path: str | Path, game: Game, *, lang: str = "ru", mode: str = "assist",
                 fsync: bool = True) -> Journal:
        header = JournalHeader(game.rules.name, game.seats, dict(game.roles), lang, mode,
                               settings_of(game.rules), dict(game.dealt))
        return cls(path, header, fsync=fsync)


@dataclass
class JournalContents:
    header: JournalHeader
    entries: list[tuple[float, Action]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)  # the console's presses, in order

    def game(self) -> Game:
        """A game brought to the journal's last state (events of the replay discarded)."""
        rules = with_settings(find_rules(self.header.rules), **self.header.settings)
        try:
            game = Game(rules, seats=self.header.seats, roles=self.header.roles,
                        dealt=self.header.dealt)
        except EngineError as e:
            raise NarratorError(f"journal line 1: {e}") from None
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
        version = head.get("journal")
        roles = {int(s): Role(r) for s, r in head["roles"].items()}
        settings = {str(k): float(v) for k, v in head.get("settings", {}).items()}
        dealt = {str(k): str(v) for k, v in head.get("dealt", {}).items()}
        header = JournalHeader(head["rules"], int(head["seats"]), roles, head.get("lang", "ru"),
                               head.get("mode", "assist"), settings, dealt)
    except (json.JSONDecodeError, KeyError, ValueError, TypeError, AttributeError) as e:
        raise NarratorError(f"{name}:1: not a journal header ({e.__class__.__name__})") from None
    if version not in (1, VERSION):
        raise NarratorError(f"{name}:1: a journal of version {version!r}; this narrator reads "
                            f"versions 1 and {VERSION}")
    contents = JournalContents(header)
    for number, raw in enumerate(lines[1:], start=2):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            if obj.get("type") in (PAD, OPERATOR):  # its actions follow on their own lines
                contents.inputs.append(Input.from_json(obj))
                continue
            if obj.get("undo") or obj.get("type") == "undo":
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
