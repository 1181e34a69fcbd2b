"""The engine as a value: actions' text round-trip, validation, undo, notation, properties."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.engine import (
    RULESETS,
    Check,
    EndSpeech,
    Foul,
    Game,
    Hands,
    HandsUp,
    IllegalActionError,
    InvalidActionError,
    Kill,
    Malformed,
    Nominate,
    Remove,
    Role,
    Save,
    Shot,
    TakeFloor,
    Thumbs,
    TimeUp,
    Withdraw,
    parse_action,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.testing import play_random_game, random_action
from tests.helpers import day_one


@pytest.mark.parametrize("action", [
    Nominate(5), Withdraw(5), EndSpeech(), TimeUp("speech"), Hands((1, 2, 3)), Hands(()),
    Shot(3, 7), Check("don", 1), Foul(6), Remove(6), Malformed("nominate", 5, "future_tense"),
    Kill("mafia", 7), Kill("sheriff", 2), Save("doctor", 7), Check("commissar", 4), TakeFloor(3),
    HandsUp((3, 7)), HandsUp(()), Thumbs(7, (1, 2, 3)), Thumbs(7, ()),
    Malformed("withdraw", None, "no_number"),
])
def test_actions_round_trip_through_text(action: object) -> None:
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["", "vote 5", "nominate five", "nominate", "shot 3"])
def test_bad_action_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_notation_shows_phase_seats_and_candidates() -> None:
    game = day_one()
    assert game.notation() == "crime-time d1:day@1 SCDCMCCCMC noms=-"
    game.apply(Nominate(5))
    assert game.notation() == "crime-time d1:day@1 SCDCMCCCMC noms=5"
    game.apply(Remove(7))
    assert game.notation() == "crime-time d1:day@1 SCDCMCcCMC noms=5"


def test_illegal_actions_quote_the_action_and_the_state_and_change_nothing() -> None:
    game = day_one()
    before, history = game.notation(), list(game.history)
    with pytest.raises(IllegalActionError) as e:
        game.apply(Hands((1,)))
    # the state is quoted in its public form: the message is shown, the roles are secret
    assert "hands 1" in str(e.value) and game.notation(secret=False) in str(e.value)
    assert before.split()[2] not in str(e.value)
    with pytest.raises(IllegalActionError, match="no such timer"):
        game.apply(TimeUp("vote"))
    with pytest.raises(InvalidActionError, match="seat 11 does not exist"):
        game.apply(Foul(11))
    assert game.notation() == before and game.history == history


def test_undo_restores_the_state() -> None:
    game = day_one()
    game.apply(Nominate(5))
    seen = game.notation()
    game.apply(EndSpeech())
    game.apply(Nominate(7))
    assert game.pop() == Nominate(7)
    assert game.pop() == EndSpeech()
    assert game.notation() == seen and game.candidates == (5,)


def test_refusals_are_events_with_reasons() -> None:
    game = day_one()
    events = game.apply(Malformed("nominate", 5, "future_tense"))
    assert events == [ev.Refused(1, "nominate", 5, "future_tense")]
    assert game.apply(Nominate(12)) == [ev.Refused(1, "nominate", 12, "not_a_seat")]


#: every ruleset runs the same properties (random games, invariants, undo)
ALL_RULES = sorted(RULESETS)


def invariant_check(game: Game) -> None:
    """Replays the game's history, checking the protocol's invariants event by event: nobody
    out speaks (but for their last word), votes, shoots, acts at night or is nominated, put up
    or voted on; every living seat's hand counts once a round (where the ruleset counts the
    hands not raised)."""
    replay = Game(game.rules, seats=game.seats, roles=game.roles, dealt=game.dealt)
    living = set(range(1, game.seats + 1))
    voters_in_round = 0
    every_hand = True
    round_total = 0
    removed_in_round = False
    for event in replay.start():
        assert not isinstance(event, ev.GameOver)
    for action in game.history:
        exp = replay.expect
        if isinstance(exp, w.Speech) and exp.speech != "last":
            assert exp.seat in living  # nobody out speaks (but for the last word)
        if isinstance(action, Hands):
            assert set(action.seats) <= living
        if isinstance(action, Shot):
            assert action.shooter in living  # nobody out shoots
        if isinstance(action, Check | Kill | Save):
            # a checker shot this night still checks (the result is not known until day)
            actors = (replay.black if action.role == "mafia"
                      else {replay.seat_of(Role(action.role))})
            gone = [replay.out.get(a) for a in actors if a is not None and a not in living]
            assert any(a in living for a in actors) or any(
                g is not None and g.phase == replay.phase for g in gone)
        if isinstance(action, TakeFloor | HandsUp | Thumbs):
            assert set(getattr(action, "seats", (action.seat,) if isinstance(action, TakeFloor)
                               else ())) <= living
        for event in replay.apply(action):
            if isinstance(event, ev.SeatOut):
                living.discard(event.seat)
                removed_in_round = True
            elif isinstance(event, ev.Nominated):
                assert event.target in living and event.seat in living
            elif isinstance(event, ev.PutUpCounted):
                assert event.target in living
            elif isinstance(event, ev.VotingStarted):
                assert set(event.candidates) <= living
                voters_in_round, round_total, removed_in_round = len(living), 0, False
                every_hand = replay.rules.abstainers_to_last(event.round, event.candidates)
            elif isinstance(event, ev.VoteCounted):
                round_total += event.votes
                if event.candidate == replay.voting_candidates[-1]:
                    # every living seat counted once; a seat removed mid-round (2.4.3, the
                    # result already fixed) counts only if it had voted
                    if not every_hand:  # a re-vote of one: only the hands raised count
                        assert round_total <= voters_in_round
                    elif removed_in_round:
                        assert len(living) <= round_total <= voters_in_round
                    else:
                        assert round_total == voters_in_round
    assert replay.protocol() == game.protocol()


@pytest.mark.parametrize("rules", ALL_RULES)
@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_games_end_with_a_winner_and_keep_invariants(rules: str, seed: int) -> None:
    game = play_random_game(random.Random(seed), rules=rules)
    assert game.rules.name == rules
    assert game.winner is not None and isinstance(game.expect, w.Over)
    invariant_check(game)
    protocol = game.protocol()
    assert json.loads(json.dumps(protocol)) == protocol  # the protocol round-trips as JSON
    # the side of each seat (a maniac may play for the mafia) decides, by the ruleset's rule
    black = sum(1 for s in game.living if s in game.side_black)
    red = len(game.living) - black
    assert game.rules.winner(black, red) is game.winner
    assert (black == 0) if game.winner.value == "civilians" else (black >= 1)


@pytest.mark.parametrize("rules", ALL_RULES)
@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=1, max_value=80))
def test_undo_anywhere_gives_back_the_same_game(rules: str, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, rng=rng)
    game.start()
    notations = [game.notation()]
    for _ in range(cut):
        if game.is_over:
            break
        game.apply(random_action(game, rng))
        notations.append(game.notation())
    while game.history:
        notations.pop()
        game.pop()
        assert game.notation() == notations[-1]
