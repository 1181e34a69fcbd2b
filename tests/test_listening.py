"""The hostless table's loop on a VirtualClock: scripted operator, scripted recognizer.

The scripted recognizer stands in for Vosk: at each speech (when the loop resets it) it takes the
phrases the speaker "says" and emits them at their second into the speech. Everything else —
the loop pulling chunks, the gate, the early decider, the grammar, the engine, the holds for the
operator — is the real code.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.format import AudioChunk
from narrator.audio.recognizer import Final, Partial
from narrator.audio.sources import QuietRoom
from narrator.clock import VirtualClock
from narrator.engine import (
    EndSpeech,
    Game,
    Nominate,
    Phase,
    Refusal,
    Role,
    Rules,
    TimeUp,
    VoteRound,
    parse_action,
)
from narrator.engine import waits as w
from narrator.engine.entries import OperatorLineError, parse_operator_line
from narrator.host.hearing import game_hearing
from narrator.inputs import STOP, Input, entry
from narrator.listening import ListeningLoop
from narrator.play.cli import roles_text
from narrator.reasons import words as reason_words
from narrator.replay.script import load_table_script
from narrator.replay.table import replay_script
from narrator.testing import ScriptedOperator, ScriptedRecognizer, Utterances
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES, checker_present
from tests.words.english import english

ROOT = Path(__file__).resolve().parents[1]


class EndlessSilence(QuietRoom):
    """Silence on the stream timeline until closed (the microphone of a quiet room)."""


def from_table_script(path: Path) -> tuple[Any, dict[int, list[Any]], list[str]]:
    """A table script as (script, what each seat says per speech, the operator's lines)."""
    script = load_table_script(path)
    says: dict[int, list[Any]] = {}
    lines: list[str] = []

    def seats(items: Sequence[int]) -> str:
        return "-" if not items else " ".join(map(str, items)) + ("," if len(items) == 1 else "")

    replayed = replay_script(script).game
    nights = iter(replayed.nights)
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
            # a checker at the table is asked (shot tonight too, 2.1.2); one who left is not
            number = next(nights).number
            lines.extend(str(night[role]) if night[role] else "-" for role in ("don", "sheriff")
                         if checker_present(replayed, role, number))
    return script, says, lines


def make_table(says: dict[int, list[Utterances]], lines: list[str], *,
               roles: dict[int, Role] = ROLES, rules: Rules | str = "crime-time",
               log: list[str] | None = None,
               delay: float = 0.0, chunk_ms: int = 200,
               records: list[Input] | None = None,
               start: float = 0.0) -> tuple[ListeningLoop, ScriptedOperator]:
    """A table where each seat says ``says[seat][n]`` in their n-th speech; every narrator
    announcement delays its timer by ``delay`` seconds."""
    game = Game(rules, roles=roles)

    def next_speech() -> Utterances:
        exp = game.expect
        queue = says.get(exp.seat if isinstance(exp, w.Speech) else 0, [])
        return queue.pop(0) if queue else ()

    operator = ScriptedOperator(lines)
    table = ListeningLoop(game, clock=VirtualClock(start), source=EndlessSilence(chunk_ms, start),
                          recognizer=ScriptedRecognizer(next_speech),
                          hearing=game_hearing("ru", 10), operator=operator, entries=operator,
                          manifest=default_manifest("ru"), timer_delay=lambda: delay,
                          recorder=_Kept(records) if records is not None else None,
                          log=(log.append if log is not None else None))
    return table, operator


def said_at(table: ListeningLoop, line: str) -> float:
    """When the narrator said ``line`` first."""
    return next(t for t, text in table.transcript.entries if line in text)


class _Kept:
    """An input log kept in a list."""

    def __init__(self, into: list[Input]) -> None:
        self.into = into

    def write(self, event: Input) -> None:
        self.into.append(event)


def test_a_whole_game_by_ear_gives_the_table_script_protocol() -> None:
    path = ROOT / "examples" / "civilians-win.table.jsonl"
    script, says, lines = from_table_script(path)
    log: list[str] = []
    core, operator = make_table(says, lines, log=log)
    core.run()
    assert core.game.winner is not None and core.game.winner.value == "civilians"
    assert core.protocol() == replay_script(script).protocol()
    assert operator.errors == []
    # heard in speech: accepted with «Принято», the future tense refused and logged
    said = core.transcript.said
    assert said[said.index("Слово игроку номер один") + 1] == "Принято"
    assert any(f"«я выставлю девятого» — отказ: {reason_words('future_tense', 'ru')}" in x
               for x in log)
    # the terminal's log and the operator's prompts in the table's language, nothing English
    assert english("\n".join([*log, *operator.prompts])) == [], log
    assert core.game.refused[0] == Refusal(Phase.day(1), 2, "nominate", 9, "future_tense")


def test_nominations_from_speech_and_the_operator_holds() -> None:
    says: dict[int, list[Any]] = {
        1: [[(3.0, "выставляю номер пять"), (5.0, "я бы выставил шестого"), (6.0, "спасибо")]],
        2: [[(2.0, "выставляю семь"), (4.0, "пас")]]}
    for seat in range(3, 11):
        says[seat] = [[(0.5, "пас")]]
    says[5].append([(1.0, "спасибо")])  # the last word
    log: list[str] = []
    core, operator = make_table(says, ["f 4", "6", "-"], log=log)
    core.run()
    game = core.game
    assert game.days[0].nominations == [5, 7]
    assert core.transcript.said.count("Принято") == 2
    assert any(reason_words("subjunctive", "ru") in x for x in log)
    # each voting window waited for the operator; abstainers counted for the last candidate
    assert game.days[0].rounds == [VoteRound((5, 7), {5: 6, 7: 4})]
    assert game.days[0].out == [5] and game.fouls == {4: 1}
    assert operator.prompts[:2] == [
        "руки за 5: число (6), номера (1 2 4 или 4,) или - если ни одной",
        "руки за 7: число (6), номера (1 2 4 или 4,) или - если ни одной"]
    # the night's hunt waited for an answer; the script had none left: the game stopped
    assert operator.prompts[2].startswith("охота:")
    assert core.quit and game.winner is None


def test_a_phrase_heard_after_the_speech_is_ignored() -> None:
    # Seat 1's time runs out while the phrase is still being said; its Final comes half a
    # second later, while the narrator announces seat 2 (2 s): nobody's speech. Taken, it would
    # be seat 2's nomination.
    says: dict[int, list[Utterances]] = {1: [[(60.5, "выставляю номер пять")]],
                                         2: [[(1.0, "пас")]]}
    log: list[str] = []
    table, operator = make_table(says, [], log=log, delay=2.0, chunk_ms=100)
    table.run()  # the operator script is empty: the game stops at the first vote, none here
    late = [h for h in table.heard if h.late]
    assert [(h.text, h.actions) for h in late] == [("выставляю номер пять", [])]
    # seat 1 is heard from 2 s after «Слово игроку номер один» to 62 s; seat 2 from 64 s
    assert 62.0 < late[0].t - said_at(table, "Слово игроку номер один") < 64.0
    assert any("услышано после речи, не принято: «выставляю номер пять»" in x for x in log)
    assert table.game.days[0].nominations == []
    assert "Принято" not in table.transcript.said
    assert operator.errors == []


def test_a_phrase_heard_late_is_labelled_with_its_own_speaker() -> None:
    # Seat 1's Final comes while the narrator already gives seat 2 the floor: the phrase was
    # seat 1's, and the record of what was heard says so.
    says: dict[int, list[Utterances]] = {1: [[(60.5, "выставляю номер пять")]],
                                         2: [[(1.0, "пас")]]}
    table, _ = make_table(says, [], delay=2.0, chunk_ms=100)
    table.run()
    late = [h for h in table.heard if h.late]
    assert [(h.seat, h.text) for h in late] == [(1, "выставляю номер пять")]
    assert [h.seat for h in table.heard if h.text == "пас"] == [2]


def test_the_transcript_counts_from_the_game_start_on_a_monotonic_timeline() -> None:
    # a session's clock is the monotonic one (its zero is the machine's boot, hours ago)
    says: dict[int, list[Utterances]] = {1: [[(3.0, "выставляю номер пять")]]}
    table, _ = make_table(says, [], start=7325.0)
    table.run()
    lines = table.transcript.render().splitlines()
    assert lines[0].startswith("  0:00.0  «")
    def at(text: str) -> float:
        minutes, seconds = next(x for x in lines if text in x).split()[0].split(":")
        return int(minutes) * 60 + float(seconds)

    assert 0.0 < at("«Принято»") - at("«Слово игроку номер один»") < 5.0
    assert at("«Принято»") < 300.0  # minutes into the game, not hours since the boot


def test_a_timer_due_within_a_chunk_runs_out_before_the_next_chunk_is_awaited() -> None:
    # live, the next chunk arrives a chunk later: a timer left for it would end a chunk late
    table, _ = make_table({}, [], delay=0.05)
    taken: list[AudioChunk] = []
    plain_chunks = table.source.chunks

    def chunks() -> Iterator[AudioChunk]:
        for chunk in plain_chunks():
            taken.append(chunk)
            yield chunk

    table.source.chunks = chunks  # type: ignore[method-assign]
    ended: list[tuple[float, AudioChunk]] = []
    plain_time_up = table.host._time_up

    def time_up(name: str) -> None:
        timer = table.host.timer
        assert timer is not None
        ended.append((table.host.timer_started + timer.seconds, taken[-1]))
        plain_time_up(name)

    table.host._time_up = time_up  # type: ignore[method-assign]
    table.run()  # (no operator lines: the game stops at the first night's answer)
    assert len(ended) > 3
    for deadline, last in ended:
        assert last.timestamp < deadline <= last.end + 1e-9, (deadline, last.timestamp)


def _stable(text: str, start: float, *, quiet: float = 0.5) -> list[tuple[float, Any]]:
    """A partial repeated every 100 ms for 0.6 s after a pause (an early decision's evidence;
    a guarded verb needs 0.4 s of it)."""
    return [(start + k / 10, Partial(text, 0.0, (), quiet)) for k in range(7)]


def test_a_final_that_adds_to_an_early_decision_takes_only_what_it_adds() -> None:
    says: dict[int, list[Utterances]] = {
        1: [[*_stable("выставляю номер пять", 2.0),
             (3.5, Final("выставляю номер пять спасибо", (), 0.0))]],
        2: [[(1.0, "пас")]]}
    log: list[str] = []
    records: list[Input] = []
    table, operator = make_table(says, [], log=log, chunk_ms=100, records=records)
    table.run()
    first, revised = table.heard[:2]
    assert (first.text, first.early, first.actions) == (
        "выставляю номер пять", True, ["nominate 5"])
    start = said_at(table, "Слово игроку номер один")
    assert first.t - start < 3.0  # decided on the partials, long before the Final (3.5 s)
    # the Final revised it: the nomination stays taken once; «спасибо» ends the speech
    assert (revised.text, revised.early, revised.actions) == (
        "выставляю номер пять спасибо", False, ["end"])
    assert table.game.days[0].nominations == [5]
    assert table.transcript.said.count("Принято") == 1
    assert operator.errors == [] and not any("не принято" in x for x in log)
    assert not any("конец фразы изменил" in x for x in log)
    assert table.heard[2].seat == 2 and table.heard[2].t - revised.t < 2.0  # not the 60 s
    heard = [e.to_json() for e in records if e.type == "heard"][:2]
    assert [(h["early"], h["revised"]) for h in heard] == [(True, False), (False, True)]


def test_a_final_that_changes_an_early_decision_keeps_what_was_taken() -> None:
    says: dict[int, list[Utterances]] = {
        1: [[*_stable("выставляю номер пять", 2.0),
             (3.5, Final("выставляю номер шесть", (), 0.0)), (5.0, "спасибо")]]}
    log: list[str] = []
    table, operator = make_table(says, [], log=log, chunk_ms=100)
    table.run()
    assert [(h.text, h.actions) for h in table.heard[:3]] == [
        ("выставляю номер пять", ["nominate 5"]), ("выставляю номер шесть", []),
        ("спасибо", ["end"])]
    assert any("конец фразы изменил её: «выставляю номер шесть»; принято только то, что "
               "дальше" in x for x in log)
    assert table.game.days[0].nominations == [5]
    assert operator.errors == [] and not any("не принято" in x for x in log)


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
    assert isinstance(game.expect, w.Hunt)  # one candidate on day 1: no vote, night falls
    assert [str(a) for a in parse_operator_line("7", game).actions] == [
        "shot 3 7", "shot 5 7", "shot 9 7"]
    assert [str(a) for a in parse_operator_line("3:7 9:2", game).actions] == [
        "shot 3 7", "shot 9 2"]
    assert parse_operator_line("-", game).done
    with pytest.raises(OperatorLineError, match="hunt"):
        parse_operator_line("seven", game)


class _SpeechEntries:
    """The operator types seat 1's nomination and «Спасибо» (the microphone missed them)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.lines = ["5", "-"]

    def take(self, now: float, *, block: bool) -> Input | None:
        exp = self.game.expect
        if self.lines and isinstance(exp, w.Speech) and exp.seat == 1:
            return entry(now, self.lines.pop(0))
        return Input(STOP, now, {"reason": "(script ended)"}) if block else None


def test_the_operator_may_enter_a_speech_for_the_microphone() -> None:
    game = Game(roles=ROLES)
    entries = _SpeechEntries(game)
    operator = ScriptedOperator([])
    table = ListeningLoop(game, clock=VirtualClock(), source=EndlessSilence(),
                          recognizer=ScriptedRecognizer(lambda: ()),
                          hearing=game_hearing("ru", 10), operator=operator, entries=entries,
                          manifest=default_manifest("ru"))
    table.run()
    assert not entries.lines and operator.errors == []
    assert game.days[0].nominations == [5] and game.nominations == []  # day 1: no vote
    said = table.transcript.said
    assert said[said.index("Слово игроку номер один") + 1:][:2] == [
        "Принято", "Слово игроку номер два"]  # ended at once: no «Спасибо» of the timer
    assert isinstance(game.expect, w.Hunt)  # the operator's script ended at the first night step


def _at_the_hunt() -> Game:
    game = Game(roles=ROLES)
    game.start()
    for name in ("dealing", "don_noted", "agreement", "sheriff_noted"):
        game.apply(TimeUp(name))
    for _ in range(11):
        game.apply(EndSpeech() if game.candidates else Nominate(5))
    return game


@pytest.mark.parametrize("line", ["²", "①", "٥", "３", "9" * 5000, "3:²", "3:" + "9" * 5000,
                                  "f ²", "r ٥", "f " + "9" * 5000, "1 ² 3"])
def test_operator_digits_int_refuses_or_misreads_are_refused(line: str) -> None:
    with pytest.raises(OperatorLineError):
        parse_operator_line(line, _at_the_hunt())


def test_a_refused_operator_input_shows_no_roles() -> None:
    import re

    log: list[str] = []
    table, operator = make_table({}, ["r 6", "r 6"], log=log)  # the second: seat 6 is out
    table.start()
    table.driver.take()  # the first removal
    table.driver.take()  # the second, refused
    assert operator.errors and operator.errors[0] == reason_words("seat_out", "ru")
    for text in [*operator.errors, *log]:
        # no seat-by-seat role letters (C, S, M, D; lower case when out) anywhere
        assert re.search(r"\b[CSMDcsmd]{10}\b", text) is None, text


class CountingSilence(EndlessSilence):
    """An endless microphone as fast as the CPU (a virtual device): counts what it gave."""

    def __init__(self) -> None:
        super().__init__(chunk_ms=40)
        self.given = 0

    def chunks(self) -> Iterator[AudioChunk]:
        for chunk in super().chunks():
            self.given += 1
            yield chunk


def test_quit_stops_a_fast_microphone_at_once() -> None:
    from narrator.inputs import STOP

    game = Game(roles=ROLES)
    source = CountingSilence()
    quit_at: list[int] = []

    class QuitAt(ScriptedOperator):
        def take(self, now: float, *, block: bool) -> Input | None:
            if source.given >= 50:
                quit_at.append(source.given)
                return Input(STOP, now, {"reason": "q"})
            return None

    operator = QuitAt([])
    table = ListeningLoop(game, clock=VirtualClock(), source=source,
                          recognizer=ScriptedRecognizer(lambda: ()),
                          hearing=game_hearing("ru", 10), operator=operator, entries=operator,
                          manifest=default_manifest("ru"))
    table.run()
    assert table.quit and quit_at
    # the stop is seen at the chunk it came in, not 100,000 chunks later
    assert source.given - quit_at[0] <= 1 and source.closed


def _best_move_table(phrase: str) -> tuple[ListeningLoop, ScriptedOperator, list[str], Any]:
    """examples/best-move by ear, the victim (seat 10) saying ``phrase`` in his last word."""
    script, says, lines = from_table_script(ROOT / "examples" / "best-move.table.jsonl")
    last_word = says[10][1]
    says[10][1] = ((last_word[0][0], phrase), *last_word[1:])
    log: list[str] = []
    assert script.roles is not None
    core, operator = make_table(says, lines, roles=script.roles, rules=script.rules, log=log)
    return core, operator, log, script


def test_the_victims_best_move_is_heard_in_his_last_word_and_answered() -> None:
    """8.17: «Мой лучший ход: два, шесть, девять» in the first victim's last word is his best
    move, «Принято» as for a nomination; the protocol is the table script's."""
    core, operator, log, script = _best_move_table("мой лучший ход: два, шесть, девять")
    core.run()
    assert core.protocol() == replay_script(script).protocol()
    assert core.game.best_move is not None and core.game.best_move.named == (2, 6, 9)
    said = core.transcript.said
    last = said.index("Игрок номер десять, ваше последнее слово")
    assert said[last + 1] == "Принято"
    assert any("→ лучший ход: 2 6 9" in line for line in log)
    assert operator.errors == []


@pytest.mark.parametrize(("phrase", "reason"), [
    ("лучший ход два шесть", "three_seats"),
    ("лучший ход два шесть семь девять", "three_seats"),
    ("лучший ход два два шесть", "three_seats"),
    ("лучший ход десять два шесть", "own_seat"),
])
def test_a_best_move_the_engine_refuses_is_a_refused_phrase(phrase: str, reason: str) -> None:
    core, operator, log, _ = _best_move_table(phrase)
    core.run()
    assert core.game.best_move is None
    refused = [r for r in core.protocol()["refused"] if r["kind"] == "best_move"]
    assert refused == [{"phase": "d2", "seat": 10, "kind": "best_move", "target": None,
                        "reason": reason}]
    assert any(f"— отказ: {reason_words(reason, 'ru')}" in line for line in log)
    said = core.transcript.said
    last = said.index("Игрок номер десять, ваше последнее слово")
    assert said[last + 1] != "Принято"
    assert operator.errors == []
    # the journal's text of it reads back as itself (a resume replays it)
    history = core.game.history
    assert [parse_action(str(x)) for x in history] == history
