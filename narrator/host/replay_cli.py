"""``narrator replay``: a table script on a virtual clock."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from narrator.errors import NarratorError
from narrator.host.clock import FakeClock
from narrator.host.replay import ReplayResult, ScriptReplay
from narrator.host.table_script import load_table_script


def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.is_dir():
        raise NarratorError(f"{path}: replaying a recorded session folder is not supported yet; "
                            "give a *.table.jsonl table script")
    script = load_table_script(path)
    if args.lang:
        script.lang = args.lang
    clock = FakeClock()
    narration = None
    if args.out_wav:
        from narrator.host.render import wav_narration

        narration = wav_narration(args.out_wav, clock, lang=script.lang, voices=args.voices,
                                  night_music=args.night_music)
    replay = ScriptReplay(script, voice=narration, clock=clock)
    if narration is not None:
        narration.attach(replay.host)
    result: ReplayResult = replay.run()
    if narration is not None:
        narration.finish()
        narration.close()
    if args.json:
        print(json.dumps(result.protocol(), ensure_ascii=False))
    else:
        print(result.transcript.render())
        winner = result.game.winner
        print(f"\nwinner: {winner.value if winner else 'none (the script ended first)'}")
    return 0
