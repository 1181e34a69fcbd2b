"""What every front end asks the engine instead of working out itself: a night act's action
from its name, and the seats a count of hands stands for (2.4.2)."""

from __future__ import annotations

import pytest

from narrator.engine import (
    Check,
    IllegalActionError,
    InvalidActionError,
    Kill,
    Remove,
    Save,
    night_act,
    parse_action,
)
from tests.helpers import day_one


def test_a_night_act_is_built_from_its_name_and_reads_back_from_its_text() -> None:
    assert night_act("check", "sheriff", 4) == Check("sheriff", 4)
    assert night_act("kill", "maniac", 7) == Kill("maniac", 7)
    assert night_act("save", "doctor", 2) == Save("doctor", 2)
    for act in ("check", "kill", "save"):
        assert parse_action(str(night_act(act, "don", 3))) == night_act(act, "don", 3)
    with pytest.raises(InvalidActionError, match="'shoot'"):
        night_act("shoot", "don", 3)


def test_a_count_of_hands_stands_for_the_first_seats_in_the_game() -> None:
    game = day_one()
    game.apply(Remove(2))
    assert game.counted_seats(3) == (1, 3, 4)
    assert game.counted_seats(0) == ()
    with pytest.raises(IllegalActionError, match="only 9 players"):
        game.counted_seats(10)
