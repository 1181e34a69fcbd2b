"""The game journal: every accepted input, appended and synced before it is acted on.

A journal is JSON lines: a header (ruleset, seats, the dealt roles, language, mode), then one
input event per line (:mod:`narrator.inputs`), written by the host's recorder:
``{"type": "action", "t": seconds, "action": "nominate 5"}`` for each action the engine took,
``{"type": "undo", "t": seconds}`` when the host took one back, ``{"type": "timer", "t": …,
"name": "speech", "started": …}`` whenever a timer starts, and ``{"type": "stop", …}`` where the
host quit. Replaying the actions on a game with the same roles gives back the same state (the
engine is deterministic), so a killed process resumes at the same phase — and, from the last
timer mark and the last line's time, with the time its running timer had left: ``narrator
resume JOURNAL``. The header carries the club's options and the players' nicknames, so a resume
needs no other file. A source with inputs of its own writes each as it came before the actions it
leads to — the table console's presses, ``{"type": "pad", "t": …, "seat": 3, "do": "shoot", …}``
— and they are kept apart (:attr:`JournalContents.inputs`). Journals of version 1 (lines without a ``type``) are read too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.engine import Action, EngineError, Game, Role, parse_action
from narrator.engine.options import (
    OptionError,
    apply_options,
    check_names,
    check_options,
    options_of,
)
from narrator.engine.rules import find_rules, settings_of, with_settings
from narrator.errors import NarratorError
from narrator.host.recorder import Recorder
from narrator.inputs import OPERATOR, PAD, STOP, TIMER, UNDO, Input, InputError

VERSION = 2


@dataclass
class JournalHeader:
    rules: str
    seats: int
    roles: dict[int, Role]
    lang: str = "ru"
    mode: str = "assist"
    settings: dict[str, float] = field(default_factory=dict)  # changed figures (count pace, …)
    options: dict[str, Any] = field(default_factory=dict)  # club options (fouls, best_move, …)
    names: dict[int, str] = field(default_factory=dict)  # nicknames per seat
    dealt: dict[str, str] = field(default_factory=dict)  # besides the cards (the maniac's side)

    def to_json(self) -> dict[str, Any]:
        head: dict[str, Any] = {
            "journal": VERSION, "rules": self.rules, "seats": self.seats, "lang": self.lang,
            "mode": self.mode, "settings": self.settings,
            "roles": {str(s): r.value for s, r in sorted(self.roles.items())}}
        if self.options:
            head["options"] = self.options
        if self.names:
            head["names"] = {str(s): n for s, n in sorted(self.names.items())}
        if self.dealt:
            head["dealt"] = dict(self.dealt)
        return head


class Journal(Recorder):
    """The recorder of one game's journal: each line synced before the input is acted on."""

    def __init__(self, path: str | Path, header: JournalHeader, *, fsync: bool = True) -> None:
        super().__init__(path, header=header.to_json(), fsync=fsync)

    @classmethod
    def for_game(cls, path: str | Path, game: Game, *, lang: str = "ru", mode: str = "assist",
                 fsync: bool = True) -> Journal:
        header = JournalHeader(game.rules.name, game.seats, dict(game.roles), lang, mode,
                               settings_of(game.rules), options_of(game.rules), dict(game.names),
                               dict(game.dealt))
        return cls(path, header, fsync=fsync)

    def stop(self, at: float) -> None:
        """The host stopped the game here: a resume goes on with the time its timer had left."""
        self.write(Input(STOP, at, {"reason": "the host quit"}))


@dataclass
class JournalContents:
    header: JournalHeader
    entries: list[tuple[float, Action]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)  # the console's presses, in order
    #: the last timer mark: (name, started) of the timer running when the journal stopped
    #: (every timer that starts leaves one, after the input that started it)
    mark: tuple[str, float] | None = None
    last_t: float = 0.0  # the time of the journal's last line (a stop, an input, a mark)
    first_t: float | None = None  # the time of its first timed line (the game's start)

    def time_left(self, game: Game) -> float | None:
        """Seconds left on the running timer of ``game`` (from :meth:`game`) when the journal
        stopped, from the mark its timer left and the time of the last line; None when there
        is no such mark (the timer then runs again in full)."""
        timer = game.expect.timer
        if timer is None or self.mark is None or self.mark[0] != timer.name:
            return None
        return max(0.0, timer.seconds - max(0.0, self.last_t - self.mark[1]))

    def game(self) -> Game:
        """A game brought to the journal's last state (events of the replay discarded)."""
        rules = with_settings(find_rules(self.header.rules), **self.header.settings)
        rules = apply_options(rules, self.header.options, where="journal options")
        try:
            game = Game(rules, seats=self.header.seats, roles=self.header.roles,
                        names=self.header.names, dealt=self.header.dealt)
        except EngineError as e:
            raise NarratorError(f"journal line 1: {e}") from None
        game.start()
        for i, (_, action) in enumerate(self.entries, start=2):
            try:
                game.apply(action)
            except EngineError as e:
                raise NarratorError(f"journal line {i}: {e}") from None
        return game


def _checked(check: Any, value: Any, name: str, key: str, *args: Any) -> Any:
    try:
        return check(value, *args)
    except OptionError as e:
        raise NarratorError(f"{name}:1: {key}: {e}") from None


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
        seats = int(head["seats"])
        dealt = {str(k): str(v) for k, v in head.get("dealt", {}).items()}
        header = JournalHeader(head["rules"], seats, roles, head.get("lang", "ru"),
                               head.get("mode", "assist"), settings,
                               _checked(check_options, head.get("options", {}), name, "options"),
                               _checked(check_names, head.get("names", {}), name, "names", seats),
                               dealt)
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
            t = float(obj["t"])
            kind = obj.get("type")
            if contents.first_t is None:
                contents.first_t = t
            contents.last_t = max(contents.last_t, t)
            if kind in (PAD, OPERATOR):  # its actions follow on their own lines
                contents.inputs.append(Input.from_json(obj))
                continue
            if kind == STOP:
                continue
            if kind == TIMER:
                contents.mark = (str(obj["name"]), float(obj["started"]))
                continue
            if obj.get("undo") or kind == UNDO:
                if contents.entries:
                    contents.entries.pop()
                continue
            contents.entries.append((t, parse_action(obj["action"])))
        except (json.JSONDecodeError, KeyError, ValueError, TypeError, AttributeError,
                InputError) as e:
            if number == len(lines):
                break  # a torn last line: the input was never acted on
            raise NarratorError(f"{name}:{number}: not a journal entry ({e})") from None
        except EngineError as e:
            raise NarratorError(f"{name}:{number}: {e}") from None
    return contents
