"""Sending games to MafiaRatings (narrator.replay.send) against the loopback stand-in of its
``api/ops/game.php``: stored once, refusals reported per game, a wrong user stops the rest."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from narrator.errors import NarratorError
from narrator.replay.send import endpoint, send_games
from tests.replay.standin import StandIn

PASSWORD = "s3cret-pass"  # the stand-in's referee


def site() -> StandIn:
    return StandIn({1: ("referee", PASSWORD), 7: ("Ника", "x"), 8: ("Бублик", "y")},
                   {"referee": {1}})


def game(**fields: Any) -> dict[str, Any]:
    players: list[dict[str, Any]] = [{"role": "civ"} for _ in range(10)]
    players[0] = {"id": 7, "name": "Ника", "role": "civ"}
    players[1] = {"id": 8, "name": "Бублик", "role": "maf"}
    record = {"clubId": 1, "eventId": 2, "moderator": {"id": 1}, "rules": "0002000010000",
              "startTime": 1_700_000_000, "endTime": 1_700_003_000, "winner": "civ",
              "features": "gsdutchvknwr", "players": players}
    record.update(fields)
    return {k: v for k, v in record.items() if v is not None}


def send(s: StandIn, games: list[tuple[str, dict[str, Any]]], ledger: Path,
         password: str = PASSWORD, user: str = "referee") -> list[str]:
    return [r.line for r in send_games(games, url=s.url, user=user, password=password,
                                       ledger=ledger)]


def test_a_game_is_stored_once_and_the_ledger_keeps_it(tmp_path: Path) -> None:
    ledger = tmp_path / "sent.json"
    with site() as s:
        first = send(s, [("game-01", game(gameNum=1)), ("game-02", game(gameNum=2))], ledger)
        again = send(s, [("game-01", game(gameNum=1)), ("game-02", game(gameNum=2)),
                         ("game-03", game(gameNum=3))], ledger)
        assert [g.game_num for g in s.games] == [1, 2, 3]
        assert s.requests == 3
    assert first == ["game-01: stored", "game-02: stored"]
    assert all("sent already" in line and "not sent again" in line for line in again[:2])
    assert again[2] == "game-03: stored"
    kept = json.loads(ledger.read_text(encoding="utf-8"))["sent"]
    assert len(kept) == 3 and all(e["eventId"] == 2 for e in kept.values())
    assert PASSWORD not in ledger.read_text(encoding="utf-8")


def test_the_stored_rows_are_the_records(tmp_path: Path) -> None:
    with site() as s:
        send(s, [("g", game(tournamentId=5, tableNum=2, gameNum=4))], tmp_path / "sent.json")
        (stored,) = s.games
    assert (stored.club_id, stored.event_id, stored.moderator_id, stored.rules) == \
        (1, 2, 1, "0002000010000")
    assert (stored.start_time, stored.end_time) == (1_700_000_000, 1_700_003_000)
    assert (stored.tournament_id, stored.table_num, stored.game_num) == (5, 2, 4)
    assert stored.players == {7: {"number": 1, "role": "civ", "name": "Ника"},
                              8: {"number": 2, "role": "maf", "name": "Бублик"}}


def test_a_wrong_password_stops_at_the_first_game(tmp_path: Path) -> None:
    ledger = tmp_path / "sent.json"
    with site() as s:
        lines = send(s, [("game-01", game()), ("game-02", game())], ledger, password="nope")
        assert s.requests == 1 and not s.games
    assert lines == ["game-01: not sent: MafiaRatings refused the user: Authorization failed",
                     "game-02: not sent: MafiaRatings refused the user: Authorization failed"]
    assert not ledger.exists()


def test_a_user_who_is_no_referee_of_the_club_is_told_so(tmp_path: Path) -> None:
    with site() as s:
        (line,) = send(s, [("g", game(clubId=3))], tmp_path / "sent.json")
        assert not s.games
    assert "do not have enough permissions" in line and line.startswith("g: not sent:")


def test_a_refused_game_is_reported_and_the_next_is_still_sent(tmp_path: Path) -> None:
    ledger = tmp_path / "sent.json"
    with site() as s:
        lines = send(s, [("game-01", game(rules=None)), ("game-02", game())], ledger)
        again = send(s, [("game-01", game()), ("game-02", game())], ledger)
        assert len(s.games) == 2
    assert lines == ["game-01: refused by MafiaRatings: Column 'rules' cannot be null",
                     "game-02: stored"]
    assert again[0] == "game-01: stored" and "sent already" in again[1]


def test_a_game_without_an_event_is_not_posted(tmp_path: Path) -> None:
    with site() as s:
        (line,) = send(s, [("g", game(eventId=None))], tmp_path / "sent.json")
        assert s.requests == 0
    assert line == ("g: not sent: it has no eventId, and MafiaRatings stores a game without an "
                    "event nowhere")


def test_what_mafiaratings_fixed_is_reported_in_one_line(tmp_path: Path) -> None:
    players = game()["players"]
    for p in players[:3]:
        p["nominating"] = [None, None]
    players[0]["nominating"] = [None, 5]
    players[1]["nominating"] = [None, 6]
    with site() as s:
        (line,) = send(s, [("g", game(players=players))], tmp_path / "sent.json")
        assert s.games[0].votes_removed
    assert line == ("g: stored; MafiaRatings says: The game contains the next issues: Player 1 "
                    "did not vote in round 1. Although they were alive and voting was not "
                    "canceled. All votings are removed.; They are all fixed but the original "
                    "version of the game is also saved. Please check Game Issues in the "
                    "management menu.")


def test_an_unreachable_site_leaves_every_game_unsent(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    ledger = tmp_path / "sent.json"
    results = send_games([("game-01", game()), ("game-02", game())],
                         url=f"http://127.0.0.1:{port}", user="referee", password=PASSWORD,
                         ledger=ledger)
    assert [r.stored for r in results] == [False, False]
    assert all(r.line.startswith(f"{r.key}: not sent: cannot reach 127.0.0.1:{port}")
               for r in results)
    assert not ledger.exists()


def test_the_address_games_are_posted_to() -> None:
    assert endpoint("https://mafiaratings.com") == "https://mafiaratings.com/api/ops/game.php"
    assert endpoint("http://127.0.0.1:8080/mr/") == "http://127.0.0.1:8080/mr/api/ops/game.php"
    assert endpoint("https://x.org/api/ops/game.php?op=create") == \
        "https://x.org/api/ops/game.php"
    with pytest.raises(NarratorError, match="--send: expected the site's address"):
        endpoint("mafiaratings.com")


def test_a_ledger_that_is_no_ledger_is_named(tmp_path: Path) -> None:
    ledger = tmp_path / "sent.json"
    ledger.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(NarratorError, match=r"sent.json: not a ledger of sent games"):
        send_games([("g", game())], url="http://127.0.0.1:9", user="u", password="p",
                   ledger=ledger)
