"""The console with the microphone on: the pads take the terminal operator's place in a
listening game. Speech comes through the recognizer (a text stub), every gesture of the table —
the cards, the hands, the shots on the count, the checks — from the pads, at the listening
thread's polls. The game gives the table script's protocol."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from narrator.clock import VirtualClock
from narrator.console.table import ConsoleTable, Press
from narrator.engine import Game
from narrator.host.entries import OperatorInput
from narrator.host.hearing import game_hearing
from narrator.host.listening import PlayCore
from narrator.inputs import Input
from narrator.play.console import ConsoleOperator
from narrator.replay.table import replay_script
from narrator.voice.manifest import default_manifest
from tests.host.test_play_core import ROLES, EndlessSilence, TextRecognizer, from_table_script

ROOT = Path(__file__).resolve().parents[2]


class Players(ConsoleOperator):
    """Ten players with phones: before each poll they press what the script says they do."""

    def __init__(self, script: Any) -> None:
        super().__init__()
        self.votes = [line.value for line in script.inputs if line.key == "vote"]
        self.nights = [line.value for line in script.inputs if line.key == "night"]
        self.table: ConsoleTable | None = None
        self.core: PlayCore | None = None
        self.done: set[Any] = set()
        self.round: dict[int, list[int]] = {}
        self.night: dict[str, Any] = {}
        self.pending: list[tuple[int, int]] = []

    def press(self, seat: int, do: str, **data: Any) -> None:
        assert self.table is not None and self.core is not None
        table, t = self.table, self.core.clock.now()  # stamped on arrival, as the server does
        self.submit(lambda: table.handle(Press(seat, do, data, t)))

    def poll(self, game: Game, index: int, *, block: bool) -> OperatorInput | None:
        table = self.table
        assert table is not None
        exp = game.expect
        key = (game.phase, exp.kind, exp.candidate, exp.role, len(game.days[-1].rounds)
               if game.days else 0)
        if table.dealing and "cards" not in self.done:
            self.done.add("cards")
            for seat in range(1, 11):
                self.press(seat, "seen")
        elif exp.kind == "hands" and key not in self.done:
            self.done.add(key)
            if exp.candidate == game.voting_candidates[0]:
                self.round = self.votes.pop(0)
            for seat in self.round.get(exp.candidate, []):
                self.press(seat, "vote", candidate=exp.candidate)
        elif exp.kind == "hunt":
            if game.phase not in self.done:
                self.done.add(game.phase)
                self.night = self.nights.pop(0)
                self.pending = sorted((t, s) for s, ts in self.night["shots"].items() for t in ts)
            now = self.core.clock.now() if self.core else 0.0
            while self.pending and table.number_at(now) == self.pending[0][0]:
                _, shooter = self.pending.pop(0)
                self.press(shooter, "shoot")
        elif exp.kind == "check" and key not in self.done:
            self.done.add(key)
            target = self.night[exp.role or ""]
            seat = next(s for s in range(1, 11) if table.checker_role(s))
            if target is not None:
                self.press(seat, "check", target=target)
        return super().poll(game, index, block=block)


def test_a_listening_game_with_the_pads_gives_the_table_script_protocol() -> None:
    script, says, _lines = from_table_script(ROOT / "examples" / "civilians-win.table.jsonl")
    game = Game(roles=ROLES)
    recognizer = TextRecognizer(says)
    recognizer.game = game
    players = Players(script)
    core = PlayCore(game, clock=VirtualClock(), source=EndlessSilence(), recognizer=recognizer,
                    hearing=game_hearing("ru", 10), operator=players,
                    manifest=default_manifest("ru"))
    inputs: list[Input] = []
    players.table = ConsoleTable(core.host, record=inputs.append,
                                 said=lambda: list(core.transcript.said))
    players.core = core
    core.run()
    assert core.protocol() == replay_script(script).protocol()
    kinds = {(i.type, i.get("do")) for i in inputs}
    assert kinds == {("pad", "card_seen"), ("pad", "hand"), ("pad", "shot"), ("pad", "check")}
    # the night never waited for a pad: each step ended with its timer
    assert players.pending == []
