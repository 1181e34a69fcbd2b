"""``narrator tournament export DIR -o OUT``: every game the director's database holds, as
MafiaRatings' game JSON (:mod:`narrator.replay.mafiaratings`), one file per game in OUT —
``round-01-table-01.json``, … in the order of the tournament — and, with ``--send URL --user
NAME``, sent to MafiaRatings, each game once (the ledger, ``sent.json``, is kept in DIR).

Each record is filed as MafiaRatings' own importers file a tournament's games: the
tournament's id (``tournament run --tournament-id``, kept in the database), the table that
sent it as ``tableNum``, the plan's round as ``gameNum`` (api/ops/emo.php puts the round
there; its current game shows it as the ``tour``). Each seat's user id is the director's
player's of that nickname (letter case and spaces aside). The game ended when its table says
it did (the journal's last write; a table that did not say: when the director received it),
and began the game's length before. The games of the final (``tournament run --final-from``)
may be filed under an event of their own (``--final-event-id``), as MafiaRatings keeps a
tournament's stages.

A game the format cannot hold is one line on stderr, the rest still written; a missing id —
the tournament's, the club's, the event's, the host's, a seat's — refuses the whole export in
one line unless ``--demo`` (:mod:`narrator.replay.publish`).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from narrator.arguments import TournamentExportArgs
from narrator.errors import NarratorError
from narrator.replay.mafiaratings import Filing, MafiaRatingsGame, mafiaratings
from narrator.replay.publish import (
    check_numbers,
    guests_line,
    make_folder,
    missing,
    refuse,
    send_records,
    unknown,
    write_record,
)
from narrator.replay.roster import Roster
from narrator.replay.send import LEDGER
from narrator.replay.source import journal_source
from narrator.tournament.run_cli import FINAL_STAGE
from narrator.tournament.standings import journal_file
from narrator.tournament.store import Received, Stage, Store

#: a seat without an id: the director's players are where the ids come from
NO_ID = "the tournament's players have no id for these nicknames: give them in its roster"
NO_TOURNAMENT = ("the tournament has no MafiaRatings id (give it once: narrator tournament "
                 "run DIR … --tournament-id N)")


def names_of(games: list[Received]) -> list[str]:
    """Each game's file name (without ``.json``): its round and table, and ``-2``, ``-3`` for
    a second, a third game of the same round a table sent (a game played again)."""
    seen: dict[tuple[int, int], int] = {}
    out = []
    for got in games:
        n = seen[(got.round, got.table)] = seen.get((got.round, got.table), 0) + 1
        out.append(f"round-{got.round:02d}-table-{got.table:02d}" + (f"-{n}" if n > 1 else ""))
    return out


def record_of(got: Received, name: str, folder: Path, filing: Filing) -> MafiaRatingsGame:
    """The game ``got`` as MafiaRatings' record filed by ``filing`` (its event the game's
    round's) at its table and round; NarratorError (naming ``name``) if the format cannot
    hold it."""
    with journal_file(got.journal, folder) as path:
        source = replace(journal_source(path), path=Path(name))
    end = got.ended if got.ended is not None else got.received
    # whole seconds from the end back: the record's end is what the table said
    start = datetime.fromtimestamp(end - round(source.seconds), tz=UTC)
    return mafiaratings(source, start=start,
                        filing=replace(filing, table=got.table, game_number=got.round))


def tournament_games(store: Store, folder: Path, filing: Filing, final_event: int | None = None,
                     ) -> tuple[list[tuple[str, MafiaRatingsGame]], list[str]]:
    """Every game the database holds as a record, by file name (a game of the final filed
    under ``final_event`` when given), and a line per game left out or noted."""
    games = store.games()
    final = final_of(store)
    records: list[tuple[str, MafiaRatingsGame]] = []
    lines: list[str] = []
    for got, name in zip(games, names_of(games), strict=True):
        event = final_event if final_event is not None and final is not None and \
            got.round >= final.first_round else filing.event_id
        try:
            exported = record_of(got, name, folder, replace(filing, event_id=event))
        except NarratorError as e:
            lines.append(f"{name}: not exported: {str(e).removeprefix(f'{name}: ')}")
            continue
        records.append((name, exported))
        lines.extend(f"{name}: note: {note}" for note in dict.fromkeys(exported.notes))
    return records, lines


def final_of(store: Store) -> Stage | None:
    """The final (``tournament run --final-from``), if the tournament has one."""
    return next((s for s in store.stages() if s.name == FINAL_STAGE), None)


def filing_of(store: Store, args: TournamentExportArgs) -> Filing:
    check_numbers((("--club-id", args.club_id), ("--event-id", args.event_id),
                   ("--moderator-id", args.moderator_id),
                   ("--final-event-id", args.final_event_id)))
    if args.final_event_id is not None and final_of(store) is None:
        raise NarratorError("--final-event-id: the tournament has no final (tournament run "
                            "--final-from R makes one)")
    roster = Roster.of((p.nickname, p.mafiaratings) for p in store.players())
    return Filing(args.club_id, args.event_id, args.moderator_id,
                  store.tournament().mafiaratings, roster=roster)


def run(args: TournamentExportArgs) -> int:
    if args.user is not None and args.send is None:
        raise NarratorError("--user: it names the account --send URL sends as (add --send)")
    folder = Path(args.dir)
    store = Store.open(folder)
    try:
        filing = filing_of(store, args)
        if not store.count():
            raise NarratorError(f"{folder}: no game received yet: nothing to export")
        records, lines = tournament_games(store, folder, filing, args.final_event_id)
    finally:
        store.close()
    for line in lines:
        print(f"narrator: {line}", file=sys.stderr)
    if not records:
        raise NarratorError(f"{folder}: no game of the tournament can be exported")
    if not args.demo:
        refuse(missing(filing), more=[NO_TOURNAMENT] if filing.tournament_id is None else [])
    guests = guests_line([(name, unknown(g.record)) for name, g in records], hint=NO_ID)
    if guests is not None:
        print(f"narrator: note: {guests}", file=sys.stderr)
    out = Path(args.out)
    make_folder(out)
    for name, exported in records:
        write_record(str(out / f"{name}.json"), exported.record)
    return send_records(args.send, args.user, [(n, g.record) for n, g in records],
                        folder / LEDGER)
