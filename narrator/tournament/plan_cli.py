"""``narrator tournament plan``: read the players, search a seating plan, write OUT.json and
OUT.csv, print its score in MafiaRatings' terms and its most unbalanced player."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from narrator.arguments import TournamentPlanArgs
from narrator.errors import NarratorError
from narrator.outputs import replace_whole
from narrator.reading import read_text
from narrator.replay.roster import key_of, load_roster
from narrator.seating import ourfile
from narrator.seating.plan import Outcome, make_plan
from narrator.seating.score import Score, Shape, score
from narrator.seating.worst import worst_player

#: a players' list's size: far more than any tournament's
MAX_LIST = 1 << 20


def read_players(path: str) -> tuple[list[str], dict[str, int]]:
    """The nicknames in ``path`` in its order, and their MafiaRatings ids where it has them:
    a roster CSV (its first line has a comma; its moderator is no player) or one nickname a
    line (blank lines and ``#`` comments skipped)."""
    text = read_text(path, "the players' list", limit=MAX_LIST)
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)
             if line.strip() and not line.lstrip().startswith("#")]
    if lines and "," in lines[0][1]:
        roster = load_roster(path)
        return [n for n, _ in roster.players], {n: i for n, i in roster.players}
    names: list[str] = []
    seen: dict[str, int] = {}
    for number, line in lines:
        name = " ".join(line.split())
        if not name.isprintable():
            raise NarratorError(f"{path}:{number}: expected a nickname, got {line!r}")
        if key_of(name) in seen:
            raise NarratorError(f"{path}:{number}: {name!r} is on line {seen[key_of(name)]} "
                                f"already")
        seen[key_of(name)] = number
        names.append(name)
    return names, {}


def parse_apart(text: str | None, names: Sequence[str]) -> tuple[frozenset[int], ...]:
    """``"A+B,C+D+E"`` as groups of player indices; an unknown nickname is one error."""
    if not text:
        return ()
    index = {key_of(n): i for i, n in enumerate(names)}
    groups = []
    for part in text.split(","):
        members = [m for m in (" ".join(x.split()) for x in part.split("+")) if m]
        if len(members) < 2:
            raise NarratorError(f"--apart: {part.strip()!r}: a group is two nicknames or more, "
                                f"joined by +")
        unknown = next((m for m in members if key_of(m) not in index), None)
        if unknown is not None:
            raise NarratorError(f"--apart: {unknown!r} is not among the players")
        group = frozenset(index[key_of(m)] for m in members)
        if len(group) < 2:
            raise NarratorError(f"--apart: {part.strip()!r} names one player only")
        groups.append(group)
    return tuple(groups)


def _check(args: TournamentPlanArgs) -> None:
    for name, value in (("--tables", args.tables), ("--games", args.games)):
        if value < 1:
            raise NarratorError(f"{name}: expected a whole number from 1, got {value}")
    if not args.time_limit > 0:
        raise NarratorError(f"--time-limit: expected seconds above 0, got {args.time_limit:g}")


@contextmanager
def _bar(quiet: bool) -> Iterator[Callable[[float, float], None]]:
    """A progress bar on stderr (none when it is no terminal, or with --quiet)."""
    from tqdm import tqdm

    bar = tqdm(total=1000, desc="plan", unit="‰", file=sys.stderr, leave=False,
               disable=quiet or not sys.stderr.isatty(), bar_format="{l_bar}{bar}| {postfix}")

    def show(done: float, best: float) -> None:
        bar.update(int(done * 1000) - bar.n)
        bar.set_postfix_str(f"best {best:,.1f}" if best < 1e6 else "keeping apart")

    try:
        yield show
    finally:
        bar.close()


def out_paths(out: str) -> tuple[Path, Path]:
    base = Path(out)
    if base.suffix in (".json", ".csv"):
        base = base.with_suffix("")
    return base.with_name(base.name + ".json"), base.with_name(base.name + ".csv")


def run(args: TournamentPlanArgs) -> int:
    _check(args)
    names, ids = read_players(args.players)
    shape = Shape(len(names), args.tables, args.games, parse_apart(args.apart, names))
    started = time.monotonic()
    with _bar(args.quiet) as show:
        outcome = make_plan(shape, args.seed, time_limit=args.time_limit, progress=show)
    took = time.monotonic() - started
    plan = outcome.rounds
    json_path, csv_path = out_paths(args.out)
    replace_whole(json_path, ourfile.to_json(plan, names, shape, args.seed, ids), "the plan")
    replace_whole(csv_path, ourfile.to_csv(plan, names), "the plan's CSV")
    print("\n".join(report(plan, names, shape, outcome, took)))
    print(f"written {json_path} and {csv_path}")
    return 0


def report(plan: list[list[list[int]]], names: Sequence[str], shape: Shape, outcome: Outcome,
           took: float) -> list[str]:
    """What the command prints: the plan's size, its score, its worst player, the time."""
    got = score(plan, shape)
    worst = worst_player(plan, shape)
    stop = ", stopped by the time limit" if outcome.stopped else ""
    return [
        f"{shape.players} players, {shape.tables} table(s), {shape.games} games each: "
        f"{shape.rounds} rounds",
        f"score (MafiaRatings): {_parts(got)}",
        f"total {got.total:,.2f}, quality {got.quality:.1f} %",
        f"most unbalanced player: {names[worst.player]}: seats 1–10 "
        f"{' '.join(map(str, worst.seats))}; meets {worst.most[1]} opponent(s) "
        f"{worst.most[0]} time(s) (most), {worst.least[1]} opponent(s) {worst.least[0]} "
        f"time(s) (least)",
        f"searched {outcome.moves:,} moves in {took:.1f} s{stop}"]


def _parts(got: Score) -> str:
    def one(name: str, value: float, q: float | None) -> str:
        shown = "not shown for this size" if q is None else f"{q:.1f} %"
        return f"{name} {value:,.2f} ({shown})"

    return ", ".join((one("players", got.players, got.players_quality),
                      one("numbers", got.numbers, got.numbers_quality),
                      one("tables", got.tables, got.tables_quality)))
