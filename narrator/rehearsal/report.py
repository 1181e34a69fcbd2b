"""The listening test's report: per phrase what was heard and decided; in total right / wrong /
missed, the latency from the last word to the decision (p50/p95), the worst-heard seats, and a
verdict in the table's words. Made from the outcomes alone — nothing of the wall clock — so a
replay of the session prints it byte for byte.

What a club should reach before playing hostless (:data:`HOSTLESS`): 95 % of the phrases
right, none taken wrongly (a nomination the game must not take), and the decisions' p95 within
a second of the last word.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from narrator.rehearsal.judge import MISSED, RIGHT, WRONG, Outcome
from narrator.rehearsal.prompts import KINDS

#: the figures hostless play needs: share right, phrases taken wrongly, p95 latency (s)
HOSTLESS = {"right": 0.95, "taken_wrongly": 0, "p95": 1.0}
#: below this share right, no microphone place or model makes listening worth it this evening
UNUSABLE = 0.8
#: a seat is worst-heard when this much fewer of its phrases are right than the table's
SEAT_GAP = 0.25

VERDICTS: dict[str, dict[str, str]] = {
    "ru": {
        "ok": "слушание надёжно: можно играть без ведущего",
        "off": "слушание ненадёжно: играйте с --listen off (речи заканчивают на пультах), "
               "пока повторный тест не покажет 95 %",
        "mic": "передвиньте микрофон ближе к местам {seats} (их слышно хуже остальных) и "
               "повторите тест",
        "model": "ошибки на всех местах: возьмите другую модель (--model) или поставьте "
                 "микрофон в центр стола и повторите тест",
        "slow": "слышно верно, но решения запаздывают (p95 {p95} с): возьмите модель "
                "поменьше (--model) или машину быстрее",
    },
    "uk": {
        "ok": "слухання надійне: можна грати без ведучого",
        "off": "слухання ненадійне: грайте з --listen off (промови закінчують на пультах), "
               "доки повторний тест не покаже 95 %",
        "mic": "пересуньте мікрофон ближче до місць {seats} (їх чути гірше за інші) і "
               "повторіть тест",
        "model": "помилки на всіх місцях: візьміть іншу модель (--model) або поставте "
                 "мікрофон у центр столу і повторіть тест",
        "slow": "чути правильно, але рішення запізнюються (p95 {p95} с): візьміть меншу "
                "модель (--model) або швидшу машину",
    },
}


def percentile(values: Sequence[float], p: float) -> float | None:
    """The nearest-rank percentile (None for no values)."""
    if not values:
        return None
    ranked = sorted(values)
    return ranked[max(0, math.ceil(p / 100 * len(ranked)) - 1)]


@dataclass
class SeatFigure:
    seat: int
    right: int
    total: int

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 1.0


@dataclass
class Report:
    """The figures of a test's outcomes (``lang``: the verdict's words; ``model``: its name)."""

    outcomes: list[Outcome]
    lang: str
    seats: int
    model: str

    def count(self, result: str) -> int:
        return sum(o.result == result for o in self.outcomes)

    @property
    def share_right(self) -> float:
        return self.count(RIGHT) / len(self.outcomes) if self.outcomes else 0.0

    @property
    def taken_wrongly(self) -> int:
        return sum(o.taken_wrongly for o in self.outcomes)

    @property
    def latencies(self) -> list[float]:
        return [x for o in self.outcomes if (x := o.latency) is not None]

    def by_seat(self) -> list[SeatFigure]:
        seats: dict[int, SeatFigure] = {}
        for o in self.outcomes:
            f = seats.setdefault(o.prompt.seat, SeatFigure(o.prompt.seat, 0, 0))
            f.total += 1
            f.right += o.result == RIGHT
        return [seats[s] for s in sorted(seats)]

    def worst_seats(self) -> list[SeatFigure]:
        """The seats heard worst: fewer right than the table's share by :data:`SEAT_GAP`, worst
        first — the lowest share, then the most phrases lost (at most three); none when every
        seat is heard alike."""
        table = self.share_right
        worst = [f for f in self.by_seat() if f.right < f.total and f.share <= table - SEAT_GAP]
        return sorted(worst, key=lambda f: (f.share, f.right - f.total, f.seat))[:3]

    def verdict(self) -> tuple[str, str]:
        """The verdict's code (ok, off, mic, model, slow) and its words."""
        words = VERDICTS.get(self.lang, VERDICTS["ru"])
        p95 = percentile(self.latencies, 95)
        if self.taken_wrongly > HOSTLESS["taken_wrongly"] or self.share_right < UNUSABLE:
            code = "off"
        elif self.share_right < HOSTLESS["right"]:
            code = "mic" if self.worst_seats() else "model"
        elif p95 is None or p95 > HOSTLESS["p95"]:
            code = "slow"
        else:
            code = "ok"
        seats = ", ".join(str(f.seat) for f in self.worst_seats())
        return code, words[code].format(seats=seats, p95=_seconds(p95))

    def text(self) -> str:
        """The report as the terminal and ``report.txt`` show it."""
        lines = [f"listening test: {len(self.outcomes)} phrases, {self.seats} seats, "
                 f"language {self.lang}, model {self.model}", ""]
        lines.append(f"{'#':>3}  {'seat':>4}  {'result':<6}  {'latency':>7}  said → heard → decided")
        for o in self.outcomes:
            latency = "" if o.latency is None else f"{o.latency:.2f} s"
            heard = f"«{o.heard}»" if o.said else "(nothing heard)"
            decided = o.label + ("" if o.result == RIGHT else f" (expected {o.prompt.expect})")
            lines.append(f"{o.prompt.n:>3}  {o.prompt.seat:>4}  {o.result:<6}  {latency:>7}  "
                         f"«{o.prompt.text}» → {heard} → {decided}")
        total = len(self.outcomes)
        lines += ["", f"right {self.count(RIGHT)}, wrong {self.count(WRONG)}, missed "
                      f"{self.count(MISSED)} of {total} ({self.share_right * 100:.0f} % right); "
                      f"taken wrongly: {self.taken_wrongly}"]
        kinds = []
        for kind in KINDS:
            of = [o for o in self.outcomes if o.prompt.kind == kind]
            if of:
                kinds.append(f"{kind} {sum(o.result == RIGHT for o in of)}/{len(of)}")
        lines.append("by kind: " + ", ".join(kinds))
        lat = self.latencies
        lines.append(f"latency, last word → decision: p50 {_seconds(percentile(lat, 50))} s, "
                     f"p95 {_seconds(percentile(lat, 95))} s ({len(lat)} decisions)")
        worst = self.worst_seats()
        lines.append("worst-heard seats: " + (", ".join(
            f"{f.seat} ({f.right} of {f.total} right)" for f in worst) if worst else "none"))
        lines.append(f"hostless needs: {HOSTLESS['right'] * 100:.0f} % right, none taken "
                     f"wrongly, p95 ≤ {HOSTLESS['p95']:.1f} s")
        lines.append(f"verdict: {self.verdict()[1]}")
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        """The small file a club can send: the figures and each phrase, no audio."""
        lat = self.latencies
        code, words = self.verdict()
        return {
            "listen_test": 1, "lang": self.lang, "seats": self.seats, "model": self.model,
            "phrases": len(self.outcomes), "right": self.count(RIGHT),
            "wrong": self.count(WRONG), "missed": self.count(MISSED),
            "taken_wrongly": self.taken_wrongly,
            "latency_p50": _rounded(percentile(lat, 50)),
            "latency_p95": _rounded(percentile(lat, 95)),
            "seats_heard": {str(f.seat): [f.right, f.total] for f in self.by_seat()},
            "worst_seats": [f.seat for f in self.worst_seats()],
            "verdict": code, "verdict_words": words,
            "each": [{"n": o.prompt.n, "seat": o.prompt.seat, "kind": o.prompt.kind,
                      "said": o.prompt.text, "expect": o.prompt.expect, "heard": o.heard,
                      "decided": o.label, "result": o.result,
                      "latency": _rounded(o.latency)} for o in self.outcomes],
        }


def _seconds(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 3)
