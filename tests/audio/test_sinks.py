"""WAV and memory sinks, the night bed, and the no-device error."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from narrator.audio.clip import AudioClip
from narrator.audio.format import AudioChunk, AudioFormat
from narrator.audio.noise import load_music, soft_noise
from narrator.audio.playback import AudioPlayer
from narrator.audio.sinks import WavFileSink
from narrator.clock import VirtualClock
from narrator.errors import NarratorError
from narrator.testing import MemorySink
from tests.helpers import alsa_no_device


def test_wav_sink_writes_the_timeline(tmp_path: Path) -> None:
    clock = VirtualClock()
    sink = WavFileSink(tmp_path / "out" / "game.wav", rate=16000)
    player = AudioPlayer(sink, clock)
    clock.advance(0.5)
    player.say(AudioClip(np.full(8000, 2000, dtype=np.int16), 16000))
    player.drain()
    player.close()
    back = AudioClip.read_wav(tmp_path / "out" / "game.wav")
    assert back.rate == 16000
    assert not back.samples[:8000].any()
    assert (back.samples[8000:16000] == 2000).all()
    sink.close()  # idempotent


def test_sinks_refuse_a_foreign_format() -> None:
    sink = MemorySink(22050)
    with pytest.raises(ValueError):
        sink.write(AudioChunk(b"\0\0", AudioFormat(rate=16000)))


def test_wav_sink_unwritable_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(NarratorError, match="cannot write"):
        WavFileSink(tmp_path / "file" / "x.wav")


def test_noise_bed_is_soft_deterministic_and_loops() -> None:
    a, b = soft_noise(2.0, 16000, level_dbfs=-30.0, seed=1), soft_noise(2.0, 16000, seed=1)
    assert np.array_equal(a.samples, b.samples)
    assert a.rms_dbfs() == pytest.approx(-30.0, abs=0.5)
    # No click at the loop point: the wrap-around step is like any other step.
    steps = np.abs(np.diff(a.samples.astype(np.int32)))
    assert abs(int(a.samples[0]) - int(a.samples[-1])) <= steps.max()


def test_night_music_from_a_wav(tmp_path: Path) -> None:
    t = np.arange(44100) / 44100
    AudioClip.from_float(0.5 * np.sin(2 * np.pi * 220 * t), 44100).write_wav(tmp_path / "m.wav")
    music = load_music(tmp_path / "m.wav", rate=16000, level_dbfs=-26.0)
    assert music.rate == 16000 and music.duration == pytest.approx(1.0, abs=0.01)
    assert music.rms_dbfs() == pytest.approx(-26.0, abs=0.5)
    with pytest.raises(NarratorError, match="not found"):
        load_music(tmp_path / "none.wav")
    (tmp_path / "bad.wav").write_bytes(b"junk")
    with pytest.raises(NarratorError, match="cannot read"):
        load_music(tmp_path / "bad.wav")


def test_no_output_device_is_one_line(tmp_path: Path) -> None:
    # A fresh process whose ALSA has no usable default device (PortAudio reads it at init).
    out = alsa_no_device(tmp_path).run(
        "from narrator.audio.sinks import SoundDeviceSink\n"
        "from narrator.errors import NarratorError\n"
        "try:\n    SoundDeviceSink(device='no such device')\n"
        "except NarratorError as e:\n    print(e)\n", timeout=60)
    assert out.stdout.startswith("no audio output device: "), out.stdout + out.stderr
    assert out.stdout.count("\n") == 1


# -- the WAV file: one line on any failure, playable at every moment --------------------------

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "car-crash.table.jsonl"


def _narrator(*args: str, preexec: Callable[[], object] | None = None,
              ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", *args], capture_output=True,
                          text=True, timeout=300, preexec_fn=preexec)


def test_out_wav_to_a_directory_is_one_line_and_no_noise(tmp_path: Path) -> None:
    proc = _narrator("replay", str(EXAMPLE), "--out-wav", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "cannot write the WAV file" in proc.stderr and str(tmp_path) in proc.stderr


def test_out_wav_on_a_full_disk_is_one_line(tmp_path: Path) -> None:
    proc = _narrator("replay", str(EXAMPLE), "--out-wav", "/dev/full")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("narrator: /dev/full: cannot write the WAV file")


def test_out_wav_filling_the_disk_mid_game_is_one_line(tmp_path: Path) -> None:
    # The file-size limit makes the disk "full" a few seconds into the narration.
    import resource
    import signal

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (400_000, 400_000))

    out = tmp_path / "game.wav"
    proc = _narrator("replay", str(EXAMPLE), "--out-wav", str(out), preexec=small_disk)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert f"{out}: cannot write the WAV file" in proc.stderr
    # what was written before the disk filled is still a WAV that plays
    back = AudioClip.read_wav(out)
    assert 5.0 < back.duration < 400_000 / 44_100


def test_the_wav_is_playable_while_it_grows(tmp_path: Path) -> None:
    path = tmp_path / "g.wav"
    sink = WavFileSink(path, rate=16000)
    chunk = AudioChunk(np.full(320, 1000, dtype="<i2").tobytes(), AudioFormat(rate=16000))
    for _ in range(50 * 10):  # ten seconds, never closed
        sink.write(chunk)
    back = AudioClip.read_wav(path)
    assert back.rate == 16000 and 9.4 <= back.duration <= 10.0
    sink.close()
    assert AudioClip.read_wav(path).duration == pytest.approx(10.0)


def test_a_wav_killed_mid_write_still_plays(tmp_path: Path) -> None:
    path = tmp_path / "g.wav"
    code = (
        "import os, signal\n"
        "import numpy as np\n"
        "from narrator.audio.format import AudioChunk, AudioFormat\n"
        "from narrator.audio.sinks import WavFileSink\n"
        f"sink = WavFileSink({str(path)!r}, rate=16000)\n"
        "chunk = AudioChunk(np.full(320, 1000, dtype='<i2').tobytes(), AudioFormat(rate=16000))\n"
        "for _ in range(50 * 8):\n    sink.write(chunk)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert proc.returncode == -9
    back = AudioClip.read_wav(path)
    assert 7.4 <= back.duration <= 8.0 and (back.samples == 1000).all()
