"""SoundDeviceSink against a virtual ALSA device: the ALSA ``file`` plugin, no sound card.

PortAudio reads the ALSA configuration once, at start-up, so the playback runs in a fresh
process with ``ALSA_CONFIG_PATH`` naming a config that sends the default device to a WAV file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from narrator.audio.clip import AudioClip
from tests.helpers import alsa_file_device


def test_sounddevice_sink_plays_the_clip(tmp_path: Path) -> None:
    device = alsa_file_device(tmp_path)
    t = np.arange(11025) / 22050
    clip = AudioClip.from_float(0.4 * np.sin(2 * np.pi * 440 * t), 22050)
    clip.write_wav(tmp_path / "clip.wav")
    # Offline rendering on a VirtualClock into the real sink: as fast as the device takes it.
    out = device.run(
        f"""
        from pathlib import Path
        from narrator.audio.playback import AudioPlayer
        from narrator.audio.sinks import SoundDeviceSink
        from narrator.clock import VirtualClock
        from narrator.audio.clip import AudioClip
        player = AudioPlayer(SoundDeviceSink(rate=22050), VirtualClock())
        player.say(AudioClip.read_wav(Path({str(tmp_path / "clip.wav")!r})))
        player.drain()
        player.close()
        print("ok")
        """
    )
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    got = AudioClip.read_wav(device.played)
    assert got.rate == 22050
    assert np.array_equal(got.samples[: len(clip.samples)], clip.samples)
    assert not got.samples[len(clip.samples) :].any()
