"""Each ruleset's own lines: said through the narration, held by both voice packs.

A ruleset words some of the narrator's lines its own way (``Rules.lines``); its own keys are
``<ruleset>.<key>`` in the manifests. Random games of every ruleset must say only keys that the
Russian and the Ukrainian manifests hold.
"""

from __future__ import annotations

import random

import pytest

from narrator.clock import VirtualClock
from narrator.engine import RULESETS, Game, find_rules
from narrator.engine import events as ev
from narrator.host.assembly import assemble_host
from narrator.host.narration import (
    TEN_SECONDS,
    Line,
    cards_awaited,
    count_line,
    lines_for,
    reword,
    reworded,
)
from narrator.testing import random_action
from narrator.voice.keys import length_free, spoken_keys, wording_keys
from narrator.voice.manifest import default_manifest

ALL_RULES = sorted(RULESETS)


def said_in_random_games(rules_name: str, games: int) -> set[str]:
    rules = find_rules(rules_name)
    said: set[str] = set()

    def note(lines: list[Line]) -> None:
        for line in lines:
            said.update(line.keys)

    rng = random.Random(rules_name)
    for _ in range(games):
        game = Game(rules, rng=rng)
        events = game.start()
        while True:
            for event in events:
                note(lines_for(event, rules.lines))
            if game.is_over:
                break
            events = game.apply(random_action(game, rng))
    note(reworded([TEN_SECONDS], rules.lines))
    for n in range(1, 11):
        note(reworded([count_line(n)], rules.lines))
    return said


@pytest.mark.parametrize("rules", ALL_RULES)
def test_every_key_a_ruleset_says_is_in_both_manifests(rules: str) -> None:
    said = said_in_random_games(rules, 120)
    assert sorted(said - set(spoken_keys())) == []  # what `voices check` holds a pack against
    for lang in ("ru", "uk"):
        manifest = default_manifest(lang)
        assert sorted(k for k in said if k not in manifest) == [], lang
    assert len(said) > 80  # the games said a good part of the vocabulary


@pytest.mark.parametrize("rules", ALL_RULES)
def test_a_rulesets_own_keys_carry_its_prefix_and_each_is_used(rules: str) -> None:
    ruleset = find_rules(rules)
    prefix = ruleset.voice_prefix
    ru = default_manifest("ru")
    # its wording, and its lines without their length (said with a club's own figure)
    own = [k for k in wording_keys(ruleset.lines) + wording_keys(length_free(ruleset))
           if k.startswith(prefix)]
    for said in ruleset.lines.values():
        for key in said:
            # its own line, or one of crime-time's said at another moment
            assert key.startswith(prefix) or not any(
                key.startswith(r.replace("-", "_") + ".") for r in RULESETS), key
    for lang in ("ru", "uk"):
        manifest = default_manifest(lang)
        assert [k for k in wording_keys(ruleset.lines) if k not in manifest] == [], lang
    # no line of the ruleset in the packs that it never says
    assert sorted(k for k in ru if k.startswith(prefix)) == sorted(own)


def test_reword_replaces_keys_and_seat_families() -> None:
    wording = {"miss": ("a", "b"), "city_sleeps": (), "last_word.{n}": ("x.testament.{n}",)}
    assert reword("miss", wording) == ("a", "b")
    assert reword("last_word.7", wording) == ("x.testament.7",)
    assert reword("speech.7", wording) == ("speech.7",)
    lines = reworded([Line(("night_falls", "city_sleeps")), Line(("city_sleeps",))], wording)
    assert lines == [Line(("night_falls",))]  # a line with nothing left is not said
    assert lines_for(ev.NightResult(2, None), wording) == [Line(("a", "b"))]
    assert lines_for(ev.NightResult(2, None)) == [Line(("miss",))]
    assert wording_keys(wording, seats=2) == ["a", "b", "x.testament.1", "x.testament.2"]


@pytest.mark.parametrize("rules", ALL_RULES)
def test_the_consoles_prompt_names_every_seat_whatever_the_rulesets_wording(rules: str) -> None:
    """vrn drops the numbers of its ballot (it votes against every seat): the console's prompt
    while the deal waits for cards is no part of that, and names each seat it waits for."""
    game = Game(find_rules(rules), rng=random.Random(1))
    parts = assemble_host(game, VirtualClock(), manifest=default_manifest("ru"))
    parts.host.say(cards_awaited([3, 7]))
    assert parts.transcript.spoken[-1] == "«Ждём карты игроков номер три и номер семь»"
