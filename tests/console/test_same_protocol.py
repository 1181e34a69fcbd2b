"""A game driven from the console and the table script of the same game give the same
protocol — every phrase said included. The console's presses (a mafioso's tap on the count, a
hand in a window, a tap in the speech fallback) and the script's lines (shots, votes, typed
phrases through the grammar) are two roads to the same engine inputs."""

from __future__ import annotations

import json
from typing import Any

from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script
from tests.console.conftest import EVERYONE, make_rig
from tests.helpers import ROLES, SCRIPT_ROLES

#: the game, as a table knows it: (day, seat) → the seat nominated in that speech;
#: day → {candidate: hands}; night → ({shooter: target}, don's check, sheriff's check)
NOMINATIONS = {(1, 1): 5, (1, 2): 7, (2, 4): 9, (3, 6): 3}
VOTES = {1: {5: [1, 2, 4, 6, 8, 10], 7: [3, 9]}, 2: {9: [1, 3, 4, 6, 7, 8, 10]},
         3: {3: [1, 6, 7, 8, 10]}}
NIGHTS = {2: ({3: 2, 9: 2}, 1, 9), 3: ({3: 4}, 6, 3)}


def play_on_the_console() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Drive the console table by the plan; write down the table script as the game goes."""
    rig = make_rig()
    game = rig.game
    header = {"rules": "crime-time", "seats": 10,
              "roles": SCRIPT_ROLES}
    assert {s: r for s, r in game.roles.items() if r.value != "civilian"} == ROLES
    script: list[dict[str, Any]] = [header]
    for seat in EVERYONE:
        assert rig.press(seat, "seen").ok
    while not game.is_over:
        exp = game.expect
        day = int(game.phase[1:])
        if exp.kind == "speech":
            seat = exp.seat
            assert seat is not None
            target = NOMINATIONS.get((day, seat)) if exp.speech == "day" else None
            if target is None:
                script.append({"speech": seat})
            else:
                rig.after(2.0)
                assert rig.press(seat, "nominate", target=target).ok
                script.append({"speech": seat, "say": [[2.0, f"выставляю {target}"],
                                                       [3.0, "спасибо"]]})
                rig.after(1.0)
            assert rig.press(seat, "end").ok
        elif exp.kind == "hands":
            votes = VOTES[day]
            if exp.candidate == game.voting_candidates[0]:
                script.append({"vote": {str(c): seats for c, seats in votes.items()}})
            for seat in votes.get(exp.candidate or 0, []):
                assert rig.press(seat, "vote", candidate=exp.candidate).ok
            while game.expect.timer is exp.timer:  # to «Спасибо»
                rig.step()
        elif exp.kind == "hunt":
            shots, don, sheriff = NIGHTS[day]
            script.append({"night": {"shots": {str(s): t for s, t in shots.items()},
                                     "don": don, "sheriff": sheriff}})
            pace = game.rules.count_pace
            for shooter, target in sorted(shots.items(), key=lambda st: st[1]):
                when = rig.host.timer_started + (target - 1) * pace + 0.6
                rig.driver.run_until(when)
                assert rig.press(shooter, "shoot").detail["number"] == target
            rig.until("check", role="don")
            assert rig.press(3, "check", target=don).ok
            rig.until("check", role="sheriff")
            assert rig.press(1, "check", target=sheriff).ok
            rig.until("speech")
        else:
            rig.step()
    protocol = game.protocol()
    protocol["said"] = list(rig.transcript.said)
    return protocol, script


def test_a_console_game_and_its_table_script_give_the_same_protocol() -> None:
    from_console, script = play_on_the_console()
    assert from_console["winner"] == "civilians"
    assert [n["shot"] for n in from_console["nights"]] == [2, 4]
    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in script)
    from_script = replay_script(parse_table_script(text, "console.table.jsonl")).protocol()
    assert from_script == from_console
