"""What a front end's player does per move grows with what the game took since its last look,
not with the step: a speech of hundreds of refused withdrawals is as many moves, and a look at
the whole step each time made a table script within its limits take minutes (hours at 10⁴).
The work is counted, not timed: how often an action is read for what it counts as."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.conform import player
from narrator.conform.check import FRONT_ENDS, conform_one
from narrator.conform.reference import build_reference
from narrator.replay.script import parse_table_script

HEADER = '{"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}}\n'
REFUSED = 200  # withdrawals of a seat the speaker never nominated, the engine refuses each


def script() -> str:
    # two phrases of a hundred withdrawals each, then the next speech ends at once
    say = [[1.0, "снимаю 5 " * (REFUSED // 2)], [2.0, "снимаю 5 " * (REFUSED // 2)]]
    return (HEADER + json.dumps({"speech": 1, "say": say}, ensure_ascii=False) + "\n"
            + '{"speech": 2}\n')


@pytest.mark.parametrize("mode", ["replay", "assist", "hostless", "pads"])
def test_a_step_of_many_actions_costs_each_move_its_own(
        mode: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref = build_reference(parse_table_script(script(), "many.table.jsonl"))
    assert sum(1 for a in ref.game.history if str(a) == "withdraw 5") == REFUSED
    reads = 0
    real = player._key

    def counted(atom: player.Action) -> str:
        nonlocal reads
        reads += 1
        return real(atom)

    monkeypatch.setattr(player, "_key", counted)
    out = conform_one(ref, FRONT_ENDS[mode], kills=0, seed=0, folder=tmp_path)
    assert out.result == "same", out
    # each action read once for the reference and once as taken, and a little more: a look
    # at the whole step per move read it REFUSED times over (some 40,000 reads)
    assert reads < 10 * REFUSED, reads


def test_a_player_that_never_ends_says_so(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # a game longer than its moves allow is no game that "ended first": it is stuck
    ref = build_reference(parse_table_script(script(), "many.table.jsonl"))
    monkeypatch.setattr(player, "SPARE_MOVES", -2 * (len(ref.game.history) + len(ref.steps)) + 3)
    out = conform_one(ref, FRONT_ENDS["assist"], kills=0, seed=0, folder=tmp_path)
    assert (out.result, out.key) == ("differs", "(stuck)")
    assert out.why is not None and out.why.startswith("assist: no end after 3 moves")
