"""A game driven from the console and the table script of the same game give the same
protocol — every phrase said included. The console's presses (a mafioso's tap on the count, a
hand in a window, a tap in the speech fallback) and the script's lines (shots, votes, typed
phrases through the grammar) are two roads to the same engine inputs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.console.table import Reply
from narrator.console.views import vote_candidate
from narrator.engine import EndSpeech, Nominate, Role, Withdraw
from narrator.engine import waits as w
from narrator.grammar import parse
from narrator.host.intake import apply_input, heard_actions
from narrator.inputs import heard
from narrator.replay.script import ScriptLine, TableScript, load_table_script, parse_table_script
from narrator.replay.table import act_keys, replay_script
from narrator.testing import advance, past_the_pauses
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
        day = game.phase.number
        if isinstance(exp, w.Speech):
            seat = exp.seat
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
        elif isinstance(exp, w.Vote | w.Crash):
            votes = VOTES[day]
            cand = vote_candidate(exp)
            if cand == game.voting_candidates[0]:
                script.append({"vote": {str(c): seats for c, seats in votes.items()}})
            for seat in votes.get(cand or 0, []):
                assert rig.press(seat, "vote", candidate=cand).ok
            while game.expect.timer is exp.timer:  # to «Спасибо»
                rig.step()
        elif isinstance(exp, w.Hunt):
            shots, don, sheriff = NIGHTS[day]
            script.append({"night": {"shots": {str(s): t for s, t in shots.items()},
                                     "don": don, "sheriff": sheriff}})
            pace = game.rules.count_pace
            for shooter, target in sorted(shots.items(), key=lambda st: st[1]):
                when = rig.host.timer_started + (target - 1) * pace + 0.6
                rig.driver.run_until(when)
                assert rig.press(shooter, "shoot").detail["number"] == target
            rig.until(w.NightAct, checks=True, role="don")
            assert rig.press(3, "check", target=don).ok
            rig.until(w.NightAct, checks=True, role="sheriff")
            assert rig.press(1, "check", target=sheriff).ok
            rig.until(w.Speech)
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


# -- vrn and amateur: every secret act, the floor, the thumbs, the hands for more time -------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PAD_EXAMPLES = sorted(p.name.removesuffix(".table.jsonl") for p in EXAMPLES.glob("*.table.jsonl")
                      if p.name.startswith(("vrn-", "amateur-")))


def _window(exp: w.Expect) -> str | None:
    """The script's key of the window open now: the thumbs, the hands for more time."""
    if isinstance(exp, w.PutUp):
        return "put_up"
    return "extra" if isinstance(exp, w.Extra) else None


class PadTable:
    """Plays a table script's game on the console: each line becomes the presses of the seats
    it names (a night's act on the acting seat's pad, a hand, a thumb, a raised hand); a speech's
    phrases are taps on the speaker's pad where the pad has them («Спасибо», a nomination), and
    otherwise heard through the microphone, which plays alongside the pads."""

    def __init__(self, script: TableScript) -> None:
        self.script = script
        self.rig = make_rig(roles=script.roles, rules=script.rules, seats=script.seats,
                            dealt=script.dealt, lang=script.lang)
        self.game = self.rig.game

    def play(self) -> dict[str, Any]:
        rig, game = self.rig, self.game
        for seat in range(1, game.seats + 1):
            assert rig.press(seat, "seen").ok
        lines = self.script.inputs
        for i, line in enumerate(lines):
            after = lines[i + 1] if i + 1 < len(lines) else None
            self.settle()
            while (window := _window(game.expect)) is not None and line.key != window:
                self.close()  # a window the line does not answer passes with nothing in it
                self.settle()
            getattr(self, f"_{line.key}")(line, after)
        self.settle()
        protocol = game.protocol()
        protocol["said"] = list(rig.transcript.said)
        return protocol

    def settle(self) -> None:
        advance(self.game, past_the_pauses, step=self.rig.step)

    def close(self) -> None:
        timer = self.game.expect.timer
        while timer is not None and self.game.expect.timer is timer and not self.game.is_over:
            self.rig.step()

    def ok(self, who: int, do: str, **data: Any) -> Reply:
        reply = self.rig.press(who, do, **data)
        assert reply.ok, (who, do, data, reply)
        return reply

    def _speech(self, line: ScriptLine, after: ScriptLine | None) -> None:
        rig, game = self.rig, self.game
        seat = line.value
        if isinstance(game.expect, w.Floor):
            self.ok(seat, "floor")  # his hand was the first
        exp = game.expect
        assert isinstance(exp, w.Speech) and exp.seat == seat and exp.timer is not None, exp
        if after is not None and after.key == "put_up":
            (accused,) = after.value  # the one he accuses, for the thumbs after his speech
            self.ok(seat, "accuse", target=accused)
        if line.say is None:
            self.ok(seat, "end")
            return
        start, timer = rig.host.timer_started, exp.timer
        for t, text in line.say:
            if t >= timer.seconds:
                break
            rig.driver.run_until(start + t)
            if game.expect.timer is not timer:
                break
            actions = heard_actions(parse(text, self.script.lang, game.seats))
            if actions and all(isinstance(a, EndSpeech | Nominate | Withdraw) for a in actions):
                for a in actions:
                    if isinstance(a, EndSpeech):
                        self.ok(seat, "end")
                    elif isinstance(a, Nominate | Withdraw):
                        self.ok(seat, "nominate" if isinstance(a, Nominate) else "withdraw",
                                target=a.target)
            else:
                apply_input(rig.host, heard(start + t, text),
                            lambda s: parse(s, self.script.lang, game.seats))
            if game.expect.timer is not timer:
                return
        self.close()

    def _vote(self, line: ScriptLine, after: ScriptLine | None) -> None:
        for cand in self.game.voting_candidates:
            exp = self.game.expect
            if not isinstance(exp, w.Vote) or exp.candidate != cand:
                break
            for seat in line.value.get(cand, ()):
                self.ok(seat, "vote", candidate=cand)
            self.close()

    def _crash(self, line: ScriptLine, after: ScriptLine | None) -> None:
        assert isinstance(self.game.expect, w.Crash)
        for seat in line.value:
            self.ok(seat, "vote", candidate=None)
        self.close()

    def _put_up(self, line: ScriptLine, after: ScriptLine | None) -> None:
        assert isinstance(self.game.expect, w.PutUp)
        for target, seats in line.value.items():
            for seat in seats:
                self.ok(seat, "thumb", target=target)
        self.close()

    def _extra(self, line: ScriptLine, after: ScriptLine | None) -> None:
        assert isinstance(self.game.expect, w.Extra)
        for seat in line.value:
            self.ok(seat, "extra")
        self.close()

    def _night(self, line: ScriptLine, after: ScriptLine | None) -> None:
        rig, game = self.rig, self.game
        night: dict[str, Any] = line.value
        phase = game.phase
        while not game.is_over:
            self.settle()
            exp = game.expect
            if not isinstance(exp, w.Hunt | w.NightAct) or game.phase != phase:
                break
            if isinstance(exp, w.Hunt):
                pace = game.rules.count_pace
                shots = sorted((t, s) for s, targets in night["shots"].items() for t in targets)
                for target, shooter in shots:  # a tap as the number is spoken (2.1.2)
                    rig.driver.run_until(rig.host.timer_started + (target - 1) * pace + 0.6)
                    assert self.ok(shooter, "shoot").detail["number"] == target
            else:
                for key, act in act_keys(exp).items():
                    target = night.get(key)
                    if target is None:
                        continue
                    if exp.checks:
                        self.ok(game.seat_of(Role(exp.role)) or 0, "check", target=target)
                        continue
                    seats = (rig.table.deciders() if exp.role == "mafia"
                             else [game.seat_of(Role(exp.role))])
                    for seat in seats:  # the don decides; without him every mafioso points
                        self.ok(seat or 0, "act", act=act, target=target)
            self.close()


@pytest.mark.parametrize("name", PAD_EXAMPLES)
def test_a_vrn_or_amateur_game_on_the_pads_gives_its_scripts_protocol(name: str) -> None:
    script = load_table_script(EXAMPLES / f"{name}.table.jsonl")
    on_pads = PadTable(script).play()
    assert on_pads["winner"] is not None
    assert on_pads == replay_script(script).protocol()
