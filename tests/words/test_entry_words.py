"""The operator's entries in the table's language: every step's prompt and every line that
means nothing now, in Russian and in Ukrainian, with no English word but the keys a line types
(``w 5``, ``m 4 +0.3 bp``); the English of ``str(error)`` (the logs', the developers') kept."""

from __future__ import annotations

import random

import pytest

from narrator.engine import Game, Remove
from narrator.engine import waits as w
from narrator.engine.entries import OperatorLineError, parse_operator_line, prompt_for
from narrator.engine.entry_texts import TEXTS
from narrator.engine.rules import RULESETS
from narrator.errors import NarratorError
from narrator.host.intake import EntryError, EntryRefused, apply_input
from narrator.inputs import entry
from narrator.reasons import words as reason_words
from narrator.testing import advance
from narrator.testing.games import random_action
from narrator.testing.table import TableRig
from tests.helpers import ROLES
from tests.host.test_entries import at
from tests.words.english import english

LANGS = ("ru", "uk")


def _over() -> Game:
    game = Game(roles=ROLES)
    game.start()
    for seat in (3, 5, 9):  # the three black cards removed: the civilians win
        game.apply(Remove(seat))
    assert game.is_over
    return game


def _at_the_hunt() -> Game:
    """The first hunt: the day's speeches run out with no nomination."""
    game = Game(roles=ROLES)
    game.start()
    advance(game, w.Hunt, through=w.Pause | w.Deal | w.Speech)
    return game


#: (the state, the line) meeting each of the engine's line errors
LINES: list[tuple[str, str]] = [
    ("over", "t"), ("deal", "5"), ("speech", ""), ("speech", "w"), ("speech", "пять"),
    ("speech", "k 7"), ("speech", "c 4"), ("speech", "s 4"), ("speech", "f x"),
    ("speech", "o 3 / x"), ("hunt", "o 3 4"), ("speech", "m x"), ("speech", "m 4 +1 хм"),
    ("hunt", "x"), ("check", "k 4"), ("check", "c x"), ("vote", "x"),
]


def _state(name: str) -> Game:
    if name == "over":
        return _over()
    if name == "deal":
        game = Game(roles=ROLES)
        game.start()
        return game
    if name == "hunt":
        return _at_the_hunt()
    return at(name)


@pytest.mark.parametrize(("state", "line"), LINES)
def test_a_line_that_means_nothing_now_says_why_in_the_tables_language(state: str,
                                                                        line: str) -> None:
    game = _state(state)
    with pytest.raises(OperatorLineError) as caught:
        parse_operator_line(line, game)
    error = caught.value
    assert str(error) == error.words("en")  # the logs' English, as it always was
    for lang in LANGS:
        said = error.words(lang)
        assert said != str(error) and english(said) == [], (lang, said)


def test_every_line_error_is_met_and_worded_in_both_languages() -> None:
    met = set()
    for state, line in LINES:
        try:
            parse_operator_line(line, _state(state))
        except OperatorLineError as e:
            met.add(e.key)
    # a floor's, thumbs', extra hands' and a role's own act: the other rulesets' steps
    others = {"floor", "thumbs", "extra", "act_seat", "hands"}
    errors = {k for k in TEXTS if not k.startswith("p_")}
    assert errors - met <= others, sorted(errors - met)
    for key in errors:
        for lang in LANGS:
            # (fields are filled with the words of a step, a role, an act: none is English)
            template = TEXTS[key][1 if lang == "ru" else 2]
            assert english(template.replace("{", " ").replace("}", " ").replace(
                "exp", "").replace("rest", "").replace("role", "").replace("act", "").replace(
                "entry", "").replace("verb", "").replace("word", "")) == [], (key, template)


def test_every_prompt_of_random_games_of_every_ruleset_is_in_the_tables_language() -> None:
    """The prompt of every step the operator answers, met in whole games of every ruleset."""
    kinds: set[str] = set()
    for name in RULESETS:
        if name == "base":
            continue
        for seed in range(4):
            rng = random.Random(seed)
            game = Game(name, rng=rng)
            game.start()
            while not game.is_over:
                english_prompt = prompt_for(game.expect, game)
                if english_prompt is not None:
                    kinds.add(type(game.expect).__name__)
                    for lang in LANGS:
                        said = prompt_for(game.expect, game, lang)
                        assert said is not None and said != english_prompt
                        assert english(said) == [], (name, lang, said)
                game.apply(random_action(game, rng))
    assert {"Hunt", "NightAct", "Vote", "Floor", "PutUp"} <= kinds, kinds


def test_a_refused_entry_is_quoted_and_given_the_engines_reason_in_the_tables_words() -> None:
    rig = TableRig(Game(roles=ROLES))  # (started: the deal)
    with pytest.raises(EntryRefused) as refused:  # nobody speaks during the deal
        apply_input(rig.host, entry(0.0, "w 5"))
    error: NarratorError = refused.value
    assert error.words("ru") == f"«w 5»: {reason_words(refused.value.reason, 'ru')}"
    assert error.words("uk") == f"«w 5»: {reason_words(refused.value.reason, 'uk')}"
    with pytest.raises(EntryError) as meaningless:
        apply_input(rig.host, entry(0.0, "5"))
    assert meaningless.value.words("ru") == "«5»: сейчас вводить нечего (ждём: Раздача карт)"
    assert str(meaningless.value).startswith("'5': nothing to enter now")
