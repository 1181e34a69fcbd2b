"""A replay rendered to WAV: every announcement is in the audio, in the protocol's order."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from narrator.clock import VirtualClock
from narrator.host.speaker import wav_narration
from narrator.replay.script import load_table_script
from narrator.replay.table import ScriptReplay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_replay_rendered_to_wav_has_the_announcements_in_protocol_order(tmp_path: Path) -> None:
    out = tmp_path / "game.wav"
    clock = VirtualClock()
    narration = wav_narration(str(out), clock, lang="ru")
    replay = ScriptReplay(load_table_script(EXAMPLES / "car-crash.table.jsonl"),
                          narration=narration, clock=clock)
    result = replay.run()
    end = narration.finish()
    narration.close()

    lines = sorted(narration.player.lines, key=lambda line: line.started or 0.0)
    said = result.protocol()["said"]
    # Every phrase of the protocol is in a line played, and in the same order.
    played = [part for line in lines for part in line.text.split(" ‖ ")]
    assert " ".join(played) == " ".join(said)

    with wave.open(str(out)) as w:
        rate = w.getframerate()
        audio = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float64)
    assert abs(len(audio) / rate - end) < 0.1
    for line in lines:
        assert line.started is not None and line.ended is not None
        a, b = int(line.started * rate), int(line.ended * rate)
        rms = float(np.sqrt(np.mean(audio[a:b] ** 2))) / 32768
        assert rms > 0.02, f"{line.text!r} is silent in the WAV at {line.started:.1f} s"
    starts = [line.started for line in lines if not line.urgent]
    assert starts == sorted(starts)
    # Waiting for the narration moves the clock, never the protocol.
    plain = ScriptReplay(load_table_script(EXAMPLES / "car-crash.table.jsonl")).run()
    assert plain.protocol() == result.protocol()


def test_a_pack_lacking_phrases_is_one_line_before_the_wav_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from narrator.cli import main

    pack = tmp_path / "pack"
    pack.mkdir()
    manifest = json.loads((Path(__file__).resolve().parents[2] / "voices" / "ru" /
                           "manifest.json").read_text(encoding="utf-8"))
    del manifest["phrases"]["who_for.{n}"]
    (pack / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), "utf-8")
    out = tmp_path / "game.wav"
    code = main(["replay", str(EXAMPLES / "car-crash.table.jsonl"), "--voices", str(pack),
                 "--out-wav", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "who_for.1" in err and "voices check" in err
    assert not out.exists()
