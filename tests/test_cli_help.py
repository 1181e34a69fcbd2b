"""Every command says what it is for, and every option what it does (``--help``)."""

from __future__ import annotations

import argparse
from typing import Any

from narrator.cli import build_parser


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
