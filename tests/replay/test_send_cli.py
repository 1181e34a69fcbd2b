"""``narrator export … --send URL --user NAME`` against the loopback stand-in of MafiaRatings:
every ten-seat example and an evening are stored as filed, each game once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.engine.catalogue import code_of
from narrator.replay.source import load_source
from tests.replay.standin import StandIn
from tests.replay.test_export_filing import EXAMPLES, FILED, NICKNAMES, ROSTER, TEN_SEATS, named

REFEREE, PASSWORD = "referee", "s3cret-pass"
START = 1_715_963_400


def site() -> StandIn:
    """The club (42)'s referee, the roster's players (1101…) and its host (1001; FILED says 5)."""
    users = {1001: ("Ведущий", "-"), 5: ("host", "-"), 9: (REFEREE, PASSWORD)}
    users.update({1101 + i: (name, "-") for i, name in enumerate(NICKNAMES)})
    return StandIn(users, {REFEREE: {42}})


def send(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str]:
    code = main(["export", "--format", "mafiaratings", *args, "--send", url, "--user", REFEREE])
    out = capsys.readouterr()
    return code, out.err


@pytest.fixture(autouse=True)
def password(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr("getpass.getpass", lambda prompt="": asked.append(prompt) or PASSWORD)


def test_every_ten_seat_example_is_stored_as_filed_and_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sources = [named(tmp_path, example) for example in TEN_SEATS]
    with site() as s:
        for number, path in enumerate(sources, 1):
            code, err = send(capsys, s.url, str(path), "--roster", str(ROSTER), *FILED,
                             "--game", str(number), "--start", str(START))
            assert code == 0 and err.endswith(f"narrator: {path.name}: stored\n"), err
        assert len(s.games) == len(TEN_SEATS) and s.requests == len(TEN_SEATS)
        for stored, example in zip(s.games, TEN_SEATS, strict=True):
            assert (stored.club_id, stored.event_id, stored.moderator_id) == (42, 7, 5)
            assert stored.rules == code_of(load_source(example).game.rules)
            assert stored.start_time == START and stored.end_time > START
            assert {uid: row["name"] for uid, row in stored.players.items()} == \
                {1101 + i: name for i, name in enumerate(NICKNAMES)}
            assert not stored.votes_removed, example.name  # every vote kept (first_day none)
        code, err = send(capsys, s.url, str(sources[0]), "--roster", str(ROSTER), *FILED)
        assert code == 0 and "sent already" in err and s.requests == len(TEN_SEATS)
    ledger = json.loads((tmp_path / "sent.json").read_text(encoding="utf-8"))["sent"]
    assert len(ledger) == len(TEN_SEATS) and PASSWORD not in json.dumps(ledger)


def test_a_first_day_without_a_vote_keeps_every_vote_of_the_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = named(tmp_path, EXAMPLES / "professional-first-day-none.table.jsonl")
    with site() as s:
        code, err = send(capsys, s.url, str(path), "--roster", str(ROSTER), *FILED)
        (stored,) = s.games
    assert code == 0 and "did not vote" not in err and not stored.votes_removed
    assert "v" in stored.record["features"]
    assert any("voting" in p for p in stored.record["players"])


def test_a_wrong_password_is_one_line_and_nothing_is_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "wrong")
    path = named(tmp_path, EXAMPLES / "sheriff-shot-checks.table.jsonl")
    with site() as s:
        code, err = send(capsys, s.url, str(path), "--roster", str(ROSTER), *FILED)
        assert not s.games
    assert code == 1
    assert err == (f"narrator: {path.name}: not sent: MafiaRatings refused the user: "
                   f"Authorization failed\n")
    assert not (tmp_path / "sent.json").exists() and "wrong" not in err


def test_an_evening_is_sent_game_by_game_and_keeps_what_it_sent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.engine import Remove, TimeUp
    from tests.evening.test_evening import NAMES, ROLES, journal_game, new_book

    book = new_book(tmp_path / "ev")
    book.seating = {s: s for s in range(1, 11)}
    for _ in range(2):
        entry = book.new_game("crime-time")
        journal_game(book.journal(entry), "crime-time", ROLES, book.names_of(book.seating),
                     TimeUp("dealing"), Remove(3), Remove(5), Remove(9))
    for player in book.players:
        book.set_id(player.number, 1101 + player.number)
    book.moderator = 5
    book.save()
    users = {5: ("host", "-"), 9: (REFEREE, PASSWORD)}
    users.update({1102 + i: (name, "-") for i, name in enumerate(NAMES)})
    out = tmp_path / "out"
    with StandIn(users, {REFEREE: {42}}) as s:
        code, err = send(capsys, s.url, str(book.folder), "--club-id", "42", "--event-id", "7",
                         "-o", str(out))
        assert code == 0 and err.splitlines()[-2:] == ["narrator: game-01: stored",
                                                       "narrator: game-02: stored"]
        assert [g.game_num for g in s.games] == [1, 2]
        assert all(sorted(g.players) == list(range(1102, 1112)) for g in s.games)
        code, err = send(capsys, s.url, str(book.folder), "--club-id", "42", "--event-id", "7")
        assert code == 0 and err.count("sent already") == 2 and s.requests == 2
    assert sorted(f.name for f in out.iterdir()) == ["game-01.json", "game-02.json"]
    assert set(json.loads((book.folder / "sent.json").read_text(encoding="utf-8"))["sent"]) \
        == {f"{s.url.rstrip('/')}/api/ops/game.php game-0{n}" for n in (1, 2)}
