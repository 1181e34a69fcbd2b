"""The ``narrator`` command line: play | evening | assist | replay | resume | export | demo |
parse | voices | models.

Each command's work lives in its package; this module only parses arguments, imports the
command lazily (so ``narrator parse`` does not load audio libraries) and turns a
:class:`~narrator.errors.NarratorError` into one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from narrator.engine.rules import known
from narrator.engine.tuning import all_figures
from narrator.errors import NarratorError

LANGS = ("ru", "uk")


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="narrator", description="An offline, voice-driven host for club and sport Mafia."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def audio_opts(p: argparse.ArgumentParser) -> None:
        p.add_argument("--voices", metavar="DIR", help="voice pack folder (default voices/LANG)")
        p.add_argument("--out-wav", metavar="FILE", help="write the narration to a WAV file")
        p.add_argument("--night-music", metavar="FILE", help="music under the night phases")

    def console_opts(p: argparse.ArgumentParser, *, pads: bool = True) -> None:
        p.add_argument("--console", metavar="[HOST:]PORT",
                       help="serve the table console (loopback unless HOST is given, "
                            "e.g. 0.0.0.0:8765 for the club's Wi-Fi)")
        p.add_argument("--links", metavar="FILE",
                       help="write the console's links as JSON (readable by you only)")
        if pads:
            p.add_argument("--listen", choices=("on", "off"), default="on",
                           help="off: no microphone nor model; speeches from the seat pads")
            p.add_argument("--votes", choices=("pads", "hands"), default="pads",
                           help="hands: the operator enters each vote's count")

    def timer_opt(p: argparse.ArgumentParser) -> None:
        p.add_argument("--timer", metavar="NAME=SECONDS", action="append",
                       help="a club's figure: " + ", ".join(
                           n.removesuffix("_seconds") for n in all_figures()))

    def pace_opt(p: argparse.ArgumentParser) -> None:
        p.add_argument("--count-pace", type=float, metavar="SECONDS",
                       help="seconds between the numbers of the hunt's count (default 1.5)")

    def club_opts(p: argparse.ArgumentParser) -> None:
        p.add_argument("--rules-file", metavar="FILE",
                       help="the club's options in a TOML file (fouls, best_move, cards, "
                            "first_day, timers)")
        p.add_argument("--names", metavar="NAMES",
                       help='nicknames per seat, e.g. "1=Ника,2=Бублик,7=Momento Mori"')

    p = sub.add_parser("replay", help="replay a table script or a recorded session")
    p.add_argument("path", help="GAME.table.jsonl, or a folder written by play --record")
    p.add_argument("--json", action="store_true", help="print the protocol as JSON")
    p.add_argument("--lang", choices=LANGS, default=None, help="grammar language (default ru)")
    p.add_argument("--model", metavar="PATH", help="Vosk model for a recorded session")
    p.add_argument("--rules", choices=known(), default=None,
                   help="the ruleset of a script whose header names none (one naming another "
                        "is an error)")
    audio_opts(p)
    p.set_defaults(run="narrator.replay.cli:run")

    p = sub.add_parser("conform", help="play table scripts through every front end and "
                                        "compare the protocols")
    p.add_argument("scripts", nargs="+", metavar="SCRIPT", help="GAME.table.jsonl files")
    p.add_argument("--modes", default="replay,assist,hostless,pads",
                   help="the front ends, comma-separated (default: all four)")
    p.add_argument("--kill", type=int, default=0, metavar="N",
                   help="cut each front end's journal N times and resume from it")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="where the kills fall (default: drawn, and printed)")
    p.add_argument("--json", action="store_true", help="one JSON object per script and mode")
    p.set_defaults(run="narrator.conform.cli:run")

    p = sub.add_parser("parse", help="show the intents the grammar finds in a phrase")
    p.add_argument("text", nargs="+", help="the phrase")
    p.add_argument("--lang", choices=LANGS, default="ru", help="the phrase's language")
    p.add_argument("--seats", type=int, default=10,
                   help="seats at the table (a seat number beyond them is refused)")
    p.add_argument("--json", action="store_true", help="one JSON object per intent")
    p.set_defaults(run="narrator.grammar.cli:run")

    p = sub.add_parser("demo", help="narrate the bundled demo game (aloud, or to a WAV)")
    p.add_argument("--lang", choices=LANGS, default="ru", help="the narrator's language")
    p.add_argument("--voices", metavar="DIR", help="voice pack folder (default voices/LANG)")
    p.add_argument("--out-wav", metavar="FILE",
                   help="write the narration to a WAV file instead of the speaker")
    p.add_argument("--fast", action="store_true", help="virtual clock: render without waiting")
    p.set_defaults(run="narrator.replay.demo:run")

    p = sub.add_parser("play", help="host a whole game with no human host")
    p.add_argument("--rules", choices=known(), default="crime-time", help="the ruleset")
    p.add_argument("--lang", choices=LANGS, default="ru", help="the narrator's language")
    p.add_argument("--seats", type=int, default=None,
                   help="seats at the table (default: the ruleset's)")
    p.add_argument("--seed", type=int, help="deal roles reproducibly")
    p.add_argument("--model", metavar="PATH", help="Vosk model folder (or NARRATOR_MODEL)")
    p.add_argument("--record", metavar="DIR", help="record the session for replay")
    p.add_argument("--journal", metavar="FILE", help="game journal (default journal.jsonl)")
    p.add_argument("--assist", action="store_true", help="show refusals to a human host")
    audio_opts(p)
    pace_opt(p)
    timer_opt(p)
    console_opts(p)
    club_opts(p)
    p.set_defaults(run="narrator.play.cli:run")

    p = sub.add_parser("evening", help="a club's evening of games at one table: one link per "
                                       "player all night, a results table")
    p.add_argument("dir", metavar="DIR",
                   help="the evening's folder: a new one, or one to take up again")
    p.add_argument("--rules", choices=known(), default="crime-time",
                   help="the evening's ruleset (each game may take another)")
    p.add_argument("--lang", choices=LANGS, default="ru", help="the narrator's language")
    p.add_argument("--seats", type=int, default=None, help="seats at the table (default: the "
                                                           "ruleset's)")
    p.add_argument("--players", metavar="NAMES",
                   help='nicknames to add to the roster, e.g. "Ника,Бублик,Momento Mori"')
    p.add_argument("--seed", type=int, help="draw the seats and deal the cards reproducibly")
    p.add_argument("--assist", action="store_true",
                   help="a human host runs each game in the terminal (as narrator assist); "
                        "the console is the players' and the operator's second screen")
    p.add_argument("--model", metavar="PATH", help="Vosk model folder (or NARRATOR_MODEL)")
    p.add_argument("--wav", action="store_true",
                   help="write each game's narration to DIR/game-NN.wav instead of the speaker")
    p.add_argument("--voices", metavar="DIR", help="voice pack folder (default voices/LANG)")
    p.add_argument("--night-music", metavar="FILE", help="music under the night phases")
    pace_opt(p)
    timer_opt(p)
    console_opts(p)
    p.add_argument("--rules-file", metavar="FILE",
                   help="the club's options in a TOML file (fouls, best_move, timers, [points])")
    p.set_defaults(run="narrator.evening.cli:run")

    p = sub.add_parser("assist", help="a human host drives; the narrator speaks and times")
    p.add_argument("--rules", choices=known(), default="crime-time", help="the ruleset")
    p.add_argument("--lang", choices=LANGS, default="ru", help="the narrator's language")
    p.add_argument("--seats", type=int, default=None,
                   help="seats at the table (default: the ruleset's)")
    p.add_argument("--journal", metavar="FILE", help="game journal (default journal.jsonl)")
    p.add_argument("--roles", metavar="ROLES",
                   help='the dealt cards, e.g. "don=3 mafia=5,9 sheriff=1" (else asked at start)')
    audio_opts(p)
    pace_opt(p)
    timer_opt(p)
    console_opts(p, pads=False)
    club_opts(p)
    p.set_defaults(run="narrator.assist.cli:run")

    p = sub.add_parser("resume", help="take a game up again from its journal: killed, or "
                                      "stopped with q")
    p.add_argument("journal", help="the journal file")
    p.add_argument("--json", action="store_true", help="print the protocol so far and stop")
    p.add_argument("--model", metavar="PATH", help="Vosk model folder (a hostless game)")
    audio_opts(p)
    console_opts(p)
    p.set_defaults(run="narrator.resume:run")

    p = sub.add_parser("export", help="write a finished game for a rating system")
    p.add_argument("source", help="a table script, a game journal, a recorded session folder, "
                                  "or an evening's folder (every game of it)")
    p.add_argument("--format", choices=("mafiaratings",), required=True,
                   help="mafiaratings: MafiaRatings' game JSON")
    p.add_argument("--out", "-o", metavar="FILE", help="write here (owner-only) instead of stdout")
    p.add_argument("--start", metavar="WHEN",
                   help="when the game began, ISO 8601 (default: the file's time less the game's "
                        "length)")
    p.add_argument("--club-id", type=int, metavar="N", help="the club's id in the rating system")
    p.add_argument("--event-id", type=int, metavar="N", help="the event's id in the rating system")
    p.set_defaults(run="narrator.evening.export:run")

    p = sub.add_parser("voices", help="build, record or check voice packs")
    vs = p.add_subparsers(dest="voices_command", required=True, metavar="ACTION")
    q = vs.add_parser("build", help="render the default packs with pyttsx3 (espeak-ng)")
    q.add_argument("--lang", choices=LANGS, action="append", help="only this language")
    q.add_argument("--out", metavar="DIR", help="root folder (default voices/)")
    q.add_argument("--force", action="store_true", help="re-render clips that exist")
    q.add_argument("--quiet", action="store_true", help="print only what went wrong")
    q.set_defaults(run="narrator.voice.cli:run_build")
    q = vs.add_parser("record", help="record a club's own host into a pack")
    q.add_argument("--lang", choices=LANGS, default="ru", help="the pack's language")
    q.add_argument("--out", metavar="DIR", required=True,
                   help="the new pack's folder (the manifest and the recorded clips)")
    q.add_argument("--only", metavar="KEY", action="append", help="record only these keys")
    q.set_defaults(run="narrator.voice.cli:run_record")
    q = vs.add_parser("check", help="check a pack: manifest, missing and broken clips")
    q.add_argument("pack", metavar="DIR", help="the pack's folder (its manifest.json)")
    q.set_defaults(run="narrator.voice.cli:run_check")

    p = sub.add_parser("models", help="fetch or check Vosk speech models")
    ms = p.add_subparsers(dest="models_command", required=True, metavar="ACTION")
    q = ms.add_parser("fetch", help="download the official small model for a language")
    q.add_argument("lang", choices=LANGS, help="the model's language")
    q.add_argument("--dir", metavar="DIR", help="where to unpack (default models/)")
    q.set_defaults(run="narrator.audio.models:run_fetch")
    q = ms.add_parser("install", help="install a model's .zip downloaded on another computer "
                                      "(no network needed)")
    q.add_argument("file", metavar="FILE.zip", help="the model's zip, e.g. "
                                                    "vosk-model-small-ru-0.22.zip")
    q.add_argument("--dir", metavar="DIR", help="where to unpack (default models/)")
    q.set_defaults(run="narrator.audio.models:run_install")
    q = ms.add_parser("check", help="check that a model loads and takes runtime grammars")
    q.add_argument("--model", metavar="PATH",
                   help="the model folder (default: the one play would use for --lang)")
    q.add_argument("--lang", choices=LANGS, default="ru", help="the language to find one for")
    q.set_defaults(run="narrator.audio.models:run_check")
    return parser


def _resolve(target: str) -> Callable[[argparse.Namespace], int]:
    module_name, func_name = target.split(":")
    func: Callable[[argparse.Namespace], int] = getattr(
        importlib.import_module(module_name), func_name
    )
    return func


class OutputError(NarratorError):
    """Standard output cannot be written (a full disk, a closed pipe)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(f"cannot write the output ({error.strerror or error})")
        self.error = error


class _GuardedOutput:
    """Standard output whose write errors are :class:`OutputError` s, not tracebacks."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as e:
            raise OutputError(e) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise OutputError(e) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_stdout() -> None:
    """Point the failed standard output at /dev/null, so that the interpreter's last flush at
    exit does not print a second, noisy error."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``narrator`` console script."""
    args = _build_parser().parse_args(argv)
    stdout = sys.stdout
    # A terminal is left alone (the assist screen draws on it); files and pipes are guarded.
    guarded = not stdout.isatty()
    if guarded:
        sys.stdout = _GuardedOutput(stdout)
    try:
        code = _resolve(args.run)(args)
        sys.stdout.flush()
        return code
    except OutputError as e:
        _drop_stdout()
        if e.error.errno == errno.EPIPE:
            return 141  # the reader went away (`| head`): as quiet as any command
        print(f"narrator: {e}", file=sys.stderr)
        return 2
    except NarratorError as e:
        print(f"narrator: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("narrator: interrupted", file=sys.stderr)
        return 130
    finally:
        if guarded:
            sys.stdout = stdout


if __name__ == "__main__":
    raise SystemExit(main())
