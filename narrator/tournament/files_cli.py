"""``narrator tournament score`` and ``convert``: a seating plan made elsewhere, scored in
MafiaRatings' terms or written in another format.

The plan's format is the one ``--from`` names, else told by its content. Names and ids: a
MafiaRatings seating knows user ids only, a web_schedule names only (in its players file), the
CSV neither; ``--roster`` (CSV ``nickname,mafiaratings_id``) fills in what the file lacks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from narrator.arguments import TournamentConvertArgs, TournamentScoreArgs
from narrator.errors import NarratorError
from narrator.outputs import replace_whole
from narrator.replay.roster import load_roster
from narrator.seating.formats import players_beside, read_seating, seating_texts
from narrator.seating.player import worst
from narrator.seating.score import apart_met, score
from narrator.seating.value import Roster, Seating
from narrator.tournament.report import score_text, worst_json


def _roster(path: str | None) -> Roster:
    return () if path is None else load_roster(path).players


def run_score(args: TournamentScoreArgs) -> int:
    plan, fmt = read_seating(args.file, args.from_format, roster=_roster(args.roster),
                             players=args.players)
    shape = plan.shape()
    result = score(plan.rounds, shape)
    fig = worst(plan.rounds, shape)
    met = apart_met(plan.rounds, shape)
    if args.json:
        doc = {"file": args.file, "format": fmt, "players": plan.players,
               "tables": plan.tables, "rounds": len(plan.rounds), "games": plan.games,
               "score": result.to_json(),
               "apart_met": [[plan.names[a], plan.names[b]] for a, b in met],
               "worst": worst_json(plan, fig)}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    else:
        sys.stdout.write(score_text(args.file, fmt, plan, result, fig, met))
    return 0


def losses(plan: Seating, fmt: str) -> list[str]:
    """What ``fmt`` cannot keep of ``plan``."""
    out = []
    if plan.apart and fmt in ("ours-csv", "web-schedule"):
        out.append(f"{fmt} keeps no groups kept apart: {len(plan.apart)} left out")
    if any(i is not None for i in plan.ids) and fmt == "web-schedule":
        out.append("web-schedule keeps no MafiaRatings ids (--roster gives them back)")
    if any(i is not None for i in plan.ids) and fmt == "ours-csv":
        out.append("ours-csv keeps no MafiaRatings ids (--roster gives them back)")
    unknown = sum(i is None for i in plan.ids)
    if fmt == "mafiaratings":
        if unknown:
            out.append(f"{unknown} player(s) without a MafiaRatings id: 0 in the mapping")
        out.append("mafiaratings keeps no nicknames (--roster gives them back by id)")
    return out


def run_convert(args: TournamentConvertArgs) -> int:
    plan, fmt = read_seating(args.file, args.from_format, roster=_roster(args.roster),
                             players=args.players)
    out = Path(args.out)
    files = seating_texts(plan, args.to, out,
                          Path(args.out_players) if args.out_players else None)
    sources = {Path(args.file).resolve()}
    if args.players or fmt == "web-schedule":
        sources.add(Path(args.players or players_beside(Path(args.file))).resolve())
    for path, _ in files:
        if path.resolve() in sources:
            raise NarratorError(f"{path}: is the plan being read; write elsewhere")
    for path, text in files:
        replace_whole(path, text, "the seating plan")
    written = " and ".join(str(p) for p, _ in files)
    print(f"narrator: written {written} ({args.to}, from {fmt}: {plan.players} players, "
          f"{plan.tables} table(s), {len(plan.rounds)} round(s))", file=sys.stderr)
    for note in losses(plan, args.to):
        print(f"narrator: note: {note}", file=sys.stderr)
    return 0
