"""The game journal: every accepted input, appended and synced before it is acted on.

A journal is JSON lines: a header (ruleset, seats, the dealt roles, language, mode), then one
input event per line (:mod:`narrator.inputs`), written by the host's recorder:
``{"type": "action", "t": seconds, "action": "nominate 5"}`` for each action the engine took,
``{"type": "undo", "t": seconds}`` when the host took one back, ``{"type": "timer", "t": …,
"name": "speech", "started": …}`` whenever a timer starts, and ``{"type": "stop", …}`` where the
host quit; while a timer runs, ``{"type": "beat", "t": …}`` at most once a second (the game
was still running then: :mod:`narrator.host.heartbeat`). Replaying the actions on a game with
the same roles gives back the same state (the engine is deterministic), so a killed process resumes at the same phase — and, from the last
timer mark and the last line's time, with the time its running timer had left: ``narrator
resume JOURNAL``. The header carries the club's options and the players' nicknames, so a resume
needs no other file. A source with inputs of its own writes each as it came before the actions it
leads to — the table console's presses, ``{"type": "pad", "t": …, "seat": 3, "do": "shoot", …}``
— and they are kept apart (:attr:`JournalContents.inputs`). Journals of version 1 (lines without a ``type``) are read too.


Faults it survives: a process killed mid-line leaves a torn tail, which is cut away (a copy of
the file as it was is kept) before anything is appended after it; a second process writing the
same journal is refused by an OS file lock; the file is readable by its owner only (it holds
the roles). A damaged journal is one line naming the file and the file's line.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from narrator.engine import Action, EngineError, Game, Role, parse_action
from narrator.engine import events as ev
from narrator.engine.options import (
    OptionError,
    apply_options,
    check_names,
    check_options,
    options_of,
)
from narrator.engine.rules import find_rules
from narrator.engine.tuning import settings_of, with_settings
from narrator.errors import NarratorError
from narrator.host.recorder import Recorder
from narrator.inputs import (
    ACTION,
    BEAT,
    ENTRY,
    OPERATOR,
    PAD,
    STOP,
    TIMER,
    UNDO,
    Input,
    InputError,
)
from narrator.reading import BadJSON, Containers, Limits, loads, open_regular, read_lines

VERSION = 2

#: the modes that write journals (``narrator resume`` takes each up in its own way)
MODES = ("assist", "play")
LANGS = ("ru", "uk")
#: where the file as it was is kept when a torn tail is cut away
TORN_SUFFIX = ".torn"
#: a journal's size: a long game's journal is some 300 lines and 15 KB, a few times that with
#: every pad press in it. A line may be as long as the file (the header holds the nicknames
#: as given, an entry the line as typed): what the narrator writes it reads back. Its lines
#: are flat objects but the header: the objects and arrays in all are about one a line, and
#: bounded so (a press is kept whole for the resume, whatever it holds).
LIMITS = Limits("the journal", max_bytes=4 * 1024 * 1024, max_lines=50_000,
                max_containers=100_000)


@dataclass
class JournalHeader:
    rules: str
    seats: int
    roles: dict[int, Role]
    lang: str = "ru"
    mode: str = "assist"
    settings: dict[str, float] = field(default_factory=dict)  # changed figures (count pace, …)
    options: dict[str, Any] = field(default_factory=dict)  # club options (fouls, best_move, …)
    names: dict[int, str] = field(default_factory=dict)  # nicknames per seat
    dealt: dict[str, str] = field(default_factory=dict)  # besides the cards (the maniac's side)

    def to_json(self) -> dict[str, Any]:
        head: dict[str, Any] = {
            "journal": VERSION, "rules": self.rules, "seats": self.seats, "lang": self.lang,
            "mode": self.mode, "settings": self.settings,
            "roles": {str(s): r.value for s, r in sorted(self.roles.items())}}
        if self.options:
            head["options"] = self.options
        if self.names:
            head["names"] = {str(s): n for s, n in sorted(self.names.items())}
        if self.dealt:
            head["dealt"] = dict(self.dealt)
        return head


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise NarratorError(f"{path} is in use by another narrator: only one process may "
                            "write a journal (stop the other one first)") from None


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold the journal's lock for a moment (NarratorError when another process has it)."""
    p = Path(path)
    # a regular file only: a FIFO would wait for a writer, /dev/zero never end
    fd = open_regular(str(p), "the journal", LIMITS.max_bytes)
    try:
        _lock(fd, p)
        yield
    finally:
        os.close(fd)


def repair_torn_tail(path: str | Path) -> str | None:
    """Cut a torn last line (the process died while writing it) away, keeping a copy of the
    file as it was; returns what was done in one line, or None when there was nothing to do.

    The caller holds the lock (:func:`locked`, or an open :class:`Journal`). A last line that
    is complete but lacks only its newline is kept and given one. When the folder is full or
    read-only, a NarratorError names the journal and the cause, and nothing has changed: the
    journal is as it was, byte for byte, and no copy is left beside it.
    """
    p = Path(path)
    fd = open_regular(str(p), "the journal", LIMITS.max_bytes)  # as the reader will take it
    try:
        with os.fdopen(fd, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size == 0:
                return None
            f.seek(size - 1)
            if f.read(1) == b"\n":
                return None
            start = _last_line_start(f, size)
            f.seek(start)
            tail = f.read(LIMITS.max_line + 1)
    except OSError as e:
        raise NarratorError(f"{p}: cannot read the journal ({e.strerror or e})") from None
    try:  # a tail longer than any line a reader takes is no line: a torn one
        obj = loads(tail.decode("utf-8")) if len(tail) <= LIMITS.max_line else None
        complete = isinstance(obj, dict)
    except (BadJSON, UnicodeDecodeError):
        complete = False
    if complete:
        try:
            _append_newline(p)
        except OSError as e:
            raise _cannot_repair(p, "give its last line its newline", e) from None
        return None
    copy = p.with_name(p.name + TORN_SUFFIX)
    try:
        _copy_whole(p, copy)
    except OSError as e:
        raise _cannot_repair(p, "keep a copy of it before cutting its torn last line away",
                             e) from None
    try:
        with p.open("r+b") as f:
            f.truncate(start)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        # A truncate that fails leaves the file as it was; so must the copy go, or a later
        # repair would find a copy of a journal that was never cut.
        with contextlib.suppress(OSError):
            copy.unlink()
        raise _cannot_repair(p, "cut its torn last line away", e) from None
    return (f"{p}: its last line was torn (the process stopped while writing it) and is cut "
            f"away; the file as it was is kept in {copy}")


def _last_line_start(f: IO[bytes], size: int) -> int:
    """The offset of the last line of the open file ``f`` of ``size`` bytes: after its last
    newline (read backwards a block at a time, so that no file is ever held whole)."""
    end = size
    while end > 0:
        begin = max(0, end - (1 << 16))
        f.seek(begin)
        at = f.read(end - begin).rfind(b"\n")
        if at >= 0:
            return begin + at + 1
        end = begin
    return 0


def _cannot_repair(p: Path, what: str, e: OSError) -> NarratorError:
    return NarratorError(f"{p}: cannot {what} ({e.strerror or e}); the journal is left as it "
                         f"was (free some space, or resume it from a folder it can be written in)")


def _append_newline(p: Path) -> None:
    """Give the journal's whole last line its newline (with the file's own calls: a failed
    write leaves no half of anything)."""
    fd = os.open(p, os.O_WRONLY | os.O_APPEND)
    try:
        end = os.lseek(fd, 0, os.SEEK_END)
        try:
            if os.write(fd, b"\n") != 1:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fsync(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)
            raise
    finally:
        os.close(fd)


def _copy_whole(p: Path, copy: Path) -> None:
    """Copy ``p`` to ``copy`` (owner-only), or leave nothing: the copy is written to a new file
    beside it and renamed into place only once it is whole and synced, so that a full or
    read-only folder neither leaves an empty ``.torn`` nor overwrites an earlier one."""
    fd, name = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=TORN_SUFFIX)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as out, p.open("rb") as src:
            shutil.copyfileobj(src, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(name, copy)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


class Journal(Recorder):
    """The recorder of one game's journal: each line synced before the input is acted on.

    Opening takes an exclusive OS lock on the file (a second writer is refused in one line),
    cuts a torn tail away first (:attr:`note` says so) and makes the file its owner's only.
    """

    def __init__(self, path: str | Path, header: JournalHeader, *, fsync: bool = True) -> None:
        p = Path(path)
        try:
            self._lock_fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise NarratorError(f"{p}: cannot write the journal ({e.strerror or e})") from None
        try:
            _lock(self._lock_fd, p)
            os.fchmod(self._lock_fd, 0o600)  # a journal left readable is closed up
            #: what opening repaired, in one line (None: nothing)
            self.note = repair_torn_tail(p)
            #: why the journal cannot be written now (None: it can), and the lines that wait
            self.failure: str | None = None
            self.error = ""  # the system's words for it (No space left on device)
            self.pending: list[str] = []
            #: told when a write fails (with the line why), and when the lines are written
            self.on_failure: list[Callable[[str], None]] = []
            self.on_recovered: list[Callable[[], None]] = []
            super().__init__(p, header=header.to_json(), fsync=fsync)
        except OSError as e:
            os.close(self._lock_fd)
            raise NarratorError(f"{p}: cannot write the journal ({e.strerror or e})") from None
        except BaseException:
            os.close(self._lock_fd)
            raise

    @classmethod
    def for_game(cls, path: str | Path, game: Game, *, lang: str = "ru", mode: str = "assist",
                 fsync: bool = True) -> Journal:
        header = JournalHeader(game.rules.name, game.seats, dict(game.roles), lang, mode,
                               settings_of(game.rules), options_of(game.rules), dict(game.names),
                               dict(game.dealt))
        return cls(path, header, fsync=fsync)

    def stop(self, at: float) -> None:
        """The host stopped the game here: a resume goes on with the time its timer had left."""
        self.write(Input(STOP, at, {"reason": "the host quit"}))

    # -- a write that fails (a full disk, a pulled stick) ------------------------------------
    #
    # A line is written whole or not at all: what a failed write left of it is cut away, so the
    # file stays a whole journal up to the failure. The line, and every line after it, then
    # waits in memory, in order (:attr:`pending`), until :meth:`retry` writes them; the game
    # is paused meanwhile (:func:`narrator.host.faults.watch_journal`).

    def _line(self, text: str) -> None:
        if self.failure is not None:
            self.pending.append(text)
            return
        try:
            self._whole(text)
        except OSError as e:
            self.pending.append(text)
            self.error = str(e.strerror or e)
            self.failure = f"{self.path}: cannot write the journal ({self.error})"
            for listener in self.on_failure:
                listener(self.failure)

    def _whole(self, text: str) -> None:
        """Append one line with the file's own calls (no buffer that could hold half of it)."""
        fd = self._file.fileno()
        end = os.lseek(fd, 0, os.SEEK_END)
        data = (text + "\n").encode("utf-8")
        try:
            done = 0
            while done < len(data):
                done += os.write(fd, data[done:])
            if self.fsync:
                os.fsync(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)  # the journal stays whole up to the failure
            raise

    def retry(self, *, tell: bool = True) -> bool:
        """Write the lines that wait; True once the journal is whole again (then the
        :attr:`on_recovered` listeners are told, unless not ``tell``)."""
        if self.failure is None:
            return True
        while self.pending:
            try:
                self._whole(self.pending[0])
            except OSError as e:
                self.error = str(e.strerror or e)
                self.failure = f"{self.path}: cannot write the journal ({self.error})"
                return False
            self.pending.pop(0)
        self.failure = None
        for listener in self.on_recovered if tell else ():
            listener()
        return True

    def close(self) -> None:
        """Close (a last try for the lines that wait; never raises: a journal that cannot be
        written is said by :attr:`failure`)."""
        try:
            self.retry(tell=False)
            with contextlib.suppress(OSError):
                super().close()
        finally:
            if self._lock_fd >= 0:
                os.close(self._lock_fd)  # the lock goes with it
                self._lock_fd = -1


@dataclass
class JournalContents:
    header: JournalHeader
    entries: list[tuple[float, Action]] = field(default_factory=list)
    path: str = "journal"
    #: the console's presses and the hostless operator's entries, in order
    inputs: list[Input] = field(default_factory=list)
    #: for each of :attr:`inputs`, how many entries came before it (its place in the game)
    input_at: list[int] = field(default_factory=list)
    #: the file line of each entry (for errors)
    lines: list[int] = field(default_factory=list)
    #: timer marks: (file line, timer name, started)
    marks: list[tuple[int, str, float]] = field(default_factory=list)
    #: the file line of the last undo (the current timer restarted there)
    undone_at: int = 0
    #: the time of the last line: the last moment the game is known to have been running
    #: (a resumed process writes on its own clock: the last line, not the largest time)
    last_t: float = 0.0
    first_t: float | None = None  # the time of its first timed line (the game's start)
    _timer_line: int = 0  # the line of the entry that started the running timer (game())

    def game(self) -> Game:
        """A game brought to the journal's last state (events of the replay discarded)."""
        rules = with_settings(find_rules(self.header.rules), **self.header.settings)
        rules = apply_options(rules, self.header.options, where="journal options")
        game = Game(rules, seats=self.header.seats, roles=self.header.roles,
                    names=self.header.names, dealt=self.header.dealt)
        started = 1 if _starts_timer(game.start()) else 0
        for line, (_, action) in zip(self.lines, self.entries, strict=True):
            try:
                events = game.apply(action)
            except EngineError as e:
                raise NarratorError(f"{self.path}:{line}: {e}") from None
            if _starts_timer(events):
                started = line
        self._timer_line = max(started, self.undone_at)
        return game

    def last_entry(self) -> tuple[int, Input] | None:
        """The hostless operator's last entry, and how many entries came before it."""
        for at, event in zip(reversed(self.input_at), reversed(self.inputs), strict=True):
            if event.type == ENTRY:
                return at, event
        return None

    def time_left(self, game: Game) -> float | None:
        """Seconds left on the running timer of ``game`` (from :meth:`game`) when the journal
        stopped: from the timer's mark, written after the input that started it, and the last
        line's time. None when there is no such mark (the timer then runs again in full)."""
        timer = game.expect.timer
        if timer is None:
            return None
        for line, name, started in reversed(self.marks):
            if line < self._timer_line:
                break
            if name == timer.name:
                return max(0.0, timer.seconds - max(0.0, self.last_t - started))
        return None


def _starts_timer(events: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.TimerStarted) for e in events)


def _header(name: str, head: Any) -> JournalHeader:
    def fail(field_name: str, expected: str, got: Any) -> NarratorError:
        shown = json.dumps(got, ensure_ascii=False)
        shown = shown if len(shown) <= 40 else shown[:37] + "…"
        return NarratorError(f"{name}:1: {field_name}: expected {expected}, got {shown}")

    if not isinstance(head, dict) or "journal" not in head:
        raise NarratorError(f"{name}:1: not a journal header")
    version = head["journal"]
    if version not in (1, VERSION) or isinstance(version, bool):
        raise NarratorError(f"{name}:1: a journal of version {version!r}; this narrator reads "
                            f"versions 1 and {VERSION}")
    rules_name = head.get("rules")
    if not isinstance(rules_name, str):
        raise fail("rules", "a name", rules_name)
    try:
        rules = find_rules(rules_name)
    except NarratorError as e:
        raise NarratorError(f"{name}:1: rules: {e}") from None
    mode = head.get("mode", "assist")
    if mode not in MODES:
        raise fail("mode", " or ".join(MODES), mode)
    lang = head.get("lang", "ru")
    if lang not in LANGS:
        raise fail("lang", " or ".join(LANGS), lang)
    try:
        seats = rules.check_seats(head.get("seats"))
    except NarratorError as e:
        raise NarratorError(f"{name}:1: seats: {e}") from None
    raw_roles = head.get("roles")
    if not isinstance(raw_roles, dict):
        raise fail("roles", "{seat: role}", raw_roles)
    try:
        roles = {int(s) if s.isascii() and s.isdigit() and len(s) < 3 else s: Role(r)
                 for s, r in raw_roles.items()}
        rules.check_deal(seats, roles)
    except (ValueError, TypeError, NarratorError) as e:
        raise NarratorError(f"{name}:1: roles: {e}") from None
    raw_settings = head.get("settings", {})
    if not isinstance(raw_settings, dict) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in raw_settings.values()):
        raise fail("settings", "{figure: seconds}", raw_settings)
    settings = {str(k): float(v) for k, v in raw_settings.items()}
    try:
        with_settings(rules, **settings)
    except NarratorError as e:
        raise NarratorError(f"{name}:1: settings: {e}") from None
    try:
        options = check_options(head.get("options", {}))
    except OptionError as e:
        raise NarratorError(f"{name}:1: options: {e}") from None
    try:
        names = check_names(head.get("names", {}), seats)
    except OptionError as e:
        raise NarratorError(f"{name}:1: names: {e}") from None
    raw_dealt = head.get("dealt", {})
    if not isinstance(raw_dealt, dict) or any(
            k not in rules.dealt_choices or v not in rules.dealt_choices[k]
            for k, v in raw_dealt.items()):
        raise fail("dealt", f"what {rules_name} deals besides the cards", raw_dealt)
    return JournalHeader(rules_name, seats, roles, lang, mode, settings, options, names,
                         dict(raw_dealt))


def _line(obj: Any) -> tuple[str, float, Mapping[str, Any]]:
    """(type, time, fields) of a journal line: an input event, or a line of version 1."""
    if not isinstance(obj, dict):
        raise ValueError("not a JSON object")
    if "type" in obj:
        event = Input.from_json(obj)
        if event.type not in (ACTION, UNDO, TIMER, STOP, PAD, OPERATOR, ENTRY, BEAT):
            raise ValueError(f"a {event.type} input, which a journal does not hold")
        return event.type, event.t, event.data
    t = obj["t"]  # version 1: {"t", "action"} or {"t", "undo": true}
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise ValueError(f"t: expected seconds, got {t!r}")
    if obj.get("undo") is True:
        return UNDO, float(t), {}
    if not isinstance(obj.get("action"), str):
        raise ValueError(f"action: expected text, got {obj.get('action')!r}")
    return ACTION, float(t), {"action": obj["action"]}


def load_journal(path: str | Path) -> JournalContents:
    """Read a journal: one line naming the file and the line for anything damaged.

    A torn last line (no newline: the process died mid-write, the input was never acted on)
    is left out; :class:`Journal` cuts it away when the journal is opened to go on. A last
    line that is whole but not a journal entry is an error like any other.
    """
    name = str(path)
    rows = read_lines(path, LIMITS, torn_tail=True)
    first = next(rows, None)
    if first is None or not first.text.strip():
        raise NarratorError(f"{name}:1: expected a journal header, got an empty line")
    held = Containers(LIMITS)
    try:
        head = loads(first.text)
        held.take(first.text)
    except BadJSON as e:
        raise NarratorError(f"{name}:1: not a journal header ({e})") from None
    contents = JournalContents(_header(name, head), path=name)
    counts: list[int] = []  # the number of entries after each line read
    pressed_at: list[int] = []  # for each press, the index in ``counts`` of its line
    for number, raw, whole in rows:
        if not raw.strip():
            continue
        try:
            obj = loads(raw)
        except BadJSON as e:
            if not whole:
                break  # a torn last line: the input was never acted on
            raise NarratorError(f"{name}:{number}: not a journal entry ({e})") from None
        try:
            held.take(raw)
        except BadJSON as e:
            raise NarratorError(f"{name}:{number}: cannot read the journal ({e})") from None
        try:
            kind, t, data = _line(obj)
            if contents.first_t is None:
                contents.first_t = t
            if kind in (PAD, OPERATOR, ENTRY):  # its actions follow on their own lines
                contents.inputs.append(Input.from_json(obj))
                contents.input_at.append(len(contents.entries))
                pressed_at.append(len(counts))
            elif kind in (STOP, BEAT):
                pass  # where the host quit, a heartbeat: only its time counts (the last line's)
            elif kind == UNDO:
                if contents.entries:
                    contents.entries.pop()
                    contents.lines.pop()
                contents.undone_at = number
            elif kind == TIMER:
                contents.marks.append((number, str(data["name"]), float(data["started"])))
            else:
                contents.entries.append((t, parse_action(str(data["action"]))))
                contents.lines.append(number)
            contents.last_t = t
            counts.append(len(contents.entries))
        except (KeyError, ValueError, TypeError, InputError) as e:
            why = f"no {e}" if isinstance(e, KeyError) else str(e)
            raise NarratorError(f"{name}:{number}: not a journal entry ({why})") from None
        except EngineError as e:  # an action's text form that is no action
            raise NarratorError(f"{name}:{number}: {e}") from None
    # a press before an entry that was undone later stands where the game stood after the
    # undo: its place is the fewest entries the game had at any line from its own on
    low = [0] * (len(counts) + 1)
    low[len(counts)] = len(contents.entries)
    for i in range(len(counts) - 1, -1, -1):
        low[i] = min(counts[i], low[i + 1])
    contents.input_at = [min(at, low[i]) for at, i in zip(contents.input_at, pressed_at,
                                                             strict=True)]
    return contents
