"""What ``narrator tournament plan`` and ``score`` print of a plan: its size, its score in
MafiaRatings' terms, the groups kept apart that meet, and its worst-off player."""

from __future__ import annotations

from typing import Any

from narrator.bidi import neutral
from narrator.seating.player import Figures
from narrator.seating.score import Score
from narrator.seating.value import Seating


def worst_json(plan: Seating, fig: Figures) -> dict[str, Any]:
    return {"player": plan.names[fig.player], "number": fig.player + 1,
            "gap": round(fig.gap, 4), "seats": list(fig.seats), "tables": list(fig.tables),
            "most_met": {"player": plan.names[fig.most[0]], "games": fig.most[1]},
            "least_met": {"player": plan.names[fig.least[0]], "games": fig.least[1]}}


def _pct(value: float | None) -> str:
    return "not shown for this size" if value is None else f"quality {value:.1f} %"


def score_text(name: str, fmt: str, plan: Seating, result: Score, fig: Figures,
               met: list[tuple[int, int]]) -> str:
    """What ``narrator tournament score`` prints."""
    lines = [f"{name} ({fmt}): {plan.players} players, {plan.tables} table(s), "
             f"{len(plan.rounds)} round(s), {plan.games} game(s) a player",
             f"players  {result.players:10.2f}  {_pct(result.players_quality)}",
             f"numbers  {result.numbers:10.2f}  {_pct(result.numbers_quality)}",
             f"tables   {result.tables:10.2f}  {_pct(result.tables_quality)}",
             f"total    {result.total:10.2f}  quality {result.quality:.1f} %"]
    for a, b in met:
        lines.append(f"kept apart but meet: «{plan.names[a]}» and «{plan.names[b]}»")
    lines += [f"worst off: «{plan.names[fig.player]}» (player {fig.player + 1}, "
              f"gap {fig.gap:.2f})",
              "  seats 1–10: " + " ".join(str(c) for c in fig.seats),
              "  tables:     " + " ".join(str(c) for c in fig.tables),
              f"  meets «{plan.names[fig.most[0]]}» most ({fig.most[1]} game(s)), "
              f"«{plan.names[fig.least[0]]}» least ({fig.least[1]})"]
    return neutral("\n".join(lines) + "\n")  # (the nicknames' bidirectional controls out)


