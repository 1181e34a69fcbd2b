"""Nicknames and club options: in table-script and journal headers, ``--rules-file`` (TOML) and
``--names``; bad input is one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.club.file import read_club
from narrator.engine import Game, Role
from narrator.engine.options import OptionError, apply_options, check_options, options_of
from narrator.engine.rules import find_rules
from narrator.host.club import club_rules
from narrator.host.journal import Journal, load_journal
from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script

HEADER = {"rules": "crime-time", "roles": {"don": 7, "mafia": [4, 9], "sheriff": 3}}
ROLES = {7: Role.DON, 4: Role.MAFIA, 9: Role.MAFIA, 3: Role.SHERIFF}


def script(header: dict[str, Any], *lines: str) -> str:
    return "\n".join([json.dumps({**HEADER, **header}, ensure_ascii=False), *lines]) + "\n"


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    return err


def test_names_reach_the_protocol_and_the_transcript() -> None:
    text = script({"names": {"1": "Ника", "2": "Бублик"}},
                  '{"speech": 1, "say": [[3, "выставляю номер два"], [9, "спасибо"]]}')
    result = replay_script(parse_table_script(text, "g"))
    protocol = result.protocol()
    assert protocol["seats"]["1"]["name"] == "Ника"
    assert protocol["seats"]["2"]["name"] == "Бублик"
    assert "name" not in protocol["seats"]["3"]
    rendered = result.transcript.render()
    assert "seat 1 (Ника) nominates 2" in rendered
    assert "seat 1 (Ника): speech" in rendered


@pytest.mark.parametrize(("header", "message"), [
    ({"names": {"11": "Ника"}}, "names: seat 11 does not exist (seats 1..10)"),
    ({"names": {"one": "Ника"}}, "names: expected a seat number"),
    ({"names": {"1": ""}}, "names: seat 1: expected a name"),
    ({"options": {"fouls": "strict"}}, 'options: fouls: expected "count" or "sport"'),
    ({"options": {"speeches": 45}}, "options: unknown option 'speeches'"),
    ({"options": {"speech": 0}}, "options: speech: expected more than 0"),
    ({"options": {"best_move": "yes"}}, "options: best_move: expected true or false"),
    ({"options": {"cards": "hidden"}}, 'options: cards: expected "open" or "closed", got '
                                       "'hidden'"),
    ({"options": {"cards": "open"}},
     'options: cards: crime-time keeps the cards closed; "open" is for amateur'),
])
def test_bad_names_and_options_in_a_header_are_one_line(
        tmp_path: Path, header: dict[str, Any], message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.table.jsonl"
    path.write_text(script(header, '{"speech": 1}'), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert f"{path}:1: {message}" in one_line_error(capsys)


def test_club_timer_figures_in_the_header_set_the_speeches() -> None:
    text = script({"options": {"speech": 45, "last_word": 40, "tie_speech": 20}},
                  '{"speech": 1}')
    replay = replay_script(parse_table_script(text, "g"))
    rules = replay.game.rules
    assert (rules.speech_seconds, rules.speech_warning) == (45.0, 35.0)  # «Десять секунд» at 35
    assert (rules.last_word_seconds, rules.tie_speech_seconds) == (40.0, 20.0)
    assert replay.game.expect.timer is not None and replay.game.expect.timer.seconds == 45.0
    assert options_of(rules) == {"speech": 45.0, "last_word": 40.0, "tie_speech": 20.0}
    assert options_of(find_rules("crime-time")) == {}


def test_options_and_names_travel_in_the_journal_header(tmp_path: Path) -> None:
    rules = apply_options(find_rules("crime-time"), {"fouls": "sport", "speech": 50})
    game = Game(rules, roles=ROLES, names={5: "Ника"})
    path = tmp_path / "j.jsonl"
    Journal.for_game(path, game, fsync=False).close()
    head = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert head["options"] == {"fouls": "sport", "speech": 50.0}
    assert head["names"] == {"5": "Ника"}
    again = load_journal(path).game()  # no rules file needed to take the game up again
    assert again.rules.fouls == "sport" and again.rules.speech_seconds == 50.0
    assert again.names == {5: "Ника"}


def test_rules_file_is_read_with_toml(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('fouls = "sport"\nbest_move = true\nspeech = 45\ncount_pace = 1.2\n',
                    encoding="utf-8")
    assert dict(read_club(path).options) == {"fouls": "sport", "best_move": True, "speech": 45.0,
                                     "count_pace": 1.2}


@pytest.mark.parametrize(("content", "message"), [
    ("fouls = sport\n", "not a TOML file"),
    ("[club]\nfouls = 'sport'\n", "unknown option 'club'"),
    ("fouls = 'sport'\nbest_moves = true\n", "unknown option 'best_moves'"),
    ("count_pace = 30\n", "count_pace: expected more than 0 and at most 10 seconds"),
])
@pytest.mark.parametrize("command", ["play", "assist"])
def test_bad_rules_file_is_one_line_and_exit_2(
        tmp_path: Path, content: str, message: str, command: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.toml"
    path.write_text(content, encoding="utf-8")
    code = main([command, "--rules-file", str(path), "--journal", str(tmp_path / "j.jsonl")])
    err = one_line_error(capsys)
    assert code == 2 and f"{path}: {message}" in err
    assert not (tmp_path / "j.jsonl").exists()  # nothing was started


@pytest.mark.parametrize(("names", "message"), [
    ("1=Ника,12=Бублик", "--names: seat 12 does not exist (seats 1..10)"),
    ("Ника", "--names: expected SEAT=NAME, got 'Ника'"),
    ("1=Ника,1=Бублик", "--names: seat 1 is named twice"),
])
@pytest.mark.parametrize("command", ["play", "assist"])
def test_bad_names_option_is_one_line_and_exit_2(
        tmp_path: Path, names: str, message: str, command: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main([command, "--names", names, "--journal", str(tmp_path / "j.jsonl")])
    assert code == 2 and message in one_line_error(capsys)


def test_check_options_refuses_a_table_that_is_not_one() -> None:
    with pytest.raises(OptionError, match="expected a table of options"):
        check_options(["fouls"])


# -- cards: «Для ускладнення гри можна усувати з гри без відкриття картки» (amateur) ----------

@pytest.mark.parametrize("name", ["crime-time", "professional", "vrn", "vrn-closed"])
def test_open_cards_are_refused_where_the_ruleset_keeps_them_closed(
        tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.toml"
    path.write_text('cards = "open"\n', encoding="utf-8")
    journal = tmp_path / "j.jsonl"
    code = main(["play", "--rules", name, "--rules-file", str(path), "--journal", str(journal)])
    assert code == 2
    assert one_line_error(capsys) == (f'narrator: {path}: cards: {name} keeps the cards closed; '
                                      f'"open" is for amateur\n')
    assert not journal.exists()
    # "closed" says what the ruleset does anyway: taken, and nothing changes
    rules = apply_options(find_rules(name), {"cards": "closed"})
    assert type(rules) is type(find_rules(name)) and options_of(rules) == {}


def test_closed_cards_travel_in_the_journal_header(tmp_path: Path) -> None:
    rules = apply_options(find_rules("amateur"), {"cards": "closed", "speech": 50})
    assert options_of(rules) == {"cards": "closed", "speech": 50.0}
    assert options_of(apply_options(find_rules("amateur"), {"cards": "open"})) == {}
    game = Game(rules, roles={4: Role.MAFIA, 8: Role.MAFIA, 9: Role.MAFIA,
                              2: Role.COMMISSAR, 6: Role.NURSE})
    path = tmp_path / "j.jsonl"
    Journal.for_game(path, game, fsync=False).close()
    head = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert head["options"] == {"cards": "closed", "speech": 50.0}
    again = load_journal(path).game()
    assert not again.rules.reveal_cards and "leaves.{n}" not in again.rules.lines


def test_a_rules_file_closes_the_cards_of_amateur(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('cards = "closed"\n', encoding="utf-8")
    assert dict(read_club(path).options) == {"cards": "closed"}
    rules = club_rules(find_rules("amateur"), path)
    assert rules.name == "amateur" and not rules.reveal_cards
    assert find_rules("amateur").reveal_cards  # the ruleset itself is untouched


def test_the_figures_of_a_rulesets_own_steps_are_the_clubs_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """vrn's 30 s decision and introductions, amateur's thumbs window and meetings: a club
    sets them as it sets a speech's, in a header, a rules file or ``--timer``; a figure of
    another ruleset is one line naming the ruleset."""
    vrn = {"rules": "vrn", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1, "doctor": 6,
                                     "maniac": 8}, "maniac_side": "city",
           "options": {"decision": 12, "intro": 20, "noted": 4}}
    replay = replay_script(parse_table_script(json.dumps(vrn), "g"))
    rules = replay.game.rules
    assert (rules.decision_seconds, rules.intro_seconds, rules.noted_seconds) == (12, 20, 4)
    assert replay.game.expect.timer is not None and replay.game.expect.timer.seconds == 20.0
    assert options_of(rules) == {"decision": 12.0, "intro": 20.0, "noted": 4.0}
    amateur = apply_options(find_rules("amateur"), {"put_up": 3, "floor": 2, "meet": 6})
    assert (amateur.put_up_seconds, amateur.floor_seconds, amateur.meet_seconds) == (3, 2, 6)
    # journaled, and taken up again without the file
    game = Game(amateur, seats=8, roles={1: Role.MAFIA, 2: Role.MAFIA, 3: Role.COMMISSAR,
                                         4: Role.NURSE})
    path = tmp_path / "j.jsonl"
    Journal.for_game(path, game, fsync=False).close()
    assert load_journal(path).game().rules.put_up_seconds == 3.0
    # another ruleset's figure
    with pytest.raises(OptionError, match="options: decision: crime-time has no such figure"):
        apply_options(find_rules("crime-time"), {"decision": 10})
    journal = tmp_path / "k.jsonl"
    assert main(["assist", "--rules", "amateur", "--timer", "decision=10",
                 "--journal", str(journal)]) == 2
    assert one_line_error(capsys).startswith(
        "narrator: --timer: amateur has no figure decision (its figures: ")
    assert not journal.exists()
    assert main(["assist", "--rules", "vrn", "--timer", "decisoin=10"]) == 2
    assert "unknown figure" in one_line_error(capsys)


def test_names_in_a_ruleset_with_speeches_of_its_own_reach_the_transcript() -> None:
    """The transcript names each kind of speech beside a nickname: vrn's introductions and
    amateur's justifications as well as crime-time's (it once knew only crime-time's three)."""
    header = {"rules": "vrn", "roles": {"don": 4, "mafia": [7, 10], "sheriff": 2, "doctor": 9,
                                        "maniac": 1}, "maniac_side": "city",
              "names": {"1": "Ника"}}
    result = replay_script(parse_table_script(json.dumps(header) + '\n{"speech": 1}\n', "g"))
    assert "seat 1 (Ника): introduction" in result.transcript.render()
