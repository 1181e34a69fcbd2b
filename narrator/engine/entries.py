"""What an operator types: one entry a line, read against what the game waits for.

Every typed input goes through :func:`parse_operator_line`: hostless play's terminal reads the
operator's lines with it, and host-assist's keys become the same entries (a number then ``w``
is ``w 5``, Space in a speech is ``-``) and go through it too. An entry is read against what
the game is waiting for:

| the game waits for | the operator types | means |
| --- | --- | --- |
| a speech (2.3) | ``5`` | the speaker nominates 5 (2.3.1) |
| | ``w 5`` | the speaker withdraws their nomination of 5 (2.3.2) |
| | ``o 3 4 / 7`` | the speaker leaves 3 and 4 red, 7 black on record (6.7, the club's ``on_record``; ``o 3 4``: red only, ``o / 7``: black only) |
| | ``-`` | the speaker ends the speech («Спасибо» / «Пас») |
| the hunt (2.1.2) | ``7`` or ``k 7`` | every living mafioso shot 7 (the agreed target) |
| | ``3:7 5:7 9:2`` or ``k 3-7`` | shooter:target, per mafioso (a miss when they disagree) |
| | ``-`` | nobody shot |
| the don's / the sheriff's check | ``4`` or ``c 4`` / ``-`` | the seat checked / no check |
| hands for a candidate (2.4) | ``6`` | six hands (a count, seats not named); ``0`` is none |
| | ``1 2 4`` or ``4,`` | the hands of these seats (a trailing comma: one seat) |
| | ``-`` | no hands |
| the car-crash question (2.4.2) | ``1 2 4`` / ``-`` | the seats voting «за» / nobody |
| a role's night act (a kill, a save, or a check or a shot) | ``7`` | the role's usual act on 7 (the don's decision, the maniac's kill, the doctor's or the nurse's save, the sheriff's check) |
| | ``k 7`` / ``c 7`` / ``s 7`` | a kill (the sheriff's shot) / a check / a save, said explicitly |
| | ``-`` | nothing (a kill not agreed is a miss) |
| the next speaker by raised hands | ``7`` / ``-`` | 7's hand was first / nobody's (the first seat yet to speak) |
| the thumbs after a speech | ``7: 1 2 3`` / ``-`` | these seats put 7 up / nobody |
| the hands held up for 30 s more | ``3 7`` or ``3,`` / ``-`` | these seats / nobody |
| any timer | ``t`` | it runs out now (a speech ends with «Спасибо») |
| at any moment | ``f 6`` / ``r 6`` | a warning to seat 6 / seat 6 removed (2.4.3) |
| | ``e 6`` | a technical foul to seat 6 (9.6.2, the club's ``tech_fouls = "yes"``) |
| | ``q`` | stop the game (the journal keeps it for ``narrator resume``) |
| the game is over | ``m 4 +0.3 bp -- why`` | the host's marks for seat 4: extra points, titles (``bp`` best player, ``bm`` best move, ``wm`` worst move, several allowed), the comment after ``--`` |
| | ``m 4`` | seat 4's marks taken away |

A night step or a vote does not end before the operator has answered it: the hostless narrator
waits at the end of the count, of the check, of the voting window, so a slow typist loses
nothing. An answer is marked ``done``; what else a mode does with it is the mode's (host-assist
closes the voting window at once).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import assert_never

from narrator.engine import (
    MARK_TITLES,
    Act,
    Action,
    BestMove,
    EndSpeech,
    Foul,
    Game,
    HandCount,
    Hands,
    HandsUp,
    Mark,
    Nominate,
    OnRecord,
    Remove,
    Shot,
    TakeFloor,
    TechFoul,
    Thumbs,
    TimeUp,
    Withdraw,
    night_act,
)
from narrator.engine import waits as w
from narrator.engine.entry_texts import act_word, role_word, text
from narrator.engine.types import Actor
from narrator.engine.waits import Expect
from narrator.errors import NarratorError
from narrator.typed import typed_number


@dataclass(frozen=True)
class OperatorInput:
    """What one operator line means: actions to apply, and whether it answers the step."""

    actions: tuple[Action, ...] = ()
    done: bool = False  # answers the current night step / voting window
    quit: bool = False
    text: str = ""


class OperatorLineError(NarratorError, ValueError):
    """A line that means nothing now; the message says what was expected — ``str(error)`` in
    English, :meth:`words` in the table's language (the texts: :mod:`~narrator.engine.
    entry_texts`)."""

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(self.words("en"))

    def words(self, lang: str) -> str:
        return text(self.key, lang, **{k: _worded(v, lang) for k, v in self.fields.items()})


def _worded(value: object, lang: str) -> object:
    """A field in ``lang``: a step as its label, an actor or an act as its word."""
    if isinstance(value, w.Wait):
        return value.label("uk" if lang == "uk" else "ru" if lang == "ru" else "en")
    if isinstance(value, Actor):
        return role_word(value, lang)
    if isinstance(value, Act):
        return act_word(value, lang)
    return value


# Seat numbers are ASCII digits, at most six: «²», «①», «٥» and a thousand 9s are no seats
# (``str.isdigit`` and ``\d`` would take them, ``int`` would then fail or misread them).
_N = r"[0-9]{1,6}"
_SEATS = re.compile(rf"^{_N}(\s*[, ]\s*{_N})*\s*,?$")
_PAIRS = re.compile(rf"(\s*{_N}\s*[:-]\s*{_N}\s*,?)+")
_PAIR = re.compile(rf"({_N})\s*[:-]\s*({_N})")
#: ``f 6``: a one-letter verb (not the start of a word) and what follows
_VERB = re.compile(r"([frwkcsbeomFRWKCSBEOM])(?![a-zA-Z])\s*(.*)")
#: ``7: 1 2 3``: the one put up, then the thumbs
_PUT_UP = re.compile(rf"({_N})\s*:\s*((?:{_N}|[\s,])*)")
#: the verb of each night act
_ACT_VERBS = {"k": Act.KILL, "c": Act.CHECK, "s": Act.SAVE}
#: the host's titles after a game, short (``bp``) or as the record names them
_TITLES = {"bp": "best_player", "bm": "best_move", "wm": "worst_move",
           **{t: t for t in MARK_TITLES}}


def _seat_list(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.split(r"[\s,]+", text.strip().strip(",")) if x)


def prompt_for(expect: Expect, game: Game, lang: str = "en") -> str | None:
    """The one-line prompt for a step the operator answers (None for any other), in ``lang``
    (``ru``, ``uk``; the API's English by default)."""
    del game  # (every prompt is the step's own)
    step = _worded(expect, lang)
    match expect:
        case w.Hunt():
            return text("p_hunt", lang)
        case w.NightAct(role=role) if expect.checks:
            return text("p_check", lang, role=role, step=step)
        case w.NightAct(role=role, acts=acts):
            others = "".join(", " + text("p_other", lang, verb=a[0], act=act_word(a, lang))
                             for a in acts[1:])
            return text("p_act", lang, role=role, step=step, acts=" or ".join(acts),
                        first=act_word(acts[0], lang), others=others)
        case w.Vote(candidate=cand):
            return text("p_vote", lang, cand=cand)
        case w.Crash():
            return text("p_crash", lang)
        case w.Floor():
            return text("p_floor", lang)
        case w.PutUp(seat=seat):
            return text("p_put_up", lang, seat=seat)
        case w.Extra():
            return text("p_extra", lang)
        case w.Pause() | w.Deal() | w.Speech() | w.Over():
            return None
        case _:
            assert_never(expect)


def parse_operator_line(line: str, game: Game) -> OperatorInput:
    """Read one entry against ``game.expect``; OperatorLineError when it means nothing now."""
    text = line.strip()
    exp = game.expect
    if text.lower() in ("q", "quit"):
        return OperatorInput(quit=True, text=text)
    if text.lower() == "t":
        if exp.timer is None:
            raise OperatorLineError("no_timer", exp=exp)
        return OperatorInput((TimeUp(exp.timer.name),), text=text)
    verb = _VERB.fullmatch(text)
    if verb:
        return _verb(verb.group(1).lower(), verb.group(2).strip(), game, text)
    match exp:
        case w.Pause() | w.Deal() | w.Over():
            raise OperatorLineError("nothing", exp=exp)
        case _ if not text:
            raise OperatorLineError("number_first")
        case w.Speech():
            if text == "-":
                return OperatorInput((EndSpeech(),), text=text)
            target = typed_number(text)
            if target is not None:
                return OperatorInput((Nominate(target),), text=text)
            raise OperatorLineError("speech")
        case _ if text == "-":
            return OperatorInput((), done=True, text=text)
        case w.Hunt():
            return _shots(text, game, text)
        case w.NightAct(acts=acts):
            return _act(acts[0], text, exp, text)
        case w.Floor():
            seat = typed_number(text)
            if seat is not None:
                return OperatorInput((TakeFloor(seat),), True, text=text)
            raise OperatorLineError("floor")
        case w.PutUp():
            put = _PUT_UP.fullmatch(text)
            if put is None:
                raise OperatorLineError("thumbs")
            thumbs = _seat_list(put.group(2)) if put.group(2).strip() else ()
            return OperatorInput((Thumbs(int(put.group(1)), thumbs),), True, text=text)
        case w.Extra():
            if not _SEATS.match(text):
                raise OperatorLineError("extra")
            return OperatorInput((HandsUp(_seat_list(text)),), True, text=text)
        case w.Vote() | w.Crash():
            if not _SEATS.match(text):
                raise OperatorLineError("hands")
            count = typed_number(text)
            if isinstance(exp, w.Vote) and count is not None:
                return OperatorInput((HandCount(count),) if count else (), True, text=text)
            seats = _seat_list(text)
            return OperatorInput((Hands(seats),) if seats else (), True, text=text)
        case _:
            assert_never(exp)


def _verb(verb: str, rest: str, game: Game, text: str) -> OperatorInput:
    """``f 6``, ``e 6``, ``r 6``, ``w 5``, ``k 7`` / ``k 3:7``, ``c 4``: the verb says what is meant."""
    exp = game.expect
    if not rest:
        raise OperatorLineError("number_first")
    if verb == "m":  # the host's marks, once the game is over (the engine says when)
        return OperatorInput((_mark(rest),), text=text)
    if verb == "b":  # the club's best move: three seats (the first-night victim's last word)
        return OperatorInput((BestMove(_seat_list(rest)),), text=text)
    if verb == "o":
        return OperatorInput((_on_record(rest, exp),), text=text)
    if isinstance(exp, w.NightAct) and verb in _ACT_VERBS:
        act = _ACT_VERBS[verb]
        if act not in exp.acts:
            raise OperatorLineError("not_act", act=act, rest=rest, role=exp.role, exp=exp)
        return _act(act, rest, exp, text)
    if verb == "k":
        if not isinstance(exp, w.Hunt):
            raise OperatorLineError("not_hunting", rest=rest, exp=exp)
        return _shots(rest, game, text)
    if verb == "c":
        raise OperatorLineError("no_check", rest=rest, exp=exp)
    if verb == "s":
        raise OperatorLineError("no_save", rest=rest, exp=exp)
    seat = typed_number(rest)
    if seat is None:
        raise OperatorLineError("one_seat", verb=verb, rest=rest[:12])
    action: Action = (Foul(seat) if verb == "f" else TechFoul(seat) if verb == "e"
                      else Remove(seat) if verb == "r" else Withdraw(seat))
    return OperatorInput((action,), text=text)


def _on_record(entry: str, exp: Expect) -> OnRecord:
    """``3 4 / 7``: the speaker's colours on record (6.7), the red seats before the slash and
    the black after it."""
    if not isinstance(exp, w.Speech):
        raise OperatorLineError("not_speaking", entry=entry, exp=exp)
    red, _, black = entry.partition("/")
    if not all(_SEATS.match(x.strip()) for x in (red, black) if x.strip()) or not (
            red.strip() or black.strip()):
        raise OperatorLineError("on_record")
    return OnRecord(exp.seat, _seat_list(red), _seat_list(black))


def _mark(entry: str) -> Mark:
    """``4 +0.3 bp wm -- why``: the seat, then points and titles in any order, then the comment
    after ``--`` (``4`` alone: the seat's marks taken away). Whether the club gives them is the
    engine's (:mod:`narrator.engine.marks`)."""
    head, _, comment = entry.partition("--")
    words = head.split()
    seat = typed_number(words[0]) if words else None
    if seat is None:
        raise OperatorLineError("mark_seat")
    points = 0.0
    titles: list[str] = []
    for word in words[1:]:
        title = _TITLES.get(word.lower())
        if title is not None:
            titles.append(title)
            continue
        if not re.fullmatch(r"[+-]?[0-9]{1,3}([.,][0-9]{1,3})?", word):
            raise OperatorLineError("mark_word", word=word[:12])
        points = float(word.replace(",", "."))
    return Mark(seat, points, tuple(titles), comment.strip())


def _shots(entry: str, game: Game, text: str) -> OperatorInput:
    if _PAIRS.fullmatch(entry):
        shots = tuple(Shot(int(s), int(t)) for s, t in _PAIR.findall(entry))
        return OperatorInput(shots, True, text=text)
    target = typed_number(entry)
    if target is not None:
        shooters = [s for s in game.living if s in game.black]
        return OperatorInput(tuple(Shot(s, target) for s in shooters), True, text=text)
    raise OperatorLineError("hunt")


def _act(act: Act, entry: str, exp: w.NightAct, text: str) -> OperatorInput:
    """A role's night act on the seat ``entry``: a kill, a save or a check."""
    seat = typed_number(entry)
    if seat is None:
        raise OperatorLineError("act_seat", role=exp.role, act=act)
    return OperatorInput((night_act(act, exp.role, seat),), True, text=text)
