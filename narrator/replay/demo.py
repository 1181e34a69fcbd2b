"""``narrator demo``: the bundled example game, narrated.

The game is rendered on a virtual clock into a WAV file (``out/demo.wav`` unless ``--out-wav``
is given), then played on the sound card when there is one.
"""

from __future__ import annotations

from pathlib import Path

from narrator.arguments import DemoArgs
from narrator.errors import NarratorError
from narrator.replay.render import render_replay
from narrator.replay.script import load_table_script

DEMO = Path(__file__).resolve().parents[2] / "examples" / "civilians-win.table.jsonl"


def run(args: DemoArgs) -> int:
    out = Path(args.audio.out_wav or "out/demo.wav")
    out.parent.mkdir(parents=True, exist_ok=True)
    script = load_table_script(DEMO)
    script.lang = args.lang
    result, length = render_replay(script, str(out), voices=args.audio.voices)
    winner = result.game.winner.value if result.game.winner else "nobody"
    print(f"demo: {DEMO.name}: {len(result.transcript.said)} phrases, winner {winner}; "
          f"{length / 60:.1f} minutes of narration in {out}")
    if args.audio.out_wav or args.fast:
        return 0
    try:
        _play(out)
    except NarratorError as e:
        print(f"demo: not played aloud ({e}); listen to {out}")
    return 0


def _play(path: Path) -> None:
    """Play a WAV on the default output device (Ctrl-C stops)."""
    from narrator.audio.clip import AudioClip
    from narrator.audio.format import AudioChunk
    from narrator.audio.sinks import SoundDeviceSink

    clip = AudioClip.read_wav(path)
    sink = SoundDeviceSink(rate=clip.rate)
    try:
        step = clip.rate // 10
        data = clip.samples
        for i in range(0, len(data), step):
            sink.write(AudioChunk(data[i:i + step].tobytes(), sink.format, i / clip.rate))
    finally:
        sink.close()
