"""``narrator assist``: a human host runs the game; the narrator speaks and times.

The command builds the real collaborators — the monotonic clock, the narration (the sound card,
or a WAV file with ``--out-wav``), the journal, the host and its live loop on a thread — and
hands them to :class:`~narrator.assist.ui.AssistApp`. The host deals the cards, so the app
first asks where the don, the mafia and the sheriff sit. ``narrator resume JOURNAL`` on an
assist journal reopens the app at the same phase.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import replace
from pathlib import Path

from narrator.arguments import AssistArgs, AudioArgs, ConsoleArgs, ResumeArgs
from narrator.assist.control import describe, hold_for_host, public_action
from narrator.assist.ui import AssistApp, Deal, Session, card_fields, parse_cards
from narrator.clock import Clock, MonotonicClock
from narrator.console.serve import (
    ConsoleOptions,
    GameConsole,
    Mount,
    console_options,
    open_console,
)
from narrator.engine import EndSpeech, Game, Role, TimeUp
from narrator.engine.rules import Rules, find_rules
from narrator.errors import NarratorError
from narrator.host.assembly import assemble_host
from narrator.host.club import table_options
from narrator.host.driver import Driver
from narrator.host.faults import watch_journal
from narrator.host.heartbeat import keep_heartbeat
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, JournalContents
from narrator.host.speaker import (
    Narration,
    next_part,
    speaker_narration,
    watch_output,
    wav_narration,
)
from narrator.outputs import check_new_file
from narrator.voice.manifest import Manifest

DEFAULT_JOURNAL = "journal.jsonl"
#: how many of the entries before a resume its log shows
RECALLED_ENTRIES = 8


def make_session(game: Game, clock: Clock, *, journal: Journal | None,
                 narration: Narration | None = None,
                 manifest: Manifest | None = None) -> Session:
    """The host of ``game`` (see :func:`~narrator.host.assembly.assemble_host`) with its loop.

    The game is neither started nor resumed here.
    """
    parts = assemble_host(game, clock, manifest=manifest, narration=narration, journal=journal)
    host = parts.host
    driver = Driver(host.scheduler, lambda event: apply_input(host, event))
    return Session(host, driver, parts.transcript, journal.path if journal else None)


def _narration(audio: AudioArgs, clock: Clock, lang: str) -> Narration:
    if audio.out_wav:
        return wav_narration(audio.out_wav, clock, lang=lang, voices=audio.voices,
                             night_music=audio.night_music)
    try:
        return speaker_narration(clock, lang=lang, voices=audio.voices,
                                 night_music=audio.night_music)
    except NarratorError as e:
        raise NarratorError(f"{e}; use --out-wav FILE to write the narration to a file") from None


def run_app(app: AssistApp, narration: Narration, console: ConsoleOptions | None = None,
            lang: str = "ru", resumed: JournalContents | None = None,
            out_wav: str | None = None, *, mount: Mount | None = None) -> int:
    """Run the UI; the host's loop runs on its own thread until the UI closes. With
    ``console``, the table console serves the same host (its links are printed first); with
    ``mount``, the console is the mount's (an evening's: it stays up after the game). When
    no game was started (the host left the cards' form), the narration's WAV ``out_wav`` holds
    nothing of a game and is not left behind."""
    stop = threading.Event()
    threads: list[threading.Thread] = []
    session_ref: list[Session] = []
    served: list[GameConsole] = []

    def drive(session: Session) -> None:
        session_ref.append(session)
        journal = session.host.journal
        if mount is not None and isinstance(journal, Journal):
            # (the terminal is the host's screen: no operator's lines come from it)
            served.append(mount.open(session.host, session.transcript, journal, session.loop,
                                     lambda event: None, resumed))
        elif console is not None and isinstance(journal, Journal):
            served.append(open_console(session.host, session.transcript, journal, lang,
                                       console, session.loop.call, resumed=resumed))

        def tell(text: str) -> None:  # from the playback thread, onto the host's screen
            with contextlib.suppress(Exception):
                app.call_from_thread(app.notify, text, severity="warning", timeout=8)

        watch_output(narration, session.loop.call, session.host, tell)
        if isinstance(journal, Journal):
            watch_journal(session.host, journal, session.loop.call, tell)
            keep_heartbeat(session.host, journal)

        def loop() -> None:
            while not stop.is_set():
                session.loop.step()

        thread = threading.Thread(target=loop, name="narrator-host", daemon=True)
        threads.append(thread)
        thread.start()

    if app.session is not None:
        drive(app.session)
    else:
        setup = app.setup
        assert setup is not None

        def started(deal: Deal) -> Session:
            session = setup(deal)
            drive(session)
            return session

        app.setup = started
    narration.player.start()
    try:
        app.run()
    finally:
        stop.set()
        for server in served:
            server.stop()
        for session in session_ref:
            session.loop.stop()
        for thread in threads:
            thread.join(timeout=5)
        for session in session_ref:  # where the host stopped: a resume goes on from here
            journal = session.host.journal
            if isinstance(journal, Journal) and not session.host.game.is_over:
                journal.stop(session.host.now())
        narration.close()
        if out_wav and not session_ref:
            Path(out_wav).unlink(missing_ok=True)  # silence at most: no game in it to keep
        for session in session_ref:
            if session.host.journal is not None and isinstance(session.host.journal, Journal):
                session.host.journal.close()
    if app.error:
        raise NarratorError(app.error)
    if session_ref and session_ref[0].journal is not None:
        path = session_ref[0].journal
        game = session_ref[0].host.game
        again = mount.resume if mount is not None else f"narrator resume {path}"
        if game.winner is not None:
            print(f"narrator: the game is over ({game.winner.value} won); its journal is {path}")
        else:
            print(f"narrator: the game is journaled in {path}; continue it with `{again}`")
    else:
        print("narrator: no game was started")
    return 0


def run(args: AssistArgs) -> int:
    """``narrator assist``."""
    rules, seats, names = table_options(args.table)
    lang = args.table.lang
    # the deal is checked before anything is opened or written
    cards = cards_option(args.roles, seats, rules) if args.roles else None
    path = Path(args.journal or DEFAULT_JOURNAL)
    # a folder is no journal, and holds no game: check_new_file says what it is
    if path.is_file() and path.stat().st_size > 0:
        raise NarratorError(f"{path} already holds a game: continue it with `narrator resume "
                            f"{path}`, or give a new file with --journal FILE")
    check_new_file(path, "--journal")  # before the narration opens its WAV or the device
    if args.audio.out_wav:
        check_new_file(args.audio.out_wav, "--out-wav")
    clock = MonotonicClock()
    narration = _narration(args.audio, clock, lang)

    def setup(deal: Deal) -> Session:
        game = Game(rules, seats=seats, roles=deal.roles, names=deal.names, dealt=deal.dealt)
        try:
            journal = Journal.for_game(path, game, lang=lang, mode="assist")
        except OSError as e:
            raise NarratorError(f"{path}: cannot write the journal ({e.strerror})") from None
        session = make_session(game, clock, journal=journal, narration=narration)
        session.host.start()
        return session

    console = _console(args.console)
    if cards is not None:
        roles, dealt = cards
        return run_app(AssistApp(setup(Deal(roles, names, dealt))), narration, console, lang)
    if console is not None:
        raise NarratorError("--console starts with the game: give the cards with --roles")
    return run_app(AssistApp(setup=setup, seats=seats, rules=rules, names=names), narration,
                   out_wav=args.audio.out_wav)


def roles_option(text: str, seats: int, rules: Rules | None = None) -> dict[int, Role]:
    """``--roles "don=3 mafia=5,9 sheriff=1"``: the cards of ``rules`` (crime-time's when not
    given)."""
    return cards_option(text, seats, rules)[0]


def cards_option(text: str, seats: int,
                 rules: Rules | None = None) -> tuple[dict[int, Role], dict[str, str]]:
    """``--roles "don=3 mafia=5,9 sheriff=1"``: a seat (or several) per card of the ruleset
    (crime-time's when not given), and what else it deals (``maniac_side=mafia``); checked to
    be the ruleset's deal."""
    rules = rules or find_rules("crime-time")
    names = [name for name, _ in card_fields(rules, seats)]
    example = " ".join(f"{n}=" + "|".join(rules.dealt_choices.get(n, ("N",))) for n in names)
    fields: dict[str, str] = {}
    for item in text.split():
        name, _, value = item.partition("=")
        if name not in names or not value:
            raise NarratorError(f'--roles: expected "{example}" for {rules.name}, got {item!r}')
        fields[name] = value
    for name, values in rules.dealt_choices.items():  # vrn: the maniac's side
        if name not in fields:
            raise NarratorError(f'--roles: {name}= missing: {" or ".join(values)} (e.g. '
                                f'"{example}")')
    try:
        return parse_cards(rules, seats, fields)
    except NarratorError as e:
        raise NarratorError(f"--roles: {e}") from None


def resume_session(contents: JournalContents, path: str | Path, clock: Clock, *,
                   narration: Narration | None = None, manifest: Manifest | None = None,
                   fsync: bool = True) -> Session:
    """The game of ``contents`` at its last state, journaling on into ``path``."""
    game = contents.game()
    journal = Journal(path, contents.header, fsync=fsync)
    session = make_session(game, clock, journal=journal, narration=narration,
                           manifest=manifest)
    if narration is not None and game.phase.is_night and not game.is_over:
        narration.player.set_bed(narration.bed)  # back into the night: its bed again
    session.host.resume(left=contents.time_left(game))  # on with the time it had left
    hold_for_host(session.host)
    # the screen goes on from where the killed one was: the last lines said, and the log of
    # what had been entered (in the form the screen may show: no night act is named)
    session.transcript.recall(game)
    # (the ends of speeches and of timers would fill it: what was entered into the game)
    entered = [public_action(a) for a in game.history if not isinstance(a, TimeUp | EndSpeech)]
    session.notes.append(("ok", f"resumed {path}: {len(game.history)} inputs taken up, "
                                f"at {describe(game)}"))
    if entered:
        shown = entered[-RECALLED_ENTRIES:]
        more = len(entered) - len(shown)
        session.notes.append(("ok", "entered before: " + ("… " if more else "")
                                    + " · ".join(shown)))
    return session


def resume(args: ResumeArgs, contents: JournalContents) -> int:
    """``narrator resume JOURNAL`` for a journal written by ``narrator assist``."""
    clock = MonotonicClock()
    note = None
    audio = args.audio
    if audio.out_wav:
        out_wav, note = next_part(audio.out_wav)
        audio = replace(audio, out_wav=out_wav)
        if note:
            print(f"narrator: {note}")  # seen once the screen has closed …
    narration = _narration(audio, clock, contents.header.lang)
    session = resume_session(contents, args.journal, clock, narration=narration)
    if note:
        session.notes.append(("refused", note))  # … and on it, in the log, all along
    return run_app(AssistApp(session), narration, _console(args.console), contents.header.lang,
                   contents)


def _console(args: ConsoleArgs) -> ConsoleOptions | None:
    """``--console``: the human host dealt the cards and counts the hands; the pads show each
    seat its card and its night steps, the operator view the table."""
    if args.links and args.address is None:
        raise NarratorError("--links FILE writes the console's links; add --console [HOST:]PORT")
    return console_options(args, hand_votes=True, wait_for_cards=False)
