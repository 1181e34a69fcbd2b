"""Every reader at its limits: the wall time and the peak memory of the command that reads it.

Each case is a file made at (or past) a reader's limits — the costliest content a limit lets
in — and read by the command a user would run, in a process of its own (its peak RSS from the
kernel, ``wait4``). Targets: within 10 s and 300 MB each — a result, or one line naming the
limit. The files of 64 MB, the readers' old limit, are the ones that once took minutes and GBs.

    .venv/bin/python scripts/bench_inputs.py [--quick] [--json] [--only NAME,…]
    .venv/bin/python scripts/bench_inputs.py --against OTHER_CHECKOUT   # the same files there

``--quick`` runs one case of each reader, its file a twentieth of its size (a smoke run);
``--against DIR`` runs the commands with another checkout's package (before and after a
change, on the same files).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from narrator.audio.session import INPUT_LIMITS  # noqa: E402
from narrator.club import file as club  # noqa: E402
from narrator.grammar import MAX_PHRASE  # noqa: E402
from narrator.host.journal import LIMITS as JOURNAL_LIMITS  # noqa: E402
from narrator.host.journal import Journal  # noqa: E402
from narrator.replay.script import LIMITS as SCRIPT_LIMITS  # noqa: E402
from narrator.replay.script import MAX_SAY, ScriptLine, parse_table_script  # noqa: E402
from narrator.replay.table import ScriptReplay  # noqa: E402

SECONDS_TARGET = 10.0
MB_TARGET = 300.0
TIMEOUT = 600.0

HEADER = '{"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}}\n'
ROLES = {"1": "sheriff", "3": "don", "5": "mafia", "9": "mafia"}
OLD_LIMIT = 64 * 1024 * 1024 - 4096  # what the readers took before: 64 MB


def endless_speakers() -> list[str]:
    """A game without end (nobody nominated, the mafia always misses) as the order of its
    lines: each day's speakers from the day's opener, then a night."""
    out: list[str] = []
    for day in range(10_000):
        opener = day % 10 + 1
        out += [str((opener - 1 + i) % 10 + 1) for i in range(10)] + ["night"]
    return out


def script_of(size: int, say: str | None) -> str:
    """An endless game's script of ``size`` bytes at most, every speech saying ``say``."""
    parts = [HEADER]
    total = len(HEADER.encode())
    for who in endless_speakers():
        if who == "night":
            line = '{"night": {}}\n'
        elif say is None:
            line = f'{{"speech": {who}}}\n'
        else:
            line = f'{{"speech": {who}, "say": {say}}}\n'
        total += len(line.encode())
        if total > size or len(parts) >= SCRIPT_LIMITS.max_lines:
            break
        parts.append(line)
    return "".join(parts)


def say_of(phrases: int, text: str) -> str:
    return json.dumps([[round(i * 0.25, 2), text] for i in range(phrases)], ensure_ascii=False,
                      separators=(",", ":"))


# -- the cases -------------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    make: Callable[[Path, float], list[str]]  # (folder, scale) → the command's arguments
    smoke: bool = False  # one case of each reader runs in --quick


def _refusals(folder: Path, scale: float) -> list[str]:
    # the costliest phrase: a withdrawal the engine refuses, each kept for the protocol
    phrase = ("снимаю 5 " * MAX_PHRASE)[:MAX_PHRASE]
    path = folder / "refusals.table.jsonl"
    path.write_text(script_of(int(SCRIPT_LIMITS.max_bytes * scale), say_of(MAX_SAY, phrase)))
    return ["replay", str(path), "--json"]


def _phrases(folder: Path, scale: float) -> list[str]:
    path = folder / "phrases.table.jsonl"
    path.write_text(script_of(int(SCRIPT_LIMITS.max_bytes * scale), say_of(MAX_SAY, "а")))
    return ["replay", str(path), "--json"]


def _lines(folder: Path, scale: float) -> list[str]:
    path = folder / "lines.table.jsonl"
    text = script_of(SCRIPT_LIMITS.max_bytes, None)
    rows = text.splitlines(keepends=True)[: max(2, int(SCRIPT_LIMITS.max_lines * scale))]
    path.write_text("".join(rows))
    return ["replay", str(path), "--json"]


def _old_speech(folder: Path, scale: float) -> list[str]:
    item = '[1.0, "выставляю пятого"], '
    n = int((OLD_LIMIT - 200) * scale) // len(item.encode())
    path = folder / "old-speech.table.jsonl"
    path.write_text(HEADER + '{"speech": 1, "say": [' + item * n + '[2.0, "спасибо"]]}\n')
    return ["replay", str(path), "--json"]


def _old_phrase(folder: Path, scale: float) -> list[str]:
    n = int((OLD_LIMIT - 200) * scale) // len("выставляю пятого ".encode())
    path = folder / "old-phrase.table.jsonl"
    path.write_text(HEADER + '{"speech": 1, "say": [[1.0, "' + "выставляю пятого " * n
                    + '"]]}\n')
    return ["replay", str(path), "--json"]


def _old_lines(folder: Path, scale: float) -> list[str]:
    game = (ROOT / "examples" / "car-crash.table.jsonl").read_text()
    rows = [r for r in game.splitlines() if r and not r.startswith("#")]
    body = "\n".join(rows[1:]) + "\n"
    path = folder / "old-lines.table.jsonl"
    path.write_text(rows[0] + "\n" + body * int(OLD_LIMIT * scale // len(body.encode())))
    return ["replay", str(path), "--json"]


def _journal_game(folder: Path, scale: float) -> list[str]:
    """The journal of an endless game, to its line limit: every line an action to replay."""
    path = folder / "game.journal.jsonl"
    script = parse_table_script(HEADER, "endless")
    lines = max(100, int(JOURNAL_LIMITS.max_lines * scale))
    for n, who in enumerate(endless_speakers()[: lines // 2], start=2):  # 2-3 lines a speech
        if who == "night":
            script.inputs.append(ScriptLine(n, "night", {"shots": {}, "don": None,
                                                         "sheriff": None}))
        else:
            script.inputs.append(ScriptLine(n, "speech", int(who), None))
    game = ScriptReplay(script).game
    journal = Journal.for_game(path, game, fsync=False)
    try:
        ScriptReplay(script, journal=journal).run()
    finally:
        journal.close()
    rows = path.read_text().splitlines(keepends=True)[:lines]
    path.write_text("".join(rows))
    return ["resume", str(path), "--json"]


def _old_journal(folder: Path, scale: float) -> list[str]:
    """A game's journal, then timer marks (entries every reader reads) up to the old limit."""
    args = _journal_game(folder, scale)
    path = Path(args[1])
    mark = '{"type":"timer","t":99999.0,"name":"speech","started":99999.0}\n'
    with path.open("a") as f:
        f.write(mark * int((OLD_LIMIT * scale - path.stat().st_size) // len(mark)))
    return args


def _journal_objects(folder: Path, scale: float) -> list[str]:
    """A journal of console presses, each holding as many empty objects as fit: each one a
    Python object or two to read and keep, the most a journal's bytes can cost."""
    head = json.dumps({"journal": 2, "rules": "crime-time", "seats": 10, "lang": "ru",
                       "mode": "play", "settings": {}, "roles": ROLES}) + "\n"
    press = ('{"type":"pad","t":1.0,"seat":1,"do":"seen","junk":['
             + ",".join(["{}"] * 40) + "]}\n")
    lines = int((JOURNAL_LIMITS.max_bytes * scale - len(head)) // len(press))
    path = folder / "objects.journal.jsonl"
    path.write_text(head + press * min(lines, JOURNAL_LIMITS.max_lines - 1))
    return ["resume", str(path), "--json"]


def _session(folder: Path, lines: int, line: str) -> Path:
    where = folder / "session"
    where.mkdir()
    (where / "session.json").write_text(json.dumps({"format": 2, "start": 0.0, "rate": 16000,
                                                    "width": 2, "channels": 1}) + "\n")
    import wave

    with wave.open(str(where / "mic.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
    table = {"type": "table", "t": 0.0, "rules": "crime-time", "seats": 10, "lang": "ru",
             "chunk_ms": 20, "roles": ROLES, "history": []}
    with (where / "inputs.jsonl").open("w") as f:
        f.write(json.dumps(table, separators=(",", ":")) + "\n")
        for i in range(lines):
            t = i * 0.02
            f.write(line.replace("T0", f"{t:.6f}").replace("T1", f"{t + 0.02:.6f}"))
    return where


def _session_lines(folder: Path, scale: float) -> list[str]:
    lines = int((INPUT_LIMITS.max_lines - 1) * scale)
    where = _session(folder, lines, '{"type":"gated","t":T0,"end":T1}\n')
    return ["export", "--format", "mafiaratings", str(where), "-o", os.devnull]


def _old_session(folder: Path, scale: float) -> list[str]:
    line = '{"type":"gated","t":T0,"end":T1}\n'
    written = len(line.replace("T0", "99999.999999").replace("T1", "99999.999999"))
    where = _session(folder, int(OLD_LIMIT * scale) // written, line)
    return ["export", "--format", "mafiaratings", str(where), "-o", os.devnull]


def _session_objects(folder: Path, scale: float) -> list[str]:
    gated = '{"type":"gated","t":T0,"end":T1,"junk":[' + ",".join(["{}"] * 40) + "]}\n"
    written = len(gated.replace("T0", "9999.999999").replace("T1", "9999.999999"))
    lines = int(INPUT_LIMITS.max_bytes * scale - 300) // written
    where = _session(folder, min(lines, INPUT_LIMITS.max_lines - 1), gated)
    return ["export", "--format", "mafiaratings", str(where), "-o", os.devnull]


def _club(folder: Path, scale: float) -> list[str]:
    # the costliest TOML a size lets in: tables of tables (one dict each), then a bad option
    path = folder / "club.toml"
    body = "".join(f"[t{i}]\n" for i in range(int(club.MAX_BYTES * scale) // 8))
    path.write_text(body[: int(club.MAX_BYTES * scale) - 20])
    code = ("import sys\nfrom narrator.errors import NarratorError\n"
            "from narrator.club.file import read_club\n"
            "try:\n    read_club(sys.argv[1])\nexcept NarratorError as e:\n"
            "    print(f'narrator: {e}', file=sys.stderr)\n    sys.exit(2)\n")
    return ["-c", code, str(path)]


def _phrase(folder: Path, scale: float) -> list[str]:
    return ["parse", "--json", ("выставляю пятого " * MAX_PHRASE)[: int(MAX_PHRASE * scale)]]


CASES = [
    Case("script: 1 MB of refused withdrawals, 200 a speech of 2,000 characters", _refusals,
         smoke=True),
    Case("script: 1 MB of phrases, 200 a speech", _phrases),
    Case("script: 10,000 lines of speeches and nights", _lines),
    Case("script: one speech of 1.4 million phrases (64 MB)", _old_speech),
    Case("script: one 64 MB phrase", _old_phrase),
    Case("script: 64 MB of a game's lines, over and over", _old_lines),
    Case("journal: 50,000 lines of a game (resume --json)", _journal_game, smoke=True),
    Case("journal: 4 MB of presses holding objects", _journal_objects),
    Case("journal: 64 MB, a game then timer marks", _old_journal),
    Case("session: 200,000 lines (export)", _session_lines, smoke=True),
    Case("session: 16 MB of events holding objects", _session_objects),
    Case("session: 64 MB of the echo gate's chunks", _old_session),
    Case("club file: 64 KB of tables", _club, smoke=True),
    Case("phrase: 2,000 characters (parse --json)", _phrase, smoke=True),
]


#: runs its arguments as a command and prints the command's exit code and peak RSS (KB). A
#: process's peak RSS counts what it held before it exec'd: started from this small one, not
#: from the benchmark (which has just held a 64 MB file), it is the command's own.
_LAUNCH = """import json, os, sys
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(json.dumps([os.waitstatus_to_exitcode(status), usage.ru_maxrss]))
"""


def measure(args: list[str], package: Path) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit code, last line of stderr) of ``python -m narrator ARGS``."""
    argv = [sys.executable, *(args if args[0] == "-c" else ["-m", "narrator", *args])]
    env = {**os.environ, "PYTHONPATH": str(package)}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _LAUNCH, *argv], stdin=subprocess.DEVNULL,
                          capture_output=True, env=env, cwd=package, timeout=TIMEOUT)
    seconds = time.perf_counter() - start
    code, kb = json.loads(proc.stdout)
    said = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    return seconds, kb / 1024, code, (said[-1] if said else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a case of each reader, a twentieth of its size: a smoke run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--only", metavar="WORDS", help="the cases whose name has one of these")
    parser.add_argument("--against", metavar="DIR", type=Path, default=ROOT,
                        help="run another checkout's narrator on the same files")
    args = parser.parse_args(argv)
    scale = 0.05 if args.quick else 1.0
    words = args.only.split(",") if args.only else None
    figures: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="narrator-bench-inputs-") as tmp:
        for n, case in enumerate(CASES):
            if (words and not any(w in case.name for w in words)) or (args.quick
                                                                        and not case.smoke):
                continue
            folder = Path(tmp) / str(n)
            folder.mkdir()
            command = case.make(folder, scale)
            seconds, mb, code, said = measure(command, args.against.resolve())
            # a result, or one line naming the limit (never a traceback)
            answered = code == 0 or (code == 2 and said.startswith("narrator: "))
            ok = seconds < SECONDS_TARGET and mb < MB_TARGET and answered
            said = said.replace(f"{folder}{os.sep}", "")
            answer = "a result" if code == 0 else said[:110] if code == 2 else f"exit {code}"
            figures.append({"name": case.name, "value": f"{seconds:.1f} s, {mb:.0f} MB",
                            "unit": "", "target": f"< {SECONDS_TARGET:g} s, < {MB_TARGET:g} MB",
                            "ok": ok, "answer": answer})
            if not args.json:
                print(f"{case.name}: {seconds:.2f} s, {mb:.0f} MB — {answer} "
                      f"({'ok' if ok else 'MISSED'})", flush=True)
            for path in folder.rglob("*"):  # a 64 MB file at a time on the disk
                if path.is_file():
                    path.unlink()
    if args.json:
        print(json.dumps({"bench": "inputs", "figures": figures}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
