"""Every ruleset plays a whole game in each mode: each example game of a ruleset other than
crime-time replays to its winner, and the same game played at a hostless table (``play``: a
scripted recognizer says the speeches, a scripted operator enters the gestures), at a hostless
table with no microphone (``play --listen off``: the seat pads of the table console) and through
the host-assist app (``assist``: the host's keys through Textual's pilot, journaled) ends with
the same protocol.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine import Game, Role
from narrator.engine import waits as w
from narrator.grammar import parse
from narrator.host.journal import load_journal
from narrator.replay.script import TableScript
from narrator.replay.table import ReplayResult, replay_script
from narrator.testing import Utterances, advance, past_the_pauses
from tests.assist.keys import KeyDriver, hunt
from tests.console.conftest import make_rig
from tests.helpers import (
    END,
    EXAMPLES,
    checker_present,
    example,
    hosted_through_assist,
    played_at_a_hostless_table,
)

#: the example games of the rulesets besides crime-time, and who wins each
GAMES = {
    "professional-red-wins": "civilians",
    "professional-four-left": "mafia",
    "vrn-closed-car-crash": "civilians",
    # the club option first_day: no vote on day 1; on day 1 only the lift removes
    "professional-first-day-none": "civilians",
    "vrn-closed-first-day-lift": "civilians",
}


def test_every_example_of_another_ruleset_is_listed_here() -> None:
    names = {p.name.removesuffix(".table.jsonl") for p in EXAMPLES.glob("*.table.jsonl")}
    others = {n for n in names if example(n).rules.name != "crime-time"}
    assert others >= set(GAMES)
    assert {example(n).rules.name for n in GAMES} == {"professional", "vrn-closed"}


# -- replay ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "winner"), sorted(GAMES.items()))
def test_the_example_replays_to_its_winner_byte_for_byte(
        name: str, winner: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / f"{name}.table.jsonl")
    assert main(["replay", path, "--json"]) == 0
    first = capsys.readouterr().out
    protocol = json.loads(first)
    assert protocol["winner"] == winner and protocol["rules"] == example(name).rules.name
    assert protocol["refused"] == []  # every phrase of the example means what it says
    assert main(["replay", path, "--json"]) == 0
    assert capsys.readouterr().out == first


# -- play: the hostless table --------------------------------------------------------------------

def as_table(script: TableScript, replayed: Game) -> tuple[dict[int, list[Utterances]],
                                                            list[str]]:
    """The script as what each seat says per speech and the operator's lines, in order."""
    says: dict[int, list[Utterances]] = {}
    lines: list[str] = []

    def seats(items: list[int]) -> str:
        return "-" if not items else " ".join(map(str, items)) + ("," if len(items) == 1 else "")

    nights = iter(replayed.nights)
    rounds = iter([r for day in replayed.days for r in day.rounds])
    for line in script.inputs:
        if line.key == "speech":
            said = line.say or ((0.0, END[script.lang]),)
            says.setdefault(line.value, []).append(list(said))
        elif line.key == "vote":  # one answer per candidate of the round
            lines.extend(seats(line.value.get(c, [])) for c in next(rounds).candidates)
        elif line.key == "crash":
            lines.append(seats(line.value))
        elif line.key == "night":
            night = line.value
            number = next(nights).number
            shots = [f"{s}:{t}" for s, targets in night["shots"].items() for t in targets]
            lines.append(" ".join(shots) or "-")
            for role in ("don", "sheriff"):
                if checker_present(replayed, role, number):
                    lines.append(str(night[role]) if night[role] else "-")
        elif line.key in ("foul", "remove"):
            lines.append(f"{line.key[0]} {line.value}")
    return says, lines


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_example_played_at_a_hostless_table_gives_the_same_protocol(name: str) -> None:
    script = example(name)
    replayed = replay_script(script)
    says, lines = as_table(script, replayed.game)
    game, protocol = played_at_a_hostless_table(script, says, lines)
    assert game.winner is not None and game.winner.value == GAMES[name]
    assert protocol == replayed.protocol()


# -- play --listen off: the seat pads ------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_example_played_on_the_seat_pads_gives_the_same_protocol(name: str) -> None:
    script = example(name)
    replayed = replay_script(script)
    rig = make_rig(roles=script.roles, rules=script.rules)
    game = rig.game
    for seat in range(1, script.seats + 1):  # every seat sees its card
        assert rig.press(seat, "seen").ok
    for line in script.inputs:
        advance(game, past_the_pauses, step=rig.step)
        exp = game.expect
        if line.key == "speech":
            assert isinstance(exp, w.Speech) and exp.seat == line.value and exp.timer, line
            for t, text in line.say or ():
                if t >= exp.timer.seconds:
                    break
                for number, key in keys_of(script, text):
                    do = "nominate" if key == "enter" else "withdraw"
                    assert rig.press(line.value, do, target=int(number)).ok
            assert rig.press(line.value, "end").ok
        elif line.key in ("vote", "crash"):
            windows = game.voting_candidates if line.key == "vote" else (None,)
            for cand in windows:
                exp = game.expect
                hands = line.value if cand is None else line.value.get(cand, ())
                for seat in hands:
                    assert rig.press(seat, "vote", candidate=cand).ok
                while game.expect.timer is exp.timer:  # to «Спасибо»
                    rig.step()
        elif line.key == "night":
            night: dict[str, Any] = line.value
            pace = game.rules.count_pace
            shots = sorted((t, s) for s, ts in night["shots"].items() for t in ts)
            for target, shooter in shots:  # a tap as the count reaches the number
                rig.driver.run_until(rig.host.timer_started + (target - 1) * pace + 0.6)
                assert rig.press(shooter, "shoot").detail["number"] == target
            checked: set[str] = set()
            while (isinstance(game.expect, w.Hunt | w.Pause | w.Deal)
                   or _checks(game.expect)) and not game.is_over:
                exp = game.expect
                if isinstance(exp, w.NightAct) and exp.checks and exp.role not in checked \
                        and night.get(exp.role):
                    role = exp.role
                    checker = game.seat_of(Role(role))
                    assert checker is not None
                    assert rig.press(checker, "check", target=night[role]).ok
                    checked.add(role)
                rig.step()
        else:
            assert rig.op(line.key, seat=line.value).ok
    assert game.winner is not None and game.winner.value == GAMES[name]
    assert game.protocol() == replayed.game.protocol()


def _checks(exp: w.Expect) -> bool:
    """A check step (a role's check, 2.1.3)."""
    return isinstance(exp, w.NightAct) and exp.checks


# -- assist: the host's keys ---------------------------------------------------------------------

def keys_of(script: TableScript, text: str) -> Iterator[tuple[str, str]]:
    """What a host types for the nominations and withdrawals heard in ``text``."""
    for intent in parse(text, script.lang, script.seats):
        if intent.accepted and intent.kind == "nominate":
            yield str(intent.target), "enter"
        elif intent.accepted and intent.kind == "withdraw":
            yield str(intent.target), "w"


async def host_the_game(script: TableScript, d: KeyDriver) -> None:
    """The script's inputs as a human host's keys."""
    game = d.game
    for line in script.inputs:
        d.run_timers()
        if line.key == "speech":
            assert isinstance(game.expect, w.Speech) and game.expect.seat == line.value, line
            for t, text in line.say or ():
                if t >= (game.expect.timer.seconds if game.expect.timer else 0):
                    break
                for number, key in keys_of(script, text):
                    await d.type(number, key)
            await d.keys("space")
        elif line.key == "vote":
            for cand in game.voting_candidates:
                hands = len(line.value.get(cand, ()))
                await (d.type(str(hands)) if hands else d.keys("enter"))
        elif line.key == "crash":
            await d.type(str(len(line.value)))
        elif line.key == "night":
            night: dict[str, Any] = line.value
            living_black = [s for s in game.living if s in game.black]
            targets = {t for ts in night["shots"].values() for t in ts}
            agreed = (len(targets) == 1 and set(night["shots"]) == set(living_black)
                      and all(len(ts) == 1 for ts in night["shots"].values()))
            if agreed:
                await d.type(str(targets.pop()))
            elif not night["shots"]:
                await d.keys("space")  # no shot
            else:
                for shooter, ts in night["shots"].items():
                    for t in ts:
                        await d.type(f"{shooter}-{t}", "k")
            d.run_timers(hunt)
            while isinstance(exp := game.expect, w.NightAct) and exp.checks:
                timer = exp.timer
                role = exp.role
                target = night.get(role)
                checker = game.seat_of(Role(role))
                if target is not None:
                    await d.type(str(target), "c")
                elif checker is not None and game.at_table(checker):
                    await d.keys("space")  # the check waits for the host: no check
                for _ in range(100):  # the check's time runs out
                    if game.expect.timer is not timer:
                        break
                    d.loop.step(timeout=float("inf"))
                assert game.expect.timer is not timer, f"the {role}'s check never ended"
        else:
            await d.type(str(line.value), "f" if line.key == "foul" else "x")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_example_hosted_through_assist_gives_the_same_protocol(
        name: str, tmp_path: Path) -> None:
    script = example(name)
    replayed: ReplayResult = replay_script(script)
    game = hosted_through_assist(script, tmp_path / "j.jsonl",
                                 lambda d: host_the_game(script, d))
    assert game.winner is not None and game.winner.value == GAMES[name]
    assert game.protocol() == replayed.game.protocol()
    # the journal written on the way gives the same game back (``narrator resume``)
    assert load_journal(tmp_path / "j.jsonl").game().protocol() == game.protocol()


# -- the command line ------------------------------------------------------------------------------

def test_replay_rules_names_the_ruleset_of_a_header_without_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "g.table.jsonl"
    script.write_text('{"seats": 10, "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}}\n'
                      '{"speech": 1}\n')
    assert main(["replay", str(script), "--rules", "vrn-closed", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "vrn-closed"
    professional = EXAMPLES / "professional-red-wins.table.jsonl"
    assert main(["replay", str(professional), "--rules", "vrn-closed"]) == 2
    assert capsys.readouterr().err == (
        f'narrator: {professional}:3: rules: the script is a game of "professional", not of '
        f"vrn-closed (--rules)\n")


@pytest.mark.parametrize(("command", "rules", "seats"), [("play", "professional", "12"),
                                                         ("assist", "vrn-closed", "9")])
def test_play_and_assist_take_the_rulesets_and_refuse_a_table_they_are_not_played_at(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, rules: str,
        seats: str) -> None:
    journal = tmp_path / "journal.jsonl"
    assert main([command, "--rules", rules, "--seats", seats, "--journal", str(journal)]) == 2
    assert capsys.readouterr().err == (
        f"narrator: --seats: {rules} is played at 10 seats, not {seats}\n")
    assert not journal.exists()
