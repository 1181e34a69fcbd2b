"""The review's folder: slices cut at the right samples, owner-only files, one-line errors."""

from __future__ import annotations

import json
import re
import wave
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.session import MIC
from narrator.cli import main
from narrator.review.page import BANNER
from narrator.review.slices import span_of
from narrator.review.write import SLICED
from tests.review.recorded import START, Recorded
from tests.review.test_review_timeline import journal_of_a_whole_game

ROW = re.compile(r'<tr id="e-\d+".*?</tr>', re.S)
KIND = re.compile(r'data-kind="(\w+)"')
AT = re.compile(r'data-at="([\d.]+)"')
AUDIO = re.compile(r'<audio [^>]*src="([^"]+)" data-start="([\d.]+)" data-seconds="([\d.]+)"')


def rows_of(page: str) -> list[tuple[str, str, str, str, str]]:
    """Each row's kind, time and slice (its file, start and length; empty without one)."""
    found = []
    for row in ROW.findall(page):
        kind, at = KIND.search(row), AT.search(row)
        assert kind and at
        audio = AUDIO.search(row)
        found.append((kind[1], at[1], *(audio.groups() if audio else ("", "", ""))))
    return found


def _frames(path: Path) -> tuple[int, bytes]:
    with wave.open(str(path), "rb") as w:
        return w.getframerate(), w.readframes(w.getnframes())


def test_each_slice_is_the_recording_around_its_moment(recorded: Recorded, review_of: Any
                                                       ) -> None:
    out = review_of(recorded.folder, "--before", "2.5", "--after", "3")
    rate, whole = _frames(recorded.folder / MIC)
    assert whole == recorded.audio  # the session's WAV is the microphone's, gap-free
    rows = rows_of((out / "index.html").read_text("utf-8"))
    inputs = [json.loads(line) for line in (recorded.folder / "inputs.jsonl").open()]
    heard = [e["t"] - START for e in inputs if e["type"] == "heard"]
    sliced = [r for r in rows if r[2]]
    assert {r[0] for r in sliced} == {r[0] for r in rows} & SLICED and len(sliced) > 20
    for _, at, src, start, seconds in sliced:
        first = round(float(at) * rate) - round(2.5 * rate)
        last = min(len(whole) // 2, round(float(at) * rate) + 3 * rate)
        assert float(start) == pytest.approx(max(0, first) / rate, abs=1e-6)
        assert float(seconds) == pytest.approx((last - max(0, first)) / rate, abs=1e-6)
        got_rate, got = _frames(out / src)
        assert got_rate == rate and got == whole[2 * max(0, first):2 * last]
    assert sorted({round(float(r[1]), 2) for r in sliced if r[0] == "heard"}) == sorted(
        {round(t, 2) for t in heard})
    # one moment, one file: the phrase, its «Принято» and the nomination share theirs
    assert len({r[2] for r in sliced}) == len({r[1] for r in sliced})
    _, mic_copy = _frames(out / "mic.wav")
    assert mic_copy == whole


def test_a_span_stays_within_the_recording() -> None:
    assert span_of(1.0, 0.0, before=3, after=4, rate=100, frames=300).first == 0
    span = span_of(2.5, 0.0, before=1, after=4, rate=100, frames=300)
    assert (span.first, span.last, span.start, span.seconds) == (150, 300, 1.5, 1.5)
    late = span_of(9.0, 0.0, before=1, after=1, rate=100, frames=300)
    assert late.first == late.last == 300  # past the end: nothing to cut


def test_the_review_is_readable_by_its_owner_only_and_says_why(recorded: Recorded,
                                                              review_of: Any) -> None:
    out = review_of(recorded.folder)
    assert out.stat().st_mode & 0o777 == 0o700
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(files) > 10 and all(p.stat().st_mode & 0o777 == 0o600 for p in files)
    assert (out / "slices").stat().st_mode & 0o777 == 0o700
    page = (out / "index.html").read_text("utf-8")
    assert BANNER in page and "Шериф" in page  # the cards, and the warning
    # the table was dealt and played to day 1 before the recording began: the page says so
    history = json.loads((recorded.folder / "inputs.jsonl").open().readline())["history"]
    assert history and f"после первых {len(history)} действий игры" in page
    assert "http://" not in page and "https://" not in page  # nothing from the network


def test_a_journal_review_has_no_audio_and_escapes_the_nicknames(tmp_path: Path,
                                                                  review_of: Any) -> None:
    journal = tmp_path / "game.journal.jsonl"
    journal_of_a_whole_game(journal)
    lines = journal.read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    header["names"]["1"] = "<script>alert(1)</script>"
    journal.write_text("\n".join([json.dumps(header, ensure_ascii=False), *lines[1:]]) + "\n")
    out = review_of(journal)
    page = (out / "index.html").read_text("utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<audio" not in page and not (out / "slices").exists()
    assert "отмена: «фол: 2» взято назад" in page and "оценки: +0.3, лучший игрок" in page


def _refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["review", *args]) != 0
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1
    return err


def test_bad_sources_and_an_existing_out_are_one_line(tmp_path: Path, recorded: Recorded,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    assert "not a recorded session" in _refused(capsys, str(folder), "-o", str(tmp_path / "a"))
    broken = tmp_path / "j.jsonl"
    broken.write_text('{"journal": 2, "rules": "crime-time"}\n')
    err = _refused(capsys, str(broken), "-o", str(tmp_path / "b"))
    assert err.startswith(f"narrator: {broken}:1:")
    err = _refused(capsys, str(tmp_path / "none"), "-o", str(tmp_path / "c"))
    assert "no such session folder or journal" in err
    err = _refused(capsys, str(recorded.folder), "-o", str(folder))
    assert f"{folder}: already exists" in err and "another -o" in err
    assert "0 or more" in _refused(capsys, str(recorded.folder), "-o", str(tmp_path / "d"),
                                   "--before", "-1")
    assert not any((tmp_path / x).exists() for x in "abcd")
