"""``narrator standings DIR…``: a club's season (or a tournament's tables) from its evenings'
folders, scored by one system: the same columns as an evening's results, every finished game
of every evening in the order given.

A player is the same player across evenings by the MafiaRatings id the roster gives them,
else by the nickname (letter case and spaces aside); the name shown is the latest.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from narrator.arguments import StandingsArgs
from narrator.club.file import scoring_option
from narrator.engine import Game
from narrator.errors import NarratorError
from narrator.evening.book import BOOK, EveningBook, Player
from narrator.evening.results import PlayerResult, csv_text, tally
from narrator.host.journal import load_journal
from narrator.outputs import replace_whole
from narrator.scoring.system import ScoringSystem


def nickname(player: Player) -> str:
    return " ".join(player.name.split()).casefold()


def player_key(player: Player, ids: dict[str, int]) -> tuple[str, int | str]:
    """Who a roster's player is across evenings: the MafiaRatings id — theirs, or the one
    another evening gives the same nickname (``ids``) — else the nickname."""
    known = player.mafiaratings if player.mafiaratings is not None else ids.get(nickname(player))
    return ("id", known) if known is not None else ("name", nickname(player))


def season(folders: list[Path]) -> tuple[list[tuple[Game, dict[int, int]]], list[int | str],
                                         dict[int, str], list[EveningBook]]:
    """Every game of the evenings in ``folders`` with its seating in the season's numbers of
    players (seat → number), each game's label (``DIR/N``), the players' latest names."""
    numbers: dict[tuple[str, int | str], int] = {}
    names: dict[int, str] = {}
    games: list[tuple[Game, dict[int, int]]] = []
    labels: list[int | str] = []
    books: list[EveningBook] = []
    for folder in folders:
        if not (folder / BOOK).is_file():
            raise NarratorError(f"{folder}: not an evening's folder (no {BOOK})")
        books.append(EveningBook.load(folder))
    ids = {nickname(p): p.mafiaratings for b in books for p in b.players
           if p.mafiaratings is not None}
    for folder, book in zip(folders, books, strict=True):
        local = {p.number: numbers.setdefault(player_key(p, ids), len(numbers) + 1)
                 for p in book.players}
        for p in book.players:
            names[local[p.number]] = p.name
        for entry in book.games:
            path = book.journal(entry)
            if not path.is_file() or path.stat().st_size == 0:
                continue
            games.append((load_journal(path).game(),
                          {s: local[n] for s, n in entry.seating.items() if n in local}))
            labels.append(f"{folder.name}/{entry.number}")
    return games, labels, names, books


def standings(args: StandingsArgs) -> tuple[list[PlayerResult], ScoringSystem, int]:
    """The season's table, its system, and how many games were over."""
    folders = [Path(d) for d in args.dirs]
    games, labels, names, books = season(folders)
    if args.scoring is not None:
        spec, points, ignored = scoring_option(args.scoring)
        if ignored is not None:
            print(f"narrator: note: {ignored}", file=sys.stderr)
        system = spec.system(points, args.scoring)
    else:  # the first evening's system; another one's differing is said
        first = books[0]
        system = first.scoring.system(first.points, f"{first.path}: scoring")
        for book in books[1:]:
            if (book.scoring, book.points) != (first.scoring, first.points):
                print(f"narrator: note: {book.folder} scores by another system; all are "
                      f"scored by {first.folder}'s ({system.name}; --scoring names one)",
                      file=sys.stderr)
    table = tally(games, sorted(names.items()), system, labels)
    return [r for r in table if r.games], system, sum(1 for g, _ in games if g.winner)


def run(args: StandingsArgs) -> int:
    results, system, over = standings(args)
    if args.json:
        text = json.dumps({"games": over, "system": system.name, "sorting": system.sorting,
                           "players": [r.to_json() for r in results]},
                          ensure_ascii=False, indent=1) + "\n"
    else:
        text = csv_text(results)
    if args.out:
        replace_whole(Path(args.out), text, "the standings")
        print(f"narrator: written {args.out} ({over} game(s), {len(results)} player(s), "
              f"{system.name})", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
