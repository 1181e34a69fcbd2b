"""``narrator replay``: a table script, or a recorded session, on a virtual clock."""

from __future__ import annotations

import json
from pathlib import Path

from narrator.arguments import ReplayArgs
from narrator.errors import NarratorError
from narrator.replay.script import load_table_script
from narrator.replay.table import ReplayResult, replay_script


def run(args: ReplayArgs) -> int:
    path = Path(args.path)
    if path.is_dir():
        return _run_session(args, path)
    script = load_table_script(path, rules=args.rules)
    if args.lang:
        script.lang = args.lang
    result: ReplayResult
    if args.audio.out_wav:
        from narrator.replay.render import render_replay

        result, _ = render_replay(script, args.audio.out_wav, voices=args.audio.voices,
                                  night_music=args.audio.night_music)
    else:
        result = replay_script(script)
    if args.json:
        print(json.dumps(result.protocol(), ensure_ascii=False))
    else:
        print(result.transcript.render())
        winner = result.game.winner
        print(f"\nwinner: {winner.value if winner else 'none (the script ended first)'}")
    return 0


def _run_session(args: ReplayArgs, path: Path) -> int:
    """A folder written by ``narrator play --record``: the audio and the inputs again."""
    import sys

    from narrator.rehearsal.cli import is_listen_session
    from narrator.replay.session import replay_session

    if is_listen_session(path):
        return _run_listen(args, path)

    result = replay_session(path, model_path=args.model)
    given = args.rules
    if given is not None and result.table.game.rules.name != given:
        raise NarratorError(f"{path}: the session is a game of {result.table.game.rules.name}, "
                            f"not of {given} (--rules)")
    if args.json:
        print(json.dumps(result.protocol(), ensure_ascii=False))
    else:
        print(result.table.transcript.render())
        winner = result.table.game.winner
        print(f"\nwinner: {winner.value if winner else 'none (the session ended first)'}")
    replayed = json.loads(json.dumps(result.protocol(), ensure_ascii=False))
    if result.recorded_protocol is not None and result.recorded_protocol != replayed:
        print(f"narrator: the replay differs from the recorded protocol "
              f"({result.divergence or 'same inputs'})", file=sys.stderr)
        return 1
    return 0


def _run_listen(args: ReplayArgs, path: Path) -> int:
    """A folder written by ``narrator listen test``: its report again, heard again."""
    from narrator.rehearsal.cli import replay as replay_listen

    report = replay_listen(path, model_path=args.model)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print(report.text(), end="")
    return 0
