"""The nights: the first night's steps (2.1.1), then each night's as its ruleset lists them —
crime-time's hunt (2.1.2) and checks (2.1.3), the other texts' kills and saves — and the
night's result, told at day (2.2)."""

from __future__ import annotations

from typing import assert_never

from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import NIGHT_ACTS, VERBS, Action, Check, Kill, Save, Shot, TimeUp
from narrator.engine.checks import step_refusal
from narrator.engine.flow.speech import speech
from narrator.engine.flow.wait import Flow, timer, wait
from narrator.engine.record import CheckRecord, SaveRecord, new_night
from narrator.engine.state import Night, State
from narrator.engine.steps import Announce, HuntStep, Resolve, Wake
from narrator.engine.types import Act, Actor, Exit, Phase, Team, Timer

__all__ = ["first_night", "night", "report"]


def first_night(s: State) -> Flow:
    """2.1.1: the ruleset's first night, step by step (crime-time: cards, the don noted,
    the mafia's agreement, the sheriff noted); no hunt, no checks. A step named after
    something dealt besides the cards (the maniac's side) announces it."""
    r = s.rules
    for step in r.first_night:
        s.events.append(ev.PhaseStarted(step, 1))
        if step in s.dealt:
            s.events.append(ev.Declared(step, s.dealt[step]))
        t = r.first_night_timer(step, s.seats)
        if t is not None:
            yield from timer(s, t)


def night(s: State, n: int) -> Flow:
    """A night after the first: the ruleset's steps (crime-time 2.1: the hunt, 2.1.2, then
    the don's and the sheriff's checks, 2.1.3)."""
    s.phase = Phase.night(n)
    s.nominations = []
    steps = s.rules.night_steps(n, s.card_alive)
    s.nights.append(new_night(s.rules, steps, n))
    s.night = Night()
    s.events.append(ev.PhaseStarted("night", n))
    for step in steps:
        match step:
            case Wake(acts=(Act.CHECK,)):
                yield from _check_step(s, n, step)
            case Wake():
                yield from _wake(s, n, step)
            case HuntStep():
                yield from _hunt(s, n)
                _hunted(s, n)
            case Announce(phase=phase):
                s.events.append(ev.PhaseStarted(phase, n))
            case Resolve():
                _resolve(s, n)
                if s.final is not None:  # 8.19.1: the night's kill decided the game
                    yield from _final_words(s, s.final)
            case _:
                assert_never(step)


def _hunt(s: State, n: int) -> Flow:
    """2.1.2: the count (then :func:`_hunted`)."""
    r = s.rules
    s.events.append(ev.PhaseStarted("hunt", n))
    t = Timer("hunt", r.count_pace * s.seats, tick=r.count_pace)
    s.events.append(ev.TimerStarted(t))
    s.presses.shots = {}
    return wait(s, w.Hunt(t, s.black_at_table(), True, s.serials), _take_shot)


def _take_shot(s: State, action: Action, expect: w.Hunt) -> bool:
    if isinstance(action, Shot):
        if action.shooter not in s.out:  # not removed during the count
            s.presses.shots.setdefault(action.shooter, set()).add(action.target)
        return False
    return isinstance(action, TimeUp)


def _hunted(s: State, n: int) -> None:
    """2.1.2: the hunt's victim, known to the host only until day."""
    r = s.rules
    black = [x for x in s.living if x in s.black]
    target = r.hunt_target(black, s.presses.shots, set(s.living))
    s.nights[-1].shot = target
    s.events.append(ev.ShotsResolved(n, target))
    if target is not None:
        s.night.victims.append((target, r.kill_how[Actor.MAFIA]))


def _final_words(s: State, final: Team) -> Flow:
    """8.19.1: the day broke only to say the night's result; its victims' last words, then
    the winner fixed at the kill (:meth:`~narrator.engine.state.State.declare_final`)."""
    for seat in s.night.out:
        if s.has_last_word(seat):
            yield from speech(s, seat, "last")
    s.declare(final)


def _check_step(s: State, n: int, step: Wake) -> Flow:
    """2.1.3: the checker points at a seat (living or not) and the host's nod answers; the
    time runs out in full, whether or not the checker is still at the table."""
    s.events.append(ev.PhaseStarted(step.phase, n))
    t = Timer(step.phase, step.seconds)
    s.events.append(ev.TimerStarted(t))
    seats = s.actors(step.role)
    act = w.NightAct(t, seats, bool(seats), s.serials, step.role, step.acts, seats)
    return wait(s, act, _take_check)


def _take_check(s: State, action: Action, expect: w.NightAct) -> bool:
    if isinstance(action, Check):
        reason = step_refusal(s, expect, action)
        if reason is not None:
            s.refuse(None, "check", action.target, reason)
        else:
            _checked(s, action, expect)
        return False
    return isinstance(action, TimeUp)


def _checked(s: State, action: Check, expect: w.NightAct) -> None:
    """The host's nod to a check: into the night's record, the night acts and the events.
    (The act is the step's actor's — the rules checked the action's is the same — so every
    record holds the vocabulary's :class:`Actor`, whatever spelling the action came in.)"""
    result = s.rules.check_answer(expect.role.card, s.roles[action.target])
    s.nights[-1].checks[expect.role] = CheckRecord(action.target, result)
    s.note_act(expect.serial, expect.role, Act.CHECK, action.target, result=result)
    s.events.append(ev.Checked(expect.role, action.target, result))


def _wake(s: State, n: int, step: Wake) -> Flow:
    """A role wakes for a kill, a save, or a check or a kill; its time runs out in full."""
    s.events.append(ev.PhaseStarted(step.phase, n))
    if "save" in step.acts and s.rules.shows_victims:
        s.events.append(ev.Victims(len(s.living_victims())))
    t = Timer(step.phase, step.seconds)
    s.events.append(ev.TimerStarted(t))
    s.night.acted = False
    seats = s.actors(step.role)
    act = w.NightAct(t, seats, bool(seats), s.serials, step.role, step.acts,
                     s.deciders(step.role))
    yield from wait(s, act, _take_act)
    if not s.night.acted and step.acts[0] == "kill":
        s.events.append(ev.Missed(step.role))


def _take_act(s: State, action: Action, expect: w.NightAct) -> bool:
    """The act of the role awake: one a step; a refused one may be tried again."""
    if not isinstance(action, NIGHT_ACTS):
        return isinstance(action, TimeUp)
    # the rules' refusals, as every front end asks them (one act a step, a kill or a heal of
    # a seat in the game, a check the ruleset allows, a save the ruleset takes)
    reason = step_refusal(s, expect, action)
    if reason is not None:
        s.refuse(None, VERBS[type(action)], action.target, reason)
        return False
    if isinstance(action, Check):
        _checked(s, action, expect)
    elif isinstance(action, Kill):
        how = s.rules.kill_name(expect.role)
        s.nights[-1].kills[expect.role] = action.target
        s.night.victims.append((action.target, how))
        s.note_act(expect.serial, expect.role, Act.KILL, action.target)
        s.events.append(ev.Acted(expect.role, Act.KILL, action.target))
    else:
        _save(s, action, expect)
    s.night.acted = True
    return False


def _save(s: State, action: Save, expect: w.NightAct) -> None:
    """A save the ruleset takes (its refusals are :func:`step_refusal`'s): whom it saves."""
    saved = s.rules.save(action.target, s.living_victims(), s.saved_seats())[0]
    s.nights[-1].saves[expect.role] = SaveRecord(action.target, saved)
    s.note_act(expect.serial, expect.role, Act.SAVE, action.target, saved=saved)
    if saved is not None:
        s.night.saved.add(saved)
    s.events.append(ev.Saved(expect.role, action.target, saved))


def _resolve(s: State, n: int) -> None:
    """The night's victims but the saved leave the table; if that decides the game, the day
    breaks only to say so."""
    night = s.night
    if not night.victims:  # nobody left the table: nothing is decided
        return
    order = s.living_victims()
    how_of: dict[int, Exit] = {}
    for seat, how in night.victims:  # a seat killed twice: the first kill's
        how_of.setdefault(seat, how)
    victims = tuple(seat for seat in order if seat not in night.saved)
    for seat in victims:
        s.put_out(seat, how_of[seat], check_win=False)
    night.out = victims
    night.saved_any = bool(night.saved & set(order))
    if s.decided() is not None:
        s.events.append(ev.PhaseStarted("day", n))
        report(s, n)
        s.check_win()


def report(s: State, n: int) -> None:
    """2.2: the night's result: each victim (their card shown where the ruleset shows
    it), or a night with none."""
    r = s.rules
    if r.morning_phase is not None:
        s.events.append(ev.PhaseStarted(r.morning_phase, n))
    if not s.night.out:
        s.events.append(ev.NightResult(n, None, s.night.saved_any))
    for seat in s.night.out:
        s.events.append(ev.NightResult(n, seat))
        if r.reveal_cards:
            s.events.append(ev.CardShown(seat, s.roles[seat]))
    if s.winner is None and s.decided() is None:
        s.plays_on()
