"""Voice packs: every clip present and sane, check() reports, fallback synthesis, the CLI."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from narrator.arguments import VoicesCheckArgs
from narrator.audio.clip import AudioClip
from narrator.errors import NarratorError
from narrator.voice import cli
from narrator.voice.pack import MAX_SECONDS, MIN_RMS, MIN_SECONDS, VoicePack


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_key_has_a_sane_clip(voices_root: Path, lang: str) -> None:
    pack = VoicePack.load(voices_root / lang, synthesize=False)
    assert len(pack.keys()) > 400
    for key in pack:
        clip = pack.clip(key)
        assert clip is not None, key
        assert clip.rms() > MIN_RMS, key
        assert MIN_SECONDS <= clip.duration <= MAX_SECONDS, (key, clip.duration)
    report = pack.check()
    assert report.ok, report.format()
    assert not report.stale


def small_pack(tmp_path: Path, voices_root: Path, keys: list[str]) -> Path:
    """A pack folder with a manifest of ``keys`` copied from the ru pack (clips included)."""
    ru = VoicePack.load(voices_root / "ru")
    texts = {k: ru.text(k) for k in keys}
    pack = tmp_path / "pack"
    (pack / "clips").mkdir(parents=True)
    manifest = {"lang": "ru", "name": "t", "numbers": [1, 1], "phrases": texts}
    (pack / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), "utf-8")
    for k in keys:
        shutil.copyfile(ru.clip_path(k), pack / "clips" / f"{k}.wav")
    return pack


def test_check_reports_missing_unreadable_silent_and_long(
    tmp_path: Path, voices_root: Path
) -> None:
    keys = ["accepted", "withdrawn", "thanks", "ten_seconds", "tie"]
    pack_dir = small_pack(tmp_path, voices_root, keys)
    (pack_dir / "clips" / "withdrawn.wav").unlink()
    (pack_dir / "clips" / "thanks.wav").write_bytes(b"RIFF nonsense")
    AudioClip.silence(1.0, 22050).write_wav(pack_dir / "clips" / "ten_seconds.wav")
    AudioClip(np.full(22050 * 9, 3000, dtype=np.int16), 22050).write_wav(
        pack_dir / "clips" / "tie.wav"
    )
    report = VoicePack.load(pack_dir).check()
    assert report.missing == ["withdrawn"]
    assert list(report.unreadable) == ["thanks"]
    assert report.silent == ["ten_seconds"]
    assert report.too_long == ["tie"]
    assert not report.ok
    text = report.format()
    assert "missing (1): withdrawn" in text and "unreadable: thanks" in text


def test_missing_clip_falls_back_to_synthesis(tmp_path: Path, voices_root: Path) -> None:
    pack_dir = small_pack(tmp_path, voices_root, ["accepted", "withdrawn"])
    (pack_dir / "clips" / "withdrawn.wav").unlink()
    with VoicePack.load(pack_dir) as pack:
        assert pack.clip("withdrawn") is None
        clip = pack.get("withdrawn")
        assert clip.rms() > MIN_RMS
        assert MIN_SECONDS <= clip.duration <= MAX_SECONDS
        assert pack.get("withdrawn") is clip  # cached: synthesized once
        assert pack.get("accepted") is pack.clip("accepted")
    with pytest.raises(KeyError):
        pack.clip("no_such_key")


def test_no_fallback_when_disabled(tmp_path: Path, voices_root: Path) -> None:
    pack_dir = small_pack(tmp_path, voices_root, ["accepted"])
    (pack_dir / "clips" / "accepted.wav").unlink()
    with pytest.raises(NarratorError, match="no clip"):
        VoicePack.load(pack_dir, synthesize=False).get("accepted")


def full_pack(tmp_path: Path, voices_root: Path) -> Path:
    """A copy of the whole ru pack: every key the narrator says, with its clip."""
    return Path(shutil.copytree(voices_root / "ru", tmp_path / "full"))


def test_check_cli_exit_codes(
    tmp_path: Path, voices_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack_dir = full_pack(tmp_path, voices_root)
    assert cli.run_check(VoicesCheckArgs(pack=str(pack_dir))) == 0
    assert "complete" in capsys.readouterr().out
    (pack_dir / "clips" / "withdrawn.wav").unlink()
    assert cli.run_check(VoicesCheckArgs(pack=str(pack_dir))) == 1
    assert "withdrawn" in capsys.readouterr().out
    (pack_dir / "manifest.json").write_text("{", "utf-8")
    with pytest.raises(NarratorError, match=r"manifest\.json"):
        cli.run_check(VoicesCheckArgs(pack=str(pack_dir)))
    with pytest.raises(NarratorError, match="not found"):
        cli.run_check(VoicesCheckArgs(pack=str(tmp_path / "nowhere")))


def test_check_through_the_narrator_command(tmp_path: Path, voices_root: Path) -> None:
    from narrator.cli import main

    pack_dir = full_pack(tmp_path, voices_root)
    assert main(["voices", "check", str(pack_dir)]) == 0
    (pack_dir / "manifest.json").write_text("[]", "utf-8")
    assert main(["voices", "check", str(pack_dir)]) == 2


def test_a_manifest_lacking_what_the_narrator_says_is_not_complete(
    tmp_path: Path, voices_root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack_dir = small_pack(tmp_path, voices_root, ["accepted", "withdrawn"])
    report = VoicePack.load(pack_dir).check()
    assert not report.missing and not report.broken  # every clip it names is fine…
    assert "who_for.15" in report.lacking and "thanks" in report.lacking  # …but it is short
    assert "accepted" not in report.lacking
    assert not report.ok
    assert cli.run_check(VoicesCheckArgs(pack=str(pack_dir))) == 1
    out = capsys.readouterr().out
    assert "not in the manifest" in out and "complete" not in out


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_default_manifests_hold_every_key_the_narrator_says(lang: str) -> None:
    from narrator.voice.keys import spoken_keys
    from narrator.voice.manifest import default_voices_root, load_manifest

    manifest = load_manifest(default_voices_root() / lang)
    assert [k for k in spoken_keys() if k not in manifest] == []


def _wav(path: Path, channels: int, rate: int, width: int = 2) -> None:
    """A hand-made WAV header (``wave`` refuses to write these)."""
    import struct

    data = b"\x10\x00" * 4000
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * channels * width, channels * width,
                      width * 8)
    body = (b"WAVEfmt " + struct.pack("<I", 16) + fmt + b"data" + struct.pack("<I", len(data))
            + data)
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)


@pytest.mark.parametrize(("channels", "rate", "width"), [(0, 22050, 2), (1, 0, 2), (2, 0, 2),
                                                         (1, 0, 3), (0, 0, 1)])
def test_a_clip_of_no_channels_or_no_rate_is_reported_by_name(
    tmp_path: Path, voices_root: Path, capsys: pytest.CaptureFixture[str],
    channels: int, rate: int, width: int,
) -> None:
    pack_dir = full_pack(tmp_path, voices_root)
    _wav(pack_dir / "clips" / "thanks.wav", channels, rate, width)
    report = VoicePack.load(pack_dir).check()
    assert list(report.unreadable) == ["thanks"]
    assert cli.run_check(VoicesCheckArgs(pack=str(pack_dir))) == 1
    assert "unreadable: thanks" in capsys.readouterr().out
    with pytest.raises(NarratorError, match=r"thanks\.wav"):
        AudioClip.read_wav(pack_dir / "clips" / "thanks.wav")
