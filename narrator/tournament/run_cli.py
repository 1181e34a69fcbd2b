"""``narrator tournament run DIR --plan FILE …``: the director's box.

The first run makes DIR and its database from the plan (and the roster's ids); a later run
on the same DIR takes the database up as the last one left it (the box died, or was stopped):
the plan and the roster given again must be the same, and an option given again must say what
the database keeps. Then the links are printed — the director's page, the board, each
table's join URL, each player's page — and the box serves until Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import TextIO

from narrator.arguments import TournamentRunArgs
from narrator.console.links import base_url, check_address, parse_address, public_host
from narrator.console.server import ConsoleServer
from narrator.engine.rules import find_rules
from narrator.errors import NarratorError
from narrator.replay.roster import load_roster
from narrator.seating.formats import read_seating
from narrator.seating.value import Seating
from narrator.tournament.director import Director
from narrator.tournament.standings import scoring_of
from narrator.tournament.store import (
    FILE,
    Setup,
    Stage,
    Store,
    Tournament,
    has_tournament,
    new_token,
)
from narrator.tournament.web import build_app

MAIN_STAGE = "Основной этап"
FINAL_STAGE = "Финал"


def stages_of(args: TournamentRunArgs, rounds: int) -> list[Stage]:
    """The main stage from round 1 (coefficient 1), and the final if ``--final-from``."""
    if args.final_from is None:
        if args.final_coefficient is not None or args.hide_final:
            raise NarratorError("--final-coefficient and --hide-final need --final-from R")
        return [Stage(1, MAIN_STAGE, 1.0, False)]
    if not 1 <= args.final_from <= rounds:
        raise NarratorError(f"--final-from: expected a round from 1 to {rounds} (the plan's), "
                            f"got {args.final_from}")
    coefficient = 1.0 if args.final_coefficient is None else args.final_coefficient
    if not 0 < coefficient <= 100:
        raise NarratorError(f"--final-coefficient: expected a number over 0 and at most 100, "
                            f"got {coefficient:g}")
    final = Stage(args.final_from, FINAL_STAGE, coefficient, args.hide_final)
    return [final] if args.final_from == 1 else [Stage(1, MAIN_STAGE, 1.0, False), final]


def read_plan(args: TournamentRunArgs) -> Seating:
    roster = load_roster(args.roster).players if args.roster else ()
    plan, _ = read_seating(args.plan, roster=roster)
    return plan


def setup_of(args: TournamentRunArgs, plan: Seating) -> Setup:
    if args.rules is not None:
        find_rules(args.rules)  # an unknown one is an error now, not at the first table
    if args.tournament_id is not None and args.tournament_id < 1:
        raise NarratorError(f"--tournament-id: expected a number from 1, got {args.tournament_id}")
    name = args.name or Path(args.dir).resolve().name
    spec, points, ignored = scoring_of(args.scoring)
    if ignored is not None:
        print(f"narrator: note: {ignored}", file=sys.stderr)
    tournament = Tournament(name, args.tournament_id, spec, args.rules, new_token(), points)
    return Setup(tournament, list(zip(plan.names, plan.ids, strict=True)),
                 [list(map(list, rnd)) for rnd in plan.rounds], stages_of(args, len(plan.rounds)))


def check_same(store: Store, setup: Setup, args: TournamentRunArgs) -> None:
    """A later run: the plan, the roster and each option given again as the database has
    them; else one line naming what differs."""
    where = store.path
    if [(p.nickname, p.mafiaratings) for p in store.players()] != list(setup.players):
        raise NarratorError(f"{where}: the players (plan {args.plan}, roster) differ from the "
                            f"tournament's; give the same plan and roster, or another DIR")
    if store.rounds() != [list(map(list, rnd)) for rnd in setup.rounds]:
        raise NarratorError(f"{where}: the plan {args.plan} differs from the tournament's; "
                            f"give the same plan, or another DIR")
    kept = store.tournament()
    given = setup.tournament
    for option, now, then in (
            ("--scoring", args.scoring and (given.scoring, given.points),
             (kept.scoring, kept.points)),
            ("--rules", args.rules, kept.rules), ("--name", args.name, kept.name),
            # (a first run without the id: a later one may give it, for the export)
            ("--tournament-id", kept.mafiaratings and args.tournament_id, kept.mafiaratings),
            ("--final-from", args.final_from and list(setup.stages), store.stages())):
        if now is not None and now != then:
            raise NarratorError(f"{where}: {option} differs from the tournament's (the first "
                                f"run's); leave it out, or give another DIR")


def open_store(args: TournamentRunArgs, now: int) -> tuple[Store, bool]:
    """The database of DIR: taken up, or made now (True)."""
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise NarratorError(f"{folder}: not a folder")
    setup = setup_of(args, read_plan(args))
    if has_tournament(folder / FILE):
        store = Store.open(folder)
        try:
            check_same(store, setup, args)
        except NarratorError:
            store.close()
            raise
        if args.tournament_id is not None and store.tournament().mafiaratings is None:
            store.set_mafiaratings(args.tournament_id)
        return store, False
    return Store.create(folder, setup, now), True


def print_links(director: Director, base: str, made: bool, out: TextIO) -> None:
    t = director.tournament
    games = len(director.store.games())
    state = "new" if made else f"taken up, {games} game(s) stored"
    print(f"tournament «{t.name}» in {director.store.path} ({state}): "
          f"{len(director.players)} players, {len(director.rounds[0])} table(s), "
          f"{len(director.rounds)} round(s), scored by {director.system.name}", file=out)
    print(f"director: {base}/director/{t.token}", file=out)
    print(f"board:    {base}/tv", file=out)
    for table in director.store.tables():
        print(f"table {table.number}: {base}/join/{table.token}", file=out)
    for p in director.players:
        print(f"player {p.nickname}: {base}/p/{p.token}", file=out)
    out.flush()


def wait_for_stop(stop: threading.Event) -> None:
    """Until SIGTERM or Ctrl-C."""
    def on_term(_sig: int, _frame: FrameType | None) -> None:
        stop.set()

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)


def run(args: TournamentRunArgs, stop: threading.Event | None = None) -> int:
    host, port = parse_address(args.console)
    check_address(host, port)
    store, made = open_store(args, int(time.time()))
    try:
        director = Director(store, Path(args.dir), lambda: int(time.time()), lang=args.lang)
        server = ConsoleServer(build_app(director), host, port).start()
        director.base = base_url(public_host(host), server.port)
        try:
            print_links(director, director.base, made, sys.stdout)
            wait_for_stop(stop or threading.Event())
        finally:
            server.stop()
    finally:
        store.close()
    print("narrator: the director's box stopped; the next run on the same DIR takes it up",
          file=sys.stderr)
    return 0
