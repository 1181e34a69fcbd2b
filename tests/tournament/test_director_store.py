"""The director's database: what a first run writes reads back whole, a game is stored once,
and a box killed in the middle of a transaction leaves nothing half-written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from narrator.errors import NarratorError
from narrator.tournament.run_cli import open_store
from narrator.tournament.store import FILE, Received, Stage, Store, has_tournament
from tests.tournament.director_helpers import NAMES, ROUNDS, FakeClock, run_args, write_plan

ROOT = Path(__file__).resolve().parents[2]


def _game(key: str, rnd: int = 1, table: int = 1) -> Received:
    return Received(key, rnd, table, 1, '{"journal": 1}\n', {1: "Ника", 2: "Бублик"},
                    1_800_000_000)


def test_a_first_run_writes_what_reads_back(tmp_path: Path) -> None:
    write_plan(tmp_path)
    args = run_args(tmp_path, name="Кубок", tournament_id=77, rules="crime-time",
                    final_from=2, final_coefficient=1.5, hide_final=True)
    store, made = open_store(args, 1_800_000_000)
    assert made
    t = store.tournament()
    assert (t.name, t.mafiaratings, t.kept_scoring(), t.rules) == ("Кубок", 77, {"system": "fiim"},
                                                             "crime-time")
    assert [p.nickname for p in store.players()] == NAMES
    assert len({p.token for p in store.players()}) == len(NAMES)
    assert store.rounds() == ROUNDS
    assert [t.number for t in store.tables()] == [1, 2]
    assert all(t.contact is None for t in store.tables())
    assert store.stages() == [Stage(1, "Основной этап", 1.0, False), Stage(2, "Финал", 1.5, True)]
    assert store.add_game(_game("a-1"))
    assert not store.add_game(_game("a-1", rnd=2))  # the key is there: nothing changes
    store.touch(2, 1_800_000_100)
    store.close()
    again = Store.open(Path(args.dir))
    assert again.games() == [_game("a-1")]
    assert [t.contact for t in again.tables()] == [None, 1_800_000_100]
    assert again.tournament().token == t.token
    again.close()


def test_games_come_back_in_the_tournaments_order(tmp_path: Path) -> None:
    write_plan(tmp_path)
    store, _ = open_store(run_args(tmp_path), FakeClock()())
    for key, rnd, table in (("c", 2, 1), ("b", 1, 2), ("a", 1, 1)):
        store.add_game(_game(key, rnd, table))
    assert [g.key for g in store.games()] == ["a", "b", "c"]
    store.close()


KILL_IN_A_GAME = """
import os, signal, sys
from pathlib import Path
from narrator.tournament.store import Store
store = Store.open(Path(sys.argv[1]))
with store._write() as db:
    db.execute("INSERT INTO games (key, round, table_no, game, journal, seating, received) "
               "VALUES ('half', 1, 1, 1, 'x', '{}', 0)")
    db.execute("UPDATE tables SET contact = 5")
    os.kill(os.getpid(), signal.SIGKILL)
"""

KILL_IN_THE_FIRST_RUN = """
import os, signal, sys
from pathlib import Path
import narrator.tournament.store as store
from tests.tournament.director_helpers import run_args
import pytest

from narrator.errors import NarratorError
from narrator.tournament.run_cli import open_store
real = store._fill
def fill(db, setup, now):
    real(db, setup, now)
    os.kill(os.getpid(), signal.SIGKILL)
store._fill = fill
open_store(run_args(Path(sys.argv[1])), 0)
"""


def _killed(script: str, *args: str) -> None:
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, timeout=60,
                          capture_output=True, text=True)
    assert done.returncode == -9, done.stderr


def test_a_box_killed_in_a_transaction_keeps_the_last_commit(tmp_path: Path) -> None:
    write_plan(tmp_path)
    args = run_args(tmp_path)
    store, _ = open_store(args, 0)
    store.add_game(_game("whole"))
    store.close()
    _killed(KILL_IN_A_GAME, args.dir)
    store, made = open_store(args, 0)  # taken up: the plan is the same
    assert not made
    assert [g.key for g in store.games()] == ["whole"]
    assert [t.contact for t in store.tables()] == [None, None]
    store.close()


def test_a_first_run_killed_before_its_commit_leaves_no_tournament(tmp_path: Path) -> None:
    write_plan(tmp_path)
    _killed(KILL_IN_THE_FIRST_RUN, str(tmp_path))
    path = tmp_path / "t" / FILE
    assert path.exists() and not has_tournament(path)
    store, made = open_store(run_args(tmp_path), 0)  # made again, whole
    assert made and store.rounds() == ROUNDS
    store.close()


def test_the_database_is_its_owners_only(tmp_path: Path) -> None:
    """It holds every link's token and the games' journals: nobody else reads it, nor its
    write-ahead log."""
    write_plan(tmp_path)
    store, _ = open_store(run_args(tmp_path), 1_800_000_000)
    store.add_game(_game("t1-1"))  # (a write: the -wal file exists now)
    files = [p for p in (tmp_path / "t").iterdir() if p.name.startswith(FILE)]
    assert files and all(p.stat().st_mode & 0o077 == 0 for p in files), \
        {p.name: oct(p.stat().st_mode) for p in files}


def _stored_tournament(tmp_path: Path, games: int = 11) -> Path:
    write_plan(tmp_path)
    store, _ = open_store(run_args(tmp_path), 0)
    for n in range(games):
        store.add_game(Received(f"g-{n}", 1 + n % 2, 1 + n % 2, 1 + n,
                                '{"journal": 1}\n' * 200, {1: "Ника", 2: "Бублик"}, n))
    store.close()  # the last connection checkpoints the WAL into the file
    return tmp_path / "t" / FILE


def _damage(path: Path, offset: int, size: int = 64) -> bytes:
    data = bytearray(path.read_bytes())
    data[offset:offset + size] = bytes((n * 37 + 11) % 256 for n in range(size))
    path.write_bytes(bytes(data))
    return bytes(data)


def _page_size(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[16:18], "big")  # the header's page size


def test_a_damaged_header_is_one_line_and_the_file_is_kept(tmp_path: Path) -> None:
    """A database whose header no longer reads was once taken for "no tournament" and made
    again: a new director token, 0 of its games, every link dead. It is refused now."""
    path = _stored_tournament(tmp_path)
    damaged = _damage(path, 0, 100)
    box = subprocess.run([sys.executable, "-m", "narrator", "tournament", "run",
                          str(tmp_path / "t"), "--plan", str(tmp_path / "plan.json"),
                          "--console", "127.0.0.1:0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert box.returncode == 2
    lines = box.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in box.stderr, box.stderr
    assert str(path) in lines[0] and "damaged" in lines[0] and "(new)" not in box.stdout
    assert path.read_bytes() == damaged


def test_a_damaged_last_page_is_found_when_opened(tmp_path: Path) -> None:
    """Not at the first game posted (a 500) nor while printing the links (a traceback): the
    whole file is checked when the director opens it."""
    path = _stored_tournament(tmp_path)
    size = _page_size(path)
    pages = path.stat().st_size // size
    damaged = _damage(path, (pages - 1) * size + 8, size - 16)
    with pytest.raises(NarratorError, match="damaged") as raised:
        open_store(run_args(tmp_path), 0)
    assert "\n" not in str(raised.value)
    with pytest.raises(NarratorError, match="damaged"):
        Store.open(tmp_path / "t")
    assert path.read_bytes() == damaged


def test_a_stranger_file_is_never_made_a_tournament_over(tmp_path: Path) -> None:
    write_plan(tmp_path)
    (tmp_path / "t").mkdir()
    path = tmp_path / "t" / FILE
    path.write_text("the club's notes, not a database\n" * 50, encoding="utf-8")
    with pytest.raises(NarratorError, match="damaged"):
        open_store(run_args(tmp_path), 0)
    assert path.read_text(encoding="utf-8").startswith("the club's notes")
