"""Replaying a session recorded by ``narrator play --record DIR`` (SPEC §1 replay).

The recorded microphone audio goes through the very same play core, listener, echo gate,
recognizer and early decider as at the table, on a virtual clock, as fast as the CPU allows.
What the audio alone cannot give back is read from ``inputs.jsonl``: the dealt cards (the
``table`` line), the operator's inputs by poll index, how long each announcement delayed its
timer, and which chunks the echo gate silenced. With the same model the protocol is the
recorded one, byte for byte; where it is not, :attr:`SessionReplay.divergence` says at which
input the replay went another way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.audio.recognizer import Recognizer, load_model
from narrator.audio.session import SessionReader
from narrator.clock import VirtualClock
from narrator.engine import Action, Game, Role, parse_action
from narrator.engine.rules import find_rules
from narrator.errors import NarratorError
from narrator.host.entries import Operator, OperatorInput
from narrator.host.hearing import Hearing, game_hearing
from narrator.host.listening import PlayCore
from narrator.voice.manifest import default_manifest


class RecordedGate:
    """The echo gate as it was: closed exactly for the chunks it silenced at the table."""

    def __init__(self, starts: set[float]) -> None:
        self.starts = starts

    def is_open(self, t: float) -> bool:
        return round(t, 6) not in self.starts

    def is_open_span(self, start: float, end: float) -> bool:
        return round(start, 6) not in self.starts


@dataclass
class RecordedOperator(Operator):
    """Replays the operator inputs of a recorded session, by the index of the poll."""

    by_poll: dict[int, OperatorInput] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def poll(self, game: Game, index: int, *, block: bool) -> OperatorInput | None:
        found = self.by_poll.get(index)
        if found is None and block:
            return OperatorInput(quit=True, text="(the recording ends here)")
        return found

    def error(self, text: str) -> None:
        self.errors.append(text)


class _Applied:
    """An action log that keeps what the replay applied, to compare with the recording."""

    def __init__(self) -> None:
        self.actions: list[str] = []

    def append(self, action: Action, at: float) -> None:
        self.actions.append(str(action))

    def append_undo(self, at: float) -> None:
        self.actions.append("undo")


@dataclass
class SessionReplay:
    core: PlayCore
    recorded_protocol: dict[str, Any] | None
    recorded_actions: list[str]
    replayed_actions: list[str]

    def protocol(self) -> dict[str, Any]:
        return self.core.protocol()

    @property
    def divergence(self) -> str | None:
        """None when the replay took the recorded inputs; else where it went another way."""
        rec, rep = self.recorded_actions, self.replayed_actions
        for i, (a, b) in enumerate(zip(rec, rep, strict=False)):
            if a != b:
                return f"input {i + 1}: recorded {a!r}, replayed {b!r}"
        if len(rec) != len(rep):
            return f"{len(rec)} inputs recorded, {len(rep)} replayed"
        return None


def _table(inputs: list[dict[str, Any]], where: Path) -> tuple[float, dict[str, Any]]:
    for item in inputs:
        if "table" in item:
            return float(item["t"]), dict(item["table"])
    raise NarratorError(f"{where}: not a session recorded by narrator play (no table line)")


def replay_session(directory: str | Path, *, model: Any = None, model_path: str | None = None,
                   hearing: Hearing | None = None,
                   log: Callable[[str], None] | None = None) -> SessionReplay:
    """Run the session in ``directory`` again; ``model`` is a loaded Vosk model (or a path)."""
    reader = SessionReader(directory)
    inputs = reader.inputs()
    start, table = _table(inputs, reader.dir)
    try:
        roles = {int(s): Role(r) for s, r in table["roles"].items()}
        game = Game(find_rules(str(table["rules"])), seats=int(table["seats"]), roles=roles)
        history = [parse_action(a) for a in table.get("history", [])]
        if history:  # a resumed game: bring it to where the recording began
            game.start()
            game.replay(history)
        lang = str(table.get("lang", "ru"))
        chunk_ms = int(table.get("chunk_ms", 40))
        polls: dict[int, OperatorInput] = {}
        delays: list[float] = []
        gated: set[float] = set()
        recorded: list[str] = []
        for item in inputs:
            if "poll" in item:
                polls[int(item["poll"])] = OperatorInput(
                    tuple(parse_action(a) for a in item.get("actions", [])),
                    bool(item.get("done")), bool(item.get("quit")), str(item.get("text", "")))
            elif "delay" in item:
                delays.append(float(item["delay"]))
            elif "gated" in item:
                gated.add(round(float(item["t"]), 6))
            elif "applied" in item:
                recorded.append(str(item["applied"]))
    except (KeyError, ValueError, TypeError) as e:
        raise NarratorError(f"{reader.dir}: broken session inputs ({e})") from e
    if model is None:
        from narrator.audio.models import find_model

        model = load_model(find_model(lang, model_path))
    hearing = hearing or game_hearing(lang, game.seats)
    pending = iter(delays)
    applied = _Applied()
    core = PlayCore(
        game, clock=VirtualClock(start), source=reader.source(chunk_ms=chunk_ms),
        recognizer=Recognizer(model, phrases=list(hearing.phrases)), hearing=hearing,
        operator=RecordedOperator(polls), manifest=default_manifest(lang), journal=applied,
        timer_delay=lambda: next(pending, 0.0), echo=RecordedGate(gated), log=log, lang=lang,
        chunk_ms=chunk_ms)
    core.run()
    return SessionReplay(core, reader.protocol(), recorded, applied.actions)
