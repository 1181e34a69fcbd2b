"""Writing a review: the page, and for a session the slices and the recording beside it.

The folder and every file in it are readable by their owner only — the page shows the cards.
Slices are cut once per moment: the entries of one moment (a phrase, the «Принято» it drew,
the nomination) share a file.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from narrator.errors import NarratorError
from narrator.outputs import private_folder, write_private
from narrator.review.notes import page_text
from narrator.review.page import Heading, render
from narrator.review.record import Record
from narrator.review.slices import Cutter, Span
from narrator.review.timeline import Entry, timeline
from narrator.voice.manifest import default_manifest

PAGE = "index.html"
SLICES = "slices"
MIC_COPY = "mic.wav"
#: the kinds of entries a slice is cut for: what is disputed (the narrator's own lines and
#: the steps are heard in the whole recording, from their time)
SLICED = frozenset({"heard", "press", "nomination", "hand", "vote", "foul", "removal",
                    "refused", "undo", "mark", "end"})


@dataclass(frozen=True)
class Written:
    """What a review wrote."""

    page: Path
    entries: list[Entry]
    slices: int
    bytes: int


def _private_dir(path: Path) -> None:
    try:
        private_folder(path)
    except OSError as e:
        raise NarratorError(f"{path}: cannot make the folder ({e.strerror})") from None


def _private_text(path: Path, text: str) -> None:
    write_private(path, text)


def _place_mic(mic: Path, out: Path) -> None:
    """The whole recording beside the page: a hard link where it can be (no second copy of an
    hour's 115 MB), else a copy."""
    try:
        os.link(mic, out)
    except OSError:
        shutil.copyfile(mic, out)
    os.chmod(out, 0o600)


def _cut(record: Record, entries: list[Entry], out: Path, before: float,
         after: float) -> dict[int, tuple[str, float, float]]:
    assert record.mic is not None
    _private_dir(out / SLICES)
    made: dict[Span, str] = {}
    slices: dict[int, tuple[str, float, float]] = {}
    with Cutter(record.mic) as cutter:
        for entry in entries:
            if entry.kind not in SLICED:
                continue
            span = cutter.span(entry.t, record.origin, before, after)
            if span.last <= span.first:
                continue  # past the end of the recording
            if span not in made:
                made[span] = f"{SLICES}/s{len(made) + 1}.wav"
                cutter.write(span, out / made[span])
            slices[entry.n] = (made[span], span.start, span.seconds)
    return slices


def write_review(record: Record, out: Path, *, before: float = 3.0,
                 after: float = 4.0) -> Written:
    """The review of ``record`` in the new folder ``out``."""
    if out.exists():
        raise NarratorError(f"{out}: already exists (remove it, or give another -o)")
    manifest = default_manifest(record.lang)
    entries = timeline(record.game, record.inputs, manifest, lang=record.lang,
                       start=record.origin)
    _private_dir(out)
    slices: dict[int, tuple[str, float, float]] = {}
    if record.mic is not None:
        _place_mic(record.mic, out / MIC_COPY)
        slices = _cut(record, entries, out, before, after)
    game = record.game
    lang = record.lang
    head = Heading(page_text("title", lang, name=record.path.name), game.rules.name, game.seats,
                   dict(game.names), dict(game.roles),
                   MIC_COPY if record.mic is not None else None,
                   page_text("resumed", lang, n=record.before) if record.before else "",
                   lang=lang)
    page = out / PAGE
    _private_text(page, render(head, entries, record.origin, slices))
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    return Written(page, entries, len(set(s for s, _, _ in slices.values())), size)
