"""The hostless table's core on a VirtualClock: scripted operator, a text recognizer stub.

The stub stands in for Vosk: at each speech (when the core resets it) it takes the phrases the
speaker "says" and emits them as Finals at their second into the speech. Everything else — the
listener, the gate, the early decider, the grammar, the engine, the holds for the operator —
is the real code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk, AudioFormat
from narrator.audio.recognizer import Final, RecognitionEvent, Recognizer
from narrator.clock import VirtualClock
from narrator.engine import EndSpeech, Game, Nominate, Role, TimeUp
from narrator.host.entries import OperatorLineError, parse_operator_line
from narrator.host.hearing import game_hearing
from narrator.host.listening import PlayCore
from narrator.play.cli import roles_text
from narrator.replay.script import load_table_script
from narrator.replay.table import replay_script
from narrator.testing import ScriptedOperator
from narrator.voice.manifest import default_manifest

ROOT = Path(__file__).resolve().parents[2]
ROLES = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}


class EndlessSilence:
    """Silence on the stream timeline until closed (the microphone of a quiet room)."""

    def __init__(self, chunk_ms: int = 200, start: float = 0.0) -> None:
        self.step = chunk_ms / 1000
        self.start = start
        self.closed = False

    @property
    def format(self) -> AudioFormat:
        return RECOGNIZER_FORMAT

    def chunks(self) -> Iterator[AudioChunk]:
        audio = b"\0" * (round(self.step * RECOGNIZER_FORMAT.rate) * 2)
        n = 0
        while not self.closed and n < 100_000:
            yield AudioChunk(audio, RECOGNIZER_FORMAT, self.start + n * self.step)
            n += 1

    def close(self) -> None:
        self.closed = True


class TextRecognizer(Recognizer):
    """Emits Finals with the texts each seat says, at their seconds into the speech."""

    def __init__(self, says: dict[int, list[Sequence[tuple[float, str]]]]) -> None:
        self.says = {seat: list(items) for seat, items in says.items()}
        self.game: Game | None = None
        self.phrases: list[str] | None = None
        self.dropped_words: list[str] = []
        self.pending: list[tuple[float, str]] = []
        self.fed = 0.0

    @property
    def position(self) -> float:
        return self.fed

    def set_grammar(self, phrases: Sequence[str] | None) -> list[str]:
        self.phrases = None if phrases is None else list(phrases)
        self.reset()
        return []

    def reset(self) -> None:
        assert self.game is not None
        seat = self.game.expect.seat
        queue = self.says.get(seat or 0, [])
        said = queue.pop(0) if queue else ()
        self.pending = [(self.fed + t, text) for t, text in said]

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self.fed = chunk.end
        due = [(t, text) for t, text in self.pending if t <= self.fed]
        self.pending = [p for p in self.pending if p not in due]
        return [Final(text, (), self.fed) for _, text in due]

    def flush(self) -> list[RecognitionEvent]:
        return []


def from_table_script(path: Path) -> tuple[Any, dict[int, list[Any]], list[str]]:
    """A table script as (script, what each seat says per speech, the operator's lines)."""
    script = load_table_script(path)
    says: dict[int, list[Any]] = {}
    lines: list[str] = []

    def seats(items: Sequence[int]) -> str:
        return "-" if not items else " ".join(map(str, items)) + ("," if len(items) == 1 else "")

    for line in script.inputs:
        if line.key == "speech":
            says.setdefault(line.value, []).append(line.say or ((0.0, "спасибо"),))
        elif line.key == "vote":
            lines.extend(seats(v) for v in line.value.values())
        elif line.key == "crash":
            lines.append(seats(line.value))
        elif line.key == "night":
            night = line.value
            shots = [f"{s}:{t}" for s, targets in night["shots"].items() for t in targets]
            lines.append(" ".join(shots) or "-")
            # a check with no target in this example is one whose checker is out: not asked
            lines.extend(str(night[role]) for role in ("don", "sheriff") if night[role])
    return script, says, lines


def make_core(says: dict[int, list[Any]], lines: list[str], *, roles: dict[int, Role] = ROLES,
              log: list[str] | None = None) -> tuple[PlayCore, ScriptedOperator]:
    game = Game(roles=roles)
    rec = TextRecognizer(says)
    rec.game = game
    operator = ScriptedOperator(lines)
    core = PlayCore(game, clock=VirtualClock(), source=EndlessSilence(), recognizer=rec,
                    hearing=game_hearing("ru", 10), operator=operator,
                    manifest=default_manifest("ru"),
                    log=(log.append if log is not None else None))
    return core, operator


def test_a_whole_game_by_ear_gives_the_table_script_protocol() -> None:
    path = ROOT / "examples" / "civilians-win.table.jsonl"
    script, says, lines = from_table_script(path)
    log: list[str] = []
    core, operator = make_core(says, lines, log=log)
    core.run()
    assert core.game.winner is not None and core.game.winner.value == "civilians"
    assert core.protocol() == replay_script(script).protocol()
    assert operator.errors == []
    # heard in speech: accepted with «Принято», the future tense refused and logged
    said = core.transcript.said
    assert said[said.index("Слово игроку номер один") + 1] == "Принято"
    assert any("«я выставлю девятого» refused (future_tense)" in x for x in log)
    assert {"seat": 2, "kind": "nominate", "target": 9, "reason": "future_tense",
            "phase": "d1"}.items() <= core.game.refused[0].items()


def test_nominations_from_speech_and_the_operator_holds() -> None:
    says: dict[int, list[Any]] = {
        1: [[(3.0, "выставляю номер пять"), (5.0, "я бы выставил шестого"), (6.0, "спасибо")]],
        2: [[(2.0, "выставляю семь"), (4.0, "пас")]]}
    for seat in range(3, 11):
        says[seat] = [[(0.5, "пас")]]
    says[5].append([(1.0, "спасибо")])  # the last word
    log: list[str] = []
    core, operator = make_core(says, ["f 4", "6", "-"], log=log)
    core.run()
    game = core.game
    assert game.days[0].nominations == [5, 7]
    assert core.transcript.said.count("Принято") == 2
    assert any("refused (subjunctive)" in x for x in log)
    # each voting window waited for the operator; abstainers counted for the last candidate
    assert game.days[0].rounds == [{"candidates": [5, 7], "votes": {"5": 6, "7": 4}}]
    assert game.days[0].out == [5] and game.fouls == {4: 1}
    assert operator.prompts[:2] == [
        "hands for 5: a count (6), the seats (1 2 4 or 4,), or - for none",
        "hands for 7: a count (6), the seats (1 2 4 or 4,), or - for none"]
    # the night's hunt waited for an answer; the script had none left: the game stopped
    assert operator.prompts[2].startswith("hunt:")
    assert core.quit and game.winner is None


def test_a_phrase_heard_after_the_speech_is_ignored() -> None:
    says = {1: [[(61.0, "выставляю номер пять")]]}  # after the 60 s limit: never heard
    core, _ = make_core(says, [])
    rec = core.recognizer
    assert isinstance(rec, TextRecognizer)
    core.run()  # the operator script is empty: the game stops at the first vote, none here
    assert core.game.days[0].nominations == []


def test_operator_lines_mean_what_the_game_waits_for() -> None:
    game = Game(roles=ROLES)
    game.start()
    with pytest.raises(OperatorLineError, match="nothing to enter now"):
        parse_operator_line("7", game)
    assert parse_operator_line("f 6", game).actions[0].__str__() == "foul 6"
    assert parse_operator_line("q", game).quit
    assert "seat 3: don" in roles_text(game)
    for name in ("dealing", "don_noted", "agreement", "sheriff_noted"):
        game.apply(TimeUp(name))
    for _ in range(11):
        game.apply(EndSpeech() if game.candidates else Nominate(5))
    assert game.expect.kind == "hunt"  # one candidate on day 1: no vote, night falls
    assert [str(a) for a in parse_operator_line("7", game).actions] == [
        "shot 3 7", "shot 5 7", "shot 9 7"]
    assert [str(a) for a in parse_operator_line("3:7 9:2", game).actions] == [
        "shot 3 7", "shot 9 2"]
    assert parse_operator_line("-", game).done
    with pytest.raises(OperatorLineError, match="hunt"):
        parse_operator_line("seven", game)
