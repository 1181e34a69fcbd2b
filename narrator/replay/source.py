"""A finished (or stopped) game read back for an export: from a table script (replayed on a
virtual clock), a game journal, or a folder recorded by ``narrator play --record`` (its applied
inputs; the audio is not needed)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from narrator.engine import Action, Game, parse_action
from narrator.engine.options import OptionError
from narrator.errors import NarratorError
from narrator.host.journal import LIMITS as JOURNAL_LIMITS
from narrator.host.journal import load_journal
from narrator.reading import BadJSON, Limits, loads, read_lines


@dataclass
class GameSource:
    """A finished (or stopped) game read from a table script, a journal or a session."""

    game: Game
    lang: str
    seconds: float  # the game's length on its own clock
    path: Path


def load_source(path: str | Path) -> GameSource:
    """Read SOURCE: a session folder, a journal (its header has ``"journal"``) or a table script."""
    where = Path(path)
    if where.is_dir():
        return _session_source(where)
    from narrator.replay.script import LIMITS as SCRIPT_LIMITS

    # the first line tells which it is: read as its reader will (a regular file, in lines),
    # within the larger of the two formats' limits
    peek = Limits("the game", max_bytes=max(SCRIPT_LIMITS.max_bytes, JOURNAL_LIMITS.max_bytes),
                  max_lines=max(SCRIPT_LIMITS.max_lines, JOURNAL_LIMITS.max_lines))
    with contextlib.closing(read_lines(where, peek)) as rows:
        first = next((row.text for row in rows
                      if row.text.strip() and not row.text.startswith("#")), "")
    try:
        head = loads(first) if first else None
    except BadJSON:
        head = None
    if isinstance(head, dict) and "journal" in head:
        return journal_source(where)
    return _script_source(where)


def _script_source(path: Path) -> GameSource:
    from narrator.replay.script import load_table_script
    from narrator.replay.table import ScriptReplay

    script = load_table_script(path)
    replay = ScriptReplay(script)
    result = replay.run()
    return GameSource(result.game, script.lang, replay.clock.now(), path)


def journal_source(path: Path) -> GameSource:
    """A game journal's game, its language and its length (its first event to its last)."""
    contents = load_journal(path)
    first = contents.first_t if contents.first_t is not None else contents.last_t
    seconds = max(0.0, contents.last_t - first)
    return GameSource(contents.game(), contents.header.lang, seconds, path)


def _session_source(path: Path) -> GameSource:
    """A session recorded by ``narrator play --record``: its table and the actions it took."""
    from narrator.audio.session import INPUTS
    from narrator.inputs import ACTION, TABLE, UNDO
    from narrator.replay.session import iter_inputs, table_game

    where = path / INPUTS
    if not where.is_file():
        raise NarratorError(f"{path}: not a session recorded by narrator play (no {INPUTS})")
    inputs = iter_inputs(where)  # read once, keeping the actions only
    table = next(inputs, None)
    if table is None or table.type != TABLE:
        raise NarratorError(f"{where}:1: expected the table event of a session recorded by "
                            f"narrator play")
    first = last = table.t
    texts: list[str] = []
    for event in inputs:
        first, last = min(first, event.t), max(last, event.t)
        if event.type == ACTION:
            texts.append(str(event.get("action")))
        elif event.type == UNDO and texts:
            texts.pop()
    try:
        game = table_game(table)
        actions: list[Action] = [parse_action(text) for text in texts]
        if not game.started:
            game.start()
        game.replay(actions)
    except (KeyError, ValueError, TypeError, AttributeError, OptionError) as e:
        raise NarratorError(f"{where}: not a session to export ({e})") from None
    return GameSource(game, str(table.get("lang", "ru")), last - first, path)
