"""Replaying a session recorded by ``narrator play --record DIR`` (docs/session.md).

The recorded microphone audio goes through the very same listening loop, echo gate,
recognizer and early decider as at the table, on a virtual clock, as fast as the CPU allows.
What the audio alone cannot give back comes from ``inputs.jsonl``, a source of the same input
events the table took: the dealt cards (the ``table`` event), the operator's entries at the
game's time they were taken, how long each announcement delayed its timer (``delay``) and
which chunks the echo gate silenced (``gated``). The phrases heard and the actions taken are
recorded too: with the same model the replay takes the same ones and the protocol is the
recorded one, byte for byte; where it is not, :attr:`SessionReplay.divergence` says at which
action the replay went another way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.audio.session import INPUT_LIMITS, SessionReader
from narrator.audio.vosk_recognizer import load_model, table_recognizer
from narrator.clock import VirtualClock
from narrator.engine import Game, Role, parse_action
from narrator.engine.options import apply_options, check_names
from narrator.engine.rules import find_rules
from narrator.engine.tuning import with_settings
from narrator.errors import NarratorError
from narrator.host.hearing import Hearing, game_hearing
from narrator.inputs import (
    ACTION,
    DELAY,
    ENTRY,
    FIELDS,
    GATED,
    STOP,
    TABLE,
    UNDO,
    Input,
    InputError,
)
from narrator.listening import DEFAULT_CHUNK_MS, ListeningLoop
from narrator.reading import BadJSON, Containers, loads, read_lines
from narrator.voice.manifest import default_manifest


def iter_inputs(path: str | Path, *, skip: int = 0) -> Iterator[Input]:
    """The events of a file written by the host's recorder (after ``skip`` header lines), read
    a line at a time within :data:`~narrator.audio.session.INPUT_LIMITS`; a broken line, or one
    past a limit, is a NarratorError naming it (``FILE:LINE: …``) when the reader reaches it."""
    held = Containers(INPUT_LIMITS)
    for n, line, _ in read_lines(path, INPUT_LIMITS):
        if n <= skip or not line.strip():
            continue
        try:
            obj = loads(line)
        except BadJSON as e:
            raise NarratorError(f"{path}:{n}: {e}") from None
        try:  # before the event is made of it: what it holds is copied, frozen, kept
            held.take(line)
        except BadJSON as e:
            raise NarratorError(f"{path}:{n}: cannot read the session inputs ({e})") from None
        try:
            event = Input.from_json(obj)
        except InputError as e:
            raise NarratorError(f"{path}:{n}: {e}") from None
        yield event


def read_inputs(path: str | Path, *, skip: int = 0) -> list[Input]:
    """Every event of :func:`iter_inputs`, in a list."""
    return list(iter_inputs(path, skip=skip))


class RecordedGate:
    """The echo gate as it was: closed exactly for the chunks it silenced at the table."""

    def __init__(self, starts: set[float]) -> None:
        self.starts = starts

    def is_open(self, t: float) -> bool:
        return round(t, 6) not in self.starts

    def is_open_span(self, start: float, end: float) -> bool:
        return round(start, 6) not in self.starts


@dataclass
class RecordedOperator:
    """The operator of a recorded session: the entries given back when the game's time reaches
    theirs (or, at a hold, the next one); where the recording ends, the game stops."""

    entries: list[Input]
    errors: list[str] = field(default_factory=list)

    def take(self, now: float, *, block: bool) -> Input | None:
        # times are written to the microsecond
        if self.entries and (block or self.entries[0].t <= now + 1e-6):
            return self.entries.pop(0)
        if block:
            return Input(STOP, now, {"reason": "(the recording ends here)"})
        return None

    def prompt(self, text: str) -> None:
        """The replay has nobody to prompt."""

    def error(self, text: str) -> None:
        self.errors.append(text)


class _Applied:
    """An input log that keeps the actions the replay took, to compare with the recording."""

    def __init__(self) -> None:
        self.actions: list[str] = []

    def write(self, event: Input) -> None:
        if event.type in (ACTION, UNDO):  # a timer's mark is no action
            self.actions.append(str(event.get("action", event.type)))


@dataclass
class SessionReplay:
    table: ListeningLoop
    recorded_protocol: dict[str, Any] | None
    recorded_actions: list[str]
    replayed_actions: list[str]

    def protocol(self) -> dict[str, Any]:
        return self.table.protocol()

    @property
    def divergence(self) -> str | None:
        """None when the replay took the recorded actions; else where it went another way."""
        rec, rep = self.recorded_actions, self.replayed_actions
        for i, (a, b) in enumerate(zip(rec, rep, strict=False)):
            if a != b:
                return f"action {i + 1}: recorded {a!r}, replayed {b!r}"
        if len(rec) != len(rep):
            return f"{len(rec)} actions recorded, {len(rep)} replayed"
        return None


def table_game(table: Input) -> Game:
    """The game of a session's ``table`` event: the deal, the club's figures, options and
    nicknames, brought to where the recording began (a resumed game's history)."""
    roles = {int(s): Role(r) for s, r in table.get("roles").items()}
    seats = int(table.get("seats"))
    settings = {str(k): float(v) for k, v in table.get("settings", {}).items()}
    rules = with_settings(find_rules(str(table.get("rules"))), **settings)
    rules = apply_options(rules, table.get("options", {}))
    dealt = {str(k): str(v) for k, v in (table.get("dealt") or {}).items()}
    game = Game(rules, seats=seats, roles=roles, names=check_names(table.get("names", {}), seats),
                dealt=dealt)
    history = [parse_action(a) for a in table.get("history", ())]
    if history:  # a resumed game: bring it to where the recording began
        game.start()
        game.replay(history)
    return game


def replay_session(directory: str | Path, *, model: Any = None, model_path: str | None = None,
                   hearing: Hearing | None = None,
                   log: Callable[[str], None] | None = None) -> SessionReplay:
    """Run the session in ``directory`` again; ``model`` is a loaded Vosk model (or a path)."""
    reader = SessionReader(directory)
    # read once, keeping only what the replay takes of each event: a long game's file is some
    # 10⁵ lines, most of them the echo gate's chunks
    inputs = iter_inputs(reader.inputs_path) if reader.inputs_path.exists() else iter(())
    table = next(inputs, None)
    if table is None or table.type != TABLE:
        raise NarratorError(f"{reader.inputs_path}:1: expected the table event of a session "
                            "recorded by narrator play")
    delay_list: list[float] = []
    gated: set[float] = set()
    recorded: list[str] = []
    entries: list[Input] = []
    for e in inputs:
        if e.type == DELAY:
            delay_list.append(float(e.get("seconds")))
        elif e.type == GATED:
            gated.add(round(e.t, 6))
        elif e.type == ACTION:
            recorded.append(str(e.get("action")))
        elif e.type in (ENTRY, STOP):  # what the operator said, not what else the line holds
            entries.append(Input(e.type, e.t, {k: v for k, v in e.data.items()
                                               if k in FIELDS[e.type]}))
    try:
        game = table_game(table)
    except (KeyError, ValueError, TypeError, AttributeError, NarratorError) as e:
        raise NarratorError(f"{reader.inputs_path}:1: not a table to replay ({e})") from None
    lang = str(table.get("lang", "ru"))
    chunk_ms = int(table.get("chunk_ms", DEFAULT_CHUNK_MS))
    delays: Iterator[float] = iter(delay_list)
    operator = RecordedOperator(entries)
    if model is None:
        from narrator.audio.models import find_model

        model = load_model(find_model(lang, model_path))
    hearing = hearing or game_hearing(lang, game.seats)
    applied = _Applied()
    replay = ListeningLoop(
        game, clock=VirtualClock(table.t), source=reader.source(chunk_ms=chunk_ms),
        recognizer=table_recognizer(model, list(hearing.phrases)), hearing=hearing,
        operator=operator, entries=operator, manifest=default_manifest(lang), journal=applied,
        timer_delay=lambda: next(delays, 0.0), echo=RecordedGate(gated), log=log, lang=lang,
        chunk_ms=chunk_ms)
    replay.run()
    return SessionReplay(replay, reader.protocol(), recorded, applied.actions)
