"""``narrator replay``: a table script or a recorded session, on a virtual clock."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from narrator.host.replay import ReplayResult, replay_script
from narrator.host.table_script import load_table_script


def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.is_dir():
        from narrator.host.session_replay import replay_session

        result: ReplayResult = replay_session(path, model=args.model)
    else:
        script = load_table_script(path)
        if args.lang:
            script.lang = args.lang
        voice = None
        if args.out_wav:
            from narrator.host.render import WavNarration

            voice = WavNarration(args.out_wav, lang=script.lang, voices=args.voices,
                                 night_music=args.night_music)
        result = replay_script(script, voice=voice)
        if voice is not None:
            voice.close(result.game)
    if args.json:
        print(json.dumps(result.protocol(), ensure_ascii=False))
    else:
        print(result.transcript.render())
        winner = result.game.winner
        print(f"\nwinner: {winner.value if winner else 'none (the script ended first)'}")
    return 0
