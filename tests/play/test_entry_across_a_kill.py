"""The hostless operator's entry is journaled before its actions: a process killed between two
of them («3:7 5:7») is resumed with the rest applied, and the step it answered is not asked
again (the operator cannot know what was taken)."""

from __future__ import annotations

from pathlib import Path

from narrator.clock import VirtualClock
from narrator.conform.check import KillPoint, cut
from narrator.engine import Game, Shot
from narrator.engine import waits as w
from narrator.host.hearing import game_hearing
from narrator.host.journal import Journal, load_journal, locked, repair_torn_tail
from narrator.inputs import STOP, Input, entry
from narrator.listening import ListeningLoop
from narrator.testing import ScriptedRecognizer
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES
from tests.test_listening import EndlessSilence


class Lines:
    """The operator's lines, each given when the loop waits for an answer; then a stop."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.asked = 0

    def take(self, now: float, *, block: bool) -> Input | None:
        if not block:
            return None
        self.asked += 1
        if not self.lines:
            return Input(STOP, now, {"reason": "(the test ends)"})
        return entry(now, self.lines.pop(0))

    def prompt(self, text: str) -> None:
        pass

    def error(self, text: str) -> None:
        raise AssertionError(text)


def run(game: Game, journal: Journal, lines: Lines, clock: VirtualClock, *,
        left: float | None = None, last: tuple[int, Input] | None = None) -> ListeningLoop:
    loop = ListeningLoop(game, clock=clock, source=EndlessSilence(200, start=clock.now()),
                         recognizer=ScriptedRecognizer(lambda: [(0.0, "спасибо")]),
                         hearing=game_hearing("ru", 10), operator=lines, entries=lines,
                         manifest=default_manifest("ru"), journal=journal)
    loop.resume_left, loop.resume_entry = left, last
    loop.run()
    journal.close()
    return loop


def test_an_entry_cut_between_its_shots_is_finished_on_resume(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    game = Game(roles=ROLES)
    # day 1 passes with «спасибо» from everyone; the hunt: the three mafiosi's shots, typed
    run(game, Journal.for_game(path, game, mode="play", fsync=False),
        Lines(["3:7 5:7 9:7"]), VirtualClock())
    text = path.read_text().splitlines()
    at = next(i for i, line in enumerate(text) if '"type":"entry"' in line)
    assert text[at + 1].endswith('"action":"shot 3 7"}')
    cut(path, KillPoint(at + 2, torn=True))  # the first shot written, the second torn
    with locked(path):
        repair_torn_tail(path)
    contents = load_journal(path)
    resumed = contents.game()
    assert [a for a in resumed.history if isinstance(a, Shot)] == [Shot(3, 7)]
    lines = Lines([])  # the operator types nothing more
    run(resumed, Journal(path, contents.header, fsync=False), lines,
        VirtualClock(contents.last_t), left=contents.time_left(resumed),
        last=contents.last_entry())
    assert [a for a in resumed.history if isinstance(a, Shot)] == [Shot(3, 7), Shot(5, 7),
                                                                    Shot(9, 7)]
    assert resumed.nights[0].hit == 7  # the agreed shot: a hit, not a miss
    assert not isinstance(resumed.expect, w.Hunt)  # answered before the kill: not asked again
