"""Every folder and file an evening, a tournament, a review or an export writes is its owner's
only — folders 0700, files 0600 — whatever the umask: each test runs under umask 022, which
leaves what ``mkdir`` and ``open`` make readable by everyone (0755, 0644)."""

from __future__ import annotations

import io
import os
import random
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.outputs import (
    private_binary,
    private_fd,
    private_file,
    private_folder,
    replace_whole,
    write_private,
)


@pytest.fixture(autouse=True)
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def modes(root: Path) -> dict[str, str]:
    """Every folder and file under ``root`` (itself too) that others may read, by its mode."""
    found = {}
    for path in (root, *root.rglob("*")):
        mode = stat.S_IMODE(path.lstat().st_mode)
        if mode & 0o077 or mode != (0o700 if path.is_dir() else 0o600):
            found[str(path.relative_to(root.parent))] = oct(mode)
    return found


def test_the_helpers_make_and_close_up_what_they_write(tmp_path: Path) -> None:
    deep = tmp_path / "a" / "b" / "c"
    private_folder(deep, parents=True)
    assert modes(tmp_path / "a") == {}
    old = tmp_path / "old.txt"
    old.write_text("x")
    old.chmod(0o644)
    write_private(old, "new")  # an old file's mode would stay otherwise
    with private_file(tmp_path / "t.txt") as f:
        f.write("t")
    with private_binary(tmp_path / "b.bin") as b:
        b.write(b"b")
    os.close(private_fd(tmp_path / "fd"))
    replace_whole(tmp_path / "whole.txt", "w", "a test file")
    for name in ("old.txt", "t.txt", "b.bin", "fd", "whole.txt"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    os.close(private_fd("/dev/null", os.O_WRONLY))  # a device is left as it is
    assert stat.S_IMODE(os.stat("/dev/null").st_mode) == 0o666
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    private_folder(shared, exist_ok=True)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o700
    with pytest.raises(FileExistsError):
        private_folder(shared)


def test_an_evenings_folder_and_every_file_of_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The folder the command makes, then two games on a virtual clock (as the evening's own
    test plays them): the book, the journals, each game's WAV, results.csv and results.json;
    then the export of its games, a review of one and the season's standings."""
    from narrator.clock import VirtualClock
    from narrator.console.serve import ConsoleOptions
    from narrator.console.table import Press
    from narrator.console.tokens import OPERATOR
    from narrator.evening.book import EveningBook, GameEntry
    from narrator.evening.cli import Evening
    from narrator.play.cli import TableOptions
    from tests.evening.test_evening import NAMES

    folder = tmp_path / "clubs" / "ev"
    real_run = Evening.run
    monkeypatch.setattr(Evening, "run", lambda self: 0)
    assert main(["evening", str(folder), "--console", "127.0.0.1:0", "--listen", "off",
                 "--wav", "--players", ",".join(NAMES)]) == 0
    monkeypatch.setattr(Evening, "run", real_run)
    assert modes(folder) == {}
    assert stat.S_IMODE((tmp_path / "clubs").stat().st_mode) == 0o700  # made on the way

    book = EveningBook.load(folder)
    book.draw(random.Random(4))
    book.save()
    opts = TableOptions(lang="ru", listen=False,
                        console=ConsoleOptions("127.0.0.1:0", None, False, True))
    clock = VirtualClock(1000.0)
    evening = Evening(book, opts, None, wav=True, rng=random.Random(5), clock=clock,
                      terminal=io.StringIO(""))
    front, press = evening.front, evening.driver.call
    attach, detach = front.attach, front.detach
    played: list[int] = []

    def operator(do: str, **data: Any) -> None:
        press(lambda: front.handle(Press(OPERATOR, do, data, clock.now())))

    def game_on(table: Any, entry: GameEntry) -> None:
        attach(table, entry)
        played.append(entry.number)
        for seat in sorted(table.host.game.black):
            operator("remove", seat=seat)

    def lobby(finished: Any, results: Any) -> None:
        detach(finished, results)
        operator("start" if len(played) < 2 else "close")

    front.attach, front.detach = game_on, lobby  # type: ignore[method-assign]
    operator("start")
    assert evening.run() == 0 and played == [1, 2]
    names = {p.name for p in folder.iterdir()}
    assert {"evening.json", "game-01.jsonl", "game-02.jsonl", "game-01.wav", "game-02.wav",
            "results.csv", "results.json"} <= names, names
    assert modes(folder) == {}

    out = tmp_path / "exported" / "games"
    assert main(["export", "--format", "mafiaratings", str(folder), "--demo",
                 "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["game-01.json", "game-02.json"]
    assert modes(out) == {}
    review = tmp_path / "review"  # a judge's page of one of its games
    assert main(["review", str(folder / "game-01.jsonl"), "-o", str(review)]) == 0
    assert modes(review) == {}
    season = tmp_path / "season.csv"
    assert main(["standings", str(folder), "-o", str(season)]) == 0
    assert stat.S_IMODE(season.stat().st_mode) == 0o600
    capsys.readouterr()


def test_a_tournaments_folder_its_database_and_its_plan(tmp_path: Path) -> None:
    from narrator.tournament.run_cli import open_store
    from tests.tournament.director_helpers import run_args, write_plan
    from tests.tournament.test_director_store import _game

    players = tmp_path / "players.txt"
    players.write_text("".join(f"P{n}\n" for n in range(1, 11)), encoding="utf-8")
    plan = tmp_path / "plans" / "plan"
    plan.parent.mkdir()
    assert main(["tournament", "plan", "--players", str(players), "--tables", "1",
                 "--games", "2", "--out", str(plan), "--quiet", "--time-limit", "1"]) == 0
    assert modes(plan.parent) == {"plans": "0o755"}  # (the user's own folder, left as it is)

    write_plan(tmp_path)
    store, _ = open_store(run_args(tmp_path), 1_800_000_000)
    try:
        store.add_game(_game("t1-1"))  # (a write: the write-ahead log exists now)
    finally:
        store.close()
    assert modes(tmp_path / "t") == {}
