"""The rule catalogue (MafiaRatings' ``include/rules.php``): thirteen groups as club options,
the thirteen-digit code that sets them all, each ruleset's own code, and the one line naming
both when a club's options and its code contradict."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.engine import Game, find_rules
from narrator.engine.catalogue import DEFAULT_CODE, GROUPS, code_of, parse_code, variant_of
from narrator.engine.options import OptionError, apply_options, options_of
from narrator.engine.rules import RULESETS
from narrator.host.club import club_rules

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_catalogue_has_the_thirteen_groups_in_the_codes_order() -> None:
    # rules.php: rotation is digit 0, techFouls digit 12; the default set is 0002000010000
    assert len(GROUPS) == 13 == len(DEFAULT_CODE)
    assert [g.clause for g in GROUPS] == ["6.3", "6.7", "6.8", "7.5", "7.16", "7.18", "7.21",
                                          "7.22", "7.23", "8.17", "8.19", "9.5", "9.6"]
    default = parse_code(DEFAULT_CODE)
    assert default["withdraw"] == "no"  # 7.5.3
    assert default["split_on_nine"] == "no"  # 7.23.2
    assert default["legacy"] == "first"  # 8.17.1
    assert default["three_fouls"] == "lose_speech"  # 9.5.1


@pytest.mark.parametrize("name", list(RULESETS))
def test_each_ruleset_has_a_code_that_reads_back_as_its_variants(name: str) -> None:
    rules = find_rules(name)
    code = code_of(rules)
    assert re.fullmatch(r"\d{13}", code)
    assert parse_code(code) == {g.name: variant_of(rules, g.name) for g in GROUPS}


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_ruleset_played_with_its_own_code_is_the_ruleset_itself(name: str) -> None:
    rules = find_rules(name)
    played = apply_options(rules, {"rules": code_of(rules)})
    assert code_of(played) == code_of(rules)
    assert played.fouls == rules.fouls  # 9.5.3 ("no") keeps the fouls only counted
    # the code names 7.5 and 9.5: a header keeps them (7.5's examples are played, 9.5.3 says
    # fouls only counted); nothing else differs
    assert set(options_of(played)) <= {"three_fouls", "withdraw"}


def _takes(rules_name: str, group: str, variant: object) -> bool:
    try:
        apply_options(find_rules(rules_name), {group: variant})
    except OptionError:
        return False
    return True


@pytest.mark.parametrize("group", [g.name for g in GROUPS])
def test_every_variant_of_every_group_is_an_option_that_reaches_the_code(group: str) -> None:
    g = next(x for x in GROUPS if x.name == group)
    for i, variant in enumerate(g.variants):
        if not _takes("crime-time", group, variant):
            continue  # a ruleset's own way (its fixed groups): refused in one line
        rules = apply_options(find_rules("crime-time"), {group: variant})
        assert variant_of(rules, group) == variant
        assert code_of(rules)[GROUPS.index(g)] == str(i)
        # and the headers carry it: the options written read back as the same set
        again = apply_options(find_rules("crime-time"), options_of(rules))
        assert code_of(again) == code_of(rules)


def test_the_default_code_sets_every_group_at_once_and_travels_in_headers() -> None:
    rules = apply_options(find_rules("crime-time"), {"rules": DEFAULT_CODE})
    assert code_of(rules) == DEFAULT_CODE
    assert rules.fouls == "sport" and rules.best_move and rules.withdraw == "no"
    header = options_of(rules)
    assert "rules" not in header  # the header holds the groups, the code is read from them
    assert code_of(apply_options(find_rules("crime-time"), header)) == DEFAULT_CODE
    game = Game(rules)
    assert game.protocol()["rules_code"] == DEFAULT_CODE


@pytest.mark.parametrize(("options", "message"), [
    ({"rules": DEFAULT_CODE, "withdraw": "auto"},
     'where: rules = "0002000010000" sets withdraw = "no" (7.5.3), but withdraw = "auto"'),
    ({"rules": "0002000000000", "best_move": False},
     'where: best_move = false and legacy = "first" contradict'),
    ({"best_move": True, "legacy": "no"}, 'where: best_move = true and legacy = "no" contradict'),
    ({"first_day": "lift_only", "first_voting": "no_breaking"},
     'where: first_day = "lift_only" and first_voting = "no_breaking" contradict'),
    ({"fouls": "count", "three_fouls": "short_speech"},
     'where: three_fouls = "short_speech" punishes a third foul, but fouls = "count" only '
     'counts them'),
    ({"rules": "000200001000"}, "where: rules: expected a code of 13 digits"),
    ({"rules": "00020000100O0"}, "where: rules: expected a code of 13 digits"),
    ({"rules": 2000010000}, "where: rules: expected a code of 13 digits, got 2000010000"),
    ({"rules": "0902000010000"},
     "where: rules: '0902000010000': digit 2 (on_record, 6.7) is 9; on_record has variants 0..4"),
    ({"withdraw": "sometimes"}, 'where: withdraw: expected one of "allowed", "auto", "no"'),
    ({"on_record_count": "3"}, "where: on_record_count: expected one of 0, 1, 2"),
    ({"on_record_count": 10}, "where: on_record_count: expected one of 0, 1, 2"),
])
def test_a_contradiction_or_a_bad_code_is_one_line_naming_both(options: dict[str, object],
                                                              message: str) -> None:
    with pytest.raises(OptionError) as e:
        apply_options(find_rules("crime-time"), options, where="where")
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


def test_the_older_spellings_are_the_catalogues_groups() -> None:
    # 8.17.1: legacy "first" is our best move; 7.16.2: first_day "lift_only" is "to_talk"
    assert apply_options(find_rules("crime-time"), {"legacy": "first"}).best_move
    assert options_of(apply_options(find_rules("crime-time"), {"legacy": "first"})) == {
        "best_move": True}
    lift = apply_options(find_rules("crime-time"), {"first_day": "lift_only"})
    assert variant_of(lift, "first_voting") == "to_talk"
    assert code_of(lift)[4] == "1"
    # fouls only counted: a third foul costs nothing, which the catalogue calls 9.5.3
    assert variant_of(find_rules("crime-time"), "three_fouls") == "no"


def test_a_club_file_may_name_the_code(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(f'rules = "{DEFAULT_CODE}"\n', encoding="utf-8")
    assert code_of(club_rules(find_rules("crime-time"), path)) == DEFAULT_CODE


def test_a_contradicting_club_file_is_one_line_and_exit_code_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.toml"
    path.write_text(f'rules = "{DEFAULT_CODE}"\nwithdraw = "auto"\n', encoding="utf-8")
    journal = tmp_path / "j.jsonl"
    assert main(["play", "--rules-file", str(path), "--journal", str(journal)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "club.toml" in err and "withdraw" in err and DEFAULT_CODE in err
    assert not journal.exists()  # nothing was started


def _documented_codes() -> dict[str, str]:
    """The code table of docs/rulesets.md: ``| `crime-time` | `0000000101120` | …``."""
    text = (DOCS / "rulesets.md").read_text(encoding="utf-8")
    section = text.split("## The rule catalogue", 1)[1]
    return dict(re.findall(r"^\| `([a-z-]+)` \| `(\d{13})` \|", section, flags=re.M))


def test_the_docs_give_each_rulesets_code() -> None:
    assert _documented_codes() == {name: code_of(find_rules(name)) for name in RULESETS}
