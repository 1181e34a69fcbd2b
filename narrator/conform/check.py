"""Each script through each front end, with kills: the outcomes ``narrator conform`` prints."""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.conform.assist import Assist
from narrator.conform.compare import MISSING, first_difference, without
from narrator.conform.hostless import Hostless
from narrator.conform.pads import Pads
from narrator.conform.player import UNCOMPARED, Stuck
from narrator.conform.reference import Reference, build_reference
from narrator.conform.replayed import Replay
from narrator.conform.runs import FrontEnd, Run
from narrator.errors import NarratorError
from narrator.replay.script import TableScript

#: every front end, in the order they are compared
FRONT_ENDS: dict[str, FrontEnd] = {fe.name: fe for fe in (Replay(), Assist(), Hostless(), Pads())}
#: what a resumed game cannot give back: the phrases the killed process said
AFTER_A_KILL = "said (what the killed process said is not in its journal)"


@dataclass(frozen=True)
class KillPoint:
    """The journal cut after ``line`` lines; ``torn``: half the next line kept too."""

    line: int
    torn: bool

    def __str__(self) -> str:
        return f"{self.line}{' torn' if self.torn else ''}"


@dataclass
class Outcome:
    """One script through one front end."""

    script: str
    mode: str
    result: str  # same, differs, n/a
    key: str | None = None  # the first differing path
    replay: Any = None  # its value in the replay's protocol …
    got: Any = None  # … and in the front end's
    why: str | None = None  # n/a: why not; differs: what stopped the front end, if anything
    left_out: list[str] = field(default_factory=list)
    kills: list[KillPoint] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # inputs the front end did not take

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"script": self.script, "mode": self.mode, "result": self.result,
                               "key": self.key, "left_out": self.left_out,
                               "kills": [{"line": k.line, "torn": k.torn} for k in self.kills]}
        if self.result == "differs" and self.key not in ("(stuck)", "(error)"):
            # a value one side lacks is null there
            out.update(replay=None if self.replay is MISSING else self.replay,
                       got=None if self.got is MISSING else self.got)
        if self.why is not None:
            out["why"] = self.why
        if self.errors:
            out["errors"] = self.errors
        return out


def cut(journal: Path, kill: KillPoint) -> None:
    """Keep the first ``kill.line`` lines of ``journal`` (and half the next when torn): what a
    process killed there leaves on disk."""
    lines = journal.read_bytes().splitlines(keepends=True)
    kept = b"".join(lines[: kill.line])
    if kill.torn and kill.line < len(lines):
        kept += lines[kill.line][: max(1, len(lines[kill.line]) // 2)]
    journal.write_bytes(kept)


def kill_points(rng: random.Random, lines: int, count: int) -> list[KillPoint]:
    """``count`` points in a journal of ``lines`` lines, in order, drawn from ``rng``."""
    places = range(1, max(1, lines))
    picked = sorted(rng.sample(places, min(count, len(places))))
    return [KillPoint(line, rng.random() < 0.5) for line in picked]


def _compare(ref: Reference, run: Run, left_out: set[str], *,
             killed: bool) -> tuple[str, Any, Any] | None:
    """The first difference from the replay's protocol, but for what the front end left out
    (in any of its runs: a resumed game keeps what was left out before the kill)."""
    ignored = {UNCOMPARED[why] for why in left_out if why in UNCOMPARED}
    if killed:
        ignored.add("said")
    return first_difference(without(ref.protocol, ignored), without(run.protocol, ignored))


def conform_one(ref: Reference, front: FrontEnd, *, kills: int, seed: int,
                folder: Path) -> Outcome:
    """``ref``'s game through ``front``, killed ``kills`` times at points drawn from ``seed``."""
    name = ref.script.path
    out = Outcome(name, front.name, "same")
    why = front.why_not(ref)
    if why is not None:
        out.result, out.why = "n/a", why
        return out
    journal = folder / f"{front.name}.journal.jsonl"
    left_out: set[str] = set()
    try:
        run = front.start(ref, journal)
        runs = [(run, False)]
        rng = random.Random(f"{seed}:{Path(name).name}:{front.name}")
        out.kills = kill_points(rng, len(journal.read_bytes().splitlines()), kills)
        for kill in out.kills:
            if kill.line >= len(journal.read_bytes().splitlines()):
                continue
            cut(journal, kill)
            runs.append((front.resume(ref, journal), True))
    except Stuck as e:
        out.result, out.why = "differs", str(e)
        out.key = "(stuck)"
        return out
    except NarratorError as e:
        out.result, out.why, out.key = "differs", f"not taken: {e}", "(error)"
        return out
    for run, _ in runs:
        left_out |= run.left_out
        out.errors.extend(run.errors)
    for run, killed in runs:
        found = _compare(ref, run, left_out, killed=killed)
        if found is not None and out.result == "same":
            out.result = "differs"
            out.key, out.replay, out.got = found
    if len(runs) > 1:
        left_out.add(AFTER_A_KILL)
    out.left_out = sorted(left_out)
    return out


def conform(script: TableScript, modes: list[str], *, kills: int = 0,
            seed: int = 0) -> list[Outcome]:
    """``script`` through each of ``modes`` (names of :data:`FRONT_ENDS`)."""
    ref = build_reference(script)
    with tempfile.TemporaryDirectory(prefix="narrator-conform-") as tmp:
        return [conform_one(ref, FRONT_ENDS[mode], kills=kills, seed=seed, folder=Path(tmp))
                for mode in modes]
