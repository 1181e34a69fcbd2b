"""``narrator tournament plan``: read the players, search a seating plan, write OUT.json and
OUT.csv, print its score in MafiaRatings' terms and its worst-off player."""

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
from narrator.seating.ours import to_ours_csv, to_ours_json
from narrator.seating.plan import Outcome, make_plan
from narrator.seating.player import worst
from narrator.seating.score import MAX_PLAYERS, Shape, apart_met, score
from narrator.seating.value import Seating, seating
from narrator.tournament.report import score_text

#: a players' list's size: far more than any tournament's
MAX_LIST = 1 << 20


def read_players(path: str) -> tuple[list[str], dict[str, int]]:
    """The nicknames in ``path`` in its order, and their MafiaRatings ids where it has them:
    a roster CSV (its first line has a comma; its moderator is no player) or one nickname a
    line (blank lines and ``#`` comments skipped)."""
    text = read_text(path, "the players' list", limit=MAX_LIST)
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)
             if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise NarratorError(f"{path}: no players in it (one nickname a line, or a roster CSV)")
    if len(lines) > MAX_PLAYERS + 2:  # (before a name is read; a roster has a header and a host)
        raise NarratorError(f"{path}: {len(lines):,} players; a plan seats at most "
                            f"{MAX_PLAYERS:,}")
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


def parse_judges(text: str | None, names: Sequence[str], tables: int) -> dict[int, set[int]]:
    """``"A=1,B=2+3"``: the players who judge those tables (from 1) and so never play there;
    an unknown nickname or a table the plan has not is one error."""
    off: dict[int, set[int]] = {}
    if not text:
        return off
    index = {key_of(n): i for i, n in enumerate(names)}
    for part in text.split(","):
        name, sep, where = part.partition("=")
        name = " ".join(name.split())
        if not sep or not name:
            raise NarratorError(f"--judges: {part.strip()!r}: expected NICKNAME=TABLE")
        if key_of(name) not in index:
            raise NarratorError(f"--judges: {name!r} is not among the players")
        for t in where.split("+"):
            if not t.strip().isdigit() or not 1 <= int(t) <= tables:
                raise NarratorError(f"--judges: {part.strip()!r}: a table from 1 to {tables}")
            off.setdefault(index[key_of(name)], set()).add(int(t) - 1)
    return off


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
    if len(names) > MAX_PLAYERS:  # (a roster's players, its header and host left out)
        raise NarratorError(f"{args.players}: {len(names):,} players; a plan seats at most "
                            f"{MAX_PLAYERS:,}")
    shape = Shape(len(names), args.tables, args.games, parse_apart(args.apart, names))
    started = time.monotonic()
    with _bar(args.quiet) as show:
        outcome = make_plan(shape, args.seed, time_limit=args.time_limit, progress=show,
                            off_tables=parse_judges(args.judges, names, args.tables))
    took = time.monotonic() - started
    plan = seating("the plan", outcome.rounds, names, [ids.get(n) for n in names],
                   shape.apart)
    got = score(plan.rounds, shape)
    json_path, csv_path = out_paths(args.out)
    replace_whole(json_path, to_ours_json(plan, seed=args.seed, score=got), "the plan")
    replace_whole(csv_path, to_ours_csv(plan), "the plan's CSV")
    print(report(json_path.name, plan, outcome, took), end="")
    print(f"written {json_path} and {csv_path}")
    return 0


def report(name: str, plan: Seating, outcome: Outcome, took: float) -> str:
    """What the command prints: the plan's score and its worst-off player as ``narrator
    tournament score`` prints them, then the search's moves and time."""
    shape = plan.shape()
    got = score(plan.rounds, shape)
    text = score_text(name, "ours-json", plan, got, worst(plan.rounds, shape),
                      apart_met(plan.rounds, shape))
    stop = ", stopped by the time limit" if outcome.stopped else ""
    return text + f"searched {outcome.moves:,} moves in {took:.1f} s{stop}\n"
