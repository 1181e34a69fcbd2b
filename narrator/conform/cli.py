"""``narrator conform SCRIPT… [--modes …] [--kill N] [--seed S] [--json]``."""

from __future__ import annotations

import json
import random

from narrator.arguments import ConformArgs
from narrator.conform.check import AFTER_A_KILL, FRONT_ENDS, Outcome, conform
from narrator.conform.compare import shown
from narrator.errors import NarratorError
from narrator.replay.script import load_table_script


def modes_of(text: str) -> list[str]:
    """``--modes replay,assist``: known names, in the order given (NarratorError otherwise)."""
    names = [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in names if m not in FRONT_ENDS]
    if unknown or not names:
        raise NarratorError(f"--modes: unknown mode {', '.join(unknown) or '(none)'} "
                            f"(modes: {', '.join(FRONT_ENDS)})")
    return list(dict.fromkeys(names))


def line_of(o: Outcome) -> str:
    """One outcome as a line of text."""
    if o.result == "same":
        text = "same"
    elif o.result == "n/a":
        text = f"n/a ({o.why})"
    elif o.key in ("(stuck)", "(error)"):
        text = f"differs: {o.why}"
    else:
        text = f"differs at {o.key}: {shown(o.replay)} ≠ {shown(o.got)}"
    extras = []
    if o.kills:
        extras.append("killed after lines " + ", ".join(map(str, o.kills)))
    shown_out = [w for w in o.left_out if w != AFTER_A_KILL]  # (the kills are listed)
    if shown_out:
        extras.append("left out: " + "; ".join(shown_out))
    return f"{o.script}  {o.mode}: {text}" + (f"  [{' · '.join(extras)}]" if extras else "")


def run(args: ConformArgs) -> int:
    modes = modes_of(args.modes)
    if args.kill < 0:
        raise NarratorError(f"--kill: expected a count of kills, got {args.kill}")
    scripts = [load_table_script(path) for path in args.scripts]  # every one read first
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    if args.kill and not args.json:
        print(f"kills drawn from --seed {seed}", flush=True)
    outcomes: list[Outcome] = []
    for script in scripts:
        for outcome in conform(script, modes, kills=args.kill, seed=seed):
            outcomes.append(outcome)
            if args.json:
                print(json.dumps({**outcome.to_json(), "seed": seed}, ensure_ascii=False),
                      flush=True)
            else:
                print(line_of(outcome), flush=True)
    counts = {r: sum(1 for o in outcomes if o.result == r) for r in ("same", "differs", "n/a")}
    if not args.json:
        print(f"{counts['same']} same, {counts['differs']} differ, {counts['n/a']} n/a")
    return 1 if counts["differs"] else 0
