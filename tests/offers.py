"""«The screens offer exactly what the engine takes»: the shared part of the property tests
(``tests/console/test_offers.py``, ``tests/assist/test_assist_offers.py``).

- :func:`takes` — whether the engine takes an action now: the ONE place the question is asked
  (``game.refusal(action) is None``: the engine answers it alone);
- :func:`engine_inputs` — every input the engine would take now, from a finite universe (each
  action class of the wait × every seat × the wait's role and acts), each attributed to the
  seat whose input it is, or to the operator;
- :func:`states` — seeded random games of a ruleset with club options
  (``tests.conform.random_scripts``), replayed on a console table on a virtual clock (no wall
  clock, nothing runs by itself: the test moves the game action by action), yielding the table
  at every state the game reaches: every step, and every press within it.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from narrator.console.settings import ConsoleSettings
from narrator.engine import (
    Action,
    BestMove,
    EndSpeech,
    Foul,
    Game,
    HandCount,
    Hands,
    HandsUp,
    Nominate,
    OnRecord,
    Remove,
    Shot,
    TakeFloor,
    Thumbs,
    TimeUp,
    Withdraw,
    night_act,
)
from narrator.engine import waits as w
from tests.conform.random_scripts import _random_game
from tests.console.conftest import Rig, make_rig

OPERATOR: Literal["operator"] = "operator"
Owner = int | Literal["operator"]

# -- the engine takes it now ----------------------------------------------------------------------

def takes(game: Game, action: Action) -> bool:
    """Whether the engine takes ``action`` now: the engine's own answer, for every action
    (``tests/console/test_offers.py`` ``test_refusal_is_what_applying_would_do`` holds it to
    what applying the action to a copy of the game does)."""
    return game.refusal(action) is None


# -- every input the engine would take now, by owner --------------------------------------------


def universe(game: Game) -> Iterator[tuple[Owner, Action]]:
    """Every input of the wait the game stands at, with its owner: each action class the wait
    takes × every seat (× the wait's role and every night verb); Foul and Remove of every seat
    are the operator's at any wait, so is a vote's count. (An action of another class at this
    wait is refused by ``check``: ``tests/console/test_offers.py``
    ``test_refusal_is_what_applying_would_do`` checks it.)"""
    exp = game.expect
    seats = range(1, game.seats + 1)
    for s in seats:
        yield OPERATOR, Foul(s)
        yield OPERATOR, Remove(s)
    match exp:
        case w.Speech(seat=speaker):
            for t in seats:
                yield speaker, Nominate(t)
                yield speaker, Withdraw(t)
            yield speaker, EndSpeech()
            if game.rules.best_move:
                for triple in itertools.combinations(seats, 3):
                    yield speaker, BestMove(triple)
            if game.rules.on_record != "none":  # 6.7: one seat of each colour
                for t in seats:
                    yield speaker, OnRecord(speaker, (t,), ())
                    yield speaker, OnRecord(speaker, (), (t,))
        case w.Vote() | w.Crash():
            for s in seats:
                yield s, Hands((s,))
            # a count of hands (a count of 0 is no hands: the window closes, TimeUp)
            for n in range(1, len(game.living) + 1):
                yield OPERATOR, (HandCount(n) if isinstance(exp, w.Vote)
                                 else Hands(game.counted_seats(n)))
        case w.Hunt():
            for s in seats:
                for t in seats:
                    yield s, Shot(s, t)
        case w.NightAct(role=role):
            for verb in ("check", "kill", "save"):
                for t in seats:
                    action = night_act(verb, role, t)
                    for s in exp.seats:  # the role's seats at the table
                        yield s, action
        case w.Floor():
            for s in seats:
                yield s, TakeFloor(s)
        case w.PutUp():
            for s in seats:
                for t in seats:
                    yield s, Thumbs(t, (s,))
        case w.Extra():
            for s in seats:
                yield s, HandsUp((s,))
        case w.Pause() | w.Deal() | w.Over():
            pass


def engine_inputs(game: Game) -> dict[Owner, set[Action]]:
    """What the engine takes now, by owner (see :func:`universe`)."""
    out: dict[Owner, set[Action]] = defaultdict(set)
    if game.is_over:
        return out
    for owner, action in universe(game):
        if takes(game, action):
            out[owner].add(action)
    return out


# -- the games -------------------------------------------------------------------------------------

#: every ruleset, with each club option it takes (tests/conform's random games play them)
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("crime-time", {}),
    ("crime-time", {"fouls": "sport"}),
    ("crime-time", {"best_move": True}),
    ("crime-time", {"first_day": "none"}),
    ("crime-time", {"first_day": "lift_only"}),
    ("professional", {}),
    ("professional", {"fouls": "sport", "best_move": True}),
    ("crime-time", {"withdraw": "auto", "rotation": "last", "on_record": "all",
                    "on_record_count": 3}),
    ("crime-time", {"withdraw": "no", "on_record": "killed"}),
    ("vrn", {}),
    ("vrn", {"fouls": "sport"}),
    ("vrn-closed", {}),
    ("amateur", {}),
    ("amateur", {"fouls": "sport", "cards": "closed"}),
    # the vote's catalogue groups (7.16, 7.18, 7.21-7.23)
    ("crime-time", {"first_voting": "no_breaking", "split_order": "reverse", "kill_all": "draw",
                    "split_on_four": "allowed", "split_on_nine": "after1"}),
    ("professional", {"first_voting": "no_breaking", "split_order": "reverse",
                      "kill_all": "draw", "split_on_nine": "no"}),
]


@dataclass
class Table:
    """A console table replaying a random game, and what the replay pressed on it."""

    rig: Rig
    #: the history length right after the operator's last entry (None: no entry yet)
    entry_after: int | None = None
    #: the step of the state: a new serial, or a press within the step
    note: str = ""


def table_game(rules: str, options: dict[str, Any], seed: int) -> Game:
    return _random_game(rules, seed, options=options)


def states(rules: str, options: dict[str, Any], seed: int,
           settings: ConsoleSettings | None = None) -> Iterator[Table]:
    """The random game of ``rules`` with ``options`` from ``seed``, replayed action by action
    on a console table (the same seats, cards and deal), yielding at every state: the deal
    card by card (a few skipped by the operator), each action of the game — the fouls and
    removals through the operator's buttons when the console takes them (and now and then
    undone and entered again), the one accused tapped on the speaker's pad before the thumbs
    that put him up — and the rest through the host."""
    game = table_game(rules, options, seed)
    rig = make_rig(settings, roles=dict(game.roles), rules=game.rules, seats=game.seats,
                   dealt=dict(game.dealt))
    rng = random.Random(seed)
    table = Table(rig)
    history = game.history
    yield table
    for i, action in enumerate(history):
        exp = rig.game.expect
        if isinstance(exp, w.Deal) and rig.table.dealing:
            assert action == TimeUp("dealing")
            for seat in exp.seats:
                if rng.random() < 0.2:
                    assert rig.op("skip", seat=seat).ok
                else:
                    assert rig.press(seat, "seen").ok
                if len(rig.game.history) == i:
                    table.note = f"card {seat}"
                    yield table
        elif isinstance(action, Foul | Remove):
            do = "foul" if isinstance(action, Foul) else "remove"
            if rig.op(do, seat=action.seat).ok:
                table.entry_after = len(rig.game.history)
                if rng.random() < 0.3:  # undo it, and enter it again
                    table.note = f"{do} {action.seat} entered"
                    yield table
                    assert rig.op("undo").ok
                    table.entry_after = None
                    table.note = f"{do} {action.seat} undone"
                    yield table
                    assert rig.op(do, seat=action.seat).ok
                    table.entry_after = len(rig.game.history)
            else:
                rig.host.apply(action)
        else:
            accused = _accused_next(rig.game, history, i)
            if (accused is not None and isinstance(exp, w.Speech)
                    and rig.press(exp.seat, "accuse", target=accused).ok):
                table.note = f"{exp.seat} accuses {accused}"
                yield table
            rig.host.apply(action)
        assert rig.game.history == history[:i + 1], (i, action, rig.game.history[i:])
        table.note = str(action)
        yield table
    assert rig.game.is_over


def _accused_next(game: Game, history: list[Action], i: int) -> int | None:
    """The seat the thumbs after this speech put up, when ``history[i]`` ends a speech of a
    day by thumbs (amateur): the speaker taps it on his pad first."""
    exp = game.expect
    if not isinstance(exp, w.Speech) or not isinstance(history[i], TimeUp | EndSpeech):
        return None
    for later in history[i + 1:]:
        if isinstance(later, Thumbs):
            return later.target
        if not isinstance(later, Foul):
            return None
    return None


# -- the screens' buttons -------------------------------------------------------------------------


@dataclass(frozen=True)
class TablePress:
    """A button that sends the console a press no engine action answers (the card seen, the
    one accused, the operator's skip of a card and undo)."""

    do: str
    target: int | None = None


Button = Action | TablePress


def pad_buttons(view: dict[str, Any]) -> set[Button]:
    """The buttons seat ``view["seat"]``'s pad shows, as ``narrator/console/static/pad.js``
    renders them (``renderStep``, ``renderAct``), each as the input its press leads to
    (``narrator/console/table.py``: ``_shoot``, ``_check``, ``_vote``, ``_act``, ``_floor``,
    ``_thumb``, ``_extra``, ``_speech``; ``_seen`` and ``_accuse`` are table presses)."""
    seat: int = view["seat"]
    s = view["step"]
    out: set[Button] = set()
    if not _truthy(s):
        return out
    everyone = list(range(1, view["seats"] + 1))
    kind = s["type"]
    if kind == "card":
        # the card is held and let go: «seen», until it is
        if not s["seen"] and _truthy(view["card"]):
            out.add(TablePress("seen"))
    elif kind == "hunt":
        # one button; a press counts for the number being spoken (less the grace): over the
        # count it takes each number 1..count (table.number_at)
        out |= {Shot(seat, k) for k in range(1, len(s["numbers"]) + 1)}
    elif kind == "check":
        if not _truthy(s["done"]):
            out |= {night_act("check", s["role"], n)
                    for n in _or(s.get("checkable"), everyone)}
    elif kind == "vote":
        if not s["voted"]:
            out.add(Hands((seat,)))
    elif kind == "act":
        if not _truthy(s["done"]):
            for mode in s["acts"]:  # the row of modes (the sheriff: a check or a shot)
                grid = (s["victims"] if _truthy(s.get("victims"))
                        else _or(s.get("checkable"), everyone) if mode == "check"
                        else view["living"])
                # (a partner's press at the mafia's kill is his point: the kill when the
                # deciders agree on it)
                out |= {night_act(mode, s["role"], n) for n in grid}
    elif kind == "floor":
        if not s["spoken"]:
            out.add(TakeFloor(seat))
    elif kind == "put_up":
        if not s["given"]:
            out.add(Thumbs(s["accused"], (seat,)))
    elif kind == "extra":
        if not s["raised"]:
            out.add(HandsUp((seat,)))
    elif kind == "speech":
        if s["accuse"]:
            out |= {TablePress("accuse", n) for n in _or(s.get("accusable"), view["living"])}
        if s["nominate"]:
            out |= {Nominate(n) for n in s["nominable"]}
            if s["standing"] is not None and s.get("withdraws") is not False:
                out.add(Withdraw(s["standing"]))
        if _truthy(s.get("best_move")):  # three seats picked, then sent
            out |= {BestMove(t) for t in itertools.combinations(s["best_move"], 3)}
        if _truthy(s.get("on_record")):  # seats tapped red or black, then sent
            out |= {OnRecord(seat, (n,), ()) for n in s["on_record"]}
            out |= {OnRecord(seat, (), (n,)) for n in s["on_record"]}
        out.add(EndSpeech())
    else:
        raise AssertionError(f"a step pad.js does not render: {kind}")
    return out


def _truthy(value: Any) -> bool:
    """JavaScript's truth: every list and object is true, an empty one too (``[] || x`` is
    ``[]``); None (null, undefined), False, 0 and "" are not."""
    return isinstance(value, list | dict) or bool(value)


def _or(value: Any, otherwise: Any) -> Any:
    """JavaScript's ``value || otherwise``, as pad.js reads a view."""
    return value if _truthy(value) else otherwise


def operator_buttons(view: dict[str, Any], game: Game) -> set[Button]:
    """The operator's buttons, as ``narrator/console/static/operator.js`` renders them
    (``renderSeats``, ``renderVote``, the undo at the top), each as the input its press leads
    to (table.py: ``_aside``, ``_hand_count`` — a count through ``Desk.hand_count`` —,
    ``_skip`` and ``_undo`` are table presses). A removal is asked twice on the seat («Удалить…»,
    «Да, удалить N»): one button here."""
    out: set[Button] = set()
    cards = view["cards"]
    waiting = cards["waiting"] if cards else []
    for s in range(1, view["seats"] + 1):
        if cards and s in waiting:
            out.add(TablePress("skip", s))
        if s in view["aside"]["foul"]:
            out.add(Foul(s))
        if s in view["aside"]["remove"]:
            out.add(Remove(s))
    step = view["phase"]["step"]
    if view["hand_votes"] and step in ("vote", "crash"):
        # a number input, 0 to the most the engine takes now
        # (0 is no hands: the desk enters nothing and closes the window)
        for n in range(1, view["hands_max"] + 1):
            out.add(HandCount(n) if step == "vote" else Hands(game.counted_seats(n)))
    if view["can_undo"]:
        out.add(TablePress("undo"))
    return out


# -- what a screen and the engine disagree on ------------------------------------------------------


@dataclass(frozen=True)
class Gap:
    """One disagreement at one state: ``owner``'s screen shows ``action`` and the engine does
    not take it (``shown``), or the engine takes it and no button gives it (``taken``)."""

    side: Literal["shown", "taken"]
    owner: Owner
    action: Action
    wait: str  # the game's public notation, and the step
    note: str  # what was just done

    def __str__(self) -> str:
        what = ("shown, not taken" if self.side == "shown" else "taken, no button")
        who = "operator" if self.owner == OPERATOR else f"seat {self.owner}"
        return f"{who}: {self.action} {what} at {self.wait} (after {self.note!r})"


def gaps(game: Game, offers: dict[Owner, set[Button]], note: str = "") -> list[Gap]:
    """Every disagreement between the screens' ``offers`` (each owner's buttons) and what
    the engine takes now (:func:`engine_inputs`)."""
    taken = engine_inputs(game)
    where = f"{game.notation(secret=False)} {game.expect.tag}"
    out: list[Gap] = []
    for owner in sorted(set(offers) | set(taken), key=str):
        shown = {b for b in offers.get(owner, set()) if not isinstance(b, TablePress)}
        took = taken.get(owner, set())
        out += [Gap("shown", owner, a, where, note) for a in sorted(shown - took, key=str)]
        out += [Gap("taken", owner, a, where, note) for a in sorted(took - shown, key=str)]
    return out
