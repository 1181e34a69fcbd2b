"""Building a pack: rendering, skipping what is up to date, re-rendering re-worded phrases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.arguments import VoicesBuildArgs
from narrator.voice import cli
from narrator.voice.build import build_pack
from narrator.voice.pack import VoicePack, read_index


def manifest(tmp_path: Path, phrases: dict[str, str]) -> Path:
    path = tmp_path / "src" / "manifest.json"
    path.parent.mkdir(exist_ok=True)
    data = {"lang": "uk", "name": "t", "numbers": [1, 2], "phrases": phrases}
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return path


def test_build_skips_unchanged_and_rerenders_changed(tmp_path: Path) -> None:
    phrases = {"num.1": "один", "num.2": "два", "leaves.{n}": "Гравець номер {num} залишає стіл"}
    src = manifest(tmp_path, phrases)
    out = tmp_path / "pack"
    first = build_pack(src, out)
    assert (first.rendered, first.skipped) == (4, 0)
    assert (out / "manifest.json").is_file()
    pack = VoicePack.load(out)
    report = pack.check()
    assert not report.missing and not report.broken  # every clip of this (short) manifest
    clip = pack.clip("leaves.2")
    assert clip is not None and clip.rate == 22050

    again = build_pack(src, out)
    assert (again.rendered, again.skipped) == (0, 4)

    phrases["num.2"] = "двоє"  # re-worded: the clips that say it are stale
    src = manifest(tmp_path, phrases)
    changed = build_pack(src, out)
    assert changed.rendered == 2  # num.2 and leaves.2
    forced = build_pack(src, out, force=True)
    assert forced.rendered == 4

    del phrases["leaves.{n}"]
    build_pack(manifest(tmp_path, phrases), out)
    assert not (out / "clips" / "leaves.1.wav").exists()
    assert set(read_index(out / "clips")) == {"num.1", "num.2"}


def test_build_cli_quiet_prints_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    src_root = tmp_path / "voices"
    (src_root / "uk").mkdir(parents=True)
    data = {"lang": "uk", "name": "t", "numbers": [1, 1], "phrases": {"accepted": "Прийнято"}}
    (src_root / "uk" / "manifest.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    monkeypatch.setattr(cli, "default_voices_root", lambda: src_root)
    args = VoicesBuildArgs(langs=("uk",), quiet=True)
    assert cli.run_build(args) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    assert (src_root / "uk" / "clips" / "accepted.wav").is_file()
