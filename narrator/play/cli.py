"""``narrator play``: the hostless table — and ``narrator resume`` of such a game.

Start-up, each step a one-line error when it fails: the speech model (found, takes runtime
grammars), the microphone and the speaker (or ``--out-wav``), then the model is loaded and the
grammar compiled: "ready to listen in N s". The cards are dealt by the engine (``--seed`` makes
it reproducible) and written to a roles file beside the journal, readable by the operator only;
the terminal never prints them. The operator's inputs are described in
:mod:`narrator.engine.entries`; the game itself runs in
:class:`~narrator.listening.ListeningLoop`, on the monotonic clock that also stamps the
microphone's chunks.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from narrator.arguments import (
    AudioArgs,
    BroadcastArgs,
    ConsoleArgs,
    PadArgs,
    PlayArgs,
    ResumeArgs,
)
from narrator.audio.devices import input_device, output_device
from narrator.audio.listener import EchoGate
from narrator.audio.playback import PlayedLine
from narrator.audio.session import INPUTS, SessionRecorder
from narrator.audio.sources import MicrophoneSource
from narrator.audio.vosk_recognizer import VoskRecognizer, table_recognizer
from narrator.clock import Clock
from narrator.console.serve import (
    GAME_ENDED,
    ConsoleOptions,
    GameConsole,
    Mount,
    console_options,
)
from narrator.engine import Game
from narrator.errors import NarratorError
from narrator.host.club import table_options
from narrator.host.driver import Driver
from narrator.host.hearing import Hearing, game_hearing
from narrator.host.host import Host
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, JournalContents
from narrator.host.recorder import Recorder
from narrator.host.speaker import (
    Narration,
    next_part,
    speaker_narration,
    wav_narration,
)
from narrator.host.texts import tx, where
from narrator.host.texts import winner as winner_words
from narrator.inputs import Input
from narrator.listening import DEFAULT_CHUNK_MS, ListeningLoop
from narrator.outputs import check_new_file, check_new_session_folder, write_private
from narrator.play.console import PadsLog
from narrator.play.model import model_at, model_folder, preload
from narrator.play.operator import TerminalOperator
from narrator.play.progress import Progress
from narrator.table.session import TableSession, listening_table, open_table, table_clock
from narrator.voice.manifest import default_manifest

if TYPE_CHECKING:  # (the stream's server is imported only when a game serves one)
    from narrator.broadcast.serve import BroadcastOptions


def say(text: str) -> None:
    print(text, flush=True)


def load_ears(path: Path, hearing: Hearing) -> tuple[VoskRecognizer, float]:
    """The model (loaded once a process) and the speech grammar compiled; returns the
    recognizer and the seconds waited."""
    started = time.perf_counter()
    recognizer = table_recognizer(model_at(path), list(hearing.phrases), model_path=path)
    return recognizer, time.perf_counter() - started


@dataclass(kw_only=True)
class TableOptions:
    """How a hostless game is played: its language, model, outputs, console."""

    lang: str
    model: str | None = None
    record: str | None = None
    assist: bool = False
    voices: str | None = None
    out_wav: str | None = None
    night_music: str | None = None
    listen: bool = True
    console: ConsoleOptions | None = None
    mount: Mount | None = None
    #: the stream's view this game serves on its own (an evening serves one all night)
    broadcast: BroadcastOptions | None = None
    #: called with the game's host once it is built, before the game runs (the evening's
    #: broadcast watches each game so)
    watchers: list[Callable[[Host], None]] = field(default_factory=list)


def _options(lang: str, model: str | None, audio: AudioArgs, console: ConsoleArgs, pads: PadArgs,
             *, record: str | None = None, assist: bool = False,
             broadcast: BroadcastArgs | None = None) -> TableOptions:
    """How ``play``, or ``resume`` of a ``play`` game, is played (the table, its ruleset and
    language, is the command's or the journal's); a one-line error for options that clash."""
    opts = TableOptions(lang=lang, model=model, record=record, assist=assist,
                        voices=audio.voices, out_wav=audio.out_wav,
                        night_music=audio.night_music, listen=pads.listen,
                        console=console_options(console, hand_votes=pads.hand_votes))
    if not opts.listen and opts.console is None:
        raise NarratorError("--listen off: the speeches and the night are driven from the seat "
                            "pads; add --console [HOST:]PORT")
    if opts.record and opts.console is not None:
        raise NarratorError("--record keeps the microphone's session; with --console the "
                            "journal keeps every press (drop --record)")
    if console.links and opts.console is None:
        raise NarratorError("--links FILE writes the console's links; add --console [HOST:]PORT")
    if broadcast is not None and (broadcast.address is not None or broadcast.delay is not None):
        from narrator.broadcast.serve import broadcast_options

        opts.broadcast = broadcast_options(broadcast, console.address)
    return opts


def _echo_hooks(narration: Narration, echo: EchoGate) -> None:
    """The narrator's own voice never reaches the recognizer: close the gate while it plays."""

    def started(line: PlayedLine) -> None:
        if line.started is not None:
            echo.close(line.started, line.started + line.duration)

    def ended(line: PlayedLine) -> None:
        if line.started is not None and line.ended is not None:
            echo.close(line.started, line.ended)

    narration.player.on_start.append(started)
    narration.player.on_end.append(ended)


def check_outputs(opts: TableOptions) -> None:
    """The session folder and the WAV can be written (one line each when not)."""
    if opts.record:
        check_new_session_folder(opts.record, "--record")
    if opts.out_wav:
        check_new_file(opts.out_wav, "--out-wav")


def check_devices(opts: TableOptions) -> Path | None:
    """The model, the microphone, the speaker: one line each when missing (with
    ``--listen off`` neither a model nor a microphone is needed)."""
    path = model_folder(opts.lang, opts.model) if opts.listen else None
    if opts.listen:
        input_device()
    if opts.out_wav is None:
        output_device()
    return path


def _narration(opts: TableOptions, clock: Clock) -> Narration:
    if opts.out_wav:
        return wav_narration(opts.out_wav, clock, lang=opts.lang, voices=opts.voices,
                             night_music=opts.night_music)
    return speaker_narration(clock, lang=opts.lang, voices=opts.voices,
                             night_music=opts.night_music)


def _end(narration: Narration, opts: TableOptions, game: Game) -> None:
    if opts.out_wav is None:
        if game.is_over:  # let the winner be announced
            narration.player.wait_idle(timeout=15.0)
        else:
            narration.player.stop()
    else:
        narration.finish()


def _linger(lang: str, operator: TerminalOperator | None = None, driver: Driver | None = None,
            *, console: bool = True) -> None:
    """After the game the console stays up for the protocol until Enter (or end of input);
    ``operator``: the terminal's reader, which then hands the next line here; ``driver``: the
    game's, still running meanwhile, so the host's marks (the operator view's form, an ``m``
    line here) go into the journal and the protocol. (The caller stops the console.)"""
    if driver is not None:
        say(tx("t_marks", lang, where=tx("t_marks_both" if console else "t_marks_here", lang),
               then=tx("t_close" if console else "t_finish", lang)))
    else:
        say(tx("t_protocol", lang))
    if operator is None:
        with contextlib.suppress(OSError, ValueError):
            sys.stdin.readline()
        return
    # its reader takes the line: the first after the game (not an m line), or the input's end
    while not (operator.after.is_set() or operator.done.is_set()):
        if driver is None or driver.stopping:
            operator.after.wait(0.2)
        else:
            driver.step(0.2)
    if driver is not None and not driver.stopping:
        driver.take()  # a mark typed just before the Enter was handed in before it


def _serve(opts: TableOptions, session: TableSession, resumed: JournalContents | None, *,
           marks: bool = True) -> tuple[GameConsole, TerminalOperator | None]:
    """The game's console — its own, or the mount's — and the terminal's reader of the
    operator's lines (None: the mount's evening reads them, into the same driver; ``marks``:
    it takes the host's marks after the game)."""
    assert opts.console is not None
    console = session.serve(opts.console, opts.lang, resumed=resumed, mount=opts.mount)
    if opts.mount is not None:
        return console, None
    # the pads play; the terminal still takes the operator's lines (q asks first; a closed
    # stdin stops nothing)
    game = session.game
    terminal = TerminalOperator(confirm=True, stop_at_end=False, over=lambda: game.is_over,
                                marks=marks, lang=opts.lang)
    terminal.start(session.driver.submit, session.clock)
    return console, terminal


def _interactive(stream: Any) -> bool:
    """Whether ``stream`` is a terminal someone types at (a pipe, a closed or replaced stdin:
    not)."""
    try:
        return bool(stream.isatty())
    except (OSError, ValueError, AttributeError):
        return False


def _stopped(opts: TableOptions, journal: Journal) -> str:
    if opts.mount is not None:
        command = opts.mount.resume
    elif opts.listen:
        command = f"narrator resume {journal.path}"
    else:
        command = f"narrator resume {journal.path} --listen off --console …"
    return tx("t_stopped", opts.lang, command=command)


#: a recorded session's audio and its input events (``--record``)
Recorded = tuple[SessionRecorder, Recorder]


def _lent(opts: TableOptions) -> Driver | None:
    """The evening's driver, which runs its console between games too (None: the game's own)."""
    return opts.mount.driver if opts.mount is not None else None


def _console_table(game: Game, opts: TableOptions, journal: Journal, clock: Clock,
                   left: float | None = None, resumed: JournalContents | None = None) -> int:
    """``--listen off``: the host on ``clock``, driven by the pads and the timers."""
    assert opts.console is not None
    narration = _narration(opts, clock)

    def take(host: Host, event: Input) -> None:
        """An operator's line (``f 6``, ``t``, ``q`` …), as in hostless play."""
        if apply_input(host, event).quit:
            say(tx("t_stopping", opts.lang))
            session.driver.stop()

    session = open_table(game, clock, journal=journal, narration=narration,
                         driver=_lent(opts), intake=take,
                         on_error=lambda e: say(tx("t_not_taken", opts.lang,
                                                   what=e.words(opts.lang))))
    for watch in opts.watchers:
        watch(session.host)
    console, terminal = _serve(opts, session, resumed)
    Progress(session.host, console.table, say, opts.lang)
    session.watch(say)
    if opts.out_wav is None:
        narration.player.start()
    lingered = False
    try:
        session.begin(left)
        session.run()
        if game.is_over and opts.mount is None and terminal is not None:
            say(winner_words(game.winner, opts.lang))
            lingered = True  # the game's driver takes the host's marks until Enter
            _linger(opts.lang, terminal, session.driver)
    except KeyboardInterrupt:
        say(tx("t_interrupted", opts.lang))
    finally:
        session.release()
        _end(narration, opts, game)
        narration.close()
        journal.close()
    if journal.failure is not None:  # (close tried once more)
        say(tx("t_journal_failed", opts.lang, failure=journal.failure))
    if lingered:
        console.stop(_ended(opts, game))
        return 0
    return _after(opts, journal, game, console, terminal)


def _after(opts: TableOptions, journal: Journal, game: Game, console: GameConsole | None,
           terminal: TerminalOperator | None) -> int:
    """The last lines of a game: who won (its console stays up for the protocol until Enter),
    or how to take it up again."""
    winner = game.winner
    say(winner_words(winner, opts.lang) if winner else _stopped(opts, journal))
    if console is not None:
        if winner and opts.mount is None:
            _linger(opts.lang, terminal)
        console.stop(_ended(opts, game))
    return 0


def _ended(opts: TableOptions, game: Game) -> str | None:
    """What the pages say as a game over closes its console (None: a game stopped, to be
    taken up again — the pages wait to come back)."""
    if game.winner is None:
        return None
    return GAME_ENDED.get(opts.lang, GAME_ENDED["ru"])


def _listening(game: Game, opts: TableOptions, journal: Journal, path: Path, clock: Clock,
               begun: float) -> tuple[ListeningLoop, Recorded | None]:
    """The model loaded, the microphone on ``clock``: the hostless table's loop (and the
    session it records, with ``--record``)."""
    preload(path)  # (loading meanwhile, if the start has not begun it)
    narration = _narration(opts, clock)
    hearing = game_hearing(opts.lang, game.seats)
    try:
        recognizer, _ = load_ears(path, hearing)
    except BaseException:
        narration.close()
        raise
    if recognizer.dropped_words:
        say(tx("t_dropped", opts.lang, n=len(recognizer.dropped_words),
               word=recognizer.dropped_words[0]))
    say(tx("t_ready", opts.lang, s=time.perf_counter() - begun, path=path))
    if opts.out_wav:
        echo = EchoGate()  # nothing is played aloud: the gate stays open
    else:
        echo = EchoGate(tail=narration.player.echo_tail)
        _echo_hooks(narration, echo)
    session = SessionRecorder(opts.record) if opts.record else None
    recorder = Recorder(session.dir / INPUTS) if session is not None else None
    pads = opts.console is not None
    operator: TerminalOperator | PadsLog = PadsLog(say, opts.lang) if pads else TerminalOperator(
        assist=opts.assist, lang=opts.lang)
    loop = ListeningLoop(
        game, clock=clock, source=MicrophoneSource(clock=clock, chunk_ms=DEFAULT_CHUNK_MS,
                                on_stall=lambda back, why: say(why)),
        recognizer=recognizer, hearing=hearing, operator=operator,
        manifest=default_manifest(opts.lang), narration=narration, journal=journal,
        echo=echo, session=session, recorder=recorder, log=say, assist=opts.assist,
        lang=opts.lang, operator_steps=not pads, driver=_lent(opts))
    return loop, (session, recorder) if session is not None and recorder is not None else None


def run_table(game: Game, opts: TableOptions, journal: Journal, path: Path | None,
              begun: float, left: float | None = None,
              resumed: JournalContents | None = None, *, clock: Clock | None = None) -> int:
    """Wiring and the game; shared by ``play``, ``resume`` and the evening (``resumed``: the
    journal the game was rebuilt from; ``clock``: the table's, monotonic by default)."""
    clock = table_clock(clock)
    if opts.broadcast is None:
        return _run_table(game, opts, journal, path, begun, left, resumed, clock)
    from narrator.broadcast.serve import Broadcast

    cast = Broadcast.start(opts.broadcast, clock)
    cast.announce(say, opts.lang)
    opts.watchers.append(lambda host: cast.watch(host, opts.lang))
    try:
        return _run_table(game, opts, journal, path, begun, left, resumed, clock)
    finally:
        cast.drain(say, opts.lang)
        cast.stop()


def _run_table(game: Game, opts: TableOptions, journal: Journal, path: Path | None,
               begun: float, left: float | None, resumed: JournalContents | None,
               clock: Clock) -> int:
    if path is None:
        return _console_table(game, opts, journal, clock, left, resumed)
    loop, recorded = _listening(game, opts, journal, path, clock, begun)
    loop.resume_left = left
    loop.resume_entry = resumed.last_entry() if resumed is not None else None
    session = listening_table(loop, lent=opts.mount is not None)
    for watch in opts.watchers:
        watch(session.host)
    narration = loop.narration
    assert narration is not None
    console: GameConsole | None = None
    terminal: TerminalOperator | None = None
    if opts.console is not None:
        # (a recorded session's protocol is written as the game ends: no marks after it)
        console, terminal = _serve(opts, session, resumed, marks=recorded is None)
    else:
        assert isinstance(loop.operator, TerminalOperator)
        terminal = loop.operator
        # an operator at the terminal gives the host's marks after the game, until Enter
        # (not a piped input, nor a recorded session: its protocol is written as it ends)
        terminal.over = lambda: game.is_over
        terminal.marks = recorded is None and _interactive(terminal.stream)
        terminal.start(loop.submit, clock)
    session.watch(say)
    if opts.out_wav is None:
        narration.player.start()
    lingered = False
    try:
        loop.run()
        if game.is_over and terminal is not None and terminal.marks:
            say(winner_words(game.winner, opts.lang))
            lingered = True  # the loop's driver takes the host's marks until Enter
            _linger(opts.lang, terminal, session.driver, console=console is not None)
    finally:
        session.release()
        _end(narration, opts, game)
        narration.close()
        journal.close()
        if recorded is not None:
            for part in recorded:
                part.close()
    if recorded is not None:
        say(tx("t_recorded", opts.lang, path=opts.record))
    if lingered:
        if console is not None:
            console.stop(_ended(opts, game))
        return 0
    return _after(opts, journal, game, console, terminal)


def run(args: PlayArgs) -> int:
    """``narrator play``: deal, then run the whole game with no human host."""
    rules, seats, names = table_options(args.table)
    lang = args.table.lang
    journal_path = Path(args.journal or "journal.jsonl")
    # a folder is no journal, and holds no game: check_new_file says what it is
    if journal_path.is_file() and journal_path.stat().st_size > 0:
        raise NarratorError(f"{journal_path} holds a game already: `narrator resume "
                            f"{journal_path}`, or pass --journal FILE for a new one")
    roles_path = journal_path.with_name(journal_path.stem + ".roles.txt")
    begun = time.perf_counter()
    opts = _options(lang, args.model, args.audio, args.console, args.pads,
                    record=args.record, assist=args.assist, broadcast=args.broadcast)
    # every place written is checked before anything is: a failure then leaves nothing behind
    check_new_file(journal_path, "--journal")
    check_new_file(roles_path, "--journal (the roles file beside it)")
    check_outputs(opts)
    path = check_devices(opts)
    if path is not None:
        preload(path)  # while the cards are dealt and the journal, the voice, the console made
    rng = random.Random(args.seed) if args.seed is not None else random.Random()
    game = Game(rules, seats=seats, rng=rng, names=names)
    journal = Journal.for_game(journal_path, game, lang=lang, mode="play")
    if opts.console is not None:
        say(tx("t_dealt_pads", lang))
        return run_table(game, opts, journal, path, begun)
    # created readable by its owner only: the cards are the game's secret
    write_private(roles_path, roles_text(game))
    say(tx("t_dealt_file", lang, path=roles_path))
    return run_table(game, opts, journal, path, begun)


def resume(args: ResumeArgs, contents: JournalContents) -> int:
    """``narrator resume JOURNAL`` of a ``play`` game: the same phase, its timer going on with
    the time it had left."""
    begun = time.perf_counter()
    game = contents.game()
    opts = _options(contents.header.lang, args.model, args.audio, args.console, args.pads,
                    broadcast=args.broadcast)
    if opts.out_wav:
        opts.out_wav, note = next_part(opts.out_wav)
        if note:
            say(note)
    check_outputs(opts)
    path = check_devices(opts)
    if path is not None:
        preload(path)
    journal = Journal(args.journal, contents.header)
    if journal.note:
        say(journal.note)
    say(tx("t_resuming", opts.lang, path=args.journal, where=where(game, opts.lang)))
    return run_table(game, opts, journal, path, begun, contents.time_left(game), contents)


def roles_text(game: Game) -> str:
    """The dealt cards, one seat a line (the operator's roles file)."""
    cards = "".join(f"seat {s}: {r.value}\n" for s, r in sorted(game.roles.items()))
    # what else was dealt (the maniac's side: the narrator announces it on the first night)
    return cards + "".join(f"{k.replace('_', ' ')}: {v}\n" for k, v in game.dealt.items())
