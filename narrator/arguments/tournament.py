"""What the tournament's commands are given (``narrator tournament …``)."""

from __future__ import annotations

from argparse import Namespace
from dataclasses import dataclass

from narrator.arguments.club import club_paths


@dataclass(frozen=True, slots=True)
class TournamentScoreArgs:
    """``narrator tournament score FILE [--from FORMAT] [--roster CSV] [--players FILE]
    [--json]``: a seating plan's score in MafiaRatings' terms."""

    file: str
    from_format: str | None = None
    roster: str | None = None
    players: str | None = None
    json: bool = False

    @classmethod
    def from_args(cls, ns: Namespace) -> TournamentScoreArgs:
        return cls(ns.file, ns.from_format, ns.roster, ns.players, ns.json)


@dataclass(frozen=True, slots=True)
class TournamentConvertArgs:
    """``narrator tournament convert FILE --to FORMAT -o OUT [--from FORMAT] [--roster CSV]
    [--players FILE] [--out-players FILE]``: a seating plan in another format."""

    file: str
    to: str
    out: str
    from_format: str | None = None
    roster: str | None = None
    players: str | None = None
    out_players: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> TournamentConvertArgs:
        return cls(ns.file, ns.to, ns.out, ns.from_format, ns.roster, ns.players,
                   ns.out_players)


@dataclass(frozen=True, slots=True)
class TournamentPlanArgs:
    """``narrator tournament plan --players FILE --tables T --games G [--apart "A+B,…"]
    [--judges "A=1,…"] [--seed S] [--time-limit SECONDS] -o OUT [--quiet]``: a tournament's
    seating plan."""

    players: str
    tables: int
    games: int
    out: str
    apart: str | None = None
    seed: int = 0
    time_limit: float = 60.0
    quiet: bool = False
    judges: str | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> TournamentPlanArgs:
        return cls(ns.players, ns.tables, ns.games, ns.out, ns.apart, ns.seed, ns.time_limit,
                   ns.quiet, ns.judges)


@dataclass(frozen=True, slots=True)
class TournamentRunArgs:
    """``narrator tournament run DIR --plan FILE [--roster CSV] [--scoring NAME|FILE]
    [--rules NAME] [--name TEXT] [--tournament-id N] [--final-from R [--final-coefficient X]
    [--hide-final]] --console HOST:PORT``: the director's box."""

    dir: str
    plan: str
    console: str
    roster: str | None = None
    scoring: str | None = None
    rules: str | None = None
    name: str | None = None
    tournament_id: int | None = None
    final_from: int | None = None
    final_coefficient: float | None = None
    hide_final: bool = False
    #: the pages' language
    lang: str = "ru"

    @classmethod
    def from_args(cls, ns: Namespace) -> TournamentRunArgs:
        scoring, roster = club_paths(ns.club, ns.scoring, ns.roster)
        return cls(ns.dir, ns.plan, ns.console, roster, scoring, ns.rules, ns.name,
                   ns.tournament_id, ns.final_from, ns.final_coefficient, ns.hide_final,
                   getattr(ns, "lang", None) or "ru")


@dataclass(frozen=True, slots=True)
class TournamentExportArgs:
    """``narrator tournament export DIR -o OUT [--club-id N] [--event-id N]
    [--final-event-id N] [--moderator-id N] [--demo] [--send URL --user NAME]``: every game
    the director holds, for MafiaRatings."""

    dir: str
    out: str
    club_id: int | None = None
    event_id: int | None = None
    moderator_id: int | None = None
    demo: bool = False
    send: str | None = None
    user: str | None = None
    final_event_id: int | None = None

    @classmethod
    def from_args(cls, ns: Namespace) -> TournamentExportArgs:
        return cls(ns.dir, ns.out, ns.club_id, ns.event_id, ns.moderator_id, ns.demo, ns.send,
                   ns.user, ns.final_event_id)
