"""Fuzzing the engine over every ruleset (and the club options that change a game's course)
with every kind of action, at any moment:

- an action the engine raises on (EngineError) leaves the game exactly as it was;
- an action the rules refuse changes nothing but one ``refused`` entry and one Refused event:
  the notation, the views and the rest of the protocol are as before — and ``refusal()``
  asked beforehand gives the same reason;
- an action taken reads back from its text; undo gives back the game before it.

A game mixes moves a table would make (so it gets far), actions aimed at the step it waits at
and often wrong in one way (a second hand, an act after the act, a thumb for oneself, a best
move out of turn, a kill of a seat out, …), and anything at all.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from narrator.engine import (
    Action,
    BestMove,
    Check,
    EndSpeech,
    EngineError,
    Foul,
    Game,
    HandCount,
    Hands,
    HandsUp,
    Kill,
    Malformed,
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
    find_rules,
    parse_action,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.options import apply_options
from narrator.testing import random_action
from tests.engine.observe import snapshot
from tests.fuzz.conftest import cases, count
from tests.fuzz.strategies import nasty_text

#: every ruleset, and the club options that change a game's course
VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    ("crime-time", {}), ("crime-time", {"fouls": "sport", "best_move": True}),
    ("crime-time", {"first_day": "none"}), ("professional", {"first_day": "lift_only"}),
    ("professional", {}), ("vrn-closed", {}), ("vrn", {}), ("amateur", {}),
    ("amateur", {"cards": "closed"}),
    # the catalogue's fouls and the end of the game (9.5, 9.6, 8.19)
    ("crime-time", {"fouls": "sport", "three_fouls": "short_speech", "tech_fouls": "yes",
                    "game_end_speech": "yes"}),
    ("crime-time", {"fouls": "sport", "game_end_speech": "yes"}),
    ("vrn-closed", {"fouls": "sport", "three_fouls": "no", "tech_fouls": "yes"}),
    # the discussion's catalogue groups (6.3, 6.7, 6.8, 7.5, 8.17)
    ("crime-time", {"withdraw": "auto", "rotation": "last", "on_record": "all",
                    "on_record_count": 3, "best_move": True}),
    ("crime-time", {"withdraw": "no"}), ("professional", {"on_record": "killed"}),
    # the vote's catalogue groups (7.16, 7.18, 7.21-7.23) besides each ruleset's own
    ("crime-time", {"first_voting": "no_breaking", "split_order": "reverse",
                    "kill_all": "draw", "split_on_four": "allowed", "split_on_nine": "after1"}),
    ("professional", {"first_voting": "breaking_to_themself", "split_order": "reverse",
                      "kill_all": "draw", "split_on_nine": "no"}),
    ("vrn-closed", {"first_voting": "no_breaking", "split_on_four": "prohibited"}),
)
ROLES = ("mafia", "don", "sheriff", "doctor", "maniac", "commissar", "nurse", "civilian",
         "nobody")
TIMERS = ("dealing", "don_noted", "agreement", "sheriff_noted", "speech", "vote", "hunt",
          "don_check", "sheriff_check", "floor", "put_up", "extra", "mafia_chooses",
          "commissar_check", "nurse_heals", "mafia_decides", "sheriff_acts", "maniac_kills",
          "doctor_saves", "mafia_meets", "nap")
#: every kind of action (the fuzzer's coverage is counted by these)
KINDS: tuple[type, ...] = (Nominate, Withdraw, EndSpeech, Malformed, TimeUp, Hands, HandCount,
                           Shot, Check, Kill, Save, TakeFloor, HandsUp, Thumbs, Foul, TechFoul, Remove,
                           BestMove, OnRecord)
#: the inputs of one seat at a step, which ``Game.refusal`` answers for
ONE_SEAT = (Check, Kill, Save, Hands, Thumbs, HandsUp)


def new_game(rng: random.Random, variant: tuple[str, dict[str, object]] | None = None) -> Game:
    name, options = variant or rng.choice(VARIANTS)
    rules = apply_options(find_rules(name), options)
    return Game(rules, seats=rng.randint(rules.smallest_table(), rules.max_seats), rng=rng)


def aimed(game: Game, rng: random.Random) -> Action:
    """An action aimed at the step ``game`` waits at, often wrong in one way."""
    exp = game.expect
    n = game.seats

    def seat() -> int:
        return rng.randint(-1, n + 2) if rng.random() < 0.05 else rng.randint(1, n)

    def seats(most: int = 4) -> tuple[int, ...]:
        return tuple(seat() for _ in range(rng.randint(0, most)))

    roll = rng.random()
    if roll < 0.05:
        return Foul(seat()) if roll < 0.03 else Remove(seat())
    if roll < 0.055:  # 9.6.2: taken where the club gives technical fouls, refused elsewhere
        return TechFoul(seat())
    if roll < 0.12 and exp.timer is not None:
        return TimeUp(exp.timer.name)
    match exp:
        case w.Speech(seat=speaker, speech=kind):
            if kind == "last" and rng.random() < 0.5:  # a best move, mostly of three others
                others = [s for s in range(1, n + 1) if s != speaker]
                return BestMove(tuple(rng.sample(others, 3)) if rng.random() < 0.7
                                else seats(4))
            makers: list[Callable[[], Action]] = [
                lambda: Nominate(seat()), lambda: Withdraw(seat()), EndSpeech,
                lambda: Malformed("nominate", rng.choice([None, seat()]), "future_tense"),
                lambda: OnRecord(speaker if rng.random() < 0.8 else seat(), seats(2), seats(2))]
            return rng.choice(makers)()
        case w.Vote() | w.Crash():
            if rng.random() < 0.3:
                return HandCount(rng.randint(-1, n))
            return Hands(seats())
        case w.Hunt():
            shooter = rng.choice(sorted(game.black)) if rng.random() < 0.8 else seat()
            return Shot(shooter, seat())
        case w.NightAct(role=role, acts=acts):
            act = rng.choice(acts) if rng.random() < 0.7 else rng.choice(("check", "kill", "save"))
            actor = role if rng.random() < 0.8 else rng.choice(ROLES)
            target = (rng.choice(game.victims) if game.victims and rng.random() < 0.3
                      else seat())
            return {"check": Check, "kill": Kill, "save": Save}[act](actor, target)
        case w.Floor():
            return TakeFloor(seat())
        case w.PutUp(seat=speaker):
            return Thumbs(speaker if rng.random() < 0.2 else seat(), seats())
        case w.Extra():
            return HandsUp(seats())
        case _:
            return TimeUp(rng.choice(TIMERS))


def anything(rng: random.Random) -> Action:
    """Any action of any kind, seats and names at random."""
    def s() -> int:
        return rng.randint(-2, 17)

    def many() -> tuple[int, ...]:
        return tuple(s() for _ in range(rng.randint(0, 12)))

    makers: list[Callable[[], Action]] = [
        lambda: Nominate(s()), lambda: Withdraw(s()), EndSpeech,
        lambda: Malformed(rng.choice(["nominate", "withdraw"]), rng.choice([None, s()]),
                          rng.choice(["future_tense", "no_number"])),
        lambda: TimeUp(rng.choice(TIMERS)), lambda: Hands(many()),
        lambda: HandCount(rng.randint(-1, 12)), lambda: Shot(s(), s()),
        lambda: Check(rng.choice(ROLES), s()), lambda: Kill(rng.choice(ROLES), s()),
        lambda: Save(rng.choice(ROLES), s()), lambda: TakeFloor(s()), lambda: HandsUp(many()),
        lambda: Thumbs(s(), many()), lambda: Foul(s()), lambda: TechFoul(s()),
        lambda: Remove(s()),
        lambda: BestMove(many()), lambda: OnRecord(s(), many(), many())]
    return rng.choice(makers)()


def apply_held(game: Game, action: object) -> str:
    """Apply ``action`` and hold the engine to the module's rules; returns what became of it:
    "raised", "refused" (by the rules: nothing but the refusal changed), "partly refused" (an
    input of several seats, some refused) or "taken"."""
    before = snapshot(game)
    refused = list(game.refused)
    asked = game.refusal(action) if isinstance(action, ONE_SEAT) else None  # type: ignore[arg-type]
    try:
        events = game.apply(action)  # type: ignore[arg-type]
    except EngineError:
        # refused outright: the game is exactly as it was
        assert snapshot(game) == before and game.refused == refused
        return "raised"
    assert parse_action(str(action)) == action
    several = isinstance(action, Hands | Thumbs | HandsUp) and len(action.seats) > 1
    single = len(events) == 1 and isinstance(events[0], ev.Refused)
    if not (single or (asked and not several)):
        return "taken"
    # refused by the rules: one entry and its event at most (a hand held up twice is ignored
    # without one), the same reason refusal() gave beforehand
    new = game.refused[len(refused):]
    assert game.refused[:len(refused)] == refused and len(new) <= 1 and len(events) == len(new)
    if new:
        assert events == [ev.Refused(new[0].seat, new[0].kind, new[0].target, new[0].reason)]
        assert several or asked is None or asked == new[0].reason
    after = snapshot(game)
    assert after[2:] == before[2:] and after[1] == before[1] + 1  # notations, protocol
    if several:  # the other seats' hands are in: only the views may differ
        return "partly refused"
    assert after[0] == before[0]
    return "refused"


def play(rng: random.Random, steps: int, game: Game | None = None,
         seen: Counter[str] | None = None) -> Game:
    """A game of ``steps`` actions at most: moves a table would make, aimed ones, anything."""
    count("games")
    game = game or new_game(rng)
    game.start()
    for _ in range(steps):
        if game.is_over:
            break
        roll = rng.random()
        action = (random_action(game, rng) if roll < 0.55 else aimed(game, rng) if roll < 0.9
                  else anything(rng))
        outcome = apply_held(game, action)
        if seen is not None:
            seen[f"{outcome} {type(action).__name__}"] += 1
        if game.history and rng.random() < 0.005:  # undo, then the same action again
            shown = snapshot(game)
            last = game.pop()
            game.apply(last)
            assert snapshot(game) == shown
    return game


@cases(40)
@given(st.integers(0, 2**63))
def test_hostile_games(seed: int) -> None:
    rng = random.Random(seed)  # plain Python: Hypothesis' own randoms are slow
    for _ in range(10):
        play(rng, rng.randint(0, 400))


def test_every_kind_of_action_is_taken_and_refused_in_every_ruleset() -> None:
    # the fuzzer's reach, counted on a fixed sample: each kind of action taken and refused
    # (raised on, or refused by the rules) somewhere, and every ruleset played to its end
    seen: Counter[str] = Counter()
    rng = random.Random(25)
    ended: Counter[str] = Counter()
    for variant in VARIANTS:
        for _ in range(24 if variant[1].get("best_move") else 6):  # (the best move: rarer)
            game = play(rng, 3000, new_game(rng, variant), seen)
            ended[variant[0]] += game.is_over
    for kind in KINDS:
        name = kind.__name__
        assert seen[f"taken {name}"] or kind is Malformed, name  # (a phrase refused as heard)
        assert seen[f"raised {name}"] + seen[f"refused {name}"], name
    for name in ("Nominate", "Withdraw", "Malformed", "Hands", "Check", "Kill", "Save",
                 "Thumbs"):
        assert seen[f"refused {name}"], name  # the Refused events of the rules
    assert set(ended) == {v[0] for v in VARIANTS} and all(ended.values())


@cases(600)
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS),
       st.lists(st.tuples(st.booleans(), st.integers(0, 2**16)), max_size=60))
def test_any_action_at_any_moment(seed: int, variant: tuple[str, dict[str, object]],
                                  steps: list[tuple[bool, int]]) -> None:
    rng = random.Random(seed)
    count("games")
    game = new_game(rng, variant)
    game.start()
    for legal, salt in steps:
        if game.is_over:
            break
        pick = random.Random(salt)
        action = random_action(game, rng) if legal else (
            aimed(game, pick) if salt % 2 else anything(pick))
        apply_held(game, action)


@cases(2_000)
@given(nasty_text | st.text(max_size=30))
def test_any_text_as_an_action(text: str) -> None:
    count("action texts")
    try:
        action = parse_action(text)
    except EngineError as e:
        assert "\n" not in str(e)
        return
    assert parse_action(str(action)) == action
