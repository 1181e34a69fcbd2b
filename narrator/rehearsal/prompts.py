"""The listening test's phrases: what each player reads, what it must give, the game it is in.

Every phrase is judged by the engine on a game staged for it: the day's speech of the seat
that reads it, with what the phrase needs standing first (the reader's own nomination for a
withdrawal or a second one, a seat removed for a nomination of a seat out of the game). What a
phrase must give is written as the decision's label (:func:`label`): ``nominate 5``,
``withdraw 5``, ``end``, ``refused future_tense``, or ``nothing`` (free speech).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from narrator.engine import Action, Game, Malformed, parse_action
from narrator.engine import waits as w
from narrator.engine.actions import EndSpeech, Remove, TimeUp
from narrator.errors import NarratorError
from narrator.grammar.numbers import number_forms
from narrator.reasons import Reason

#: what a phrase of free speech must give
NOTHING = "nothing"

#: the kinds of phrase, in the report's order
KINDS = ("nomination", "withdrawal", "end", "refusal", "free")


@dataclass(frozen=True, slots=True)
class Prompt:
    """One phrase of the test: ``seat`` reads ``text``; ``expect`` is the label of the
    decision it must give; ``before``: the reader's actions standing first (engine notation);
    ``out``: seats removed from the game first."""

    n: int
    seat: int
    text: str
    kind: str
    expect: str
    before: tuple[str, ...] = ()
    out: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "seat": self.seat, "text": self.text, "kind": self.kind,
                "expect": self.expect, "before": list(self.before), "out": list(self.out)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Prompt:
        return cls(int(data["n"]), int(data["seat"]), str(data["text"]), str(data["kind"]),
                   str(data["expect"]), tuple(str(a) for a in data.get("before", ())),
                   tuple(int(s) for s in data.get("out", ())))


def label(action: Action, reason: Reason | str | None) -> str:
    """A decision's label: the action taken, or ``refused REASON``."""
    if reason is not None:
        return f"refused {reason}"
    if isinstance(action, Malformed):  # (refusal() gives its reason; kept for safety)
        return f"refused {action.reason}"
    return str(action)


#: the phrases of each language: the verbs and words the grammar knows (rules 2.3.1, 2.3.2)
_WORDS: dict[str, dict[str, str]] = {
    "ru": {"nominate": "Выставляю номер {n}", "withdraw": "Снимаю номер {n}",
           "thanks": "Спасибо", "pass": "Пас",
           "future_tense": "Выставлю номер {n}", "subjunctive": "Я бы выставил номер {n}",
           "intention": "Хочу выставить номер {n}", "past_tense": "Выставлял номер {n}",
           "negation": "Я не выставляю номер {n}", "no_number": "Выставляю номер",
           "free1": "Я думаю, что {nth} мафия", "free2": "Номер {n}, подумай ещё",
           "free3": "Хорошая погода сегодня"},
    "uk": {"nominate": "Виставляю номер {n}", "withdraw": "Знімаю номер {n}",
           "thanks": "Дякую", "pass": "Пас",
           "future_tense": "Виставлю номер {n}", "subjunctive": "Я б виставив номер {n}",
           "intention": "Хочу виставити номер {n}", "past_tense": "Виставляв номер {n}",
           "negation": "Не виставляю номер {n}", "no_number": "Виставляю номер",
           "free1": "Я думаю, що {nth} мафія", "free2": "Номер {n}, подумай ще",
           "free3": "Гарна погода сьогодні"},
}

#: the grammar's refusals of a phrase's form, each read once
FORM_REFUSALS = ("future_tense", "subjunctive", "intention", "past_tense", "negation",
                 "no_number")


def _number(lang: str, n: int) -> str:
    return number_forms(lang)[n][0]


def _ordinal(lang: str, n: int) -> str:
    forms = number_forms(lang)[n]
    return next((f for f in forms if f.endswith(("ый", "ий", "ій", "ой"))), forms[0])


def _removable(reader: int, seats: int, rules: str, candidates: list[int]) -> int:
    """The first of ``candidates`` (not the reader, not seat 1, whose speech is on when it is
    removed) whose removal leaves the game going (a small table's red seat out may hand the
    mafia its parity)."""
    for seat in candidates:
        if seat in (reader, 1):
            continue
        try:
            stage(Prompt(0, reader, "", "refusal", "", out=(seat,)), rules=rules, seats=seats)
        except NarratorError:
            continue
        return seat
    raise NarratorError(f"--seats {seats}: no seat can be out of the game for the test")


def prompt_list(lang: str, seats: int, *, rules: str = "crime-time") -> list[Prompt]:
    """The test's phrases for a table of ``seats``: a nomination of every seat (each seat
    reads one), two withdrawals, «Спасибо» and «Пас», each refusal the grammar knows (the
    form's; a number beyond the table; a second nomination; a seat out of the game), and free
    speech that must give nothing. The readers go round the table."""
    if lang not in _WORDS:
        raise NarratorError(f"the listening test speaks ru or uk, not {lang!r}")
    if seats < 4 or seats + 1 not in number_forms(lang):
        raise NarratorError(f"--seats {seats}: the test takes 4 to "
                            f"{max(number_forms(lang)) - 1} seats")
    stage(Prompt(0, 1, "", "", ""), rules=rules, seats=seats)  # a table the rules can seat
    words = _WORDS[lang]
    out: list[Prompt] = []
    reader = iter(list(range(1, seats + 1)) * 4)

    def add(kind: str, text: str, expect: str, seat: int | None = None,
            before: Sequence[str] = (), gone: Sequence[int] = ()) -> None:
        out.append(Prompt(len(out) + 1, seat if seat is not None else next(reader), text, kind,
                          expect, tuple(before), tuple(gone)))

    def other(seat: int, k: int = 1) -> int:
        return (seat - 1 + k) % seats + 1

    for seat in range(1, seats + 1):  # every seat nominated once, by its left neighbour
        target = other(seat)
        add("nomination", words["nominate"].format(n=_number(lang, target)),
            f"nominate {target}", seat)
    for _ in range(2):
        seat = next(reader)
        target = other(seat, 3)
        add("withdrawal", words["withdraw"].format(n=_number(lang, target)),
            f"withdraw {target}", seat, before=[f"nominate {target}"])
    add("end", words["thanks"], "end")
    add("end", words["pass"], "end")
    for reason in FORM_REFUSALS:
        seat = next(reader)
        add("refusal", words[reason].format(n=_number(lang, other(seat, 2))),
            f"refused {reason}", seat)
    seat = next(reader)
    add("refusal", words["nominate"].format(n=_number(lang, seats + 1)),
        f"refused {Reason.NOT_A_SEAT}", seat)
    seat = next(reader)
    first, second = other(seat, 2), other(seat, 4)
    add("refusal", words["nominate"].format(n=_number(lang, second)),
        f"refused {Reason.ALREADY_NOMINATED}", seat, before=[f"nominate {first}"])
    seat = next(reader)
    gone = _removable(seat, seats, rules, [other(seat, k) for k in range(5, 5 + seats)])
    add("refusal", words["nominate"].format(n=_number(lang, gone)),
        f"refused {Reason.TARGET_OUT}", seat, gone=[gone])
    seat = next(reader)
    add("free", words["free1"].format(nth=_ordinal(lang, other(seat, 2))), NOTHING, seat)
    add("free", words["free2"].format(n=_number(lang, other(seat, 3))), NOTHING)
    add("free", words["free3"], NOTHING)
    return out


def stage(prompt: Prompt, *, rules: str = "crime-time", seats: int = 10) -> Game:
    """The game ``prompt`` is said in: the first day, the reader's speech, the seats in
    ``out`` removed (rule 2.4.3) and the reader's ``before`` standing. The cards are dealt from
    a fixed seed: no phrase of the test depends on them."""
    game = Game(rules, seats=seats, rng=random.Random(0))
    game.start()
    for _ in range(200):  # the first night's steps, each to its timer's end
        exp = game.expect
        if isinstance(exp, w.Speech):
            break
        if exp.timer is None:
            raise NarratorError(f"{rules}: the test needs a day of speeches")
        game.apply(TimeUp(exp.timer.name))
    for seat in prompt.out:
        game.apply(Remove(seat))
    if game.is_over:
        raise NarratorError(f"phrase {prompt.n}: the game is over once seat(s) "
                            f"{', '.join(map(str, prompt.out))} are out")
    for _ in range(4 * seats):  # to the reader's speech
        exp = game.expect
        if isinstance(exp, w.Speech) and exp.seat == prompt.seat:
            break
        if isinstance(exp, w.Speech):
            game.apply(EndSpeech())
        elif exp.timer is not None:
            game.apply(TimeUp(exp.timer.name))
    exp = game.expect
    if not (isinstance(exp, w.Speech) and exp.seat == prompt.seat):
        raise NarratorError(f"phrase {prompt.n}: seat {prompt.seat} has no speech to say it in")
    for text in prompt.before:
        game.apply(parse_action(text))
    return game
