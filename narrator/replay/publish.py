"""What every export to MafiaRatings shares — a game's, an evening's, a tournament's: the
refusal of records the rating system would not store, writing a record, sending records.

MafiaRatings stores a game when it knows where to file it: with an event
(include/game.php, ``Game::create``: «if (isset($data->eventId) && $data->eventId > 0)»; else
it only forgets its demo game), its club and its host. So an export refuses, in one line
naming everything missing and writing nothing, unless ``--demo`` asks for the record anyway.
A seat without a user id is a guest, which every club has: the site stores the game all the
same, with no ``players`` row for that seat and its nickname kept in the game
(include/game_players_stats.php: «if (!isset($player->id)) continue;»), so the export takes
it and says in one line which seats are guests (:func:`guests_line`).
"""

from __future__ import annotations

import getpass
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.replay import send
from narrator.replay.export import write_private
from narrator.replay.mafiaratings import Filing

#: what a seat without an id is told to do, when the ids come from a roster file
ROSTER_HINT = "--roster FILE maps nicknames to ids"


def check_numbers(options: Sequence[tuple[str, int | None]]) -> None:
    """Each (option, value) given is a whole number from 1, as MafiaRatings' ids and numbers
    are; else NarratorError naming the option."""
    for option, value in options:
        if value is not None and value < 1:
            raise NarratorError(f"{option}: expected a whole number from 1, got {value}")


def missing(filing: Filing) -> list[str]:
    """The options MafiaRatings needs to store a game and the command was not given."""
    wanted = [("--club-id", filing.club_id), ("--event-id", filing.event_id),
              ("--moderator-id", filing.moderator_id)]
    return [name for name, value in wanted if value is None]


def unknown(record: dict[str, Any]) -> list[int]:
    """The seats of ``record`` without a MafiaRatings id (the roster has none for them)."""
    return [seat for seat, p in enumerate(record["players"], start=1) if "id" not in p]


def refuse(options: Sequence[str], more: Sequence[str] = ()) -> None:
    """One line naming every option missing and every other reason (``more``), then
    NarratorError; or nothing."""
    why: list[str] = []
    if options:
        listed = options[0] if len(options) == 1 else \
            f"{', '.join(options[:-1])} and {options[-1]}"
        why.append(f"{listed} {'is' if len(options) == 1 else 'are'} missing (MafiaRatings "
                   f"stores no game without its club, event and host)")
    why.extend(more)
    if why:
        raise NarratorError(f"export: {'; '.join(why)}; --demo writes the record anyway")


def guests_line(seats: Sequence[tuple[str | None, list[int]]],
                hint: str = ROSTER_HINT) -> str | None:
    """The one line naming the guest seats (each game's label, None for a lone game, and its
    seats without an id), or None when every seat has its id."""
    parts = []
    for game, lost in ((g, u) for g, u in seats if u):
        which = f"seat {lost[0]}" if len(lost) == 1 else f"seats {', '.join(map(str, lost))}"
        parts.append(f"{'' if game is None else f'{game}: '}{which}")
    if not parts:
        return None
    return (f"guests, without a MafiaRatings id: {'; '.join(parts)} (the site keeps their "
            f"nicknames and credits them no rating; {hint})")


def write_record(out: str | None, record: Any) -> None:
    """The record to ``out`` (readable by its owner only: it holds every card) or stdout."""
    text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    if out:
        write_private(Path(out), text)
        print(f"narrator: written {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)


def send_records(url: str | None, user: str | None, games: list[tuple[str, dict[str, Any]]],
                 ledger: Path) -> int:
    """The one place records go to MafiaRatings (``--send URL --user NAME``): the password
    is asked here, never echoed and never stored. 0 when every game is stored (now or
    before), or nothing is to be sent; else 1: each game not stored is a line saying why."""
    if not url:
        return 0
    if not user:
        raise NarratorError("--send: --user NAME names the MafiaRatings account to send as")
    password = getpass.getpass(f"MafiaRatings password for {user}: ")
    results = send.send_games(games, url=url, user=user, password=password, ledger=ledger)
    for result in results:
        print(f"narrator: {result.line}", file=sys.stderr)
    return 0 if all(r.stored for r in results) else 1


def make_folder(out: Path) -> None:
    """The export's folder made (and its parents); a one-line NarratorError if it cannot be."""
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise NarratorError(f"{out}: cannot make the export's folder ({e.strerror})") from None
