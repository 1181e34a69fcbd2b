"""The one words table (narrator/words.py): every code the engine, the review, the rulesets
and the scoring systems have is worded in Russian and Ukrainian, and the pages' script is made
from it."""

from __future__ import annotations

import json
import random
import typing

from narrator import words
from narrator.engine import MARK_TITLES, Game, Role, Team
from narrator.engine.rules import RULESETS
from narrator.engine.types import SpeechKind
from narrator.review.timeline import KINDS
from narrator.scoring.system import SYSTEMS
from narrator.testing.games import random_action
from narrator.words import GROUPS


def worded(group: str, codes: typing.Iterable[str]) -> list[str]:
    """The codes ``group`` lacks a word for in either language."""
    table = GROUPS[group]
    return [c for c in codes if c not in table or not all(table[c].get(lang)
                                                          for lang in ("ru", "uk"))]


def test_every_card_side_speech_kind_ruleset_system_and_title_is_worded() -> None:
    assert not worded("card", [r.value for r in Role])
    assert not worded("team", [t.value for t in Team])
    assert not worded("winner", [t.value for t in Team])
    assert not worded("speech", typing.get_args(SpeechKind))
    assert not worded("kind", KINDS)
    assert not worded("rules", RULESETS)
    # (a system at a version, fiim@3, is its name's words with the version)
    assert not worded("system", {name.partition("@")[0] for name in SYSTEMS})
    assert not worded("title", MARK_TITLES)


def test_every_timer_and_departure_of_random_games_of_every_ruleset_is_worded() -> None:
    """What a game's steps are called and how its seats leave, gathered from whole games of
    every ruleset (random legal actions): the table knows each."""
    timers: set[str] = set()
    gone: set[str] = set()
    for name in RULESETS:
        if name == "base":
            continue
        for seed in range(6):
            rng = random.Random(seed)
            game = Game(name, rng=rng)
            game.start()
            while not game.is_over:
                if game.expect.timer is not None:
                    timers.add(game.expect.timer.name)
                game.apply(random_action(game, rng))
            gone |= {h for s in range(1, game.seats + 1) if (h := game.how_out(s))}
    assert {"vote", "removed"} <= gone
    assert not [h for h in gone if words.departure(h, "ru") == h]
    assert not worded("timer", timers)


def test_a_phase_is_its_words_and_a_code_the_table_lacks_is_shown_as_it_is() -> None:
    assert words.phase("day", 1, "ru") == "День 1"
    assert words.phase("n2", 0, "ru") == "Ночь 2"
    assert words.phase("n2", 0, "uk") == "Ніч 2"
    assert words.card("sheriff", "uk") == "Шериф"
    assert words.word("system", "fiim", "ru") == "ФИИМ"
    assert words.word("system", "fiim@3", "uk") == "ФІІМ, версія 3"
    assert words.word("rules", "crime-time", "uk") == "Кримінальний час"
    assert words.word("card", "werewolf", "ru") == "werewolf"
    assert words.departure("witch_kill", "ru") == "убит ночью"


def test_the_pages_script_is_the_table_in_both_languages() -> None:
    text = words.script()
    head = "var WORDS = "
    body = json.loads(text[text.index(head) + len(head):].rstrip().rstrip(";"))
    assert body["ru"]["card"]["don"] == "Дон мафии" and body["uk"]["out"]["vote"]
    assert set(body["ru"]) == set(GROUPS) == set(body["uk"])
