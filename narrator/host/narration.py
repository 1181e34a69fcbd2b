"""What the narrator says at each engine event: keys into the voice pack, never literal text.

The phrases themselves live in ``voices/<lang>/manifest.json``; this module only decides which
keys follow which event (rule clauses cited per line).
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.engine import events as ev
from narrator.voice.keys import CANCELLED_KEYS, PHASE_KEYS


@dataclass(frozen=True, slots=True)
class Line:
    """One utterance: clips said one after another. ``urgent`` lines (Принято, Снято, Десять
    секунд) go ahead of anything queued."""

    keys: tuple[str, ...]
    urgent: bool = False


# The keys themselves are listed with the voice packs, which must hold every one of them.
_PHASES = PHASE_KEYS
_CANCELLED = CANCELLED_KEYS

TEN_SECONDS = Line(("ten_seconds",), urgent=True)


def count_line(n: int) -> Line:
    """One number of the hunt's count (2.1.2)."""
    return Line((f"count.{n}",))


def lines_for(event: ev.Event) -> list[Line]:
    """The lines the narrator says for ``event`` (often none)."""
    match event:
        case ev.PhaseStarted(name=name):
            return [Line(_PHASES[name])] if name in _PHASES else []
        case ev.NightResult(killed=None):
            return [Line(("miss",))]
        case ev.NightResult(killed=seat):
            return [Line((f"killed.{seat}",))]
        case ev.SpeechStarted(seat=seat, kind=kind):
            key = {"day": "speech", "last": "last_word", "tie": "tie_speech"}[kind]
            return [Line((f"{key}.{seat}",))]
        case ev.SpeechEnded(early=False):
            return [Line(("thanks",))]
        case ev.Nominated():
            return [Line(("accepted",), urgent=True)]  # 2.3.1 «Принято»
        case ev.Withdrawn():
            return [Line(("withdrawn",), urgent=True)]  # 2.3.2 «Снято»
        case ev.VotingCancelled(reason=reason):
            return [Line((_CANCELLED[reason],))]
        case ev.VotingStarted(round=rnd, candidates=cands):
            # 2.4: the host announces how many candidates stand and names them in order
            keys: tuple[str, ...] = ("revote",) if rnd > 1 else ("candidates_are",)
            keys += (f"candidates.{len(cands)}", *(f"number.{c}" for c in cands))
            return [Line(keys)]
        case ev.VoteCall(candidate=c):
            return [Line((f"who_for.{c}",))]
        case ev.VoteCounted(votes=n):
            return [Line(("thanks", f"votes.{n}"))]
        case ev.Tie():
            return [Line(("tie", "tie_speeches"))]
        case ev.CrashStarted():
            return [Line(("crash", "crash_question"))]  # 2.4.2
        case ev.CrashResult(passed=passed):
            return [Line(("crash_passed",) if passed else ("crash_failed",))]
        case ev.CrashNotApplied():
            return [Line(("crash_not_applied",))]
        case ev.SeatOut(seat=seat, how=how) if how in ("vote", "crash"):
            return [Line((f"leaves.{seat}",))]
        case ev.SeatOut(seat=seat, how="removed"):
            return [Line((f"removed.{seat}",))]
        case ev.Fouled(seat=seat):
            return [Line((f"foul.{seat}",))]
        case ev.SpeechSkipped(seat=seat):
            return [Line((f"skips_speech.{seat}",))]
        case ev.BestMoveAsked(seat=seat):
            return [Line((f"best_move.{seat}",))]
        case ev.GameOver(winner=winner):
            return [Line(("win_civilians",) if winner == "civilians" else ("win_mafia",))]
    return []
