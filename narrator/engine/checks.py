"""What the game takes: the checks an action passes before the flow sees it, and the reasons
the rules refuse one seat's input at the step the game waits at.

:func:`check` raises :class:`InvalidActionError` for a malformed action and
:class:`IllegalActionError` for one the game is not waiting for: the state is then untouched.
:func:`refusal` gives the reason code a :class:`~narrator.engine.events.Refused` event would
carry — the rules foresee these inputs, and the flow refuses them itself, in the protocol.
Every front end asks here (through :class:`~narrator.engine.game.Game`) instead of keeping
its own copy of a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from narrator.engine import waits as w
from narrator.engine.actions import (
    NIGHT_ACTS,
    VERBS,
    Action,
    BestMove,
    Check,
    EndSpeech,
    Foul,
    HandCount,
    Hands,
    HandsUp,
    Kill,
    Malformed,
    Mark,
    Nominate,
    OnRecord,
    Remove,
    Save,
    Shot,
    TakeFloor,
    TechFoul,
    Thumbs,
    TimeUp,
    Withdraw,
)
from narrator.engine.errors import EngineError, IllegalActionError, InvalidActionError
from narrator.engine.marks import mark_problem
from narrator.engine.record import OnRecordRecord, RoleAct, notation
from narrator.engine.state import State
from narrator.engine.types import Act, Actor, Exit, Phase, Role, SpeechKind
from narrator.engine.waits import Expect
from narrator.reasons import Reason

__all__ = [
    "accusation_refusal",
    "acted",
    "actor_alive",
    "best_move_due",
    "check",
    "check_refusal",
    "check_seat",
    "legacy_lost",
    "nomination_refusal",
    "on_record_due",
    "refusal",
    "step_refusal",
    "withdrawal_refusal",
]

#: actions taken in a speech, and the waits that take hands (tuples: ``isinstance`` takes them
#: faster than X | Y, which makes a new union at every call)
_SPOKEN = (Nominate, Withdraw, EndSpeech, Malformed)
_VOTES = (w.Vote, w.Crash)


def check_seat(s: State, seat: int, what: object) -> None:
    if not isinstance(seat, int) or not 1 <= seat <= s.seats:
        raise InvalidActionError(f"{what}: seat {seat!r} does not exist (seats 1..{s.seats})",
                                 Reason.NOT_A_SEAT)


def _illegal(s: State, exp: Expect, action: Action, why: str,
             reason: Reason = Reason.NOT_NOW) -> IllegalActionError:
    # the public notation: the message is shown to the operator, and may be logged
    return IllegalActionError(
        f"{action}: {why} (waiting for {exp}; {notation(s, exp, secret=False)})", reason)


def check(s: State, exp: Expect, action: Action) -> None:
    """Raise InvalidActionError / IllegalActionError unless the flow at ``exp`` takes
    ``action``."""
    if isinstance(exp, w.Speech) and isinstance(action, _SPOKEN):
        return  # the common case first: the flow checks targets itself (refusals)
    if isinstance(exp, w.Over) and not isinstance(action, Mark):
        raise _illegal(s, exp, action, "the game is over", Reason.GAME_OVER)
    # each kind of action has its own check (by exact type: one look-up, not a chain)
    checker = _CHECKS.get(type(action))
    if checker is None:
        raise InvalidActionError(f"unknown action {action!r}", Reason.BAD_REQUEST)
    checker(s, action, exp)


def _check_aside(s: State, action: Foul | Remove, exp: Expect) -> None:
    check_seat(s, action.seat, action)
    # 1.4: a foul counts while the player is at the table, last word included; a
    # removal has nothing to take from a seat that is out already
    if action.seat in s.out and not (isinstance(action, Foul)
                                     and action.seat in s.last_word_due):
        raise _illegal(s, exp, action, f"seat {action.seat} is out of the game", Reason.SEAT_OUT)


def _check_tech_foul(s: State, action: TechFoul, exp: Expect) -> None:
    if s.rules.tech_fouls != "yes":  # 9.6.1: «технических фолов нет»
        raise _illegal(s, exp, action, f"{s.rules.name} gives no technical fouls (the club "
                       f"option tech_fouls = \"yes\" does)", Reason.NO_TECH_FOULS)
    check_seat(s, action.seat, action)
    if action.seat in s.out and action.seat not in s.last_word_due:  # 1.4, as a foul
        raise _illegal(s, exp, action, f"seat {action.seat} is out of the game", Reason.SEAT_OUT)


def _check_time_up(s: State, action: TimeUp, exp: Expect) -> None:
    if exp.timer is None or action.name != exp.timer.name:
        raise _illegal(s, exp, action, "no such timer is running")


def _check_spoken(s: State, action: Action, exp: Expect) -> None:
    raise _illegal(s, exp, action, "nobody is speaking")  # (in a speech: taken in check)


def _check_hand_count(s: State, action: HandCount, exp: Expect) -> None:
    if not isinstance(exp, w.Vote):
        raise _illegal(s, exp, action, "no vote on a candidate is open")
    if s.phase.number == 1 and s.rules.first_voting == "breaking_to_themself":
        # 7.16.4: day 1's single leader leaves only if he voted for himself; a count
        # without seats cannot say whether he did
        raise _illegal(s, exp, action, "day 1 under first_voting = \"breaking_to_themself\" "
                       "takes the hands by seat (did the leader vote for himself?)",
                       Reason.SEATS_NEEDED)
    free = len(s.living) - len(s.round.voted) - s.round.anonymous
    if not 0 <= action.n <= free:
        raise _illegal(s, exp, action, f"only {free} seat(s) have not voted in this round",
                       Reason.TOO_MANY)


def _check_hands(s: State, action: Hands, exp: Expect) -> None:
    if not isinstance(exp, _VOTES):
        raise _illegal(s, exp, action, "no vote is open")
    for seat in action.seats:
        check_seat(s, seat, action)
        if seat in s.out:
            raise _illegal(s, exp, action, f"seat {seat} is out of the game and cannot vote",
                           Reason.SEAT_OUT)


def _check_shot(s: State, action: Shot, exp: Expect) -> None:
    if not isinstance(exp, w.Hunt):
        raise _illegal(s, exp, action, "the mafia is not hunting")
    check_seat(s, action.shooter, action)
    check_seat(s, action.target, action)
    if action.shooter not in s.black:
        raise _illegal(s, exp, action, f"seat {action.shooter} is not mafia")
    if action.shooter in s.out:
        raise _illegal(s, exp, action, f"seat {action.shooter} is out of the game",
                       Reason.SEAT_OUT)


def _check_night_act(s: State, action: Check | Kill | Save, exp: Expect) -> None:
    verb = VERBS[type(action)]
    if not isinstance(exp, w.NightAct) or verb not in exp.acts or action.role != exp.role:
        raise _illegal(s, exp, action, f"it is not the {action.role}'s {verb}")
    check_seat(s, action.target, action)
    if not actor_alive(s, action.role):
        raise _illegal(s, exp, action, f"the {action.role} is out of the game", Reason.SEAT_OUT)


def _check_floor(s: State, action: TakeFloor, exp: Expect) -> None:
    if not isinstance(exp, w.Floor):
        raise _illegal(s, exp, action, "nobody is asked to take the floor")
    check_seat(s, action.seat, action)
    if action.seat in s.out:
        raise _illegal(s, exp, action, f"seat {action.seat} is out of the game",
                       Reason.SEAT_OUT)
    if action.seat in s.today.spoken:
        raise _illegal(s, exp, action, f"seat {action.seat} has spoken today",
                       Reason.ALREADY_SPOKE)


def _check_thumbs(s: State, action: Thumbs | HandsUp, exp: Expect) -> None:
    """The thumbs after a speech, or the hands held up through the discussion."""
    if not isinstance(exp, w.PutUp if isinstance(action, Thumbs) else w.Extra):
        raise _illegal(s, exp, action, "it is not the time for it")
    if isinstance(action, Thumbs):
        check_seat(s, action.target, action)
    for seat in action.seats:
        check_seat(s, seat, action)
        if seat in s.out:
            raise _illegal(s, exp, action, f"seat {seat} is out of the game", Reason.SEAT_OUT)


def _check_best_move(s: State, action: BestMove, exp: Expect) -> None:
    if not s.rules.best_move:
        raise _illegal(s, exp, action, "the best_move option is off", Reason.NO_BEST_MOVE)
    if not isinstance(exp, w.Speech) or not _best_move_speech(s, exp):
        raise _illegal(s, exp, action, "only the first-night victim names a best move, at "
                                       "the last word", Reason.NO_BEST_MOVE)
    if s.best_move is not None:
        raise _illegal(s, exp, action, "the best move is named already", Reason.ALREADY_NAMED)
    victim = exp.seat
    for seat in action.seats:
        check_seat(s, seat, action)
    if len(action.seats) != 3 or len(set(action.seats)) != 3:
        raise _illegal(s, exp, action, "a best move names three different seats",
                       Reason.THREE_SEATS)
    if victim in action.seats:
        raise _illegal(s, exp, action, f"it names seat {victim}, the victim", Reason.OWN_SEAT)


def _best_move_speech(s: State, exp: Expect) -> bool:
    """The speech in progress is the last word of the first hunt's victim (night 2)."""
    victim = s.nights[0].shot if s.nights else None  # the first hunt's (night 2) hit
    return (isinstance(exp, w.Speech) and exp.speech == "last" and s.phase == Phase.day(2)
            and victim is not None and exp.seat == victim and not legacy_lost(s))


def legacy_lost(s: State) -> bool:
    """8.17.1: «Игрок не имеет права на “завещание” если по результату голосования в первый
    день игру покинули 2 или большее количество игроков» (a car crash of two, say)."""
    return bool(s.days) and sum(1 for x in s.days[0].out
                                if s.out[x].how in ("vote", "crash")) >= 2


def best_move_due(s: State, exp: Expect) -> bool:
    """The club's best move is asked now: the first-night victim's last word, none named."""
    return s.rules.best_move and s.best_move is None and _best_move_speech(s, exp)


def _check_on_record(s: State, action: OnRecord, exp: Expect) -> None:
    """6.7: the speaker leaves colours on record in a speech his club's variant takes; 6.8:
    at most ``on_record_count`` seats in one speech (0: no limit, as the judge app of
    MafiaRatings, which keeps every seat when its count is 0)."""
    if not isinstance(exp, w.Speech) or not _on_record_speech(s, exp):
        raise _illegal(s, exp, action, "no colours are left on record in this speech",
                       Reason.NO_ON_RECORD)
    if action.seat != exp.seat:
        raise _illegal(s, exp, action, f"seat {exp.seat} is speaking", Reason.NO_ON_RECORD)
    named = (*action.red, *action.black)
    for seat in named:
        check_seat(s, seat, action)
    if not named or len(set(named)) != len(named):
        raise InvalidActionError(f"{action}: each seat once, red or black", Reason.BAD_REQUEST)
    if exp.seat in named:  # the colours of the others: his own is no guess
        raise _illegal(s, exp, action, f"it names seat {exp.seat}, the speaker", Reason.OWN_SEAT)
    left = _speech_record(s, exp)
    seats = set(left.colours if left is not None else ()) | set(named)
    limit = s.rules.on_record_count
    if limit and len(seats) > limit:
        raise _illegal(s, exp, action, f"at most {limit} seat(s) on record in a speech",
                       Reason.TOO_MANY_COLOURS)


def _on_record_speech(s: State, exp: w.Speech) -> bool:
    """Whether the variant of 6.7 takes colours in the speech ``exp``: 6.7.2 a night
    victim's last word; 6.7.3 any last word (the night's victim, the voted out); 6.7.4 any
    speech but a tie's (the re-vote's speeches); 6.7.5 any."""
    variant = s.rules.on_record
    if variant == "none":
        return False
    if exp.speech == "last":
        left = s.out.get(exp.seat)
        night = left is not None and left.how in s.rules.kill_how.values()
        return variant != "night_killed" or night
    if variant in ("night_killed", "killed"):
        return False
    return variant == "all" or exp.speech not in ("tie", "justify")


def _speech_record(s: State, exp: w.Speech) -> OnRecordRecord | None:
    """The record of the speech in progress, if it left colours already."""
    last = s.on_record[-1] if s.on_record else None
    return last if last is not None and last.serial == exp.serial else None


def on_record_due(s: State, exp: Expect) -> bool:
    """The speech in progress takes colours on record (see :func:`_check_on_record`)."""
    return isinstance(exp, w.Speech) and _on_record_speech(s, exp)


def _check_mark(s: State, action: Mark, exp: Expect) -> None:
    """The host's marks come once the game is over (:mod:`narrator.engine.marks`)."""
    if not isinstance(exp, w.Over):
        raise _illegal(s, exp, action, "the host's marks come once the game is over",
                       Reason.NOT_OVER)
    check_seat(s, action.seat, action)
    problem = mark_problem(s.rules, action)
    if problem is not None:
        raise _illegal(s, exp, action, *problem)


#: each action's check, by its exact type (see :func:`check`)
_CHECKS: dict[type, Callable[[State, Any, Expect], None]] = {
    Foul: _check_aside, Remove: _check_aside, TechFoul: _check_tech_foul,
    TimeUp: _check_time_up,
    **dict.fromkeys(_SPOKEN, _check_spoken),
    HandCount: _check_hand_count,
    Hands: _check_hands,
    Shot: _check_shot,
    **dict.fromkeys(NIGHT_ACTS, _check_night_act),
    TakeFloor: _check_floor,
    Thumbs: _check_thumbs, HandsUp: _check_thumbs,
    BestMove: _check_best_move,
    OnRecord: _check_on_record,
    Mark: _check_mark,
}


def actor_alive(s: State, role: Actor | str) -> bool:
    """Whether ``role`` (a card, or the mafia: any of the mafia's cards) is at the table. A
    seat killed this night still is (2.1.2: nobody knows the result until day): a checker shot
    in the hunt still checks. ``role`` may come as its spelling (an InvalidActionError for a
    word that is no actor)."""
    try:
        actor = Actor(role)
    except ValueError:
        raise InvalidActionError(f"no role is called {role!r}") from None
    if actor.is_team:
        return any(s.at_table(x) for x in s.black)
    seat = s.seat_of(actor.card)
    return seat is not None and s.at_table(seat)


def acted(s: State, step: int, role: Actor | str) -> RoleAct | None:
    """What ``role`` did at step ``step``, the step the game waits at (None: nothing yet)."""
    for act in reversed(s.night_acts):
        if act.step != step:
            return None
        if act.role == role:
            return act
    return None


def refusal(s: State, exp: Expect, action: Action) -> Reason | None:
    """Why the game does not take ``action`` at ``exp``, or None when it does: the reason of
    the error :func:`check` would raise (the action means nothing now), else the reason code
    the flow's :class:`~narrator.engine.events.Refused` event would carry (the rules foresee
    the input and refuse it in the protocol). Every front end asks here."""
    try:
        check(s, exp, action)
    except EngineError as e:
        return e.reason
    return step_refusal(s, exp, action)


def step_refusal(s: State, exp: Expect, action: Action) -> Reason | None:
    """The rules' refusal of an input :func:`check` passes (the Refused event's reason)."""
    if isinstance(exp, w.Speech) and isinstance(action, _SPOKEN):
        return _speech_refusal(s, exp, action)
    if isinstance(action, NIGHT_ACTS) and isinstance(exp, w.NightAct):
        return _act_refusal(s, exp, action)
    if isinstance(action, Hands) and isinstance(exp, _VOTES):
        taken = s.round.voted if isinstance(exp, w.Vote) else s.presses.hands
        return Reason.ALREADY_VOTED if any(x in taken for x in action.seats) else None
    if isinstance(action, Thumbs) and isinstance(exp, w.PutUp):
        reason = accusation_refusal(s, exp.seat, action.target)
        if reason is not None:
            return reason
        thumbs = s.presses.thumbs
        return Reason.ALREADY_VOTED if any(x in thumbs for x in action.seats) else None
    if isinstance(action, HandsUp) and isinstance(exp, w.Extra):
        raised = s.presses.raised
        return Reason.ALREADY_RAISED if any(x in raised for x in action.seats) else None
    return None


def _speech_refusal(s: State, exp: w.Speech, action: Action) -> Reason | None:
    if isinstance(action, Nominate):
        return nomination_refusal(s, exp.speech, action.target)
    if isinstance(action, Withdraw):
        return withdrawal_refusal(s, exp.speech, action.target)
    if isinstance(action, Malformed):
        return Reason(action.reason)  # the grammar's: the phrase's form
    return None


def nomination_refusal(s: State, kind: SpeechKind, target: int) -> Reason | None:
    """Why the speaker of a ``kind`` speech may not nominate ``target`` now (2.3.1, 2.3)."""
    if kind != "day":
        return Reason.NOT_DISCUSSION  # 2.3.1: nominations are made in the discussion
    if not s.rules.nominations:
        return Reason.NO_NOMINATIONS  # the ruleset votes otherwise
    if not 1 <= target <= s.seats:
        return Reason.NOT_A_SEAT
    if target in s.out:
        return Reason.TARGET_OUT
    standing = s.presses.standing
    if standing is not None and (standing == target or s.rules.withdraw != "auto"):
        return Reason.ALREADY_NOMINATED  # 2.3, 7.5.1, 7.5.3: one candidate per speech
    if not s.rules.repeat_nomination and any(t == target for _, t in s.nominations):
        # 7.5's examples: «номер 3 принят (это означает, что 2 уже выставлен другими
        # игроками)»: the host is silent and the speaker may nominate another
        return Reason.ALREADY_STANDING
    return None


def withdrawal_refusal(s: State, kind: SpeechKind, target: int) -> Reason | None:
    """Why the speaker may not withdraw ``target`` now: 2.3.2 (7.5.1, 7.5.2), only his own
    nomination; 7.5.3, none."""
    if kind != "day":
        return Reason.NOT_DISCUSSION
    if not s.rules.nominations:
        return Reason.NO_NOMINATIONS
    if s.rules.withdraw == "no":
        return Reason.NO_WITHDRAWAL  # 7.5.3: «Отозвать кандидатуру невозможно»
    if s.presses.standing is None or s.presses.standing != target:
        return Reason.NOT_OWN_NOMINATION
    return None


def _act_refusal(s: State, exp: w.NightAct, action: Check | Kill | Save) -> Reason | None:
    """A role's night act: one check a night (2.1.3), one act a step, a kill of a seat in
    the game, a save as the ruleset takes it."""
    if isinstance(action, Check) and exp.checks:
        done = acted(s, exp.serial, action.role)
        if done is not None and done.act is Act.CHECK:
            return Reason.ALREADY_CHECKED  # 2.1.3: one check a night
        return check_refusal(s, action)
    if s.night.acted:
        return Reason.ALREADY_ACTED
    if isinstance(action, Kill) and action.target in s.out:
        return Reason.TARGET_OUT
    if isinstance(action, Check):
        return check_refusal(s, action)
    if isinstance(action, Save):
        reason = s.rules.save(action.target, s.living_victims(), s.saved_seats())[1]
        if reason is None and action.target in s.out:
            return Reason.TARGET_OUT  # nobody heals a seat out of the game (amateur's nurse)
        return reason
    return None


def check_refusal(s: State, action: Check) -> Reason | None:
    """Why the ruleset refuses the seat ``action`` checks (e.g. amateur's commissar: not
    himself, not a seat the table knows is out); None when any seat may be checked."""
    return s.rules.check_refusal(s.seat_of(Role(action.role)), action.target, public_out(s))


def accusation_refusal(s: State, speaker: int, target: int) -> Reason | None:
    """Why ``speaker`` may not accuse ``target`` for the thumbs after his speech (amateur;
    the text is silent): not a seat, not himself, not a seat out."""
    if not 1 <= target <= s.seats:
        return Reason.NOT_A_SEAT
    if target == speaker:
        return Reason.OWN_SEAT
    if target in s.out:
        return Reason.TARGET_OUT
    return None


def public_out(s: State) -> dict[int, Exit]:
    """The seats out as the table knows it, and how: a night's victim only from the day that
    announces it (2.1.2), and as "shot" — the morning names the victims, not who killed them
    (the mafia, the maniac, the sheriff's shot)."""
    days = {d.number for d in s.days}
    night_kills = set(s.rules.kill_how.values())
    out: dict[int, Exit] = {}
    for seat, info in s.out.items():
        how = info.how
        if how in night_kills:
            if s.winner is None and info.night not in days:
                continue
            how = Exit.SHOT
        out[seat] = how
    return out
