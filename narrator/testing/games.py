"""Games for tests: random complete games, and a game brought to a wait (:func:`advance`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import UnionType
from typing import Any

from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import (
    Action,
    Check,
    EndSpeech,
    Foul,
    Hands,
    HandsUp,
    Kill,
    Nominate,
    OnRecord,
    Remove,
    Save,
    Shot,
    TakeFloor,
    TechFoul,
    Thumbs,
    TimeUp,
    Withdraw,
)
from narrator.engine.game import Game
from narrator.engine.rules import Rules
from narrator.engine.types import Act, Phase


def random_action(game: Game, rng: random.Random) -> Action:
    """A random action the game accepts now (the game must not be over).

    The engine benchmark's games are played with it (``scripts/bench_engine.py``), and the
    engine's fingerprint (``tests/engine/test_digest.py``): a change to its random draws is a
    change to every recorded game. Each kind of wait has its answer (:data:`_ANSWERS`, looked
    up by the wait's type: this is the benchmark's loop); None lets the time run out."""
    exp = game.expect
    assert exp.timer is not None
    living = game.living
    roll = rng.random()
    if roll < 0.002:
        # 9.6.2: a technical foul now and then where the club gives them (a draw no other
        # game makes: the recorded games stay as they were)
        if roll < 0.0005 and game.rules.tech_fouls == "yes":
            return TechFoul(rng.choice(living))
        return Foul(rng.choice(living))
    if roll < 0.0035 and len(living) > 4:
        return Remove(rng.choice(living))
    answer = _ANSWERS.get(type(exp))
    taken = answer(game, rng, exp, living, roll) if answer is not None else None
    return taken if taken is not None else TimeUp(exp.timer.name)


def _speech(game: Game, rng: random.Random, exp: w.Speech, living: list[int],
            roll: float) -> Action | None:
    # like a real table: about one nomination in three speeches, few withdrawals
    r = (roll - 0.0035) / 0.9965
    if r < 0.25:
        return Nominate(1 + int(r * 4 * game.seats))
    if r < 0.28:
        return Withdraw(1 + int((r - 0.25) / 0.03 * game.seats))
    if r < 0.34 and game.rules.on_record != "none":  # the club's colours on record (6.7)
        named = (1 + int((r - 0.28) / 0.06 * game.seats),)  # (no draw: the games stay)
        left = OnRecord(exp.seat, named, ()) if r < 0.31 else OnRecord(exp.seat, (), named)
        if game.refusal(left) is None:
            return left
    return EndSpeech() if r < 0.7 else None


def _vote(game: Game, rng: random.Random, exp: w.Vote, living: list[int],
          roll: float) -> Action | None:
    if game.rules.nominations:
        return _hands(game, rng, exp, living, roll)
    # a vote against every seat (vrn) or among the most put up (amateur): each hand once,
    # spread over the candidates, as a table votes
    if rng.random() < 0.7:
        share = len(living) // max(1, len(game.voting_candidates)) + 1
        return Hands(tuple(rng.sample(living, rng.randint(0, min(len(living), share)))))
    return None


def _hands(game: Game, rng: random.Random, exp: w.Vote | w.Crash, living: list[int],
           roll: float) -> Action | None:
    if rng.random() < 0.7:
        return Hands(tuple(rng.sample(living, rng.randint(0, len(living)))))
    return None


def _hunt(game: Game, rng: random.Random, exp: w.Hunt, living: list[int],
          roll: float) -> Action | None:
    # mostly the agreed shot of every living mafioso (2.1.2), sometimes a stray one
    black = [s for s in living if s in game.black]
    shot_already = {a.shooter for a in game.history[-len(black) - 4:] if isinstance(a, Shot)}
    waiting = [s for s in black if s not in shot_already]
    if waiting and rng.random() < 0.9:
        target = living[(len(game.nights) * 7) % len(living)]
        if rng.random() < 0.1:
            target = rng.randint(1, game.seats)
        return Shot(waiting[0], target)
    return None


_NIGHT_ACTS = (Kill, Save, Check)  # (a tuple: ``isinstance`` takes it faster than X | Y)


def _night_act(game: Game, rng: random.Random, exp: w.NightAct, living: list[int],
               roll: float) -> Action | None:
    role = exp.role
    if exp.checks:
        if rng.random() < 0.6:
            checker = game.seat_of(role.card)
            if checker is not None and checker in living:
                return Check(role, rng.randint(1, game.seats))
        return None
    # (the other rulesets' acts come after crime-time's checks, whose random draws stay as
    # they were: the same seeds give the same crime-time games)
    last = game.history[-1] if game.history else None
    acted = isinstance(last, _NIGHT_ACTS) and last.role == role
    if acted or not game.actor_alive(role) or rng.random() < 0.15:
        return None  # (once a role has acted, its time runs out)
    act = exp.acts[0] if rng.random() < 0.8 else rng.choice(exp.acts)
    if act is Act.KILL:  # mostly a seat at the table; sometimes one that is out
        return Kill(role, rng.choice(living) if rng.random() < 0.9
                    else rng.randint(1, game.seats))
    if act is Act.SAVE:  # mostly one of the night's victims
        victims = game.victims
        return Save(role, rng.choice(victims) if victims and rng.random() < 0.6
                    else rng.randint(1, game.seats))
    return Check(role, rng.randint(1, game.seats))


def _floor(game: Game, rng: random.Random, exp: w.Floor, living: list[int],
           roll: float) -> Action | None:
    spoken = game.spoken  # (a property: once, not once a seat)
    waiting = [s for s in living if s not in spoken]
    return TakeFloor(rng.choice(waiting)) if waiting and rng.random() < 0.7 else None


def _put_up(game: Game, rng: random.Random, exp: w.PutUp, living: list[int],
            roll: float) -> Action | None:
    if rng.random() < 0.5:
        return None
    return Thumbs(rng.choice(living), tuple(rng.sample(living, rng.randint(0, len(living)))))


def _extra(game: Game, rng: random.Random, exp: w.Extra, living: list[int],
           roll: float) -> Action | None:
    if rng.random() < 0.3:  # the hands held up through the discussion
        return HandsUp(tuple(rng.sample(living, min(len(living), rng.randint(0, 3)))))
    return None


#: the answer to each kind of wait (a timer's pause, the deal: none, the time runs out)
_ANSWERS: dict[type, Callable[[Game, random.Random, Any, list[int], float], Action | None]] = {
    w.Speech: _speech, w.Vote: _vote, w.Crash: _hands, w.Hunt: _hunt, w.NightAct: _night_act,
    w.Floor: _floor, w.PutUp: _put_up, w.Extra: _extra,
}


def play_random_game(rng: random.Random, *, rules: Rules | str = "crime-time",
                     max_actions: int = 20_000) -> Game:
    """Deal and play a whole game of ``rules`` with random legal actions."""
    game = Game(rules, rng=rng)
    game.start()
    for _ in range(max_actions):
        if game.is_over:
            break
        game.apply(random_action(game, rng))
    return game


#: a kind of wait (a class, a tuple or a union of them), or a condition on the wait
Waits = type[w.Wait] | tuple[type[w.Wait], ...] | UnionType | Callable[[w.Expect], bool]
#: where :func:`advance` goes: some waits, or a phase (``Phase.day(2)``, ``"d2"``): its first wait
Target = Waits | Phase | str


def time_up(game: Game) -> Action:
    """The current wait's time runs out (``TimeUp`` of its timer): :func:`advance`'s answer."""
    timer = game.expect.timer
    assert timer is not None, f"{game.expect} has no timer"
    return TimeUp(timer.name)


def end_speeches(game: Game) -> Action:
    """A speech ended by its speaker (``EndSpeech``), any other wait's time run out."""
    return EndSpeech() if isinstance(game.expect, w.Speech) else time_up(game)


def past_the_pauses(exp: w.Expect) -> bool:
    """A wait that is not a pause or the deal (whose time only runs out): where the table
    answers next, a script's next line is taken — or the end."""
    return not isinstance(exp, w.Pause | w.Deal)


class AdvanceError(AssertionError):
    """:func:`advance` did not reach its wait: the game ended, met a wait it was not to pass,
    ran out of steps, or its step ran nothing."""


def _describe(to: Target, where: dict[str, object]) -> str:
    if isinstance(to, type):
        text = to.__name__
    elif isinstance(to, tuple | UnionType):
        kinds = to if isinstance(to, tuple) else to.__args__
        text = " | ".join(getattr(k, "__name__", str(k)) for k in kinds)
    elif isinstance(to, Phase | str):
        text = f"phase {to}"
    else:
        name = getattr(to, "__name__", "<lambda>")
        text = "a wait meeting the condition" if name == "<lambda>" else name
    return text + "".join(f" {k}={v!r}" for k, v in where.items())


def _is(exp: w.Expect, waits: Waits) -> bool:
    return isinstance(exp, waits) if isinstance(waits, type | tuple | UnionType) else waits(exp)


def _reached(game: Game, to: Target, where: dict[str, object]) -> bool:
    exp = game.expect
    if isinstance(to, str):
        to = Phase.parse(to)
    hit = (not game.is_over and game.phase == to) if isinstance(to, Phase) else _is(exp, to)
    return hit and all(getattr(exp, k) == v for k, v in where.items())


def advance(game: Game, to: Target, *, answer: Callable[[Game], Action] = time_up,
            step: Callable[[], object] | None = None,
            through: Waits | None = None,
            limit: int = 2_000, **where: object) -> list[ev.Event]:
    """Bring ``game`` to a wait and return the events on the way (none when ``step`` drives it).

    ``to``: a kind of wait (``w.Vote``, ``w.Vote | w.Crash``), a condition on the wait, or a
    phase (its first wait: ``"d2"``, ``Phase.night(2)``); ``where``: the wait's attributes
    besides (``role="don", checks=True``); ``through``: the only waits it may pass on the way
    (kinds or a condition, as ``to``). A game already there takes no step. Each step
    applies ``answer(game)`` (default :func:`time_up`: the time runs out; :func:`end_speeches`
    ends the speeches instead) or, with ``step``, calls it (a host's ``driver.run_next``, a
    table rig's ``step``: they answer themselves; a step returning False ran nothing).

    Raises :class:`AdvanceError` when the game ends first, when it waits for something not in
    ``through`` (default: any wait may be passed), when ``step`` runs nothing, and after
    ``limit`` steps (a walk that would never end)."""
    going = f"to {_describe(to, where)}"
    events: list[ev.Event] = []
    for steps in range(limit + 1):
        if _reached(game, to, where):
            return events
        exp = game.expect
        if game.is_over:
            won = game.winner.value if game.winner is not None else "nobody"
            raise AdvanceError(f"the game ended ({won} won) at {game.phase} after {steps} "
                               f"steps, on the way {going}")
        if through is not None and not _is(exp, through):
            raise AdvanceError(f"{game.phase}: the game waits for {exp} on the way {going}, "
                               f"which passes only {_describe(through, {})}")
        if steps == limit:
            break
        if step is None:
            events += game.apply(answer(game))
        elif step() is False:
            raise AdvanceError(f"{game.phase}: the step ran nothing (False) at {exp}, on the way "
                               f"{going}")
    raise AdvanceError(f"{game.phase}: not there after {limit} steps, at {game.expect}, on the "
                       f"way {going}")
