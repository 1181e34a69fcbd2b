"""SoundDeviceSink against a virtual ALSA device: the ALSA ``file`` plugin, no sound card.

PortAudio reads the ALSA configuration once, at start-up, so the playback runs in a fresh
process with ``ALSA_CONFIG_PATH`` naming a config that sends the default device to a WAV file.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from narrator.audio.clip import AudioClip

ALSA_CONF = """\
pcm.!default {{
    type asym
    playback.pcm {{ type file  slave.pcm "null"  file "{played}"  format "wav" }}
    capture.pcm  {{ type file  slave.pcm "null"  file "/dev/null"  infile "{mic}"  format "raw" }}
}}
"""

Run = Callable[[str], subprocess.CompletedProcess[str]]


@pytest.fixture
def alsa_file_device(tmp_path: Path) -> tuple[Run, Path]:
    """``(run, played)``: ``run(code)`` runs Python with the virtual device; it plays to ``played``."""
    played = tmp_path / "played.wav"
    mic = tmp_path / "mic.raw"
    mic.write_bytes(bytes(16000 * 2))
    conf = tmp_path / "asound.conf"
    conf.write_text(ALSA_CONF.format(played=played, mic=mic))
    env = {**os.environ, "ALSA_CONFIG_PATH": f"/usr/share/alsa/alsa.conf:{conf}"}

    def run(code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    return run, played


def test_sounddevice_sink_plays_the_clip(
    alsa_file_device: tuple[Run, Path], tmp_path: Path
) -> None:
    run, played = alsa_file_device
    t = np.arange(11025) / 22050
    clip = AudioClip.from_float(0.4 * np.sin(2 * np.pi * 440 * t), 22050)
    clip.write_wav(tmp_path / "clip.wav")
    # Offline rendering on a VirtualClock into the real sink: as fast as the device takes it.
    out = run(
        f"""
        from pathlib import Path
        from narrator.audio.playback import Player
        from narrator.audio.sinks import SoundDeviceSink
        from narrator.clock import VirtualClock
        from narrator.audio.clip import AudioClip
        player = Player(SoundDeviceSink(rate=22050), VirtualClock())
        player.say(AudioClip.read_wav(Path({str(tmp_path / "clip.wav")!r})))
        player.drain()
        player.close()
        print("ok")
        """
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    got = AudioClip.read_wav(played)
    assert got.rate == 22050
    assert np.array_equal(got.samples[: len(clip.samples)], clip.samples)
    assert not got.samples[len(clip.samples) :].any()
