"""Every command says what it is for, and every option what it does (``--help``)."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

import pytest

from narrator.cli import build_parser
from narrator.engine.rules import known


def commands(parser: argparse.ArgumentParser,
             path: tuple[str, ...] = ("narrator",)) -> list[tuple[tuple[str, ...], Any]]:
    found: list[tuple[tuple[str, ...], Any]] = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                assert helps.get(name), f"{' '.join(path)} {name}: no help line"
                assert "\n" not in helps[name]
                found += commands(sub, (*path, name))
    return found


def test_every_command_and_option_has_a_help_text() -> None:
    missing = []
    for path, parser in commands(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            if not action.help:
                missing.append(f"{' '.join(path)} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, missing


def test_resume_says_it_takes_up_a_game_stopped_with_q_too() -> None:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help for a in sub._choices_actions}
    assert "stopped with q" in str(helps["resume"])


def _least_argv(parser: argparse.ArgumentParser) -> list[str]:
    """What a command cannot go without: each positional argument and each required option."""
    argv: list[str] = []
    for action in parser._actions:
        value = str(next(iter(action.choices))) if action.choices else \
            "1" if action.type in (int, float) else "x"
        if not action.option_strings:
            argv.append(value)
        elif action.required:
            argv += [action.option_strings[0], value]
    return argv


def test_each_command_reads_its_typed_value_from_the_options_it_declares() -> None:
    parser = build_parser()
    for path, sub in commands(parser):
        if sub._defaults.get("command_row") is None:
            continue  # a command of commands (voices, models): its own are listed
        ns = parser.parse_args([*path[1:], *_least_argv(sub)])
        value = ns.command_row.read(ns)  # an option it reads and does not declare: AttributeError
        assert dataclasses.is_dataclass(value), path
        assert type(value).__dataclass_params__.frozen, path  # type: ignore[attr-defined]


def test_the_ruleset_choices_are_the_engines_registry() -> None:
    for path, sub in commands(build_parser()):
        for action in sub._actions:
            if "--rules" in action.option_strings:
                assert tuple(action.choices or ()) == known(), path


def test_listen_test_help_walks_a_newcomer_through_the_rehearsal(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["listen", "test", "--help"])
    out = capsys.readouterr().out
    for needed in ("microphone", "reads the phrase", "«Принято»", "refused", "free speech",
                   "right / wrong / missed", "worst-heard seats", "«слушание надёжно»",
                   "--listen off", "95 %", "report.json", "no audio", "narrator replay"):
        assert needed in out, needed
