"""vrn and amateur play whole games in every mode: each example game replays to its winner, and
the same game played at a hostless table (``play``: a scripted recognizer says the speeches, a
scripted operator types the night's acts, the raised hands, the thumbs and the hands) and
through the host-assist app (``assist``: the host's keys through Textual's pilot, journaled)
ends with the same protocol.

The operator's lines and the host's keys are made from the replayed game's own history, step
by step, so each mode answers exactly what the game asked for.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.engine import (
    Action,
    Check,
    Foul,
    Game,
    Hands,
    HandsUp,
    Kill,
    Remove,
    Save,
    Shot,
    TakeFloor,
    Thumbs,
    TimeUp,
)
from narrator.engine import waits as w
from narrator.engine.waits import Expect
from narrator.host.journal import load_journal
from narrator.replay.script import TableScript
from narrator.replay.table import replay_script
from narrator.testing import Utterances
from tests.assist.keys import INF, KeyDriver
from tests.helpers import (
    END,
    EXAMPLES,
    example,
    hosted_through_assist,
    played_at_a_hostless_table,
)

#: the example games of vrn and amateur, and who wins each
GAMES = {
    "vrn-maniac-for-mafia": "civilians",
    "vrn-mafia-wins": "mafia",
    "amateur-twelve": "civilians",
    "amateur-stalemate": "mafia",
    "amateur-closed-cards": "civilians",
}


def test_every_example_of_vrn_and_amateur_is_listed_here() -> None:
    names = {p.name.removesuffix(".table.jsonl") for p in EXAMPLES.glob("*.table.jsonl")}
    ours = {n for n in names if example(n).rules.name in ("vrn", "amateur")}
    assert ours == set(GAMES)


#: the steps the operator or the host answers (not a timer's, not a speech)
Answered = w.Hunt | w.NightAct | w.Vote | w.Crash | w.Floor | w.PutUp | w.Extra


def same_step(a: Expect, b: Expect) -> bool:
    """``a`` and ``b`` are one step (a removal during it changes whose answer it takes, not
    the step)."""
    return replace(a, seats=(), waits_for_human=False) == replace(b, seats=(),
                                                                  waits_for_human=False)


@dataclass
class Step:
    """One step of a game the operator or the host answers: what the game waited for and the
    actions that answered it (``ended``: how it ended, a TimeUp or a TakeFloor)."""

    expect: Expect
    actions: list[Action] = field(default_factory=list)
    asked: bool = True  # the hostless table asks the operator (the actor is at the table)


def steps_of(replayed: Game) -> Iterator[Step | Action]:
    """The replayed game's history as the answered steps, in order; fouls and removals as
    they came; speeches are left out (the recognizer says them)."""
    game = Game(replayed.rules, seats=replayed.seats, roles=replayed.roles,
                dealt=replayed.dealt)
    game.start()
    step: Step | None = None
    for action in replayed.history:
        exp = game.expect
        if isinstance(action, Foul | Remove):
            yield action
        elif isinstance(exp, Answered):
            if step is None or not same_step(step.expect, exp):
                role_gone = isinstance(exp, w.NightAct) and not game.actor_alive(exp.role)
                step = Step(exp, asked=not role_gone)
            if isinstance(action, TimeUp | TakeFloor):
                if isinstance(action, TakeFloor):
                    step.actions.append(action)
                yield step
                step = None
            else:
                step.actions.append(action)
        game.apply(action)


def _seats(seats: tuple[int, ...]) -> str:
    return "-" if not seats else " ".join(map(str, seats)) + ("," if len(seats) == 1 else "")


def operator_line(step: Step) -> str:
    """What the hostless table's operator types for ``step``."""
    exp, actions = step.expect, step.actions
    if not actions:
        return "-"
    if isinstance(exp, w.Hunt):
        return " ".join(f"{a.shooter}:{a.target}" for a in actions if isinstance(a, Shot))
    (action,) = actions
    if isinstance(action, Kill):
        return f"k {action.target}"
    if isinstance(action, Save):
        return f"s {action.target}"
    if isinstance(action, Check):
        return f"c {action.target}"
    if isinstance(action, TakeFloor):
        return str(action.seat)
    if isinstance(action, Thumbs):
        return f"{action.target}: {' '.join(map(str, action.seats))}"
    if isinstance(action, HandsUp | Hands):
        return _seats(action.seats)
    raise AssertionError(f"no line for {action}")


def speeches_of(script: TableScript) -> dict[int, list[Utterances]]:
    """What each seat says in each of its speeches, in order."""
    says: dict[int, list[Utterances]] = {}
    for line in script.inputs:
        if line.key == "speech":
            says.setdefault(line.value, []).append(list(line.say or ((0.0, END[script.lang]),)))
    return says


# -- replay ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "winner"), sorted(GAMES.items()))
def test_the_example_replays_to_its_winner_byte_for_byte(
        name: str, winner: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / f"{name}.table.jsonl")
    assert main(["replay", path, "--json"]) == 0
    first = capsys.readouterr().out
    protocol = json.loads(first)
    assert protocol["winner"] == winner and protocol["rules"] == example(name).rules.name
    assert protocol["refused"] == []  # every line of the example means what it says
    assert main(["replay", path, "--json"]) == 0
    assert capsys.readouterr().out == first
    assert main(["replay", path, "--rules", example(name).rules.name]) == 0
    assert capsys.readouterr().out.endswith(f"winner: {winner}\n")


# -- play: the hostless table --------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_example_played_at_a_hostless_table_gives_the_same_protocol(name: str) -> None:
    script = example(name)
    replayed = replay_script(script)
    says = speeches_of(script)
    lines = [f"{'f' if isinstance(s, Foul) else 'r'} {s.seat}" if isinstance(s, Foul | Remove)
             else operator_line(s) for s in steps_of(replayed.game)
             if not isinstance(s, Step) or s.asked]
    game, protocol = played_at_a_hostless_table(script, says, lines)
    assert game.winner is not None and game.winner.value == GAMES[name]
    assert protocol == replayed.protocol()


# -- assist: the host's keys ---------------------------------------------------------------------

async def finish(d: KeyDriver, exp: Expect) -> None:
    """Let the step ``exp`` end on its own time (a night act runs its time out)."""
    for _ in range(50):
        if not same_step(d.game.expect, exp) or d.game.is_over:
            return
        d.loop.step(timeout=INF)
    raise AssertionError(f"the step did not end: {exp}")


async def host_step(d: KeyDriver, step: Step) -> None:
    """The host's keys for one step."""
    exp, actions = step.expect, step.actions
    assert same_step(d.game.expect, exp), (d.game.expect, exp)
    if isinstance(exp, w.Vote):
        hands = sum(len(a.seats) for a in actions if isinstance(a, Hands))
        await (d.type(str(hands)) if hands else d.keys("enter"))
        return
    if isinstance(exp, w.NightAct) and not step.asked:
        await finish(d, exp)  # the role is out: its time runs out by itself
        return
    if not actions:
        await d.keys("space")  # nothing: the step ends
        await finish(d, exp)
        return
    if isinstance(exp, w.Hunt):
        targets = {a.target for a in actions if isinstance(a, Shot)}
        shooters = {a.shooter for a in actions if isinstance(a, Shot)}
        black = {s for s in d.game.living if s in d.game.black}
        if len(targets) == 1 and shooters == black and len(actions) == len(black):
            await d.type(str(targets.pop()))
        else:
            for a in actions:
                assert isinstance(a, Shot)
                await d.type(f"{a.shooter}-{a.target}", "k")
    else:
        (action,) = actions
        if isinstance(action, Kill | Save | Check):
            assert isinstance(exp, w.NightAct)
            usual = exp.checks or {Kill: "kill", Save: "save", Check: "check"}[
                type(action)] == exp.acts[0]
            await d.type(str(action.target), "enter" if usual else
                         "k" if isinstance(action, Kill) else "c")
        elif isinstance(action, TakeFloor):
            await d.type(str(action.seat))
        elif isinstance(action, Thumbs):
            await d.type(f"{action.target}-{len(action.seats)}")  # the thumbs counted
        elif isinstance(action, HandsUp):
            await d.type(",".join(map(str, action.seats)))
        else:
            raise AssertionError(f"no key for {action}")
    await finish(d, exp)


async def host_the_game(replayed: Game, d: KeyDriver) -> None:
    """The replayed game's steps as a human host's keys; each speech ended with Space."""
    items = list(steps_of(replayed))
    for item in items:
        while not d.game.is_over:
            d.run_timers()
            if isinstance(d.game.expect, w.Speech):
                await d.keys("space")
            else:
                break
        if isinstance(item, Step):
            await host_step(d, item)
        else:
            await d.type(str(item.seat), "f" if isinstance(item, Foul) else "x")
    while not d.game.is_over:  # the speeches after the last step (a last word)
        d.run_timers()
        if not isinstance(d.game.expect, w.Speech):
            break
        await d.keys("space")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_example_hosted_through_assist_gives_the_same_protocol(
        name: str, tmp_path: Path) -> None:
    script = example(name)
    replayed = replay_script(script).game
    game = hosted_through_assist(script, tmp_path / "j.jsonl",
                                 lambda d: host_the_game(replayed, d))
    assert game.winner is not None and game.winner.value == GAMES[name]
    mine, theirs = game.protocol(), replayed.protocol()
    # the host enters counts, not seats: the rounds' counts and every outcome are the same
    assert mine == theirs
    # the journal written on the way gives the same game back (``narrator resume``)
    assert load_journal(tmp_path / "j.jsonl").game().protocol() == game.protocol()


# -- the command line ------------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--rules", "amateur", "--seats", "16"],
     "narrator: --seats: amateur is played at 8..15 seats, not 16\n"),
    (["assist", "--rules", "vrn", "--seats", "12"],
     "narrator: --seats: vrn is played at 10 seats, not 12\n"),
    (["assist", "--rules", "vrn", "--roles", "don=3 mafia=5,9 sheriff=1 doctor=6 maniac=8"],
     'narrator: --roles: maniac_side= missing: city or mafia (e.g. "don=N mafia=N sheriff=N '
     'doctor=N maniac=N maniac_side=city|mafia")\n'),
])
def test_a_table_the_ruleset_is_not_played_at_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        message: str) -> None:
    journal = tmp_path / "journal.jsonl"
    assert main([*argv, "--journal", str(journal)]) == 2
    assert capsys.readouterr().err == message
    assert not journal.exists()


def test_the_roles_file_of_play_names_the_maniacs_side() -> None:
    from narrator.play.cli import roles_text

    game = Game("vrn", roles=example("vrn-mafia-wins").roles, dealt={"maniac_side": "city"})
    text = roles_text(game)
    assert text.splitlines()[0] == "seat 1: maniac" and text.endswith("maniac side: city\n")
