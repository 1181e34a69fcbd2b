"""The console with the microphone on: the pads take the terminal operator's place in a
listening game. Speech comes through the recognizer (a scripted stand-in for Vosk), every
gesture of the table — the cards, the hands, the shots on the count, the checks — from the
pads, run on the listening loop's thread through its driver. The game gives the table script's
protocol, and no step waits for a pad."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from narrator.clock import VirtualClock
from narrator.console.table import ConsoleTable, Press
from narrator.console.views import vote_candidate
from narrator.engine import Game
from narrator.engine import waits as w
from narrator.host.hearing import game_hearing
from narrator.inputs import Input
from narrator.listening import ListeningLoop
from narrator.play.console import PadsLog
from narrator.replay.table import replay_script
from narrator.testing import ScriptedRecognizer, Utterances
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES
from tests.test_listening import EndlessSilence, from_table_script

ROOT = Path(__file__).resolve().parents[2]


class Players:
    """Ten players with phones. Each time the loop looks for inputs, they press what the script
    says they do now; the presses reach the loop as the server hands them over (its driver)."""

    def __init__(self, script: Any) -> None:
        self.votes = [line.value for line in script.inputs if line.key == "vote"]
        self.nights = [line.value for line in script.inputs if line.key == "night"]
        self.loop: ListeningLoop | None = None
        self.table: ConsoleTable | None = None
        self.done: set[Any] = set()
        self.round: dict[int, list[int]] = {}
        self.night: dict[str, Any] = {}
        self.pending: list[tuple[int, int]] = []

    def press(self, seat: int, do: str, t: float, **data: Any) -> None:
        assert self.table is not None and self.loop is not None
        table = self.table
        self.loop.driver.call(lambda: table.handle(Press(seat, do, data, t)))

    def take(self, now: float, *, block: bool) -> Input | None:
        table = self.table
        assert table is not None
        game = table.game
        exp = game.expect
        cand = vote_candidate(exp)
        key = (game.phase, type(exp), cand, exp.role if isinstance(exp, w.NightAct) else None,
               len(game.days[-1].rounds) if game.days else 0)
        if table.dealing and "cards" not in self.done:
            self.done.add("cards")
            for seat in range(1, 11):
                self.press(seat, "seen", now)
        elif isinstance(exp, w.Vote | w.Crash) and key not in self.done:
            self.done.add(key)
            if cand == game.voting_candidates[0]:
                self.round = self.votes.pop(0)
            for seat in self.round.get(cand or 0, []):
                self.press(seat, "vote", now, candidate=cand)
        elif isinstance(exp, w.Hunt):
            if game.phase not in self.done:
                self.done.add(game.phase)
                self.night = self.nights.pop(0)
                self.pending = sorted((t, s) for s, ts in self.night["shots"].items() for t in ts)
            while self.pending and table.number_at(now) == self.pending[0][0]:
                _, shooter = self.pending.pop(0)
                self.press(shooter, "shoot", now)
        elif isinstance(exp, w.NightAct) and exp.checks and key not in self.done:
            self.done.add(key)
            target = self.night[exp.role]
            # (a checker out of the game has no pad to check from: his time runs out in full)
            seat = next((s for s in range(1, 11) if table.checker_role(s)), None)
            if target is not None and seat is not None:
                self.press(seat, "check", now, target=target)
        return None


def test_a_listening_game_with_the_pads_gives_the_table_script_protocol() -> None:
    script, says, _lines = from_table_script(ROOT / "examples" / "civilians-win.table.jsonl")
    game = Game(roles=ROLES)

    def next_speech() -> Utterances:
        exp = game.expect
        queue = says.get(exp.seat if isinstance(exp, w.Speech) else 0, [])
        return queue.pop(0) if queue else ()

    players = Players(script)
    log: list[str] = []
    loop = ListeningLoop(game, clock=VirtualClock(), source=EndlessSilence(),
                         recognizer=ScriptedRecognizer(next_speech),
                         hearing=game_hearing("ru", 10), operator=PadsLog(log.append),
                         entries=players, manifest=default_manifest("ru"), operator_steps=False)
    inputs: list[Input] = []
    players.loop = loop
    players.table = ConsoleTable(loop.host, record=inputs.append,
                                 said=lambda: list(loop.transcript.said))
    loop.run()
    assert loop.protocol() == replay_script(script).protocol()
    kinds = {(i.type, i.get("do")) for i in inputs}
    assert kinds == {("pad", "seen"), ("pad", "vote"), ("pad", "shoot"), ("pad", "check")}
    assert players.pending == [] and log == []
