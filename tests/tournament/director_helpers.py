"""What the director's tests share: a small plan on disk, a tournament made from it, finished
games' journals as a table's box writes them, and a fake clock; and the tournament of
docs/tournament.md's example."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from narrator.arguments import TournamentRunArgs
from narrator.console.presses import MarkPress
from narrator.engine import Remove, TimeUp
from narrator.evening.marks import mark_over
from narrator.host.journal import load_journal
from narrator.scoring.matters import Matter
from narrator.tournament.director import Director
from narrator.tournament.run_cli import open_store
from tests.evening.test_evening import journal_game
from tests.helpers import ROLES

NAMES = ["Ника", "Бублик", "Кот", "Лис", "Ёж", "Сова", "Волк", "Заяц", "Бобр", "Уж",
         "Гром", "Луна", "Рысь", "Граф", "Чиж", "Тень", "Ворон", "Зефир", "Кеша", "Пуля"]
#: two rounds at two tables: round 1 players 0–9 at table 1 and 10–19 at table 2, round 2
#: the halves change tables, each seated in reverse
ROUNDS = [[list(range(10)), list(range(10, 20))],
          [list(range(19, 9, -1)), list(range(9, -1, -1))]]
#: the civilians win (the black seats 3, 5 and 9 removed), the mafia wins (four reds removed)
RED_WIN = (TimeUp("dealing"), Remove(3), Remove(5), Remove(9))
BLACK_WIN = (TimeUp("dealing"), Remove(2), Remove(4), Remove(6), Remove(7))


class FakeClock:
    """Unix seconds that move only when a test moves them."""

    def __init__(self, now: int = 1_800_000_000) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def write_plan(folder: Path, rounds: list[list[list[int]]] = ROUNDS,
               names: list[str] = NAMES) -> Path:
    path = folder / "plan.json"
    path.write_text(json.dumps({"plan": 1, "players": names, "tables": len(rounds[0]),
                                "games": len(rounds) * len(rounds[0]) * 10 // len(names),
                                "apart": [],
                                "rounds": [[[names[p] for p in t] for t in r] for r in rounds]},
                               ensure_ascii=False), encoding="utf-8")
    return path


def run_args(folder: Path, **options: Any) -> TournamentRunArgs:
    values: dict[str, Any] = {"dir": str(folder / "t"), "plan": str(folder / "plan.json"),
                              "console": "127.0.0.1:0", **options}
    return TournamentRunArgs(**values)


def make_director(folder: Path, clock: FakeClock | None = None, **options: Any) -> Director:
    if not (folder / "plan.json").exists():
        write_plan(folder)
    args = run_args(folder, **options)
    store, _ = open_store(args, (clock or FakeClock())())
    return Director(store, Path(args.dir), clock or FakeClock(), "http://127.0.0.1:1")


def journal_text(folder: Path, seated: list[str], actions: tuple[Any, ...]) -> str:
    """The journal of a crime-time game of ROLES (don 3, mafia 5 and 9, sheriff 1) with
    ``seated`` on seats 1–10, played as ``actions``."""
    path = folder / f"game-{len(list(folder.glob('game-*')))}.jsonl"
    journal_game(path, "crime-time", ROLES, dict(enumerate(seated, 1)), *actions)
    return path.read_text(encoding="utf-8")


def body(folder: Path, rnd: int, table: int, actions: tuple[Any, ...] = RED_WIN,
         key: str | None = None, game: int | None = None) -> dict[str, Any]:
    """What a table's box posts for its game of round ``rnd`` as the plan seats it."""
    seated = [NAMES[p] for p in ROUNDS[rnd - 1][table - 1]]
    return {"key": key or f"evening{table}-{rnd}", "round": rnd, "game": game or rnd,
            "journal": journal_text(folder, seated, actions),
            "seating": {str(s): n for s, n in enumerate(seated, 1)}}


def docs_tournament(folder: Path) -> None:
    """docs/tournament.md's tournament in ``folder``: the plan's 20 players, each with an id
    (2001…), tournament 77; round 1 in from both tables, round 2 from table 1."""
    work = folder.parent / f".{folder.name}-tables"  # the plan, the roster, the journals
    work.mkdir()
    write_plan(work)
    roster = work / "roster.csv"
    roster.write_text("".join(f"{n},{2001 + i}\n" for i, n in enumerate(NAMES)),
                      encoding="utf-8")
    director = make_director(work, FakeClock(), dir=str(folder), roster=str(roster),
                             tournament_id=77)
    for rnd, table in ((1, 1), (1, 2), (2, 1)):
        posted = {**body(work, rnd, table), "ended": 1_800_000_000 + 3600 * rnd}
        director.receive(director.store.tables()[table - 1], posted)
    director.store.close()


#: a MafiaRatings scoring of a win's point and the host's extra points (FIIM gives none for
#: them): the standings move by a mark's points
BONUS_SCORING = {"main": [{"matter": Matter.WIN.flag, "points": 1}],
                 "extra": [{"matter": Matter.EXTRA_POINTS.flag, "points": "bonus"}]}


def bonus_scoring(folder: Path) -> Path:
    path = folder / "bonus.json"
    path.write_text(json.dumps(BONUS_SCORING), encoding="utf-8")
    return path


def marked(folder: Path, posted: dict[str, Any], seat: int, points: float) -> dict[str, Any]:
    """``posted`` with the host's mark of ``seat`` given after the game (``points``, with a
    comment) appended to its journal, as the evening appends it between games."""
    path = folder / f"marked-{len(list(folder.glob('marked-*')))}.jsonl"
    path.write_text(posted["journal"], encoding="utf-8")
    press = MarkPress(seat=seat, points=points, comment="за игру")
    assert mark_over(load_journal(path).game(), path, press, 500.0) is None
    return {**posted, "journal": path.read_text(encoding="utf-8")}
