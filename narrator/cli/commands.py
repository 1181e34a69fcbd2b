"""The command table: every command, its options, the value it is given and where it runs.

Each row names the command and its help line, lists its options in the order ``--help`` shows
them (the shared ones from :mod:`narrator.cli.options`, its own written out), says how its
value (:mod:`narrator.arguments`) is read from the parsed namespace, and names its entry as
``module:function`` — imported only when the command runs, so ``narrator parse`` loads no
audio library and ``narrator --help`` no game.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass

from narrator import arguments as a
from narrator.cli import options as o
from narrator.cli.options import Option, option
from narrator.seating.formats import FORMATS


@dataclass(frozen=True)
class Command:
    """One command: ``read`` makes its value from the namespace, ``entry`` takes it."""

    name: str
    help: str
    options: tuple[Option, ...]
    read: Callable[[argparse.Namespace], object]
    entry: str
    #: what ``--help`` shows above the options (a newcomer's walk through the command)
    about: str = ""

    def run(self, ns: argparse.Namespace) -> int:
        module_name, func_name = self.entry.split(":")
        func: Callable[[object], int] = getattr(importlib.import_module(module_name), func_name)
        return func(self.read(ns))


@dataclass(frozen=True)
class Commands:
    """A command whose first argument picks one of its own (``voices build | record | check``);
    ``dest`` keeps the one picked."""

    name: str
    help: str
    dest: str
    commands: tuple[Command, ...]


def command(name: str, help: str, read: Callable[[argparse.Namespace], object], entry: str,
            *options: Option, about: str = "") -> Command:
    return Command(name, help, options, read, entry, about)


# -- the games, and what replays, checks or takes one up ----------------------------------------

REPLAY = command(
    "replay", "replay a table script or a recorded session",
    a.ReplayArgs.from_args, "narrator.replay.cli:run",
    option("path", help="GAME.table.jsonl, or a folder written by play --record"),
    o.JSON,
    o.LANG.but(default=None, help="grammar language (default ru)"),
    o.MODEL.but(help="Vosk model for a recorded session"),
    o.RULES.but(default=None, help="the ruleset of a script whose header names none (one "
                                   "naming another is an error)"),
    *o.AUDIO)

CONFORM = command(
    "conform", "play table scripts through every front end and compare the protocols",
    a.ConformArgs.from_args, "narrator.conform.cli:run",
    option("scripts", nargs="+", metavar="SCRIPT", help="GAME.table.jsonl files"),
    option("--modes", default="replay,assist,hostless,pads",
           help="the front ends, comma-separated (default: all four)"),
    option("--kill", type=int, default=0, metavar="N",
           help="cut each front end's journal N times and resume from it"),
    o.SEED.but(default=None, metavar="S", help="where the kills fall (default: drawn, and "
                                               "printed)"),
    o.JSON.but(help="one JSON object per script and mode"))

PARSE = command(
    "parse", "show the intents the grammar finds in a phrase",
    a.ParseArgs.from_args, "narrator.grammar.cli:run",
    option("text", nargs="+", help="the phrase"),
    o.LANG.but(help="the phrase's language"),
    o.SEATS.but(default=10, help="seats at the table (a seat number beyond them is refused)"),
    o.JSON.but(help="one JSON object per intent"))

DEMO = command(
    "demo", "narrate the bundled demo game (aloud, or to a WAV)",
    a.DemoArgs.from_args, "narrator.replay.demo:run",
    o.LANG, o.VOICES,
    o.OUT_WAV.but(help="write the narration to a WAV file instead of the speaker"),
    option("--fast", action="store_true", help="virtual clock: render without waiting"))

PLAY = command(
    "play", "host a whole game with no human host",
    a.PlayArgs.from_args, "narrator.play.cli:run",
    *o.TABLE, o.SEED, o.MODEL,
    option("--record", metavar="DIR", help="record the session for replay"),
    o.JOURNAL, o.ASSIST, *o.AUDIO, *o.FIGURES, *o.CONSOLE, *o.PADS, *o.BROADCAST, *o.CLUB)

_CLUB = option("--club", metavar="DIR",
               help="the club's folder (narrator club fetch's): its club.toml and roster.csv, "
                    "unless --rules-file / --roster are given")

EVENING = command(
    "evening", "a club's evening of games at one table: one link per player all night, a "
               "results table",
    a.EveningArgs.from_args, "narrator.evening.cli:run",
    option("dir", metavar="DIR", help="the evening's folder: a new one, or one to take up "
                                      "again"),
    o.RULES.but(help="the evening's ruleset (each game may take another)"),
    o.LANG, o.SEATS,
    option("--players", metavar="NAMES",
           help='nicknames to add to the roster, e.g. "Ника,Бублик,Momento Mori"'),
    option("--roster", metavar="FILE",
           help="CSV nickname,mafiaratings_id[,moderator]: players to add with their "
                "MafiaRatings ids (copied into DIR/roster.csv)"),
    option("--plan", metavar="FILE",
           help="seat each game as a tournament's plan says (narrator tournament plan's "
                "JSON or CSV, MafiaRatings' seating, a web_schedule); its players join"),
    option("--plan-table", type=int, default=1, metavar="N",
           help="the plan's table this evening plays (default 1)"),
    option("--join", metavar="LINK",
           help="a table of a tournament: the director's join link for it "
                "(http://HOST:PORT/join/TOKEN); its plan seats the games, each game over is "
                "sent back (kept in DIR/outbox until the director has it)"),
    option("--table", dest="join_table", type=int, metavar="N",
           help="with --join: the table the link is for (checked against the director's)"),
    o.SEED.but(help="draw the seats and deal the cards reproducibly"),
    o.ASSIST.but(help="a human host runs each game in the terminal (as narrator assist); the "
                      "console is the players' and the operator's second screen"),
    o.MODEL,
    option("--wav", action="store_true",
           help="write each game's narration to DIR/game-NN.wav instead of the speaker"),
    o.VOICES, o.NIGHT_MUSIC, *o.FIGURES, *o.CONSOLE, *o.PADS, *o.BROADCAST,
    o.RULES_FILE.but(help="the club's options in a TOML file (the rule catalogue's groups "
                          "or its code, fouls, best_move, timers, [points]; every option: "
                          "docs/rulesets.md)"),
    _CLUB.but(help="the club's folder (narrator club fetch's): its club.toml as --rules-file "
                   "and its roster.csv as --roster, unless those are given"))

ASSIST = command(
    "assist", "a human host drives; the narrator speaks and times",
    a.AssistArgs.from_args, "narrator.assist.cli:run",
    *o.TABLE, o.JOURNAL,
    option("--roles", metavar="ROLES",
           help='the dealt cards, e.g. "don=3 mafia=5,9 sheriff=1" (else asked at start)'),
    option("--debug", action="store_true",
           help="also show the game's notation line under the candidates (for developers)"),
    *o.AUDIO, *o.FIGURES, *o.CONSOLE, *o.CLUB)

RESUME = command(
    "resume", "take a game up again from its journal: killed, or stopped with q",
    a.ResumeArgs.from_args, "narrator.resume:run",
    option("journal", help="the journal file"),
    o.JSON.but(help="print the protocol so far and stop"),
    o.MODEL.but(help="Vosk model folder (a hostless game)"),
    *o.AUDIO, *o.CONSOLE, *o.PADS, *o.BROADCAST)

EXPORT = command(
    "export", "write a finished game for a rating system",
    a.ExportArgs.from_args, "narrator.evening.export:run",
    option("source", help="a table script, a game journal, a recorded session folder, or an "
                          "evening's folder (every game of it)"),
    option("--format", choices=("mafiaratings",), required=True,
           help="mafiaratings: MafiaRatings' game JSON"),
    option("--out", "-o", metavar="FILE",
           help="write here (owner-only) instead of stdout; an evening: a folder, a file "
                "per game"),
    option("--start", metavar="WHEN", help="when the game began, ISO 8601 (default: the "
                                           "file's time less the game's length)"),
    option("--club-id", type=int, metavar="N", help="the club's id in MafiaRatings"),
    option("--event-id", type=int, metavar="N", help="the event's id in MafiaRatings"),
    option("--moderator-id", type=int, metavar="N",
           help="the host's user id in MafiaRatings (default: the roster's moderator line)"),
    option("--roster", metavar="FILE",
           help="CSV nickname,mafiaratings_id[,moderator]: each seat's user id (an evening: "
                "default its own roster)"),
    option("--tournament-id", type=int, metavar="N", help="the tournament's id, if any"),
    option("--table", type=int, metavar="N", help="the table's number"),
    option("--game", type=int, metavar="N",
           help="the game's number (an evening: each game's own)"),
    option("--demo", action="store_true",
           help="write the record even without the club, event or host's id (MafiaRatings "
                "stores a record that names an event; one without it is only a demo there)"),
    option("--send", metavar="URL", help="send each game to MafiaRatings at URL"),
    option("--user", metavar="NAME", help="the MafiaRatings account sending (with --send)"))

REVIEW = command(
    "review", "a judge's page of a game: its timeline, each moment's recorded seconds beside it",
    a.ReviewArgs.from_args, "narrator.review.cli:run",
    option("source", help="a folder written by play --record, or a game journal"),
    option("--out", "-o", metavar="DIR",
           help="the new folder for the page (default: SOURCE.review beside it); owner-only, "
                "the page shows the cards"),
    option("--before", type=float, default=3.0, metavar="S",
           help="seconds of the recording before each moment (default 3)"),
    option("--after", type=float, default=4.0, metavar="S",
           help="seconds of the recording after each moment (default 4)"))

STANDINGS = command(
    "standings", "a club's season: the points of every game of its evenings",
    a.StandingsArgs.from_args, "narrator.evening.standings:run",
    option("dirs", nargs="+", metavar="DIR", help="the evenings' folders, in order"),
    option("--scoring", metavar="NAME|FILE",
           help="the scoring system: fiim, points, a MafiaRatings scoring JSON, or a club's "
                "TOML with [scoring] (default: the first evening's)"),
    option("--out", "-o", metavar="FILE", help="write here instead of stdout"),
    option("--json", action="store_true", help="JSON, each game's points too (default: CSV)"))

# -- tournaments --------------------------------------------------------------------------------

_FROM = option("--from", dest="from_format", choices=FORMATS, metavar="FORMAT",
               help="the file's format: ours-json, ours-csv, mafiaratings, web-schedule "
                    "(default: told by its content)")
_ROSTER = option("--roster", metavar="CSV",
                 help="CSV nickname,mafiaratings_id: names for MafiaRatings' user ids, ids "
                      "for the nicknames")
_PLAYERS = option("--players", metavar="FILE",
                  help="a web_schedule's players file (default: STEM.players.json beside "
                       "STEM.json, if there)")

TOURNAMENT = Commands("tournament", "a tournament: its seating plan made, scored, converted; "
                      "the director's box run",
                      "tournament_command", (
    command("plan", "a seating plan: who plays which round, at which table, on which seat",
            a.TournamentPlanArgs.from_args, "narrator.tournament.plan_cli:run",
            option("--players", metavar="FILE", required=True,
                   help="the players: one nickname a line, or a roster CSV "
                        "nickname,mafiaratings_id[,moderator]"),
            option("--tables", type=int, metavar="T", required=True, help="tables a round"),
            option("--games", type=int, metavar="G", required=True, help="games a player"),
            option("--apart", metavar="GROUPS",
                   help='players never at one table, e.g. "A+B,C+D" (a group may have more: '
                        '"A+B+C")'),
            option("--judges", metavar="JUDGES",
                   help='players who judge a table never play there, e.g. "A=1,B=2" (a '
                        'judge of two tables: "C=1+3")'),
            option("--seed", type=int, default=0, metavar="S",
                   help="the search's seed (default 0): the same seed, the same plan"),
            option("--time-limit", type=float, default=60.0, metavar="SECONDS",
                   help="stop the search after this long (default 60; a plan stopped by the "
                        "clock may differ from run to run)"),
            option("--out", "-o", metavar="OUT", required=True,
                   help="write OUT.json and OUT.csv"),
            option("--quiet", action="store_true", help="no progress bar")),
    command("score", "a seating plan's score in MafiaRatings' terms and its worst-off player",
            a.TournamentScoreArgs.from_args, "narrator.tournament.files_cli:run_score",
            option("file", metavar="FILE", help="the plan, in any of the formats"),
            _FROM, _ROSTER, _PLAYERS,
            option("--json", action="store_true", help="one JSON object")),
    command("convert", "write a seating plan in another format",
            a.TournamentConvertArgs.from_args, "narrator.tournament.files_cli:run_convert",
            option("file", metavar="FILE", help="the plan, in any of the formats"),
            option("--to", choices=FORMATS, required=True, metavar="FORMAT",
                   help="the format to write: ours-json, ours-csv, mafiaratings (an event's "
                        "seating), web-schedule"),
            option("--out", "-o", metavar="OUT", required=True, help="the file to write"),
            _FROM, _ROSTER, _PLAYERS,
            option("--out-players", metavar="FILE",
                   help="web-schedule: where its players file goes (default: OUT's stem + "
                        ".players.json)")),
    command("run", "the director's box: the plan to the tables, their games, the standings",
            a.TournamentRunArgs.from_args, "narrator.tournament.run_cli:run",
            option("dir", metavar="DIR",
                   help="the tournament's folder (its database; a later run takes it up)"),
            option("--plan", metavar="FILE", required=True, help="the plan, in any format"),
            option("--roster", metavar="CSV",
                   help="CSV nickname,mafiaratings_id: the players' ids"),
            option("--scoring", metavar="NAME|FILE",
                   help="the scoring system: fiim (default), points, a MafiaRatings scoring "
                        "JSON, or a club's TOML with [scoring]"),
            _CLUB.but(help="the club's folder (narrator club fetch's): its club.toml as "
                           "--scoring and its roster.csv as --roster, unless those are given"),
            o.RULES.but(default=None, help="the ruleset the tables play (default: each "
                                           "table's own)"),
            option("--name", metavar="TEXT", help="the tournament's name (default: DIR's)"),
            option("--lang", choices=("ru", "uk"), default="ru",
                   help="the language of the board, the players' and the director's pages"),
            option("--tournament-id", type=int, metavar="N",
                   help="the tournament's id in MafiaRatings"),
            option("--final-from", type=int, metavar="R",
                   help="the final begins with round R (from 1)"),
            option("--final-coefficient", type=float, metavar="X",
                   help="the final's games' points times X (default 1)"),
            option("--hide-final", action="store_true",
                   help="the standings not shown while the final plays"),
            option("--console", metavar="HOST:PORT", required=True,
                   help="where the director's box listens, e.g. 0.0.0.0:8800")),
    command("export", "every game the director's box holds, as MafiaRatings' game JSON (and "
                      "sent, with --send)",
            a.TournamentExportArgs.from_args, "narrator.tournament.export_cli:run",
            option("dir", metavar="DIR", help="the tournament's folder (tournament run's DIR)"),
            option("--out", "-o", metavar="OUT", required=True,
                   help="the folder to write, a file per game (owner-only: they hold every "
                        "card)"),
            option("--club-id", type=int, metavar="N", help="the club's id in MafiaRatings"),
            option("--event-id", type=int, metavar="N",
                   help="the event's id in MafiaRatings (the tournament's round or stage)"),
            option("--final-event-id", type=int, metavar="N",
                   help="the final's games filed under this event instead (tournament run "
                        "--final-from)"),
            option("--moderator-id", type=int, metavar="N",
                   help="the host's user id in MafiaRatings"),
            option("--demo", action="store_true",
                   help="write the records even without the club, event or host's id "
                        "(MafiaRatings stores a record that names an event)"),
            option("--send", metavar="URL", help="send each game to MafiaRatings at URL"),
            option("--user", metavar="NAME",
                   help="the MafiaRatings account sending (with --send)")),
))

CLUB = Commands("club", "the club's setup from its rating site, once, for offline use",
                 "club_command", (
    command("fetch", "write the club's folder from MafiaRatings: its rules code, its scoring "
                     "system with every version, its players' ids (online; run again to "
                     "update)",
            a.ClubFetchArgs.from_args, "narrator.club.fetch:run",
            option("--site", metavar="URL", required=True,
                   help="the rating site, e.g. https://mafiaratings.com"),
            option("--club-id", type=int, metavar="N", required=True,
                   help="the club's id on the site"),
            option("--out", "-o", metavar="CLUBDIR", required=True,
                   help="the club's folder: club.toml, scoring/*.json, roster.csv")),
))

# -- voices and models ----------------------------------------------------------------------------

VOICES = Commands("voices", "build, record or check voice packs", "voices_command", (
    command("build", "render the default packs with pyttsx3 (espeak-ng)",
            a.VoicesBuildArgs.from_args, "narrator.voice.cli:run_build",
            o.LANG.but(action="append", default=None, help="only this language"),
            option("--out", metavar="DIR", help="root folder (default voices/)"),
            option("--force", action="store_true", help="re-render clips that exist"),
            option("--quiet", action="store_true", help="print only what went wrong")),
    command("record", "record a club's own host into a pack",
            a.VoicesRecordArgs.from_args, "narrator.voice.cli:run_record",
            o.LANG.but(help="the pack's language"),
            option("--out", metavar="DIR", required=True,
                   help="the new pack's folder (the manifest and the recorded clips)"),
            option("--only", metavar="KEY", action="append", help="record only these keys")),
    command("check", "check a pack: manifest, missing and broken clips",
            a.VoicesCheckArgs.from_args, "narrator.voice.cli:run_check",
            option("pack", metavar="DIR", help="the pack's folder (its manifest.json)")),
))

LISTEN_TEST_ABOUT = """\
The rehearsal before a hostless evening: how well the narrator hears this table.

1. Set the table as for a game: the box where it will stand, the microphone in the
   middle, the speaker where it plays, every seat taken (a player or a stand-in).
2. Run `narrator listen test --lang ru` (the model is found as for `narrator play`).
   The narrator says whose turn it is and reads a phrase out: «Слово игроку номер
   четыре. Выставляю номер пять». The seat named reads the phrase, at their own
   place, in their own voice, once the narrator is quiet. The night music plays
   under it all and the narrator answers «Принято» as in a game.
3. Some phrases must be refused (the future tense, a second nomination, a seat out of
   the game, a number beyond the table) and some must give nothing (free speech):
   read them as written, too. About 26 phrases at ten seats, four minutes.
4. The report: each phrase (said, heard, decided, right / wrong / missed, the latency
   from the last word), the totals, the worst-heard seats and the verdict in words:
   «слушание надёжно», or what to change — the microphone's place, the model
   (--model), or to play with --listen off. Hostless play wants 95 % right, no phrase
   taken wrongly and p95 within 1 s.
5. DIR (default listen-test) keeps the recording and report.txt / report.json: send
   report.json (no audio; --with-audio packs the recording too). `narrator replay
   DIR` hears the recording again and prints the same report.
"""

LISTEN = Commands("listen", "the club's listening test: how well the narrator hears this table",
                  "listen_command", (
    command("test", "a rehearsal before hostless play: the players read the narrator's "
                    "phrases at their seats; the report says what was heard and whether "
                    "to trust it",
            a.ListenTestArgs.from_args, "narrator.play.listen_test:run",
            o.LANG.but(help="the table's language: the phrases, the grammar, the verdict"),
            o.SEATS.but(default=10, help="seats at the table (default 10): each seat reads "
                                         "its share of the phrases"),
            o.MODEL.but(help="the Vosk model to test (or NARRATOR_MODEL; default: the one "
                             "play would use)"),
            option("--out", metavar="DIR", default="listen-test",
                   help="a new folder for the recording and the report (default "
                        "listen-test)"),
            o.VOICES,
            o.NIGHT_MUSIC.but(help="the club's night music under the test (default: the "
                                   "soft noise bed a game plays)"),
            option("--no-music", action="store_true",
                   help="no bed under the phrases (a quiet room; a game has its music)"),
            option("--window", type=float, default=6.0, metavar="SECONDS",
                   help="how long each phrase is listened for at most (default 6)"),
            option("--with-audio", action="store_true",
                   help="also pack the recording with the report into DIR/send.zip (by "
                        "default the report holds no audio)"),
            about=LISTEN_TEST_ABOUT),
))

MODELS = Commands("models", "fetch or check Vosk speech models", "models_command", (
    command("fetch", "download the official small model for a language",
            a.ModelsFetchArgs.from_args, "narrator.audio.models:run_fetch",
            option("lang", choices=o.LANGS, help="the model's language"),
            o.MODELS_DIR),
    command("install", "install a model's .zip downloaded on another computer (no network "
                       "needed)",
            a.ModelsInstallArgs.from_args, "narrator.audio.models:run_install",
            option("file", metavar="FILE.zip",
                   help="the model's zip, e.g. vosk-model-small-ru-0.22.zip"),
            o.MODELS_DIR),
    command("check", "check that a model loads and takes runtime grammars",
            a.ModelsCheckArgs.from_args, "narrator.audio.models:run_check",
            o.MODEL.but(help="the model folder (default: the one play would use for --lang)"),
            o.LANG.but(help="the language to find one for")),
))


#: every command, in the order ``narrator --help`` lists them
COMMANDS: tuple[Command | Commands, ...] = (
    REPLAY, CONFORM, PARSE, DEMO, PLAY, EVENING, ASSIST, RESUME, EXPORT, REVIEW, STANDINGS,
    TOURNAMENT, CLUB, LISTEN, VOICES, MODELS)


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command; the one picked is the namespace's ``command_row``."""
    parser = argparse.ArgumentParser(
        prog="narrator", description="An offline, voice-driven host for club and sport Mafia."
    )
    _add_commands(parser, COMMANDS, "command", "COMMAND")
    return parser


def _add_commands(parser: argparse.ArgumentParser, rows: tuple[Command | Commands, ...],
                  dest: str, metavar: str) -> None:
    sub = parser.add_subparsers(dest=dest, required=True, metavar=metavar)
    for row in rows:
        about = row.about if isinstance(row, Command) else ""
        p = sub.add_parser(row.name, help=row.help, description=about or None,
                           formatter_class=argparse.RawDescriptionHelpFormatter
                           if about else argparse.HelpFormatter)
        if isinstance(row, Commands):
            _add_commands(p, row.commands, row.dest, "ACTION")
            continue
        for opt in row.options:
            opt.add_to(p)
        p.set_defaults(command_row=row)
