"""What each command is given: its options, read once from the command line into frozen values.

The command line (:mod:`narrator.cli`) declares the options and parses them; each command's
value is made here from argparse's namespace, in one place (``from_args``), so a command reads
typed fields — never an attribute one command has and another lacks. The groups of options
several commands share are values of their own: the table (:class:`TableArgs`), the
narration's outputs (:class:`AudioArgs`), the console (:class:`ConsoleArgs`) and what its pads
do (:class:`PadArgs`).

Nothing here is checked beyond what argparse checks (a choice, a number): each command checks
what it is given and says what is wrong in one line naming the option. This is the bottom of
the house (floor 0), so that every command's package can take its value, whatever its floor.
"""

from __future__ import annotations

from argparse import Namespace
from dataclasses import dataclass, replace

from narrator.arguments.club import CLUB_FILE, ROSTER_FILE, ClubFetchArgs, club_paths
from narrator.arguments.tournament import (
    TournamentConvertArgs,
    TournamentExportArgs,
    TournamentPlanArgs,
    TournamentRunArgs,
    TournamentScoreArgs,
)

__all__ = ["CLUB_FILE", "ROSTER_FILE", "AssistArgs", "AudioArgs", "BroadcastArgs",
           "ClubFetchArgs", "ConformArgs", "ConsoleArgs", "DemoArgs", "EveningArgs",
           "ExportArgs", "ModelsCheckArgs", "ModelsFetchArgs", "ModelsInstallArgs", "PadArgs",
           "ParseArgs", "PlayArgs", "ReplayArgs", "ResumeArgs", "ReviewArgs", "StandingsArgs",
           "TableArgs", "TournamentConvertArgs", "TournamentExportArgs", "TournamentPlanArgs",
           "TournamentRunArgs", "TournamentScoreArgs", "VoicesBuildArgs", "VoicesCheckArgs",
           "VoicesRecordArgs", "club_paths"]

# -- the groups several commands share --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableArgs:
    """The game at the table: ``--rules``, ``--lang``, ``--seats``, the seats' nicknames
    (``--names``) and the club's figures (``--count-pace``, ``--timer``, ``--rules-file``)."""

    rules: str
    lang: str
    seats: int | None = None
    count_pace: float | None = None
    timers: tuple[str, ...] = ()
    rules_file: str | None = None
    names: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace, *, names: str | None) -> TableArgs:
        """``names``: the nicknames given per seat, where the command takes them (an evening's
        players are its roster's, not the seats')."""
        return cls(ns.rules, ns.lang, ns.seats, ns.count_pace, tuple(ns.timer or ()),
                   ns.rules_file, names)


@dataclass(frozen=True, slots=True)
class AudioArgs:
    """Where the narration goes: ``--voices`` (the pack), ``--out-wav`` (a WAV file instead of
    the speaker), ``--night-music`` (under the night phases)."""

    voices: str | None = None
    out_wav: str | None = None
    night_music: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> AudioArgs:
        return cls(ns.voices, ns.out_wav, ns.night_music)


@dataclass(frozen=True, slots=True)
class ConsoleArgs:
    """The table console: ``--console [HOST:]PORT`` (None: not served), ``--links FILE``."""

    address: str | None = None
    links: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> ConsoleArgs:
        return cls(ns.console, ns.links)


@dataclass(frozen=True, slots=True)
class BroadcastArgs:
    """The stream's view: ``--broadcast [HOST:]PORT`` (None: not served) and
    ``--broadcast-delay SECONDS`` (None: the default)."""

    address: str | None = None
    delay: float | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> BroadcastArgs:
        return cls(ns.broadcast, ns.broadcast_delay)


@dataclass(frozen=True, slots=True)
class PadArgs:
    """What the seat pads take from the microphone and the operator: ``--listen off`` (the pads
    end the speeches; no microphone, no model), ``--votes hands`` (the operator enters each
    vote's count)."""

    listen: bool = True
    hand_votes: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> PadArgs:
        return cls(ns.listen != "off", ns.votes == "hands")


# -- the games --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayArgs:
    """``narrator play``: a game with no human host."""

    table: TableArgs
    audio: AudioArgs
    console: ConsoleArgs
    pads: PadArgs
    seed: int | None = None
    model: str | None = None
    record: str | None = None
    journal: str | None = None
    assist: bool = False
    broadcast: BroadcastArgs = BroadcastArgs()

    @classmethod
    def from_args(cls, ns: Namespace) -> PlayArgs:
        return cls(TableArgs.from_args(ns, names=ns.names), AudioArgs.from_args(ns),
                   ConsoleArgs.from_args(ns), PadArgs.from_args(ns), ns.seed, ns.model,
                   ns.record, ns.journal, ns.assist, BroadcastArgs.from_args(ns))


@dataclass(frozen=True, slots=True)
class AssistArgs:
    """``narrator assist``: a human host drives (no pads' options: the host counts the
    hands)."""

    table: TableArgs
    audio: AudioArgs
    console: ConsoleArgs
    journal: str | None = None
    roles: str | None = None
    #: the screen also shows the game's notation line (a developer's, not the table's)
    debug: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> AssistArgs:
        return cls(TableArgs.from_args(ns, names=ns.names), AudioArgs.from_args(ns),
                   ConsoleArgs.from_args(ns), ns.journal, ns.roles,
                   bool(getattr(ns, "debug", False)))


@dataclass(frozen=True, slots=True)
class EveningArgs:
    """``narrator evening DIR``: the games of a club's evening. Its narration goes to the
    speaker or, with ``--wav``, to a WAV per game (so no ``--out-wav``)."""

    dir: str
    table: TableArgs
    audio: AudioArgs
    console: ConsoleArgs
    pads: PadArgs
    players: str | None = None
    seed: int | None = None
    assist: bool = False
    model: str | None = None
    wav: bool = False
    roster: str | None = None
    plan: str | None = None
    plan_table: int = 1
    join: str | None = None  # a tournament director's join link for this table
    join_table: int | None = None  # ``--table N``: the table that link is for
    broadcast: BroadcastArgs = BroadcastArgs()

    @classmethod
    def from_args(cls, ns: Namespace) -> EveningArgs:
        rules_file, roster = club_paths(ns.club, ns.rules_file, ns.roster)
        table = replace(TableArgs.from_args(ns, names=None), rules_file=rules_file)
        return cls(ns.dir, table,
                   AudioArgs(ns.voices, None, ns.night_music), ConsoleArgs.from_args(ns),
                   PadArgs.from_args(ns), ns.players, ns.seed, ns.assist, ns.model, ns.wav,
                   roster, ns.plan, ns.plan_table, ns.join, ns.join_table,
                   BroadcastArgs.from_args(ns))


@dataclass(frozen=True, slots=True)
class ResumeArgs:
    """``narrator resume JOURNAL``: the outputs and the console of the game taken up (its
    table is the journal's)."""

    journal: str
    audio: AudioArgs
    console: ConsoleArgs
    pads: PadArgs
    json: bool = False
    model: str | None = None
    broadcast: BroadcastArgs = BroadcastArgs()

    @classmethod
    def from_args(cls, ns: Namespace) -> ResumeArgs:
        return cls(ns.journal, AudioArgs.from_args(ns), ConsoleArgs.from_args(ns),
                   PadArgs.from_args(ns), ns.json, ns.model, BroadcastArgs.from_args(ns))


# -- replaying, checking, exporting -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReplayArgs:
    """``narrator replay PATH``: a table script or a recorded session (``lang`` and ``rules``
    None: the script's own)."""

    path: str
    audio: AudioArgs
    json: bool = False
    lang: str | None = None
    model: str | None = None
    rules: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> ReplayArgs:
        return cls(ns.path, AudioArgs.from_args(ns), ns.json, ns.lang, ns.model, ns.rules)


@dataclass(frozen=True, slots=True)
class DemoArgs:
    """``narrator demo``: the bundled game, narrated (no night music)."""

    lang: str
    audio: AudioArgs
    fast: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> DemoArgs:
        return cls(ns.lang, AudioArgs(ns.voices, ns.out_wav), ns.fast)


@dataclass(frozen=True, slots=True)
class ConformArgs:
    """``narrator conform SCRIPT…``: ``modes`` as typed (comma-separated), checked by the
    command."""

    scripts: tuple[str, ...]
    modes: str
    kill: int = 0
    seed: int | None = None
    json: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> ConformArgs:
        return cls(tuple(ns.scripts), ns.modes, ns.kill, ns.seed, ns.json)


@dataclass(frozen=True, slots=True)
class ParseArgs:
    """``narrator parse TEXT…``: the phrase's words, as typed."""

    text: tuple[str, ...]
    lang: str = "ru"
    seats: int = 10
    json: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> ParseArgs:
        return cls(tuple(ns.text), ns.lang, ns.seats, ns.json)


@dataclass(frozen=True, slots=True)
class ReviewArgs:
    """``narrator review SOURCE [-o OUT] [--before S] [--after S]``: a judge's page of a
    recorded session or a journal."""

    source: str
    out: str | None = None
    before: float = 3.0
    after: float = 4.0

    @classmethod
    def from_args(cls, ns: Namespace) -> ReviewArgs:
        return cls(ns.source, ns.out, ns.before, ns.after)


@dataclass(frozen=True, slots=True)
class ExportArgs:
    """``narrator export --format F SOURCE``: a game, or an evening's folder. ``send`` and
    ``user``: where the records go and as whom (``--send URL --user NAME``)."""

    source: str
    format: str
    out: str | None = None
    start: str | None = None
    club_id: int | None = None
    event_id: int | None = None
    moderator_id: int | None = None
    tournament_id: int | None = None
    table: int | None = None
    game: int | None = None
    roster: str | None = None
    demo: bool = False
    send: str | None = None
    user: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> ExportArgs:
        return cls(ns.source, ns.format, ns.out, ns.start, ns.club_id, ns.event_id,
                   ns.moderator_id, ns.tournament_id, ns.table, ns.game, ns.roster, ns.demo,
                   ns.send, ns.user)


@dataclass(frozen=True, slots=True)
class StandingsArgs:
    """``narrator standings DIR… [--scoring NAME|FILE] [-o FILE] [--json]``: a season's
    evenings, scored by one system."""

    dirs: tuple[str, ...]
    scoring: str | None = None
    out: str | None = None
    json: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> StandingsArgs:
        return cls(tuple(ns.dirs), ns.scoring, ns.out, ns.json)


# -- voices and models ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VoicesBuildArgs:
    """``narrator voices build``: ``langs`` the languages asked for (``--lang``, once each;
    empty: every one)."""

    langs: tuple[str, ...] = ()
    out: str | None = None
    force: bool = False
    quiet: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> VoicesBuildArgs:
        return cls(tuple(ns.lang or ()), ns.out, ns.force, ns.quiet)


@dataclass(frozen=True, slots=True)
class VoicesRecordArgs:
    """``narrator voices record --out DIR``: ``only`` the keys asked for (empty: every one)."""

    out: str
    lang: str = "ru"
    only: tuple[str, ...] = ()

    @classmethod
    def from_args(cls, ns: Namespace) -> VoicesRecordArgs:
        return cls(ns.out, ns.lang, tuple(ns.only or ()))


@dataclass(frozen=True, slots=True)
class VoicesCheckArgs:
    """``narrator voices check DIR``."""

    pack: str

    @classmethod
    def from_args(cls, ns: Namespace) -> VoicesCheckArgs:
        return cls(ns.pack)


@dataclass(frozen=True, slots=True)
class ModelsFetchArgs:
    """``narrator models fetch LANG [--dir DIR]``."""

    lang: str
    dir: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> ModelsFetchArgs:
        return cls(ns.lang, ns.dir)


@dataclass(frozen=True, slots=True)
class ModelsInstallArgs:
    """``narrator models install FILE.zip [--dir DIR]``."""

    file: str
    dir: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> ModelsInstallArgs:
        return cls(ns.file, ns.dir)


@dataclass(frozen=True, slots=True)
class ModelsCheckArgs:
    """``narrator models check [--model PATH] [--lang LANG]``."""

    lang: str = "ru"
    model: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> ModelsCheckArgs:
        return cls(ns.lang, ns.model)


@dataclass(frozen=True, slots=True)
class ListenTestArgs:
    """``narrator listen test``: the club's listening test at its own table."""

    lang: str = "ru"
    seats: int = 10
    model: str | None = None
    out: str = "listen-test"
    voices: str | None = None
    night_music: str | None = None
    music: bool = True
    window: float = 6.0
    with_audio: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> ListenTestArgs:
        return cls(ns.lang, ns.seats, ns.model, ns.out, ns.voices, ns.night_music,
                   not ns.no_music, ns.window, ns.with_audio)
