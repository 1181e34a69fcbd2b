"""The screens offer exactly what the engine takes: host-assist's keys.

The same seeded random games as the console's (``tests/offers.py``), at every state, with
assist's controller on the host (``narrator/assist/control.py``). Assist offers what its hint
line says (:func:`narrator.assist.control.hint`: «number Enter: nominate · number w: withdraw ·
Space: …») and the keys it binds at any step (``narrator/assist/ui.py``: ``f`` a foul, ``x`` a
removal, ``t`` the timer's end, ``u`` undo). Each hinted key is modelled as the entries it types
for every number (``5 Enter``, ``5 w``, ``3-7 k``, ``7-4 Enter``, ``3, Enter``, Space), read as
the controller reads them (``Controller._typed``, then ``parse_operator_line``):

1. each key the hint offers now gives, for some number, actions the engine takes now (or is
   the step's «none», which answers without an action);
2. each input the engine takes now (:func:`tests.offers.engine_inputs`, every owner: the host
   enters for the whole table) is given by a hinted key or a key of every step.

Inputs of the engine that deliberately have no key of their own (the host counts, he does not
name the seats): a seat's own hand in a vote (``Hands((seat,))``; assist enters the count,
``HandCount``, and the car crash's count as the first N seats) and a seat's own thumb (``7-4
Enter``: four thumbs for 7, the first four seats at the table). The footer's ``w``, ``k`` and
``c`` are bound at every step of a ruleset that has them (``GameScreen.check_action``); the
step's own offer is its hint, and only the hint is held to point 1.

Each disagreement it found (a key offered that the engine refused, the best move with no key)
has a regression test below with its minimal case, found by its situation alone (:data:`CASES`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from narrator.assist.control import Controller, _ends_early, hint
from narrator.engine import (
    Action,
    BestMove,
    Game,
    Hands,
    Thumbs,
)
from narrator.engine import waits as w
from narrator.engine.entries import parse_operator_line
from narrator.errors import NarratorError
from tests.offers import CONFIGS, Table, engine_inputs, states, takes

#: seed 1 of each ruleset, of fouls="sport", of the best move and of the discussion's
#: catalogue groups (the other club options change no key)
GAMES = [(rules, options, 1) for rules, options in CONFIGS
         if not options or options == {"fouls": "sport"} or "best_move" in options
         or "on_record" in options or "withdraw" in options]

#: a key of every step (ui.GameScreen's bindings): a number then f / x, t
_ALWAYS = ("f", "x", "t")


def _typed(controller: Controller, text: str) -> str | None:
    """What a number typed then Enter enters (None: the controller refuses it, a count
    above the players at the table)."""
    try:
        return controller._typed(text)
    except NarratorError:
        return None


def _entries(key: str, game: Game, controller: Controller) -> Iterator[str | None]:
    """The operator entries ``key`` (a hinted key: "number Enter", "3-7 k", …) types, for
    every number it takes, as the controller makes them (None: one it refuses)."""
    seats = range(1, game.seats + 1)
    if key == "number Enter":
        for n in range(0 if isinstance(game.expect, w.Vote | w.Crash) else 1, game.seats + 1):
            yield _typed(controller, str(n))
    elif key == "Enter":  # an empty Enter
        yield _typed(controller, "")
    elif key in ("number w", "number k", "number c"):
        yield from (f"{key[-1]} {n}" for n in seats)
    elif key == "3-7 k":
        yield from (f"k {a}-{b}" for a in seats for b in seats)
    elif key == "accused-thumbs Enter":
        yield from (_typed(controller, f"{t}-{k}") for t in seats
                    for k in range(game.seats + 1))
    elif key == "seats Enter":
        yield from (_typed(controller, f"{s},") for s in seats)
    elif key == "3,5,7 b":  # the club's best move: three seats
        yield from (f"b {a},{b},{c}" for a in seats for b in seats for c in seats
                    if len({a, b, c}) == 3)
    elif key in ("number o", "number m", "number o/m"):  # the club's colours on record (6.7)
        if key != "number m":
            yield from (f"o {n}" for n in seats)
        if key != "number o":
            yield from (f"o / {n}" for n in seats)
    elif key == "Space":
        yield "-" if _ends_early(game.expect) else "t"
    elif key == "f":
        yield from (f"f {n}" for n in seats)
    elif key == "x":
        yield from (f"r {n}" for n in seats)
    elif key == "t":
        yield "t"
    elif key in ("u", "q"):
        return  # undo (the desk's), quit: no engine input
    else:
        raise AssertionError(f"a key the test does not know: {key!r} (hint {hint(game)!r})")


def hinted_keys(game: Game) -> list[str]:
    """The keys the hint line offers now: each part's words before its «:» (a part without
    one is a note: «abstainers count for the last»)."""
    keys = []
    for part in hint(game).split(" · "):
        if ":" not in part:
            continue
        key = part.split(":")[0].split(" (")[0].strip()
        if key.startswith("accused-thumbs Enter"):
            key = "accused-thumbs Enter"
        keys.append(key)
    return keys


def _actions(entry: str | None, game: Game) -> tuple[Action, ...] | None:
    """What the entry gives (None: the parser refuses it now)."""
    if entry is None:
        return None
    try:
        return parse_operator_line(entry, game).actions
    except NarratorError:
        return None


def _controller(table: Table) -> Controller:
    rig = table.rig
    return Controller(rig.host, rig.driver, rig.transcript)


def _offered(game: Game, controller: Controller, key: str) -> list[tuple[Action, ...]]:
    out = []
    for entry in _entries(key, game, controller):
        actions = _actions(entry, game)
        if actions is not None:
            out.append(actions)
    return out


def _documented(action: Action, game: Game) -> bool:
    """The inputs with no key by design (the module's list)."""
    exp = game.expect
    if isinstance(action, Hands) and isinstance(exp, w.Vote):
        return True  # the host counts: HandCount
    if isinstance(action, Hands) and isinstance(exp, w.Crash):
        return action.seats != game.counted_seats(len(action.seats))
    return isinstance(action, Thumbs) and isinstance(exp, w.PutUp)  # the thumbs counted


def _standing(game: Game) -> int | None:
    """The speaker's own nomination standing in this speech."""
    exp = game.expect
    if not isinstance(exp, w.Speech):
        return None
    return next((t for s, t in game.nominations if s == exp.seat), None)


def _day_speech(game: Game) -> bool:
    """A day speech of a ruleset that nominates by words."""
    exp = game.expect
    return isinstance(exp, w.Speech) and exp.speech == "day" and bool(game.rules.nominations)


def _withdraw_with_nothing_to_withdraw(game: Game, key: str) -> bool:
    return key == "number w" and _day_speech(game) and _standing(game) is None


def _nominate_after_nominating(game: Game, key: str) -> bool:
    return key == "number Enter" and _day_speech(game) and _standing(game) is not None


def _act_after_the_act(game: Game, key: str) -> bool:
    exp = game.expect
    return (key in ("number Enter", "number k", "number c") and isinstance(exp, w.NightAct)
            and bool(exp.seats) and game.acted(exp.role) is not None)


def _act_of_a_role_out(game: Game, key: str) -> bool:
    exp = game.expect
    return (key in ("number Enter", "number k", "number c") and isinstance(exp, w.NightAct)
            and not exp.seats)


def _save_with_no_victim(game: Game, key: str) -> bool:
    exp = game.expect
    return (key == "number Enter" and isinstance(exp, w.NightAct) and exp.acts[0] == "save"
            and bool(exp.seats) and game.acted(exp.role) is None
            and game.rules.shows_victims and not game.victims)


def _extra_with_every_hand_up(game: Game, key: str) -> bool:
    return (key == "seats Enter" and isinstance(game.expect, w.Extra)
            and set(game.living) <= set(game.raised_hands))


#: the situations where assist offered a key the engine did not take (each was a disagreement,
#: fixed: the hint is now made of the engine's answers), by their regression test's name
CASES = {
    "test_no_save_key_without_a_victim": _save_with_no_victim,
    "test_no_extra_key_once_every_hand_is_up": _extra_with_every_hand_up,
    "test_no_withdraw_key_without_a_nomination": _withdraw_with_nothing_to_withdraw,
    "test_no_second_nomination_key": _nominate_after_nominating,
    "test_no_act_key_after_the_act": _act_after_the_act,
    "test_no_act_key_for_a_role_out": _act_of_a_role_out,
}


def _gaps(table: Table, controller: Controller) -> list[str]:
    game = table.rig.game
    if game.is_over:
        return []
    where = f"{game.notation(secret=False)} (after {table.note!r}), hint {hint(game)!r}"
    wrong: list[str] = []
    given: set[Action] = set()
    # the colours on record's keys are in the footer always (the hint, when it has room)
    record = ("number o", "number m") if game.rules.on_record != "none" else ()
    for key in [*hinted_keys(game), *_ALWAYS, *record]:
        entries = _offered(game, controller, key)
        for actions in entries:
            given.update(actions)
        hinted = key not in (*_ALWAYS, *record)
        if hinted and not any(all(takes(game, a) for a in actions) for actions in entries):
            wrong.append(f"key {key!r} offered, nothing it gives is taken at {where}")
    for taken in engine_inputs(game).values():
        for action in sorted(taken - given, key=str):
            if not _documented(action, game):
                wrong.append(f"{action} taken, no key gives it at {where}")
    return wrong


@pytest.mark.parametrize(("rules", "options", "seed"), GAMES,
                         ids=[f"{r}{''.join(f'-{k}={v}' for k, v in o.items())}-{seed}"
                              for r, o, seed in GAMES])
def test_assist_offers_exactly_what_the_engine_takes(rules: str, options: dict[str, Any],
                                                     seed: int) -> None:
    controller: Controller | None = None
    for table in states(rules, options, seed):
        controller = controller or _controller(table)
        wrong = _gaps(table, controller)
        assert not wrong, "\n".join(wrong[:12])


def test_assist_names_the_best_move() -> None:
    """crime-time, best_move, seed 1: day 2, seat 8's last word — best_move 1 2 3."""
    for table in states("crime-time", {"best_move": True}, 1):
        game = table.rig.game
        exp = game.expect
        if isinstance(exp, w.Speech) and exp.speech == "last" and str(game.phase) == "d2":
            assert takes(game, BestMove((1, 2, 3)))
            controller = _controller(table)
            keys = [*hinted_keys(game), *_ALWAYS]
            given = {a for key in keys for actions in _offered(game, controller, key)
                     for a in actions}
            assert BestMove((1, 2, 3)) in given, hint(game)
            return
    raise AssertionError("the case is not reached: the seed's game has changed")


def _assert_key_taken(rules: str, options: dict[str, Any], seed: int, name: str,
                      key: str) -> None:
    """At the first state of the seeded game in the situation of ``name`` (found by the
    situation alone: once fixed, the case is still reached), ``key`` is either not offered
    or gives something the engine takes."""
    for table in states(rules, options, seed):
        game = table.rig.game
        if game.is_over or not CASES[name](game, key):
            continue
        if key in hinted_keys(game):
            entries = _offered(game, _controller(table), key)
            assert any(all(takes(game, a) for a in actions) for actions in entries), (
                f"{key!r} offered by {hint(game)!r} at {game.notation(secret=False)}, "
                "nothing it gives is taken")
        return
    raise AssertionError("the case is not reached: the seed's game has changed")


def test_no_withdraw_key_without_a_nomination() -> None:
    """crime-time, no options, seed 1: day 1, seat 1's speech, nothing nominated yet —
    «number w: withdraw» offered."""
    _assert_key_taken("crime-time", {}, 1, "test_no_withdraw_key_without_a_nomination",
                      "number w")


def test_no_second_nomination_key() -> None:
    """crime-time, no options, seed 1: day 1, seat 3's speech after he nominated 4 —
    «number Enter: nominate» still offered."""
    _assert_key_taken("crime-time", {}, 1, "test_no_second_nomination_key",
                      "number Enter")


def test_no_act_key_after_the_act() -> None:
    """vrn, no options, seed 1: night 2, the mafia's kill after the don (seat 7) decided —
    «number Enter: the mafia's kill» still offered."""
    _assert_key_taken("vrn", {}, 1, "test_no_act_key_after_the_act",
                      "number Enter")


def test_no_act_key_for_a_role_out() -> None:
    """crime-time, no options, seed 1 (9 seats): night 2, the don's check — the don (seat 9)
    was removed on day 1; «number Enter: the don checks that seat» still offered."""
    _assert_key_taken("crime-time", {}, 1, "test_no_act_key_for_a_role_out",
                      "number Enter")


def test_no_save_key_without_a_victim() -> None:
    """vrn, no options, seed 0: night 6, the doctor's save, nobody hit tonight."""
    _assert_key_taken("vrn", {}, 0, "test_no_save_key_without_a_victim", "number Enter")


def test_no_extra_key_once_every_hand_is_up() -> None:
    """vrn, no options, seed 7: day 6, the hands for 30 s more: 8 raised his, then 3 and 7
    (all three at the table)."""
    _assert_key_taken("vrn", {}, 7, "test_no_extra_key_once_every_hand_is_up", "seats Enter")
