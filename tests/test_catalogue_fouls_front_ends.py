"""The catalogue's fouls (MafiaRatings 9.5.1, 9.6.2) in the front ends: the nomination of a
3-fouled player in his lost minute is taken by his pad (the console), by ear (the listening
loop) and from a published-style game's table script; the technical foul has its operator
button, line and key where the club gives it, and none elsewhere.

Default roles: sheriff 1, don 3, mafia 5 and 9; day 1's discussion opens at seat 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import Game, TechFoul
from narrator.engine import waits as w
from narrator.engine.entries import parse_operator_line
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.host.hearing import game_hearing
from narrator.listening import ListeningLoop
from narrator.testing import ScriptedOperator, ScriptedRecognizer, TableRig, Utterances
from narrator.voice.manifest import default_manifest
from tests.helpers import EXAMPLES, ROLES
from tests.test_listening import EndlessSilence

SKIPS = "Игрок номер два пропускает речь: три фола. Можно только выставить кандидатуру"
EXAMPLE = EXAMPLES / "three-fouls-nomination.table.jsonl"


def _game(options: dict[str, Any]) -> Game:
    return Game(apply_options(find_rules("crime-time"), options), roles=dict(ROLES))


def test_the_pad_nominates_in_the_lost_minute() -> None:
    """9.5.1 «У игрока получившего три фола остается право выставить кандидатуру»: the
    operator's three fouls, then seat 2's own pad nominates in his window."""
    rig = TableRig(_game({"fouls": "sport"}))
    rig.deal()
    for _ in range(3):
        assert rig.op("foul", seat=2).ok
    assert rig.press(1, "end").ok
    exp = rig.game.expect
    assert isinstance(exp, w.Speech) and exp.seat == 2 and exp.timer is not None
    assert exp.timer.seconds == 10.0
    assert SKIPS in rig.transcript.said
    assert not rig.press(3, "nominate", target=7).ok  # not his turn
    assert rig.press(2, "nominate", target=7).ok
    assert rig.game.nominations == [(2, 7)]
    rig.until(w.Speech, seat=3)  # the window runs out: seat 3 speaks his minute
    assert rig.game.expect.timer is not None and rig.game.expect.timer.seconds == 60.0


def test_the_listening_loop_hears_the_nomination_in_the_lost_minute() -> None:
    """9.5.1 by ear: three fouls typed by the operator (``f 2``) in the first night; on day 1
    seat 2 says «выставляю номер семь» three seconds into his window."""
    game = _game({"fouls": "sport"})
    says: dict[int, list[Utterances]] = {2: [((3.0, "выставляю номер семь"),)]}

    def next_speech() -> Utterances:
        exp = game.expect
        queue = says.get(exp.seat if isinstance(exp, w.Speech) else 0, [])
        return queue.pop(0) if queue else ()

    operator = ScriptedOperator(["f 2", "f 2", "f 2"])
    loop = ListeningLoop(game, clock=VirtualClock(0.0), source=EndlessSilence(200, 0.0),
                         recognizer=ScriptedRecognizer(next_speech),
                         hearing=game_hearing("ru", 10), operator=operator, entries=operator,
                         manifest=default_manifest("ru"), timer_delay=lambda: 0.0)
    loop.run()  # to the first step the operator answers after day 1 (no line left)
    assert operator.errors == []
    assert game.fouls == {2: 3}
    assert game.days[0].nominations == [7]  # (day 1: a single candidate, no vote, 2.2.1)
    said = loop.transcript.said
    assert said[said.index(SKIPS) + 1] == "Принято"


def test_the_example_game_replays_to_its_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    """A game as a record has it: seat 2's third foul on day 1 takes his day-2 minute; in its
    window he nominates the don, whom nobody else does, and the day's vote takes him out:
    the civilians win on day 3."""
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    protocol = json.loads(capsys.readouterr().out)
    assert protocol["winner"] == "civilians"
    assert protocol["seats"]["2"]["fouls"] == 3
    day2 = protocol["days"][1]
    assert day2["nominations"][0] == 3
    assert protocol["seats"]["3"]["out"] == {"how": "vote", "day": 2}
    assert SKIPS in protocol["said"]


def test_the_example_is_the_same_game_in_every_front_end(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The lost minute's nomination by ear (replay), by the assist's keys, by the hostless
    operator and on the pads — each killed and resumed twice."""
    assert main(["conform", str(EXAMPLE), "--kill", "2", "--seed", "5"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "4 same, 0 differ, 0 n/a"


def test_the_tech_foul_button_line_and_key_only_where_the_club_gives_them() -> None:
    """9.6.2: the operator's button is shown, and its press and ``e N`` taken, only with
    ``tech_fouls = "yes"``; 9.6.1: elsewhere none is shown and the press is refused."""
    on = TableRig(_game({"tech_fouls": "yes"}))
    on.deal()
    assert on.views["operator"]["aside"]["tech_foul"] == list(range(1, 11))
    assert on.op("tech_foul", seat=4).ok
    assert on.game.tech_fouls == {4: 1} and "Технический фол игроку номер четыре" in \
        on.transcript.said
    assert parse_operator_line("e 4", on.game).actions == (TechFoul(4),)
    assert on.op("tech_foul", seat=4).ok
    assert on.game.how_out(4) == "removed"
    off = TableRig(_game({}))
    off.deal()
    assert off.views["operator"]["aside"]["tech_foul"] == []
    assert not off.op("tech_foul", seat=4).ok
    assert parse_operator_line("e 4", off.game).actions == (TechFoul(4),)  # (the engine refuses)


def test_a_tech_foul_line_where_the_club_gives_none_names_its_line(tmp_path: Path,
                                                                    capsys: Any) -> None:
    """9.6.1: a script's ``tech_foul`` line is refused in one line naming it."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith('{"rules"'))
    lines[head] = lines[head].replace(', "options": {"fouls": "sport"}', "")
    lines.insert(head + 1, '{"tech_foul": 4}')
    path = tmp_path / "t.table.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(path)]) != 0
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"{path}:" in err and err.endswith("got tech_foul")


def test_the_export_has_the_technical_fouls_and_their_removal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """9.6.2 in MafiaRatings' own record: ``techFouls`` with their moments, and the 2nd's
    removal as the death ``techFouls``."""
    from tests.replay.test_export import export

    header = {"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1},
              "options": {"tech_fouls": "yes"}}
    lines = [header, {"speech": 1}, {"tech_foul": 8}, {"remove": 2}, {"remove": 4},
             {"remove": 6}, {"tech_foul": 7}, {"tech_foul": 7}]  # 3 black, 3 red: over
    path = tmp_path / "tech.table.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    players = export(path, capsys)["players"]
    assert len(players[7]["techFouls"]) == 1 and "death" not in players[7]
    assert len(players[6]["techFouls"]) == 2
    assert players[6]["death"]["type"] == "techFouls"
