"""``narrator export --format mafiaratings``: what MafiaRatings needs to store a game.

Its create path (api/ops/game.php, include/game.php) stores nothing without an event (a
demo), fails without a rules code, reads times as Unix seconds, files the game under its
moderator, credits a rating only to a seat with a user id (and wants a name beside it), and
takes the host's bonus and comment per player. Each test here would fail on an export
without these.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine import Mark
from narrator.engine.catalogue import code_of
from narrator.errors import NarratorError
from narrator.replay.mafiaratings import bonus_of
from narrator.replay.roster import load_roster
from narrator.replay.send import Sent
from narrator.replay.source import load_source
from tests.replay.mafiaratings_rules import assert_votes_kept

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ROSTER = ROOT / "tests" / "fixtures" / "roster" / "club.csv"
GAME = EXAMPLES / "sheriff-shot-checks.table.jsonl"  # every seat has a nickname
START = "2024-05-17T19:30:00+03:00"
FILED = ["--club-id", "42", "--event-id", "7", "--moderator-id", "5"]
#: the roster's nicknames, seat by seat
NICKNAMES = ["Momento Mori", "Mafia", "Watson", "babadysia", "yukonsam", "Len4a", "Igorbek",
             "pravda", "Maha88", "Shapoklyak"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["export", "--format", "mafiaratings", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def named(tmp_path: Path, example: Path) -> Path:
    """``example`` with the roster's nicknames at its seats (the examples have few)."""
    lines = example.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() and not line.startswith("#"))
    head = json.loads(lines[at])
    head["names"] = {str(s): n for s, n in enumerate(NICKNAMES, 1)}
    lines[at] = json.dumps(head, ensure_ascii=False)
    path = tmp_path / example.name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- the refusal ---------------------------------------------------------------------------------


@pytest.mark.parametrize("left_out", ["--club-id", "--event-id", "--moderator-id"])
def test_without_club_event_or_host_nothing_is_written_and_one_line_says_which(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], left_out: str) -> None:
    """Without an event MafiaRatings takes the game as a demo and stores nothing; without a
    moderator the game page says «Unable to find game»."""
    out = tmp_path / "game.json"
    given = [a for i, a in enumerate(FILED) if left_out not in (a, FILED[i - 1])]
    roster = tmp_path / "players.csv"  # (without the host's line)
    roster.write_text("".join(line for line in ROSTER.read_text(encoding="utf-8")
                              .splitlines(keepends=True) if "moderator" not in line),
                      encoding="utf-8")
    code, stdout, err = run(capsys, str(GAME), "--roster", str(roster), *given, "-o", str(out))
    assert code == 2 and stdout == "" and not out.exists()
    assert err.startswith(f"narrator: export: {left_out} is missing") and err.count("\n") == 1


def test_seats_without_an_id_are_guests_exported_and_named_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The site stores a game with guests: no ``players`` row for the seat, its nickname kept
    (include/game_players_stats.php: «if (!isset($player->id)) continue;»)."""
    roster = tmp_path / "roster.csv"
    kept = [line for line in ROSTER.read_text(encoding="utf-8").splitlines()
            if not line.startswith(("Watson", "Igorbek"))]
    roster.write_text("\n".join(kept) + "\n", encoding="utf-8")
    code, stdout, err = run(capsys, str(GAME), "--roster", str(roster), *FILED)
    assert code == 0
    record = json.loads(stdout)
    assert [p.get("id") is None for p in record["players"]] == \
        [s in (3, 7) for s in range(1, 11)]
    assert [p["name"] for p in record["players"]] == NICKNAMES  # the guests' nicknames kept
    assert (record["clubId"], record["eventId"], record["moderator"]["id"]) == (42, 7, 5)
    assert err == ("narrator: note: guests, without a MafiaRatings id: seats 3, 7 (the site "
                   "keeps their nicknames and credits them no rating; --roster FILE maps "
                   "nicknames to ids)\n")
    code, stdout, err = run(capsys, str(GAME), *FILED)  # no roster at all: ten guests
    assert code == 0 and all("id" not in p for p in json.loads(stdout)["players"])
    assert "seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 (the site keeps" in err
    # a missing club, event or host still refuses, naming only those (the roster names the host)
    code, stdout, err = run(capsys, str(GAME), "--roster", str(roster), "--club-id", "42")
    assert code == 2 and stdout == ""
    assert err == ("narrator: export: --event-id is missing (MafiaRatings stores no game "
                   "without its club, event and host); --demo writes the record anyway\n")


def test_demo_writes_the_record_without_the_ids(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = run(capsys, str(GAME), "--demo", "--start", START)
    record = json.loads(stdout)
    assert code == 0 and "eventId" not in record and "moderator" not in record
    assert all("id" not in p for p in record["players"])
    assert [p["name"] for p in record["players"]] == NICKNAMES


# -- the fields ------------------------------------------------------------------------------------


def test_ids_names_host_rules_and_unix_times(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    code, stdout, _ = run(capsys, str(GAME), "--roster", str(ROSTER), "--club-id", "42",
                          "--event-id", "7", "--start", START, "-o", str(out))
    assert code == 0 and stdout == ""
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["moderator"] == {"id": 1001}  # the roster's moderator line
    assert record["rules"] == code_of(load_source(GAME).game.rules)
    assert len(record["rules"]) == 13 and record["rules"].isdigit()
    assert record["startTime"] == 1715963400 and isinstance(record["endTime"], int)
    assert record["endTime"] > record["startTime"]
    assert [(p["id"], p["name"]) for p in record["players"]] == \
        [(1101 + i, name) for i, name in enumerate(NICKNAMES)]
    assert "tournamentId" not in record and "tableNum" not in record


def test_start_in_unix_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = run(capsys, str(GAME), "--demo", "--start", "1715963400")
    assert code == 0 and json.loads(stdout)["startTime"] == 1715963400


def _ten_seat_examples() -> list[Path]:
    """Every finished example and test script at MafiaRatings' table (the fixtures' journals
    are of games not over)."""
    out = []
    scripts = sorted((ROOT / "tests" / "replay" / "scripts").glob("*.table.jsonl"))
    for path in [*sorted(EXAMPLES.glob("*.table.jsonl")), *scripts]:
        game = load_source(path).game
        if game.seats == 10 and not ({r.value for r in game.roles.values()}
                                     - {"civilian", "sheriff", "mafia", "don"}):
            out.append(path)
    return out


TEN_SEATS = _ten_seat_examples()


def test_the_examples_at_mafiaratings_table_are_found() -> None:
    assert len(TEN_SEATS) >= 12 and GAME in TEN_SEATS


@pytest.mark.parametrize("example", TEN_SEATS, ids=lambda p: p.name.split(".")[0])
def test_every_ten_seat_example_carries_every_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], example: Path) -> None:
    code, stdout, err = run(capsys, str(named(tmp_path, example)), "--roster", str(ROSTER),
                            *FILED, "--tournament-id", "3", "--table", "2", "--game", "9",
                            "--start", START)
    assert code == 0, err
    record: dict[str, Any] = json.loads(stdout)
    assert {k: record[k] for k in ("clubId", "eventId", "tournamentId", "tableNum", "gameNum",
                                   "moderator")} == {
        "clubId": 42, "eventId": 7, "tournamentId": 3, "tableNum": 2, "gameNum": 9,
        "moderator": {"id": 5}}
    assert record["rules"] == code_of(load_source(example).game.rules)
    assert record["startTime"] == 1715963400 and type(record["endTime"]) is int
    assert [(p["id"], p["name"]) for p in record["players"]] == \
        [(1101 + i, name) for i, name in enumerate(NICKNAMES)]
    assert_votes_kept(record)


# -- the host's marks ------------------------------------------------------------------------------


def test_bonus_takes_mafiaratings_shapes() -> None:
    assert bonus_of(Mark(3, 0.3, (), "x")) == 0.3
    assert bonus_of(Mark(3, 0.0, ("best_player",), "x")) == "bestPlayer"
    assert bonus_of(Mark(3, -0.5, ("worst_move",), "x")) == [-0.5, "worstMove"]
    assert bonus_of(Mark(3, 0.0, ("best_player", "best_move"), "x")) == \
        ["bestPlayer", "bestMove"]
    assert bonus_of(Mark(3, 0.0, (), "just a comment")) is None


def test_marks_are_bonus_and_comment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = named(tmp_path, EXAMPLES / "civilians-win.table.jsonl")
    with path.open("a", encoding="utf-8") as f:
        f.write('{"mark": {"seat": 4, "points": 0.5, "titles": ["best_player"], '
                '"comment": "нашёл дона"}}\n{"mark": {"seat": 6, "comment": "тихо"}}\n')
    code, stdout, err = run(capsys, str(path), "--roster", str(ROSTER), *FILED)
    assert code == 0, err
    players = json.loads(stdout)["players"]
    assert players[3]["bonus"] == [0.5, "bestPlayer"] and players[3]["comment"] == "нашёл дона"
    assert "bonus" not in players[5] and players[5]["comment"] == "тихо"
    assert all("bonus" not in p for i, p in enumerate(players) if i != 3)


# -- the roster file -------------------------------------------------------------------------------


def test_the_roster_reads_its_header_comments_quotes_and_host(tmp_path: Path) -> None:
    roster = load_roster(ROSTER)
    assert roster.moderator == 1001
    assert roster.id_of("momento   MORI") == 1101 and roster.id_of("Ника") == 1111
    assert roster.id_of("nobody") is None and roster.id_of(None) is None
    path = tmp_path / "r.csv"
    path.write_text('"Smith, J.",7\n', encoding="utf-8")  # no header, a comma in a name
    assert load_roster(path).players == [("Smith, J.", 7)]


@pytest.mark.parametrize(("text", "says"), [
    ("Ника\n", ":1: expected nickname,mafiaratings_id[,moderator], got 1 field(s)"),
    ("nickname,id\nНика,12x\n", ":2: mafiaratings_id: expected a whole number from 1, got "
                                "'12x'"),
    ("Ника,0\n", ":1: mafiaratings_id: expected a whole number from 1, got '0'"),
    ("Ника,1\n\nника,2\n", ":3: nickname: 'ника' is on line 1 already"),
    ("Ника,1\nКот,1\n", ":2: mafiaratings_id: 1 is 'Ника''s already (line 1)"),
    ("Ника,1,host\n", ":1: role: expected moderator or nothing, got 'host'"),
    ("A,1,moderator\nB,2,moderator\n", ":2: role: a second moderator"),
    (",5\n", ":1: nickname: expected a nickname, got ''"),
])
def test_a_bad_roster_line_names_the_file_the_line_and_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NarratorError) as caught:
        load_roster(path)
    assert str(caught.value).startswith(f"{path}{says}")
    code, _, err = run(capsys, str(GAME), "--roster", str(path), *FILED)
    assert code == 2 and err.startswith(f"narrator: {path}{says}") and err.count("\n") == 1


# -- sending (the one place it is wired) -----------------------------------------------------------


def test_send_gets_the_record_keyed_by_the_file_with_the_ledger_beside_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import narrator.replay.send as send

    calls: list[dict[str, Any]] = []

    def fake(games: Any, **kwargs: Any) -> list[Sent]:
        calls.append({"games": list(games), **kwargs})
        return [Sent("game.table.jsonl", True, "game.table.jsonl: stored")]

    monkeypatch.setattr(send, "send_games", fake)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "secret")
    path = named(tmp_path, GAME)
    code, stdout, err = run(capsys, str(path), "--roster", str(ROSTER), *FILED,
                            "--send", "https://mafiaratings.example", "--user", "host")
    assert code == 0 and stdout == "" and "narrator: game.table.jsonl: stored" in err
    (call,) = calls
    assert call["games"][0][0] == path.name and call["games"][0][1]["eventId"] == 7
    assert call["ledger"] == tmp_path / "sent.json"
    assert call["user"] == "host" and call["password"] == "secret"
    assert "secret" not in err


def test_a_lone_candidate_leaving_without_a_vote_has_every_living_seats_vote(
        capsys: pytest.CaptureFixture[str]) -> None:
    """vrn-closed, day 2: only the don (7) is put up and leaves without a vote. MafiaRatings
    wants a vote of every living seat in a round with a nominee after round 0, so each one is
    given for him; day 1's lone candidate is not voted on, and keeps no nomination."""
    code, stdout, err = run(capsys, str(EXAMPLES / "vrn-closed-car-crash.table.jsonl"),
                            "--demo")
    assert code == 0, err
    players = json.loads(stdout)["players"]
    assert players[4]["nominating"] == [None, 7]
    assert "nominating" not in players[0]  # day 1: 2 alone, no vote
    # (night 2 was a miss: the whole table sat on day 2)
    assert [p["voting"][1] for p in players] == [7] * 10


def test_an_id_or_number_below_1_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, str(GAME), "--demo", "--table", "0")
    assert code == 2 and err == "narrator: --table: expected a whole number from 1, got 0\n"
