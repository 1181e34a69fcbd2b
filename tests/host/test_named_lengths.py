"""A phrase that names a length never contradicts the club's figure.

Some lines say how long their step lasts («Игрок номер …, у вас тридцать секунд»). A club may
change every figure (``--timer``, a rules file, a script's ``options``); where the figure a
line names is not the one its words say, the narrator says the line without the length.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from narrator.engine import RULESETS, Game, Rules, find_rules
from narrator.engine.options import FIGURES, apply_options
from narrator.engine.rules import NamedLength
from narrator.engine.tuning import fitted_lines, tunable, with_settings
from narrator.host.narration import lines_for, reword
from narrator.testing import random_action
from narrator.voice.keys import MAX_SEATS, length_free, spoken_keys, wording_keys
from narrator.voice.manifest import default_manifest

#: (ruleset, club option, the crime-time key the narration says, the voice key said with the
#: ruleset's figure, the one said with another figure)
LINES = [
    ("crime-time", "agreement", "mafia_agreement", "mafia_agreement",
     "mafia_agreement_no_length"),  # 2.1.1 «минута»
    ("crime-time", "tie_speech", "tie_speech.4", "tie_speech.4",
     "tie_speech_no_length.4"),  # 2.4.1 «тридцать секунд»
    ("crime-time", "tie_speech", "tie_speeches", "tie_speeches", "tie_speeches_no_length"),
    ("professional", "tie_speech", "tie_speech.4", "tie_speech.4", "tie_speech_no_length.4"),
    ("professional", "tie_speech", "tie_speeches", "tie_speeches", "tie_speeches_no_length"),
    ("vrn-closed", "tie_speech", "tie_speech.4", "tie_speech.4", "tie_speech_no_length.4"),
    ("vrn-closed", "tie_speech", "tie_speeches", "tie_speeches", "tie_speeches_no_length"),
    ("vrn", "intro", "intro_speech.3", "vrn.intro_speech.3", "vrn.intro_speech_no_length.3"),
    ("vrn", "last_word", "last_word.3", "vrn.testament.3", "vrn.testament_no_length.3"),
    ("vrn", "extra", "extra_speech.3", "vrn.extra_speech.3", "vrn.extra_speech_no_length.3"),
    ("vrn", "justify", "justify.3", "vrn.justify.3", "vrn.justify_no_length.3"),
    ("vrn", "justify", "tie_speeches", "vrn.tie_justify", "vrn.tie_justify_no_length"),
    ("amateur", "justify", "justify.3", "amateur.justify.3", "amateur.justify_no_length.3"),
]
IDS = [f"{r}:{key}" for r, _, key, _, _ in LINES]


def by_option(rules: Rules, option: str, seconds: float) -> Rules:
    """A club option (a rules file, a script's ``options``)."""
    return apply_options(rules, {option: seconds})


def by_timer(rules: Rules, option: str, seconds: float) -> Rules:
    """``--timer NAME=SECONDS``."""
    return with_settings(rules, **{FIGURES[option]: seconds})


PATHS: list[Callable[[Rules, str, float], Rules]] = [by_option, by_timer]


def said(rules: Rules, key: str) -> tuple[str, ...]:
    return reword(key, rules.lines)


def stated(rules_name: str, option: str) -> float:
    """The seconds the line's words say: the ruleset's own figure."""
    return float(getattr(RULESETS[rules_name], FIGURES[option]))


@pytest.mark.parametrize(("rules", "option", "key", "words", "variant"), LINES, ids=IDS)
def test_the_rulesets_own_figure_says_the_length(rules: str, option: str, key: str, words: str,
                                                 variant: str) -> None:
    assert said(find_rules(rules), key) == (words,)


@pytest.mark.parametrize("tune", PATHS)
@pytest.mark.parametrize(("rules", "option", "key", "words", "variant"), LINES, ids=IDS)
def test_a_changed_figure_says_the_line_without_the_length(
        rules: str, option: str, key: str, words: str, variant: str,
        tune: Callable[[Rules, str, float], Rules]) -> None:
    for seconds in (20.0, stated(rules, option) + 15):
        assert said(tune(find_rules(rules), option, seconds), key) == (variant,)


@pytest.mark.parametrize(("rules", "option", "key", "words", "variant"), LINES, ids=IDS)
def test_a_figure_set_to_the_texts_value_keeps_the_length_words(
        rules: str, option: str, key: str, words: str, variant: str) -> None:
    text = stated(rules, option)
    other = "check" if option != "check" else "speech"
    # set to the text's value beside another figure: a tuned ruleset, the same words
    assert said(apply_options(find_rules(rules), {option: text, other: 7}), key) == (words,)
    # changed, then changed back (a --timer under a script's options, a journal's resume)
    changed = by_timer(find_rules(rules), option, 20.0)
    assert said(changed, key) == (variant,)
    assert said(by_option(changed, option, text), key) == (words,)
    assert said(by_timer(changed, option, text), key) == (words,)


def test_another_figure_leaves_the_length_words_alone() -> None:
    rules = apply_options(find_rules("crime-time"), {"speech": 45, "check": 10})
    assert said(rules, "tie_speech.4") == ("tie_speech.4",)
    assert said(rules, "mafia_agreement") == ("mafia_agreement",)
    assert rules.lines == {}


def test_a_rulesets_own_wording_of_a_line_without_length_is_kept() -> None:
    # professional and vrn-closed wake the mafia in their own words, which name no length
    for name, own in (("professional", "professional.mafia_wakes"),
                      ("vrn-closed", "vrn_closed.mafia_wakes")):
        rules = by_option(find_rules(name), "agreement", 45)
        assert said(rules, "mafia_agreement") == (own,)


def test_closed_cards_and_a_changed_figure_together() -> None:
    rules = apply_options(find_rules("amateur"), {"cards": "closed", "justify": 20})
    assert said(rules, "justify.3") == ("amateur.justify_no_length.3",)
    assert said(rules, "leaves.3") == ("leaves.3",)  # closed: crime-time's words
    assert said(rules, "open_card.3") == ("amateur.open_card.3",)  # never said closed
    assert not rules.reveal_cards
    # the options over a --timer: both kept
    timed = by_timer(find_rules("amateur"), "justify", 20.0)
    closed = apply_options(timed, {"cards": "closed"})
    assert said(closed, "justify.3") == ("amateur.justify_no_length.3",)
    assert said(closed, "leaves.3") == ("leaves.3",)


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_every_rulesets_own_figures_are_the_lengths_its_lines_say(rules: str) -> None:
    cls = RULESETS[rules]
    for key, length in cls.named_lengths.items():
        assert getattr(cls, length.figure) == length.seconds, key
    assert fitted_lines(cls) == dict(cls.lines)


def _said_in_random_games(rules: Rules, games: int, seed: str) -> set[str]:
    said: set[str] = set()
    rng = random.Random(seed)
    for _ in range(games):
        game = Game(rules, rng=rng)
        events = game.start()
        while True:
            for event in events:
                for line in lines_for(event, rules.lines):
                    said.update(line.keys)
            if game.is_over:
                break
            events = game.apply(random_action(game, rng))
    return said


def _expanded(keys: list[str]) -> set[str]:
    return set(wording_keys({"": tuple(keys)}))


NAMING = _expanded([k for cls in RULESETS.values() for k in cls.named_lengths])
VARIANTS = _expanded([n.instead for cls in RULESETS.values() for n in cls.named_lengths.values()])


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_random_games_with_every_figure_changed_never_name_a_length(rules: str) -> None:
    ruleset = find_rules(rules)
    # every figure the club may change, to a length no line names
    figures = {name: 17.0 if name != "count_pace" else 1.0 for name in tunable(ruleset)}
    tuned = with_settings(ruleset, **figures)
    said = _said_in_random_games(tuned, 60, rules)
    assert sorted(said & NAMING) == []
    assert said & VARIANTS  # and what is said instead was said
    assert said <= set(spoken_keys())


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_random_games_at_the_rulesets_figures_say_the_lengths(rules: str) -> None:
    said = _said_in_random_games(find_rules(rules), 60, rules)
    assert sorted(said & VARIANTS) == []
    assert said & NAMING
    own = _expanded(list(RULESETS[rules].named_lengths))
    assert sorted(said & NAMING - own) == []  # each ruleset lists the lengths it says


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_phrase_that_names_a_length_has_a_variant(lang: str) -> None:
    manifest = default_manifest(lang)
    length = re.compile(r"секунд|минут|хвилин", re.IGNORECASE)
    naming = {k for k in manifest if length.search(manifest.text(k))} - {"ten_seconds"}
    assert naming  # the pattern finds them
    named = _expanded([k for cls in RULESETS.values() for k in cls.named_lengths])
    assert sorted(naming - named) == []
    # and no variant names one
    assert sorted(k for k in VARIANTS if length.search(manifest.text(k))) == []


def test_the_voice_keys_list_holds_every_variant() -> None:
    keys = set(spoken_keys())
    for cls in RULESETS.values():
        for variant in wording_keys(length_free(cls)):
            assert variant in keys
    assert "tie_speech_no_length.15" in keys and "vrn.justify_no_length.10" in keys
    assert "mafia_agreement_no_length" in keys and "vrn.tie_justify_no_length" in keys
    assert "tie_speech_no_length.15" not in spoken_keys(10)
    assert all(f"amateur.justify_no_length.{n}" in keys for n in range(1, MAX_SEATS + 1))


def test_a_named_length_is_a_figure_a_club_may_change() -> None:
    for cls in RULESETS.values():
        ruleset = cls()
        for key, length in cls.named_lengths.items():
            assert isinstance(length, NamedLength)
            assert length.figure in tunable(ruleset), (cls.name, key)
