"""The deal is checked against the ruleset: seat count, the cards it deals, no game decided at
the deal (1.2, 1.3: the mafia must start outnumbered)."""

from __future__ import annotations

import random

import pytest

from narrator.engine import Game, InvalidActionError, Role
from narrator.engine.rules import find_rules
from narrator.errors import ScriptError
from narrator.replay.script import parse_table_script

FULL = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_a_table_where_the_mafia_starts_at_parity_is_refused(seats: int) -> None:
    # 1.3: the mafia wins by equalling the town; at 6 seats or fewer its 3 cards already do.
    with pytest.raises(InvalidActionError, match="at least 7 seats"):
        Game(seats=seats, rng=random.Random(1))


@pytest.mark.parametrize("seats", range(7, 16))
def test_every_allowed_table_starts_undecided(seats: int) -> None:
    for seed in range(20):
        game = Game(seats=seats, rng=random.Random(seed))
        game.start()
        assert not game.is_over
        assert sorted(r.value for r in game.roles.values() if r is not Role.CIVILIAN) == [
            "don", "mafia", "mafia", "sheriff"]


@pytest.mark.parametrize("seats", [0, -1, 3, 16, 100])
def test_impossible_seat_counts_are_refused_not_replaced(seats: int) -> None:
    with pytest.raises(InvalidActionError, match=r"4\.\.15 seats"):
        Game(seats=seats)


def test_no_seat_count_means_the_rulesets_own() -> None:
    assert Game().seats == find_rules("crime-time").seats == 10


@pytest.mark.parametrize(("roles", "message"), [
    ({1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA}, "expected 2 mafia for crime-time, got 1"),
    ({3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}, "expected 1 sheriff for crime-time, got 0"),
    ({1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA, 7: Role.MAFIA},
     "expected 2 mafia for crime-time, got 3"),
    ({}, "expected 1 sheriff for crime-time, got 0"),
])
def test_given_roles_must_be_the_rulesets_deal(roles: dict[int, Role], message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        Game(roles=roles)


def test_given_roles_on_a_small_table_are_refused() -> None:
    with pytest.raises(InvalidActionError, match="at least 7 seats"):
        Game(seats=6, roles=FULL)


def test_a_script_header_of_five_seats_names_the_header_line() -> None:
    with pytest.raises(ScriptError) as e:
        parse_table_script('# a small table\n{"rules": "crime-time", "seats": 5}\n', "t.jsonl")
    assert str(e.value).startswith("t.jsonl:2: seats: crime-time needs at least 7 seats")
