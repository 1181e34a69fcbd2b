"""Voice activity: a pause is told from speech by the room's own level, knocks are not speech,
and the recognizer ends an utterance on the detector's pause (the Korean model for that)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from narrator.audio.decider import StableDecider
from narrator.audio.recognizer import Final
from narrator.audio.sources import PcmSource, pad
from narrator.audio.vad import EnergyVad, LevelVad
from narrator.audio.vosk_recognizer import table_recognizer

RATE = 16000
ROOT = Path(__file__).resolve().parents[2]


def pcm(x: np.ndarray[Any, Any]) -> bytes:
    out: bytes = (np.clip(x, -1, 1) * 32767).astype("<i2").tobytes()
    return out


def tone(seconds: float, dbfs: float) -> np.ndarray[Any, Any]:
    t = np.arange(int(seconds * RATE)) / RATE
    wave: np.ndarray[Any, Any] = np.sqrt(2) * 10 ** (dbfs / 20) * np.sin(2 * np.pi * 220 * t)
    return wave


def room(seconds: float, dbfs: float, seed: int = 1) -> np.ndarray[Any, Any]:
    return np.random.default_rng(seed).normal(scale=10 ** (dbfs / 20), size=int(seconds * RATE))


def quiet_after(vad: EnergyVad | LevelVad, audio: bytes, chunk: int = 320) -> list[float]:
    out = []
    for i in range(0, len(audio), chunk * 2):
        vad.feed(audio[i:i + chunk * 2])
        out.append(round(vad.quiet, 3))
    return out


def test_a_pause_over_a_noisy_room_is_quiet_for_the_energy_detector_only() -> None:
    # a room at -38 dBFS (chairs, a murmur), a phrase at -20 dBFS, then the room again
    x = np.concatenate([room(1.2, -38), tone(0.6, -20) + room(0.6, -38, 2), room(0.5, -38, 3)])
    energy = quiet_after(EnergyVad(), pcm(x))
    assert energy[59] == 1.2 and energy[89] == 0.0  # 20 ms chunks: a phrase from 1.2 to 1.8 s
    assert energy[-1] == pytest.approx(0.5, abs=0.011)  # quiet from the end of the phrase
    level = quiet_after(LevelVad(), pcm(x))
    assert level[-1] == 0.0  # the room is louder than -40 dBFS: never a pause


def test_a_knock_is_not_speech_and_silence_is_not_the_room() -> None:
    knock = np.zeros(int(0.03 * RATE))
    knock[:] = np.exp(-np.arange(len(knock)) / 80) * 0.3
    vad = EnergyVad()
    quiet_after(vad, pcm(np.concatenate([room(1.0, -55), tone(0.5, -20), room(0.2, -55, 2)])))
    before = vad.quiet
    quiet_after(vad, pcm(np.concatenate([knock, room(0.1, -55, 3)])))
    assert vad.quiet == pytest.approx(before + 0.13, abs=0.011)  # the knock did not end the pause
    # after digital silence (the echo gate blanked the narrator), a phrase is not the room
    fresh = EnergyVad()
    quiet_after(fresh, bytes(RATE * 2))
    assert fresh.floor == -60.0
    soft_syllable = np.concatenate([tone(0.3, -20), tone(0.15, -34), tone(0.3, -20)])
    assert min(quiet_after(fresh, pcm(soft_syllable))[5:]) == 0.0  # one word, never a pause


def test_the_table_recognizer_ends_the_utterance_on_the_detectors_pause(
        ko_model: Any, ko_pcm: dict[str, bytes]) -> None:
    rec = table_recognizer(ko_model, ["안녕하세요", "감사합니다"])
    audio = pad(ko_pcm["감사합니다"], 0.5, 1.0)
    end = 0.5 + len(ko_pcm["감사합니다"].rstrip(b"\0")) / 32000  # the end of the last sample
    finals = [e for c in PcmSource(audio, chunk_ms=20).chunks() for e in rec.feed(c)
              if isinstance(e, Final)]
    assert [(f.text, f.cut) for f in finals] == [("감사합니다", True)]
    assert 0.1 <= finals[0].t - end < 0.2  # 100 ms of quiet, not Vosk's half second


def test_a_cut_phrase_that_means_nothing_yet_is_read_with_what_follows() -> None:
    def understand(text: str) -> str | None:
        return text if text == "выставляю номер пять" else None

    d = StableDecider(understand)
    assert d.observe(Final("выставляю", (), 1.0, cut=True)) is None  # a pause mid-phrase
    got = d.observe(Final("номер пять", (), 2.0))
    assert got is not None and got.text == "выставляю номер пять"
    assert d.observe(Final("выставляю", (), 3.0)) is None  # Vosk's own end: not carried
    assert d.observe(Final("номер пять", (), 4.0)) is None
