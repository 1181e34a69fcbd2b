"""The screens offer exactly what the engine takes: the console's seat pads and operator view.

In seeded random games of every ruleset and club option (``tests/offers.py``: the games of
``tests/conform/random_scripts.py`` replayed on a console table on a virtual clock), at every
state the game reaches, for every seat and for the operator:

1. each button the screen shows — derived from the view (``narrator/console/views.py``)
   exactly as ``pad.js`` and ``operator.js`` render it (:func:`tests.offers.pad_buttons`,
   :func:`tests.offers.operator_buttons`) — is an input the engine takes now
   (:func:`tests.offers.takes`), and
2. each input the engine takes now from that seat (:func:`tests.offers.engine_inputs`) has
   its button.

Inputs of the engine that deliberately have no button of their own (not disagreements):

- a vote's count (``HandCount``) and the car crash's count (the first N seats' ``Hands``)
  without ``--votes hands``: the pads vote, each for itself; with it, the seats' own
  ``Hands`` are the operator's count instead (the pads show no «За»);
- a thumb (``PutUp``) for any seat but the one the speaker accused, and any thumb when he
  accused nobody: the accusation is the speaker's tap on his pad (the desk's), which the
  engine does not know — the thumbs after the speech are for that one seat (docs/console.md);
- ``TimeUp``: the timers' (a held deal ends when every card is seen or skipped);
- ``Malformed``: the grammar's refusal of a phrase heard, never a press;
- ``Hands``, ``Shot``, ``Extra``, ``PutUp`` of several seats at once: each pad presses for
  itself (only the operator's counts name several seats);
- ``HandCount(0)``: the operator's count of 0 is no hands — the desk enters nothing and
  closes the window.

Buttons with no engine input of their own, checked against their own models below: a pad's
card (held, then «seen»), the operator's «Пропустить» of a card awaited, the speaker's
accusation (``Game.accusation_refusal``), the operator's undo (the desk's: the last operator
entry, while only the timers' ends came after it). The hunt's one button takes the number
being spoken: over the count, each number 1..N. A mafioso's press at the mafia's kill is his
point (the don's alone decides while he is at the table, the agreement of all without him):
each one's grid is his share of the same ``Kill``.

Where they disagree today, each disagreement has its own ``xfail(strict=True)`` test below with
a minimal case, and the property test lets exactly those through (:data:`KNOWN`): when the
console is fixed, the xfail passes, fails as strict, and goes — with its entry in KNOWN.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from narrator.console.settings import ConsoleSettings
from narrator.console.views import operator_view, pad_view
from narrator.engine import (
    Action,
    BestMove,
    EndSpeech,
    EngineError,
    Foul,
    Game,
    HandCount,
    Hands,
    HandsUp,
    Nominate,
    Remove,
    Save,
    Shot,
    TakeFloor,
    Thumbs,
    TimeUp,
    Withdraw,
    night_act,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from tests.console.conftest import make_rig
from tests.offers import (
    CONFIGS,
    OPERATOR,
    Button,
    Gap,
    Owner,
    Table,
    TablePress,
    gaps,
    operator_buttons,
    pad_buttons,
    states,
    takes,
    universe,
)

#: the games: seed 1 of each ruleset and option, seed 3 of a few (a fixed list: the suite's
#: cost stays small and the same) — between them every kind of step but the car crash (tested
#: apart): vrn's hunt once the don is out, crime-time's don checking, amateur's thumbs, …
GAMES = [(rules, options, 1) for rules, options in CONFIGS] + [
    ("crime-time", {}, 3), ("crime-time", {"first_day": "none"}, 3), ("professional", {}, 3),
    ("vrn", {}, 3), ("vrn-closed", {}, 3)]
#: ``--votes hands``: the operator counts every window
HAND_VOTES = ConsoleSettings(hand_votes=True)


def offers(table: Table) -> dict[Owner, set[Button]]:
    """Every screen's buttons at the state the table stands at."""
    rig = table.rig
    out: dict[Owner, set[Button]] = {
        OPERATOR: operator_buttons(operator_view(rig.table), rig.game)}
    for seat in range(1, rig.game.seats + 1):
        out[seat] = pad_buttons(pad_view(rig.table, seat))
    return out


# -- the disagreements known today (each has its xfail test below) ---------------------------------

Known = Callable[[Table, Gap], bool]


def _night_victim_remove(table: Table, gap: Gap) -> bool:
    game = table.rig.game
    return (gap.side == "shown" and isinstance(gap.action, Remove)
            and gap.action.seat in game.out and gap.action.seat not in game.public_out())


#: each disagreement found, by its xfail test's name
KNOWN: dict[str, Known] = {
    "test_operator_has_no_remove_for_a_seat_killed_tonight": _night_victim_remove,
}


# -- the documented exceptions --------------------------------------------------------------------


def _documented(table: Table, gap: Gap) -> bool:
    """The inputs with no button by design (the module's list)."""
    rig = table.rig
    exp = rig.game.expect
    hand_votes = rig.table.settings.hand_votes
    action = gap.action
    if gap.side == "taken" and isinstance(exp, w.Vote | w.Crash):
        if gap.owner == OPERATOR and not hand_votes:
            return True  # the pads vote; the operator counts only with --votes hands
        if gap.owner != OPERATOR and hand_votes:
            return True  # the operator counts the hands
    if gap.side == "taken" and isinstance(exp, w.PutUp) and gap.owner != OPERATOR:
        accused = rig.table.accused_now()
        return getattr(action, "target", None) != accused or accused is None
    return False


# -- the property ---------------------------------------------------------------------------------


def _table_presses(table: Table, shown: dict[Owner, set[Button]]) -> list[str]:
    """The buttons with no engine input, against their own models (see the module)."""
    rig = table.rig
    game = rig.game
    exp = game.expect
    wrong: list[str] = []
    waiting = set(rig.table.waiting_for_cards())
    expected_deal = (set(exp.seats) - rig.table.desk.seen - rig.table.desk.skipped
                     if isinstance(exp, w.Deal) and rig.table.dealing else set())
    if waiting != expected_deal:
        wrong.append(f"cards awaited {sorted(waiting)}, the deal's {sorted(expected_deal)}")
    skips = {b.target for b in shown[OPERATOR]
             if isinstance(b, TablePress) and b.do == "skip" and b.target is not None}
    if skips != waiting:
        wrong.append(f"operator: skip {sorted(skips)} for the cards awaited {sorted(waiting)}")
    for seat in range(1, game.seats + 1):
        seen = TablePress("seen") in shown[seat]
        if seen != (seat in waiting):
            wrong.append(f"seat {seat}: the card's «seen» {seen}, awaited {seat in waiting}")
        accuses = {b.target for b in shown[seat]
                   if isinstance(b, TablePress) and b.do == "accuse" and b.target is not None}
        accusable = ({t for t in range(1, game.seats + 1)
                      if game.accusation_refusal(seat, t) is None}
                     if isinstance(exp, w.Speech) and exp.seat == seat
                     and rig.table.speech_puts_up() else set())
        if accuses != accusable:
            wrong.append(f"seat {seat}: accuses {sorted(accuses)}, the engine takes "
                         f"{sorted(accusable)}")
    undo = TablePress("undo") in shown[OPERATOR]
    after = table.entry_after
    undoable = after is not None and all(isinstance(a, TimeUp) for a in game.history[after:])
    if undo != undoable:
        wrong.append(f"operator: undo {undo}, the last entry undoable {undoable}")
    return wrong


def _check_state(table: Table, met: set[str]) -> list[str]:
    """The disagreements at the table's state not in KNOWN (the KNOWN ones into ``met``)."""
    shown = offers(table)
    unexplained: list[str] = []
    for gap in gaps(table.rig.game, shown, table.note):
        if _documented(table, gap):
            continue
        known = [name for name, match in KNOWN.items() if match(table, gap)]
        if known:
            met.update(known)
        else:
            unexplained.append(str(gap))
    return unexplained + [f"{p} at {table.rig.game.notation(secret=False)}"
                          for p in _table_presses(table, shown)]


def _check_game(rules: str, options: dict[str, Any], seed: int,
                settings: ConsoleSettings | None = None) -> set[str]:
    """Walk one game; fail on any disagreement not in KNOWN; the KNOWN ones met."""
    met: set[str] = set()
    for table in states(rules, options, seed, settings):
        unexplained = _check_state(table, met)
        assert not unexplained, f"{rules} {options} seed {seed}:\n" + "\n".join(unexplained[:12])
    return met


@pytest.mark.parametrize(("rules", "options", "seed"), GAMES,
                         ids=[f"{r}{''.join(f'-{k}={v}' for k, v in o.items())}-{seed}"
                              for r, o, seed in GAMES])
def test_the_screens_offer_exactly_what_the_engine_takes(rules: str, options: dict[str, Any],
                                                          seed: int) -> None:
    _check_game(rules, options, seed)


def test_the_operator_counts_exactly_what_the_engine_takes() -> None:
    """``--votes hands``: the operator's count instead of the pads' hands."""
    _check_game("crime-time", {}, 3, HAND_VOTES)


@pytest.mark.parametrize("settings", [None, HAND_VOTES], ids=["pads", "hand_votes"])
def test_the_car_crash_offers_exactly_what_the_engine_takes(
        settings: ConsoleSettings | None) -> None:
    """No random game reaches the car crash (2.4.2): day 1, seats 4 and 6 tie twice, 5 : 5,
    and the table is asked whether both leave — the pads' «За» (or the operator's count)
    at every state of the question."""
    rig = make_rig(settings)
    table = Table(rig)
    rig.to_the_vote()

    def hands(candidate: int, seats: range) -> None:
        if settings is None:
            for seat in seats:
                assert rig.press(seat, "vote", candidate=candidate).ok
            return
        assert rig.op("hands", candidate=candidate, count=len(seats)).ok
        table.entry_after = len(rig.game.history)

    for _ in range(2):  # the vote, then the vote after the tie's speeches (2.4.1)
        rig.until(w.Vote, candidate=4)
        hands(4, range(1, 6))
        rig.until(w.Vote, candidate=6)
        hands(6, range(6, 11))
    rig.until(w.Crash)
    met: set[str] = set()
    for seats in (range(1, 1), range(1, 4), range(4, 7)):  # hands for both leaving
        if settings is None:
            for seat in seats:
                assert rig.press(seat, "vote", candidate=None).ok
        assert not _check_state(table, met), _check_state(table, met)
    assert isinstance(rig.game.expect, w.Crash)
    if settings is not None:
        assert rig.op("hands", candidate=None, count=6).ok
        table.entry_after = len(rig.game.history)
    rig.until(w.Speech)
    assert not _check_state(table, met), _check_state(table, met)


# -- the disagreements, one minimal case each ---------------------------------------------------
#
# Each case is found by its situation alone (never by the disagreement: once it is fixed the
# case is still reached, the test passes, and strict xfail says so).

Locate = Callable[[Game], tuple[Owner, Action] | None]


def _case(rules: str, options: dict[str, Any], seed: int, locate: Locate,
          settings: ConsoleSettings | None = None) -> tuple[Table, Owner, Action]:
    """The first state of a seeded game where ``locate`` names an owner's input."""
    for table in states(rules, options, seed, settings):
        found = None if table.rig.game.is_over else locate(table.rig.game)
        if found is not None:
            return table, *found
    raise AssertionError("the case is not reached: the seed's game has changed")


def _agree(table: Table, owner: Owner, action: Action) -> None:
    """The screen shows ``action`` exactly when the engine takes it."""
    game = table.rig.game
    shown = action in offers(table)[owner]
    assert shown == takes(game, action), (
        f"{owner}: {action} shown {shown}, taken {not shown} at {game.notation(secret=False)}")


def _killed_tonight(game: Game) -> int | None:
    """A seat out tonight that the table does not know of yet (2.1.2)."""
    public = game.public_out()
    return next((s for s in sorted(game.out) if s not in public), None)


def _remove_killed_tonight(game: Game) -> tuple[Owner, Action] | None:
    seat = _killed_tonight(game)
    return None if seat is None else (OPERATOR, Remove(seat))


def _second_nomination(game: Game) -> tuple[Owner, Action] | None:
    exp = game.expect
    if not isinstance(exp, w.Speech) or exp.speech != "day":
        return None
    standing = next((t for s, t in game.nominations if s == exp.seat), None)
    other = next((t for t in game.living if t != standing), None)
    return None if standing is None or other is None else (exp.seat, Nominate(other))


def _count_of_every_player(game: Game) -> tuple[Owner, Action] | None:
    exp = game.expect
    if not isinstance(exp, w.Vote) or not game.step_hands:
        return None  # (hands already counted in this round)
    return OPERATOR, HandCount(len(game.living))


def _foul_in_the_deal(game: Game) -> tuple[Owner, Action] | None:
    return (OPERATOR, Foul(1)) if isinstance(game.expect, w.Deal) else None


def _heal_of_a_seat_voted_out(game: Game) -> tuple[Owner, Action] | None:
    exp = game.expect
    out = [s for s, how in game.public_out().items() if how == "vote"]
    if not isinstance(exp, w.NightAct) or exp.role != "nurse" or not exp.seats or not out:
        return None
    return exp.seats[0], Save("nurse", out[0])


def _best_move_at_the_last_word(game: Game) -> tuple[Owner, Action] | None:
    exp = game.expect
    if not (isinstance(exp, w.Speech) and exp.speech == "last" and str(game.phase) == "d2"):
        return None
    named = tuple(s for s in range(1, game.seats + 1) if s != exp.seat)[:3]
    return exp.seat, BestMove(named)


def test_operator_fouls_a_seat_in_its_last_word() -> None:
    """crime-time, no options, day 1: seat 4 voted out; in his last word the operator's
    foul on 4 — the engine takes it, the operator view has its button, the console takes it
    (MafiaRatings' sample game 1 stopped on the pads here)."""
    rig = make_rig()
    rig.to_the_vote()
    for seat in range(1, 11):
        assert rig.press(seat, "vote", candidate=4).ok
    rig.until(w.Speech, speech="last")
    assert rig.game.expect.seat == 4  # type: ignore[union-attr]
    assert takes(rig.game, Foul(4))
    shown = operator_buttons(operator_view(rig.table), rig.game)
    reply = rig.op("foul", seat=4)
    assert (Foul(4) in shown, reply.ok) == (True, True), reply


@pytest.mark.xfail(strict=True, reason=(
    "operator.js shows «Удалить…» for a seat killed in tonight's hunt (the table does not know "
    "it yet: view.out leaves it out) but the engine refuses Remove of a seat out (and the "
    "console answers seat_out, which tells the operator who was killed)"))
def test_operator_has_no_remove_for_a_seat_killed_tonight() -> None:
    """crime-time, no options, seed 1 (9 seats): night 2, the don's check (the don removed on
    day 1) after the hunt hit seat 8 — the operator's «Удалить…» on 8."""
    _agree(*_case("crime-time", {}, 1, _remove_killed_tonight))


def test_operator_fouls_a_seat_killed_tonight() -> None:
    """crime-time, no options, seed 1 (9 seats): night 2, the don's check after the hunt hit
    seat 8 — the operator's foul on 8: shown, taken by the engine and by the console."""
    table, _, action = _case("crime-time", {}, 1, _remove_killed_tonight)
    rig, seat = table.rig, action.seat  # type: ignore[union-attr]
    shown = Foul(seat) in offers(table)[OPERATOR]
    taken = takes(rig.game, Foul(seat))
    reply = rig.op("foul", seat=seat)
    assert reply.ok == (shown and taken), (shown, taken, reply)


def test_no_second_nomination_on_the_pad() -> None:
    """crime-time, no options, seed 1: day 1, seat 3's speech after he nominated 4 — his
    pad's grid is gone (the engine refuses a second one), «Снимаю 4» stays."""
    _agree(*_case("crime-time", {}, 1, _second_nomination))


def test_hand_count_box_goes_no_higher_than_the_hands_left() -> None:
    """crime-time, --votes hands, seed 3: day 1, candidates 10 and 1, every hand went to 10 —
    the box for 1 goes no higher than the hands left (``hands_max``)."""
    _agree(*_case("crime-time", {}, 3, _count_of_every_player, HAND_VOTES))


def test_operator_fouls_a_seat_whose_card_is_awaited() -> None:
    """crime-time, no options, seed 1: the deal, no card seen yet — a foul to seat 1."""
    _agree(*_case("crime-time", {}, 1, _foul_in_the_deal))


def test_nurse_heals_exactly_the_seats_the_engine_takes() -> None:
    """amateur, no options, seed 1: night 2, the nurse's (seat 8) heal — seat 10, voted out
    on day 1: the engine refuses it (target_out), and her pad does not offer it."""
    _agree(*_case("amateur", {}, 1, _heal_of_a_seat_voted_out))


def test_the_first_victim_names_the_best_move_on_the_pad() -> None:
    """crime-time, best_move, seed 1: day 2, seat 8's last word (the first hunt's victim) —
    best_move 1 2 3."""
    _agree(*_case("crime-time", {"best_move": True}, 1, _best_move_at_the_last_word))


# -- the helper's honesty -------------------------------------------------------------------------

#: small games — a table of 4 (crime-time seed 2) at every state; vrn's roles and amateur's
#: at every 10th state (each state asks a copy of the game some 300 times)
_SMALL: tuple[tuple[str, dict[str, Any], int, int], ...] = (
    ("crime-time", {}, 2, 1), ("vrn", {}, 1, 10), ("amateur", {}, 2, 10))


class _Copies:
    """The slow, plain answer: apply an action to a copy of the game at this state (one copy
    while the actions tried on it are refused; a new one after each taken)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.copy: Game | None = None

    def takes(self, action: Action) -> bool:
        if self.copy is None:
            self.copy = self.game.table_copy()
            self.copy.start()
            self.copy.replay(self.game.history)
        try:
            events = self.copy.apply(action)
        except EngineError:
            return False  # (the state is untouched)
        if any(isinstance(e, ev.Refused) for e in events):
            return False  # (only the protocol's list of refusals grew)
        self.copy = None
        return True


def _every_input(game: Game) -> set[Action]:
    """Every one-seat input of every class, role and verb, at any wait."""
    seats = range(1, game.seats + 1)
    roles = {"mafia", *(r.value for r in game.roles.values())}
    out: set[Action] = {EndSpeech(), BestMove((1, 2, 3))}
    for s in seats:
        out |= {Nominate(s), Withdraw(s), Hands((s,)), HandCount(s), TakeFloor(s), HandsUp((s,)),
                Foul(s), Remove(s)}
        out |= {Shot(s, t) for t in seats} | {Thumbs(t, (s,)) for t in seats}
        out |= {night_act(verb, role, s) for verb in ("check", "kill", "save") for role in roles}
    return out


@pytest.mark.parametrize(("rules", "options", "seed", "stride"), _SMALL)
def test_refusal_is_what_applying_would_do(rules: str, options: dict[str, Any],
                                           seed: int, stride: int) -> None:
    """``Game.refusal`` (``takes``) says of every input what applying it to a copy of the game
    does — an error or a Refused event, or taken; and no input of another class than the
    wait's (:func:`tests.offers.universe`) is taken."""
    for i, table in enumerate(states(rules, options, seed)):
        game = table.rig.game
        if game.is_over or i % stride:
            continue
        mine = {a for _, a in universe(game)}
        copies = _Copies(game)
        for action in sorted(_every_input(game), key=str):
            plain = copies.takes(action)
            assert takes(game, action) == plain, (action, game.notation())
            if plain:
                assert action in mine, (action, game.notation())
