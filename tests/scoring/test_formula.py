"""MafiaRatings' formula language: every operator and function, its edge values (division by
zero, log of nothing, counter indexes kept in range) and the one-line errors."""

from __future__ import annotations

import pytest

from narrator.errors import NarratorError
from narrator.scoring.formula import MAX_VALUE, MIN_VALUE, Env, parse
from narrator.scoring.matters import Matter


def ev(text: str, env: Env | None = None) -> float:
    return parse(text).evaluate(env or Env())


@pytest.mark.parametrize("text, value", [
    ("12", 12), ("0.25", 0.25), ("1 + 2", 3), ("7 - 10", -3), ("3 * 4", 12), ("1 / 4", 0.25),
    ("2 ^ 3", 8), ("-3", -3), ("- -3", 3), ("2 * -3", -6), ("1 - -1", 2),
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2 * 3 ^ 2", 18), ("-2 ^ 2", 4),
    ("10 - 4 - 3", 3), ("16 / 4 / 2", 2),  # left to right
    ("2 > 1", 1), ("1 > 2", 0), ("1 < 2", 1), ("2 >= 2", 1), ("1 <= 0", 0),
    ("2 = 2", 1), ("2 == 3", 0), ("2 != 3", 1), ("1 + 1 = 2", 1), ("1 < 2 = 1", 1),
    ("1 && 0", 0), ("1 && 2", 1), ("0 || 0", 0), ("0 || 3", 1), ("!0", 1), ("!5", 0),
    ("1 || 0 && 0", 1),  # && binds tighter
    ("1 ? 2 : 3", 2), ("0 ? 2 : 3", 3), ("0 ? 1 : 0 ? 2 : 3", 3), ("1 > 2 ? 5 : 6 + 1", 7),
    ("round(2.5)", 3), ("round(-2.5)", -3), ("round(2.4)", 2), ("round(1.236, 2)", 1.24),
    ("floor(2.7)", 2), ("floor(-2.2)", -3), ("ceil(2.1)", 3), ("ceil(-2.7)", -2),
    ("log(1)", 0), ("log(8, 2)", 3), ("log(0)", MIN_VALUE), ("log(-1, 10)", MIN_VALUE),
    ("min(3, 1, 2)", 1), ("max(3, 1, 2)", 3), ("min(4)", 4), ("MAX(1, 2)", 2),
    ("1 / 0", MAX_VALUE), ("-1 / 0", MIN_VALUE), ("0 / 0", 0), ("10 ^ 100", MAX_VALUE),
    ("difficulty", 0.5), ("mr_points", 0), ("mr_points()", 0),
])
def test_every_operator_and_function(text: str, value: float) -> None:
    assert ev(text) == pytest.approx(value)


def test_a_long_formula_evaluates() -> None:
    assert ev("1" + "+1" * 249) == 250
    assert ev("(" * 39 + "2" + ")" * 39) == 2


def test_the_games_values() -> None:
    env = Env(counters=([10, 3, 7], [2, 1, 0]), bonus=0.4, role=3,
              flags=Matter.WIN.flag | Matter.KICK_OUT.flag)
    assert ev("bonus", env) == ev("bonus()", env) == pytest.approx(0.4)
    assert ev("role", env) == 3 and ev("role() = 3 ? 1 : 0", env) == 1
    assert (ev("matter(1)", env), ev("matter(13)", env), ev("matter(2)", env)) == (1, 1, 0)
    assert ev("matter(1.2)", env) == 1  # the number is rounded
    # counter(i, j) is counters[i][j]: i 0 over all the games, 1 up to this one
    assert (ev("counter(0, 1)", env), ev("counter(1, 0)", env), ev("counter(0, 2)", env)) == \
        (3, 2, 7)
    # one index, none: the first of what is left; indexes floored and kept in range
    assert (ev("counter(1)", env), ev("counter()", env), ev("counter", env)) == (2, 10, 10)
    assert (ev("counter(0, 9)", env), ev("counter(-1, 1.9)", env), ev("counter(5, 0)", env)) \
        == (7, 3, 2)
    assert ev("counter(0, 0)", Env()) == 0  # a system without counters


def test_a_formula_read_once_evaluates_for_many_games() -> None:
    formula = parse("matter(12) || matter(13) || matter(14) ? -0.8 : (matter(25) ? -1 : 0)")
    values = [formula.evaluate(Env(flags=m.flag)) for m in
              (Matter.WARNINGS_4, Matter.KICK_OUT, Matter.SURRENDERED, Matter.TEAM_KICK_OUT,
               Matter.WIN)]
    assert values == pytest.approx([-0.8, -0.8, -0.8, -1, 0])
    assert formula.uses("matter") and not formula.uses("difficulty")


@pytest.mark.parametrize("text, message", [
    ("", "empty formula at column 1"),
    ("1 +", "got the end at column 4"),
    ("(1 + 2", "expected ')', got the end at column 7"),
    ("1 2", "unexpected '2' at column 3"),
    ("1 $ 2", "unexpected '$' at column 3"),
    ("1 & 2", "unexpected '&' at column 3"),
    ("1 ? 2", "expected ':', got the end at column 6"),
    ("wins(1)", "unknown function 'wins'"),
    ("2 * games", "unknown function 'games' (known: round, floor"),
    ("min()", "min takes 1 or more argument(s), got 0 at column 1"),
    ("round(1, 2, 3)", "round takes 1 to 2 argument(s), got 3"),
    ("1 + matter()", "matter takes 1 argument(s), got 0 at column 5"),
    ("bonus(1)", "bonus takes 0 argument(s), got 1"),
    ("counter(1, 2, 3)", "counter takes 0 to 2 argument(s), got 3"),
    ("max(1,)", "got ')' at column 7"),
    ("(" * 41 + "1" + ")" * 41, "nested deeper than 40 at column 41"),
    ("-" * 50 + "1", "nested deeper than 40 at column 41"),
    ("1" + "+1" * 250, "longer than 500 characters at column 501"),
])
def test_a_bad_formula_is_one_line_quoting_it_and_the_column(text: str, message: str) -> None:
    with pytest.raises(NarratorError) as e:
        parse(text)
    quoted = str(e.value).removeprefix("formula '").split("': ")[0]
    assert quoted == text or (len(quoted) <= 62 and quoted.strip("…") in text)
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("text", [
    "1 + " * 250_000 + "*",  # a megabyte: refused for its length
    "1 + " * 100 + "* 2",  # within the length, the fault in its middle
    "1 + " + "x" * 400,  # an unknown name of 400 letters
    "(" * 100 + "1",  # too deep
    "1" * 300 + " 2",  # a number of 300 digits, then another
])
def test_an_error_quotes_a_short_excerpt_of_the_formula(text: str) -> None:
    with pytest.raises(NarratorError) as e:
        parse(text)
    message = str(e.value)
    quoted = message.removeprefix("formula '").split("': ")[0]
    assert len(quoted) <= 62 and "…" in quoted  # 60 characters and the ellipses
    assert quoted.strip("…") in text
    assert len(message) < 300 and "\n" not in message


def test_the_excerpt_stands_around_the_fault_and_a_short_formula_is_quoted_whole() -> None:
    text = "1 + " * 100 + "* 2"
    with pytest.raises(NarratorError) as e:
        parse(text)
    at = text.index("*")
    assert f"at column {at + 1}" in str(e.value)
    assert "+ * 2'" in str(e.value)  # the fault, with what stands before and after it
    with pytest.raises(NarratorError, match=r"formula '1 \+\* 2': expected"):
        parse("1 +* 2")
