"""``narrator tournament export DIR -o OUT``: every game the director holds, one MafiaRatings
record per game, filed by the tournament, the table and the round, each seat's id the
director's player's, the times the table's; refused in one line when an id is missing; sent
once, with the ledger in DIR. And what it needs from the tables: ``ended`` posted, kept, and
a database made before it taken up."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import Game, Remove, Role, TimeUp
from narrator.engine.rules import find_rules
from narrator.errors import NarratorError
from narrator.evening.join import body_of
from narrator.host.host import Host
from narrator.host.journal import Journal
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.tournament.director import BadGame, Director, posted
from narrator.tournament.store import FILE, Store
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES
from tests.replay.standin import StandIn
from tests.tournament.director_helpers import (
    NAMES,
    RED_WIN,
    ROUNDS,
    FakeClock,
    make_director,
    write_plan,
)
from tests.tournament.joining import finish_game, joined_book
from tests.tournament.standin_director import StandInDirector

TOURNAMENT = 77
FILED = ("--club-id", "42", "--event-id", "7", "--moderator-id", "5")
#: seconds between the journal's actions: the four actions of RED_WIN make a 180 s game
STEP = 60
LENGTH = 3 * STEP
ENDED = 1_800_003_600


def ids(names: list[str] = NAMES) -> dict[str, int]:
    """The players' MafiaRatings ids: 1000 + their index in the plan."""
    return {name: 1000 + NAMES.index(name) for name in names}


def director_with_ids(folder: Path, clock: FakeClock, without: str | None = None,
                      **options: Any) -> Director:
    """A tournament of the plan whose roster gives every player an id (but ``without``)."""
    write_plan(folder)
    roster = folder / "roster.csv"
    roster.write_text("".join(f"{n},{i}\n" for n, i in ids().items() if n != without),
                      encoding="utf-8")
    return make_director(folder, clock, roster=str(roster), **options)


def timed_journal(path: Path, seated: list[str], actions: tuple[Any, ...] = RED_WIN,
                  rules: str = "crime-time", roles: dict[int, Role] | None = ROLES) -> str:
    """A journal of ``seated`` playing ``actions``, STEP seconds of the game's time apart."""
    game = Game(find_rules(rules), roles=roles, names=dict(enumerate(seated, 1)),
                dealt={"maniac_side": "city"} if rules == "vrn" else None,
                rng=random.Random(2))
    journal = Journal.for_game(path, game, fsync=False, mode="play")
    scheduler = Scheduler(VirtualClock(500.0))
    host = Host(game, scheduler, Transcript(default_manifest("ru")), journal)
    host.start()
    for i, action in enumerate(actions):
        scheduler.move_to(500.0 + i * STEP)
        host.apply(action)
    journal.close()
    return path.read_text(encoding="utf-8")


def post(director: Director, folder: Path, rnd: int, table: int, ended: int | None = None,
         seated: list[str] | None = None, **kw: Any) -> list[str]:
    """The game of round ``rnd`` at ``table`` as the table posts it; its seats' nicknames."""
    seated = seated or [NAMES[p] for p in ROUNDS[rnd - 1][table - 1]]
    body: dict[str, Any] = {
        "key": f"ev{table}-{rnd}", "round": rnd, "game": rnd + 2,
        "journal": timed_journal(folder / f"r{rnd}t{table}.jsonl", seated, **kw),
        "seating": {str(s): n for s, n in enumerate(seated, 1)}}
    if ended is not None:
        body["ended"] = ended
    assert director.receive(director.store.tables()[table - 1], body) == {"stored": True}
    return seated


def export(capsys: pytest.CaptureFixture[str], folder: Path, *options: str) -> tuple[int, str]:
    code = main(["tournament", "export", str(folder / "t"), "-o", str(folder / "out"),
                 *options])
    return code, capsys.readouterr().err


def records(folder: Path) -> dict[str, dict[str, Any]]:
    return {p.name: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((folder / "out").iterdir())}


def test_each_game_is_a_file_filed_by_the_tournament_its_table_and_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clock = FakeClock()
    director = director_with_ids(tmp_path, clock, tournament_id=TOURNAMENT)
    seated = {(2, 2): post(director, tmp_path, 2, 2, ended=ENDED + 900),
              (1, 1): post(director, tmp_path, 1, 1, ended=ENDED)}
    clock.now += 5000  # a table that did not say when its game ended: when it came
    seated[(1, 2)] = post(director, tmp_path, 1, 2)
    director.store.close()
    code, err = export(capsys, tmp_path, *FILED)
    assert code == 0
    out = tmp_path / "out"
    got = records(tmp_path)
    assert list(got) == ["round-01-table-01.json", "round-01-table-02.json",
                         "round-02-table-02.json"]
    assert err.splitlines() == [f"narrator: written {out / name}" for name in got]
    ends = {(1, 1): ENDED, (1, 2): clock.now, (2, 2): ENDED + 900}
    for (rnd, table), record in zip(sorted(seated), got.values(), strict=True):
        assert (record["tournamentId"], record["tableNum"], record["gameNum"]) == \
            (TOURNAMENT, table, rnd)
        assert (record["clubId"], record["eventId"], record["moderator"]) == (42, 7, {"id": 5})
        assert [(p["id"], p["name"]) for p in record["players"]] == \
            [(ids()[n], n) for n in seated[(rnd, table)]]
        assert (record["startTime"], record["endTime"]) == \
            (ends[(rnd, table)] - LENGTH, ends[(rnd, table)])
        assert record["winner"] == "civ"
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in out.iterdir())


def test_a_seats_nickname_finds_its_player_as_the_plan_matches_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    director = director_with_ids(tmp_path, FakeClock(), tournament_id=TOURNAMENT)
    seated = [NAMES[p] for p in ROUNDS[0][0]]
    written = [n.upper() if i % 2 else n for i, n in enumerate(seated)]
    written[4] = f"  {seated[4]}  "
    post(director, tmp_path, 1, 1, seated=written)
    director.store.close()
    assert export(capsys, tmp_path, *FILED)[0] == 0
    (record,) = records(tmp_path).values()
    assert [p["id"] for p in record["players"]] == [ids()[n] for n in seated]


def test_without_the_tournaments_id_or_a_seats_the_export_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    director = director_with_ids(tmp_path, FakeClock(), without=NAMES[12])
    post(director, tmp_path, 1, 1)
    post(director, tmp_path, 1, 2)  # NAMES[12] on seat 3
    director.store.close()
    code, err = export(capsys, tmp_path, "--club-id", "42")
    assert code == 2
    assert err == ("narrator: export: --event-id and --moderator-id are missing "
                        "(MafiaRatings stores no game without its club, event and host); the "
                        "tournament has no MafiaRatings id (give it once: narrator tournament "
                        "run DIR … --tournament-id N); --demo writes the record anyway\n")
    assert not (tmp_path / "out").exists()
    # the guest seat is no reason to refuse: named in one line, exported
    code, err = export(capsys, tmp_path, "--club-id", "42", "--demo")
    assert code == 0 and (tmp_path / "out" / "round-01-table-02.json").is_file()
    assert ("narrator: note: guests, without a MafiaRatings id: round-01-table-02: seat 3 "
            "(the site keeps their nicknames and credits them no rating; the tournament's "
            "players have no id for these nicknames: give them in its roster)\n") in err


def test_a_later_run_may_give_the_id_the_first_run_did_not(tmp_path: Path) -> None:
    from narrator.tournament.run_cli import open_store
    from tests.tournament.director_helpers import run_args

    director_with_ids(tmp_path, FakeClock()).store.close()
    roster = str(tmp_path / "roster.csv")
    store, made = open_store(run_args(tmp_path, roster=roster, tournament_id=TOURNAMENT), 0)
    assert not made and store.tournament().mafiaratings == TOURNAMENT
    store.close()
    with pytest.raises(NarratorError, match="--tournament-id differs"):
        open_store(run_args(tmp_path, roster=roster, tournament_id=TOURNAMENT + 1), 0)


def test_the_finals_games_may_be_filed_under_an_event_of_their_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    director = director_with_ids(tmp_path, FakeClock(), tournament_id=TOURNAMENT, final_from=2)
    post(director, tmp_path, 1, 1)
    post(director, tmp_path, 2, 1)
    director.store.close()
    assert export(capsys, tmp_path, *FILED, "--final-event-id", "8")[0] == 0
    assert [(r["gameNum"], r["eventId"]) for r in records(tmp_path).values()] == [(1, 7), (2, 8)]
    assert export(capsys, tmp_path, *FILED)[0] == 0
    assert [r["eventId"] for r in records(tmp_path).values()] == [7, 7]


def test_a_final_event_without_a_final_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    director = director_with_ids(tmp_path, FakeClock(), tournament_id=TOURNAMENT)
    post(director, tmp_path, 1, 1)
    director.store.close()
    code, err = export(capsys, tmp_path, *FILED, "--final-event-id", "8")
    assert (code, err) == (2, "narrator: --final-event-id: the tournament has no final "
                              "(tournament run --final-from R makes one)\n")
    assert not (tmp_path / "out").exists()


def test_demo_writes_the_records_without_the_ids(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    director = make_director(tmp_path, FakeClock())  # no ids, no tournament id
    post(director, tmp_path, 2, 1, ended=ENDED)
    director.store.close()
    code, _ = export(capsys, tmp_path, "--demo")
    assert code == 0
    (record,) = records(tmp_path).values()
    assert (record["tableNum"], record["gameNum"]) == (1, 2)
    assert not {"tournamentId", "clubId", "eventId", "moderator"} & set(record)
    assert not any("id" in p for p in record["players"])
    assert record["endTime"] == ENDED


def test_a_game_the_format_cannot_hold_is_one_line_and_the_rest_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    director = director_with_ids(tmp_path, FakeClock(), tournament_id=TOURNAMENT)
    post(director, tmp_path, 1, 1, rules="vrn", roles=None,
         actions=(TimeUp("dealing"), Remove(7), Remove(9), Remove(10)))
    post(director, tmp_path, 1, 2)
    director.store.close()
    code, err = export(capsys, tmp_path, *FILED)
    assert code == 0
    first, *rest = err.splitlines()
    assert first.startswith("narrator: round-01-table-01: not exported: MafiaRatings takes "
                            "ten seats with 6 civilians, a sheriff, 2 mafia and a don; ")
    assert len(rest) == 1 and rest[0].endswith("round-01-table-02.json")
    assert list(records(tmp_path)) == ["round-01-table-02.json"]


def test_sent_once_with_the_ledger_in_the_tournaments_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "s3cret")
    director = director_with_ids(tmp_path, FakeClock(), tournament_id=TOURNAMENT)
    post(director, tmp_path, 1, 1, ended=ENDED)
    post(director, tmp_path, 1, 2, ended=ENDED)
    users: dict[int, tuple[str, str]] = {5: ("host", "-"), 9: ("referee", "s3cret")}
    users.update({i: (n, "-") for n, i in ids().items()})
    with StandIn(users, {"referee": {42}}) as site:
        code, err = export(capsys, tmp_path, *FILED, "--send", site.url, "--user", "referee")
        assert code == 0 and err.splitlines()[-2:] == ["narrator: round-01-table-01: stored",
                                                       "narrator: round-01-table-02: stored"]
        assert [(g.tournament_id, g.table_num, g.game_num, g.end_time) for g in site.games] == \
            [(TOURNAMENT, 1, 1, ENDED), (TOURNAMENT, 2, 1, ENDED)]
        post(director, tmp_path, 2, 1, ended=ENDED + 900)  # a game came since
        director.store.close()
        code, err = export(capsys, tmp_path, *FILED, "--send", site.url, "--user", "referee")
        assert code == 0 and err.count("sent already") == 2
        assert err.endswith("narrator: round-02-table-01: stored\n") and site.requests == 3
    ledger = json.loads((tmp_path / "t" / "sent.json").read_text(encoding="utf-8"))["sent"]
    assert sorted(key.split()[-1] for key in ledger) == \
        ["round-01-table-01", "round-01-table-02", "round-02-table-01"]


# -- what the tables send: the game's end ------------------------------------------------------


@pytest.mark.parametrize("ended", ["1800000000", 1.8e9, True, 5, 10**12])
def test_an_end_that_is_no_unix_time_is_refused_naming_the_field(ended: object) -> None:
    body = {"key": "k", "round": 1, "game": 1, "journal": "{}\n", "seating": {}}
    assert posted(body).ended is None
    with pytest.raises(BadGame, match=r"^ended: "):
        posted({**body, "ended": ended})


def test_the_end_a_table_posts_is_kept(tmp_path: Path) -> None:
    director = make_director(tmp_path, FakeClock())
    post(director, tmp_path, 1, 1, ended=ENDED)
    post(director, tmp_path, 1, 2)
    assert [g.ended for g in director.store.games()] == [ENDED, None]
    director.store.close()
    again = Store.open(tmp_path / "t")
    assert [g.ended for g in again.games()] == [ENDED, None]
    again.close()


def test_a_database_made_before_the_end_was_kept_gets_its_column(tmp_path: Path) -> None:
    director = make_director(tmp_path, FakeClock())
    post(director, tmp_path, 1, 1)
    director.store.close()
    old = sqlite3.connect(tmp_path / "t" / FILE)
    old.execute("ALTER TABLE games DROP COLUMN ended")  # as the box before it made it
    old.commit()
    old.close()
    store = Store.open(tmp_path / "t")
    assert [g.ended for g in store.games()] == [None]
    taken_up = Director(store, tmp_path / "t", FakeClock())
    post(taken_up, tmp_path, 1, 2, ended=ENDED)
    assert [g.ended for g in store.games()] == [None, ENDED]
    store.close()


def test_a_table_sends_its_journals_last_write_as_the_end(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    os.utime(book.journal(entry), (ENDED, ENDED + 0.7))
    sent = body_of(book, entry)
    assert sent is not None and sent["ended"] == ENDED
    assert posted(sent).ended == ENDED  # what the director takes
