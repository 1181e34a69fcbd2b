"""What each screen may see: the operator's view and one view per seat pad, as typed values
(:mod:`narrator.console.view`).

Built on the loop's thread from the game, the host's timer and the console's own state. The
rule for secrets is applied here, in one place:

- the operator view holds only what the whole table knows: names, who is out *as announced*
  (a night's victim only once the day breaks), fouls, the phase and its timer, nominations,
  votes, the phrases spoken; the maniac's side once the narrator has announced it; who has
  spoken in a day by raised hands, the one a speaker accuses and the day's thumbs, the hands up
  for more time (all of it seen or heard by the whole table). No roles, no shots, no kills, no
  saves, no check results, not even whose night step it is beyond the phase the narrator says;
- a pad holds, besides that, its own card and its own night steps (a mafioso's presses on the
  count; the don's, the sheriff's or the commissar's checks with their answers; the mafia's
  kill with the partners' points, the sheriff's shot, the maniac's kill, the doctor's stretcher
  and save, the nurse's heal) — and none of it once the seat is out of the game as the table
  knows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, assert_never

from narrator.console.settings import ConsoleSettings
from narrator.console.tokens import OPERATOR, Who
from narrator.console.view import (
    ActDone,
    ActPad,
    Aside,
    CardPad,
    CardsWaiting,
    CardView,
    CheckAnswer,
    CheckDone,
    CheckPad,
    Common,
    ExtraPad,
    FloorPad,
    HuntPad,
    MarksForm,
    MarkView,
    OperatorView,
    PadStep,
    PadView,
    PhaseView,
    PutUpPad,
    SpeechPad,
    SpeechPhase,
    Tally,
    TimerView,
    View,
    VotePad,
    VotePhase,
)
from narrator.engine import (
    MARK_TITLES,
    Act,
    Actor,
    Check,
    Foul,
    Game,
    Mark,
    Nominate,
    Remove,
    Role,
    TechFoul,
    TimeUp,
    Withdraw,
)
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.desk import Desk
from narrator.host.host import Host


class ConsoleTable(Protocol):
    """What the views read of the console's table (:class:`narrator.console.table.ConsoleTable`);
    the step's presses are the desk's (:class:`narrator.host.desk.Desk`)."""

    host: Host
    game: Game
    settings: ConsoleSettings
    desk: Desk
    said: Callable[[], list[str]]

    @property
    def dealing(self) -> bool: ...

    def waiting_for_cards(self) -> list[int]: ...

    def checker_role(self, seat: int) -> Actor | None: ...

    def actor(self, seat: int) -> Actor | None: ...


SAID_LINES = 6


def vote_candidate(exp: w.Expect) -> int | None:
    """The candidate of the voting window open now (None: the car crash, or no vote)."""
    return exp.candidate if isinstance(exp, w.Vote) else None


def phase(table: ConsoleTable) -> PhaseView:
    """The step the game is in, as everybody at the table hears it announced."""
    game = table.game
    exp = game.expect
    lang: w.Lang = "uk" if table.settings.lang == "uk" else "ru"
    # (serial: a new step, a new number — a pad's answer to a press belongs to its step)
    at: dict[str, Any] = {"time": game.phase.time, "number": game.phase.number, "label": exp.label(lang),
          "serial": exp.serial}
    match exp:
        case w.Over():
            return PhaseView(**at, step="over")
        case w.Speech():
            return SpeechPhase(**at, step="speech", seat=exp.seat, speech=exp.speech)
        case w.Vote():
            return VotePhase(**at, step=exp.tag, candidate=exp.candidate,
                             candidates=tuple(game.voting_candidates), round=exp.round)
        case w.Crash():
            return VotePhase(**at, step=exp.tag, candidate=None,
                             candidates=tuple(game.voting_candidates), round=None)
        case w.NightAct() if exp.checks:
            return PhaseView(**at, step=f"{exp.role}_check")
        case w.Pause() | w.Deal() | w.Hunt() | w.NightAct() | w.Floor() | w.PutUp() | w.Extra():
            return PhaseView(**at, step=exp.timer.name if exp.timer is not None else exp.tag)
        case _:
            assert_never(exp)


def timer(table: ConsoleTable) -> TimerView | None:
    """The running timer as deadlines on the game's clock: its name, length, when it starts
    (after its announcement) and ends; ``held`` when it waits for inputs. A view does not
    change while the time runs: each message carries the clock's ``now`` when it is sent, so a
    page that connects at any moment counts down the true time left itself."""
    host = table.host
    t = host.timer
    exp = table.game.expect
    if t is None or exp.timer is None or table.game.is_over:
        return None
    if table.dealing:
        # the deal waits for every card: no time runs, and a pause sign would read as a game
        # that stands still — no timer at all (the cards' panel says what it waits for)
        return None
    held = isinstance(exp, w.Vote | w.Crash) and table.settings.hand_votes
    return TimerView(name=t.name, total=t.seconds, starts=round(host.timer_started, 3),
                     ends=round(host.timer_started + t.seconds, 3), held=held)


def _candidates(game: Game) -> tuple[int, ...]:
    """The candidates every screen shows: the day's nominated through the speeches, the
    voted on through the vote."""
    exp = game.expect
    match exp:
        case w.Speech():
            return tuple(game.candidates)
        case w.Vote() | w.Crash():
            return tuple(game.voting_candidates)
        case (w.Pause() | w.Deal() | w.Hunt() | w.NightAct() | w.Floor() | w.PutUp() | w.Extra()
              | w.Over()):
            return ()
        case _:
            assert_never(exp)


def common(table: ConsoleTable) -> Common:
    """What every screen shows (built once for all of them)."""
    game = table.game
    exp = game.expect
    out = game.public_out()
    candidates = _candidates(game)
    return Common(
        lang=table.settings.lang,
        seats=game.seats,
        # the game stands still, and why (the journal cannot be written, the sound is gone)
        paused=table.host.pause_reason,
        phase=phase(table),
        timer=timer(table),
        living=tuple(s for s in range(1, game.seats + 1) if s not in out),
        out={str(s): how for s, how in sorted(out.items())},
        candidates=tuple(candidates),
        winner=game.winner,
        # the maniac's side: announced aloud at the end of the first night
        declared=game.declared,
        # a day by raised hands, as the whole table sees it: who has spoken, the one accused,
        # the thumbs, the hands up for more time (none of it in other days)
        spoken=(tuple(sorted(game.spoken)) if isinstance(exp, w.Floor)
                or (isinstance(exp, w.Speech | w.PutUp) and game.spoken) else None),
        accused=table.desk.accused,
        thumbs=len(table.desk.thumbs) if isinstance(exp, w.PutUp) else None,
        put_up={str(s): n for s, n in game.put_up.items()} or None,
        raised=tuple(table.desk.raised) if isinstance(exp, w.Extra) else None,
    )


def operator_view(table: ConsoleTable, shared: Common | None = None) -> OperatorView:
    """The operator's screen: the table as everybody knows it, and the operator's controls."""
    game = table.game
    shared = shared or common(table)
    exp = game.expect
    # the hands raised so far in a pad vote: a show of hands the whole table sees
    # — a window's own candidate's hands (the engine's round), never the round's others
    tally = None
    if isinstance(exp, w.Vote | w.Crash) and not table.settings.hand_votes:
        hands = (game.round_hands.get(exp.candidate, ()) if isinstance(exp, w.Vote)
                 else tuple(sorted(game.step_hands)))
        tally = Tally(candidate=vote_candidate(exp), hands=hands, abstaining=game.abstaining)
    return OperatorView(
        common=shared,
        tally=tally,
        fouls={str(s): n for s, n in sorted(game.fouls.items())},
        nominations=(tuple(game.nominations) if isinstance(exp, w.Speech) else ()),
        cards=(CardsWaiting(waiting=tuple(table.waiting_for_cards()),
                            skipped=tuple(sorted(table.desk.skipped)))
               if table.dealing else None),
        hand_votes=table.settings.hand_votes,
        hands_max=_hands_max(table),
        aside=_aside(table, shared.out),
        can_undo=table.desk.undoable() is not None,
        said=tuple(table.said()[-SAID_LINES:]),
        marks=marks_form(game),
        can_end=_can_end(table),
        clock=_clock_button(table),
        to_last=game.abstaining if table.settings.hand_votes else 0,
    )


#: the host's pause cause the operator's button sets (the sound's and the journal's are others)
OPERATOR_PAUSE = "operator"
#: why the game stands still, as every screen says it
PAUSE_WHY = {"ru": "ведущий остановил время", "uk": "ведучий зупинив час"}


def _can_end(table: ConsoleTable) -> bool:
    """The engine takes the step's time ending now (the deal ends with its cards only)."""
    timer = table.game.expect.timer
    return (timer is not None and not table.dealing and not table.host.paused
            and table.game.refusal(TimeUp(timer.name)) is None)


def _clock_button(table: ConsoleTable) -> str | None:
    """«resume» while the operator's pause holds the game; «pause» while a timer runs."""
    host = table.host
    if OPERATOR_PAUSE in host.pauses:
        return "resume"
    if host.paused or table.game.is_over or host.timer is None or table.dealing:
        return None
    return "pause"


def marks_form(game: Game) -> MarksForm | None:
    """The host's marks' form: where the engine takes a mark now (once the game is over)."""
    if game.refusal(Mark(1)) is not None:
        return None
    given = tuple(MarkView(seat=m.seat, points=m.points, titles=m.titles, comment=m.comment)
                  for _, m in sorted(game.marks.items()))
    return MarksForm(bonus_max=game.rules.bonus_max, bonus_step=game.rules.bonus_step,
                     titles=MARK_TITLES, given=given)


def _hands_max(table: ConsoleTable) -> int | None:
    """The most hands the operator may count in the window open now (tables that vote by
    hand): the desk's bound, the engine's — the seats yet to vote in the round (2.4)."""
    game = table.game
    if not table.settings.hand_votes or not isinstance(game.expect, w.Vote | w.Crash):
        return None
    for count in range(len(game.living), 0, -1):
        try:
            table.desk.hand_count(count)
        except NarratorError:
            continue
        return count
    return 0


def _aside(table: ConsoleTable, out: Mapping[str, str]) -> Aside:
    """The seats the operator's foul and removal buttons are for: those the engine takes a
    foul or a removal for now (1.4: a foul during one's own last word counts). A seat the
    table still sees at it keeps its buttons whatever the engine says (the night's victim
    before the day: a missing button would tell the kill)."""
    game = table.game
    if game.is_over:
        return Aside(foul=(), remove=())
    seen = [s for s in range(1, game.seats + 1) if str(s) not in out]
    tech: tuple[int, ...] = ()
    if game.rules.tech_fouls == "yes":  # 9.6.2: the club's technical fouls, as a foul's
        tech = tuple(sorted({*game.seats_taken(TechFoul), *seen}))
    return Aside(foul=tuple(sorted({*game.seats_taken(Foul), *seen})),
                 remove=tuple(sorted({*game.seats_taken(Remove), *seen})), tech_foul=tech)


def pad_view(table: ConsoleTable, seat: int, shared: Common | None = None) -> PadView:
    """Seat ``seat``'s pad: the public table, and its own secrets while it is in the game."""
    game = table.game
    exp = game.expect
    shared = shared or common(table)
    gone = str(seat) in shared.out
    if not gone:
        role = game.roles[seat]
        return PadView(common=shared, seat=seat, gone=False,
                       card=CardView(role=role, team=game.team(seat)),
                       checks=_checks(game, role), step=_step(table, seat, role))
    last_word = (_speech_step(table, seat, exp)  # a last word: «Спасибо» only
                 if isinstance(exp, w.Speech) and exp.seat == seat else None)
    return PadView(common=shared, seat=seat, gone=True, card=None, checks=(), step=last_word)


def _checks(game: Game, role: Role) -> tuple[CheckAnswer, ...]:
    if role not in game.rules.checkers:
        return ()
    return tuple(CheckAnswer(night=a.night, target=a.target,
                             says=game.check_says(a.role, bool(a.result)))
                 for a in game.night_acts if a.role == Actor.of(role) and a.act is Act.CHECK)


def _speech_step(table: ConsoleTable, seat: int, exp: w.Speech) -> SpeechPad:
    game = table.game
    accuses = exp.accuses
    seats = range(1, game.seats + 1)
    return SpeechPad(
        speech=exp.speech, standing=game.standing, nominate=exp.nominates, accuse=accuses,
        accused=table.desk.accused if accuses else None,
        # the seats the engine takes his nomination of (none once one stands)
        nominable=tuple(game.seats_taken(Nominate)) if exp.nominates else None,
        withdraws=(False if game.standing is not None
                   and game.refusal(Withdraw(game.standing)) is not None else None),
        # the club's best move: three seats, the first victim's own
        best_move=tuple(t for t in seats if t != seat) if game.asks_best_move else None,
        # the club's colours on record (6.7), where this speech takes them
        on_record=tuple(t for t in seats if t != seat) if game.takes_on_record else None,
        # the seats the engine lets him accuse: not himself, none that is out
        accusable=(tuple(s for s in seats if game.accusation_refusal(seat, s) is None)
                   if accuses else None))


def _checkable(game: Game, role: Actor) -> tuple[int, ...]:
    """The seats ``role`` may check now (the engine's refusals left out: amateur's commissar
    neither himself nor a seat known out; crime-time's checkers any seat, 2.1.3)."""
    return tuple(s for s in range(1, game.seats + 1)
                 if game.check_refusal(Check(role, s)) is None)


def act_done(game: Game, role: Actor) -> ActDone | None:
    """What ``role`` did in this step (None: nothing yet), as its own pad may see it."""
    exp = game.expect
    done = game.acted(role) if isinstance(exp, w.NightAct) and not exp.checks else None
    if done is None:
        return None
    if done.act is Act.CHECK:
        return ActDone(act=done.act, target=done.target,
                       says=game.check_says(role, bool(done.result)))
    if done.act is Act.SAVE and game.rules.shows_victims:
        # (the nurse guesses: whether she was right is not told)
        return ActDone(act=done.act, target=done.target, saved=done.saved)
    return ActDone(act=done.act, target=done.target)


def _act_step(table: ConsoleTable, seat: int, role: Actor, exp: w.NightAct) -> ActPad:
    """A role's night act on its own pad: the mafia's points (to the mafia alone), the
    stretcher (to the doctor alone), what was done with its answer."""
    game = table.game
    mafia = role.is_team
    victims = (tuple(game.victims) if Act.SAVE in exp.acts and game.rules.shows_victims
               else None)
    return ActPad(
        role=role, acts=tuple(exp.acts), done=act_done(game, role),
        checkable=_checkable(game, role) if Act.CHECK in exp.acts else None,
        decides=seat in exp.deciders if mafia else None,
        # without a don the kill is the mafia's together: every one of them on one seat
        together=len(exp.deciders) > 1 if mafia else None,
        points=({str(s): t for s, t in sorted(table.desk.points.items())} if mafia else None),
        victims=victims, targets=act_targets(game, role, exp, victims))


def act_targets(game: Game, role: Actor, exp: w.NightAct,
                victims: tuple[int, ...] | None) -> dict[str, tuple[int, ...]]:
    """The seats a night act may pick, per act of the step: a check the seats the engine
    lets ``role`` check (2.1.3); a save where the rules show the stretcher its victims; any
    other act the seats at the table as the table knows it (a night's victim not yet told
    stays on the grid: its absence would tell the kill)."""
    public = game.public_out()
    seen = tuple(s for s in range(1, game.seats + 1) if s not in public)
    return {act.value: (_checkable(game, role) if act is Act.CHECK
                        else victims if act is Act.SAVE and victims is not None else seen)
            for act in exp.acts}


def _hunt_step(table: ConsoleTable, seat: int, exp: w.Hunt) -> HuntPad:
    """When each number begins to count for a press: a press counts for the number spoken
    ``hunt_grace`` before it arrives, so what the pad shows is what it takes."""
    started, grace = table.host.timer_started, table.settings.hunt_grace
    begins = started + grace
    return HuntPad(numbers=tuple(round(begins + i * exp.pace, 3) for i in range(exp.count)),
                   ends=round(started + exp.count * exp.pace + grace, 3),
                   pressed=tuple(table.desk.hunt_shots.get(seat, ())))


def _check_step(table: ConsoleTable, seat: int) -> CheckPad | None:
    game = table.game
    role = table.checker_role(seat)
    if role is None:
        return None
    done = game.acted(role)
    return CheckPad(role=role, checkable=_checkable(game, role),
                    done=None if done is None else CheckDone(
                        target=done.target, says=game.check_says(role, bool(done.result))))


def _step(table: ConsoleTable, seat: int, role: Role) -> PadStep | None:
    """What this seat can do now (None: nothing)."""
    exp = table.game.expect
    desk = table.desk
    if table.dealing:
        return CardPad(seen=seat in desk.seen or seat in desk.skipped)
    match exp:
        case w.Hunt():  # the mafia at the table shoot (2.1.2)
            return _hunt_step(table, seat, exp) if seat in exp.seats else None
        case w.NightAct() if exp.checks:
            return _check_step(table, seat)
        case w.NightAct():
            acting = table.actor(seat)
            return None if acting is None else _act_step(table, seat, acting, exp)
        case w.Vote() | w.Crash():
            if table.settings.hand_votes:
                return None
            return VotePad(candidate=vote_candidate(exp), voted=seat in desk.hands)
        case w.Speech():
            return _speech_step(table, seat, exp) if exp.seat == seat else None
        case w.Floor():  # the seats yet to speak today raise a hand
            return FloorPad(spoken=seat not in exp.seats)
        case w.PutUp():
            accused = desk.accused
            return None if accused is None else PutUpPad(accused=accused,
                                                         given=seat in desk.thumbs)
        case w.Extra():
            return ExtraPad(raised=seat in desk.raised)
        case w.Pause() | w.Deal() | w.Over():
            return None
        case _:
            assert_never(exp)


def all_views(table: ConsoleTable) -> dict[Who, View]:
    """Every identity's view: the operator and each seat (what they share made once)."""
    shared = common(table)
    views: dict[Who, View] = {OPERATOR: operator_view(table, shared)}
    for seat in range(1, table.game.seats + 1):
        views[seat] = pad_view(table, seat, shared)
    return views
