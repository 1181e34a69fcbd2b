"""The state of a game between two actions, and the moves every step makes on it.

:class:`State` is what every ruleset plays with: the cards, the seats out and how, the fouls,
the nominations standing, the phase, the record (the days, the nights, the night acts, the
refusals) and the winner. What a kind of step keeps lives with that step, made when it runs:
the night's victims and saves (:class:`Night`), the day's order of speakers and the thumbs
that put seats up (:class:`Today`, amateur's), a round's hands (:class:`Round`), the presses
of the step in progress (:class:`Presses`: the hunt's shots, the car crash's hands, a put-up
window's thumbs, the hands held up — vrn's —, the speaker's standing nomination). What a
ruleset remembers across the game is read back from the record: the seats saved (vrn: each at
most once) and those who have justified themselves.

The flow (:mod:`narrator.engine.flow`) runs the steps on a state; the game
(:class:`~narrator.engine.game.Game`) owns one and makes a new one to replay its history.
"""

from __future__ import annotations

from narrator.engine import events as ev
from narrator.engine.actions import Mark
from narrator.engine.record import (
    BestMoveRecord,
    DayRecord,
    Departure,
    NightRecord,
    OnRecordRecord,
    Refusal,
    RoleAct,
)
from narrator.engine.rules import Rules
from narrator.engine.types import Act, Actor, Exit, Phase, Role, SpeechKind, Team
from narrator.reasons import Reason

__all__ = ["GameDecided", "Night", "Presses", "Round", "State", "Today"]


class GameDecided(Exception):
    """Raised through the flow when a seat's leaving decides the game (1.2, 1.3)."""


class Night:
    """The night in progress (or the last one, through the day that follows it)."""

    __slots__ = ("acted", "out", "saved", "saved_any", "victims")

    def __init__(self) -> None:
        #: the night's kills: (seat, how), in order; a seat may be killed twice
        self.victims: list[tuple[int, Exit]] = []
        self.saved: set[int] = set()  # the seats saved tonight
        self.acted = False  # the role awake has acted in its step
        #: set when the night resolves: the seats out at its end, and whether a victim was
        #: saved (the day's report tells them)
        self.out: tuple[int, ...] = ()
        self.saved_any = False


class Today:
    """The day in progress: who spoke in what order, and what only some days keep."""

    __slots__ = ("order", "put_up", "spoken")

    def __init__(self) -> None:
        self.order: list[int] = []  # today's speakers in order (the hands held up speak so)
        #: the seats that have spoken, while speeches go by raised hands (amateur)
        self.spoken: set[int] = set()
        #: the thumbs that put each seat up today, in order of first put-up (amateur)
        self.put_up: dict[int, int] = {}


class Round:
    """One round of a vote (2.4): its candidates, their counts and the hands given."""

    __slots__ = ("anonymous", "candidates", "counts", "voted", "voters")

    def __init__(self, candidates: tuple[int, ...]) -> None:
        self.candidates = candidates
        self.counts: dict[int, int] = dict.fromkeys(candidates, 0)
        self.voted: set[int] = set()  # 2.4: one hand a round, a second is refused
        #: the hands given by seat, by candidate (7.16.4: did the leader vote for himself)
        self.voters: dict[int, set[int]] = {c: set() for c in candidates}
        self.anonymous = 0  # hands counted without seats (HandCount)


class Presses:
    """The presses the step in progress has taken; each kind of step uses its own."""

    __slots__ = ("hands", "raised", "shots", "standing", "thumbs")

    def __init__(self) -> None:
        self.shots: dict[int, set[int]] = {}  # the hunt's shots, by shooter (2.1.2)
        self.hands: set[int] = set()  # the car crash's hands (2.4.2)
        self.thumbs: set[int] = set()  # a put-up window's thumbs
        self.raised: list[int] = []  # the hands held up for 30 s more (vrn)
        self.standing: int | None = None  # the speaker's standing nomination (2.3)


class State:
    """One game's state under ``rules``: see the module's docstring."""

    def __init__(self, rules: Rules, seats: int, roles: dict[int, Role], dealt: dict[str, str],
                 black: frozenset[int], side_black: frozenset[int],
                 speech_lengths: dict[SpeechKind, tuple[float, float | None]]) -> None:
        self.rules = rules
        self.seats = seats
        self.roles = roles
        #: the first seat of each card (a check step and its refusals ask for it)
        self._seat_of: dict[Role, int] = {}
        for seat, role in roles.items():
            self._seat_of.setdefault(role, seat)
        self.dealt = dealt
        self.black = black  # the mafia's cards: the seats that hunt (2.1.2)
        self.side_black = side_black  # the seats playing for the mafia (a maniac may)
        self.speech_lengths = speech_lengths  # each kind of speech's length and warning
        self.out: dict[int, Departure] = {}
        self._living: list[int] | None = None  # cache of ``living``, reset when a seat leaves
        self.fouls: dict[int, int] = {}
        #: sport fouls: a 3rd foul costs the next discussion speech or cuts it (9.5.1, 9.5.2)
        self.muted: set[int] = set()
        self.tech_fouls: dict[int, int] = {}  # 9.6.2: counted apart from the fouls
        self.refused: list[Refusal] = []
        self.days: list[DayRecord] = []
        self.nights: list[NightRecord] = []
        #: every night act the game took, in order (typed: no front end reads them back from
        #: the protocol's keys)
        self.night_acts: list[RoleAct] = []
        self.best_move: BestMoveRecord | None = None
        self.on_record: list[OnRecordRecord] = []  # 6.7: colours left on record, per speech
        self.marks: dict[int, Mark] = {}  # the host's, once the game is over: seat → mark
        self.winner: Team | None = None
        #: 8.19.1: the winner fixed when a seat's leaving decided the game, declared once the
        #: last word of the last one out ends (None: undecided, or declared at once)
        self.final: Team | None = None
        self.phase = Phase.night(1)  # the night or day in progress
        self.nominations: list[tuple[int, int]] = []  # standing (nominator, target), in order
        self.removal_pending = False  # 2.4.3: a removal since the last completed vote
        #: seats out of the game but still at the table: shot in the hunt, voted out, or in the
        #: car crash, until their last word ends (1.4; 2.1.2: the result is told at day)
        self.last_word_due: set[int] = set()
        self.plays_on_said = False  # PlaysOn was said (it is said once)
        self.night = Night()
        self.today = Today()
        self.round = Round(())  # the round voted last (its candidates stay shown)
        self.presses = Presses()
        #: the events of the action being applied (the game gives each action a new list)
        self.events: list[ev.Event] = []
        self.serials = 0  # the waits so far: the next one's serial

    # -- the table -----------------------------------------------------------------------------

    @property
    def living(self) -> list[int]:
        """Seats still in the game, in seat order."""
        if self._living is None:
            self._living = [s for s in range(1, self.seats + 1) if s not in self.out]
        return self._living

    def at_table(self, seat: int) -> bool:
        """In the game, or out but not yet past the last word (1.4)."""
        return (1 <= seat <= self.seats and seat not in self.out) or (
            seat in self.last_word_due and self.winner is None)

    def seat_of(self, role: Role) -> int | None:
        """The seat holding ``role`` (the first, for a card dealt more than once)."""
        return self._seat_of.get(role)

    @property
    def candidates(self) -> tuple[int, ...]:
        """Standing candidates in order of first nomination (2.4)."""
        seen: dict[int, None] = {}
        for _, target in self.nominations:
            seen.setdefault(target, None)
        return tuple(seen)

    def card_alive(self, role: Role) -> bool:
        return any(r is role and s not in self.out for s, r in self.roles.items())

    def actors(self, role: Actor) -> tuple[int, ...]:
        """The seats that act for ``role`` at night: a seat shot tonight still does (2.1.2); a
        check by a checker out of the game is not waited for (its time runs out in full)."""
        if role.is_team:
            return tuple(s for s in sorted(self.black) if self.at_table(s))
        seat = self.seat_of(role.card)
        return (seat,) if seat is not None and self.at_table(seat) else ()

    def deciders(self, role: Actor) -> tuple[int, ...]:
        """Whose choice ``role``'s act is (see :attr:`~narrator.engine.waits.NightAct.
        deciders`): the ruleset's, for the mafia; the acting seats, for any other role."""
        seats = self.actors(role)
        return self.rules.kill_deciders(seats, self.roles) if role.is_team else seats

    def black_at_table(self) -> tuple[int, ...]:
        """The mafia in the game, in seat order: the hunt's shooters (2.1.2)."""
        return tuple(s for s in self.living if s in self.black)

    def team(self, seat: int) -> Team:
        return Team.BLACK if seat in self.side_black else Team.RED

    def has_last_word(self, seat: int) -> bool:
        return self.rules.last_word(self.roles[seat], self.team(seat), self.out[seat].how)

    def living_victims(self) -> tuple[int, ...]:
        """The night's victims so far, each once, in the night's order."""
        seen: dict[int, None] = {}
        for seat, _ in self.night.victims:
            if seat not in self.out:
                seen.setdefault(seat, None)
        return tuple(seen)

    def saved_seats(self) -> frozenset[int]:
        """Every seat saved so far (vrn: each at most once), from the night acts."""
        return frozenset(a.saved for a in self.night_acts
                         if a.act is Act.SAVE and a.saved is not None)

    def justified(self) -> frozenset[int]:
        """The seats that have used their justification, from the days' records."""
        return frozenset(s for d in self.days for s in d.justified)

    # -- what every step does ------------------------------------------------------------------

    def refuse(self, seat: int | None, kind: str, target: int | None, reason: Reason) -> None:
        self.refused.append(Refusal(self.phase, seat, kind, target, reason))
        self.events.append(ev.Refused(seat, kind, target, reason))

    def note_act(self, step: int, role: Actor, act: Act, target: int,
                 *, result: bool | None = None, saved: int | None = None) -> None:
        self.night_acts.append(RoleAct(step, self.nights[-1].number, role, act, target,
                                        result, saved))

    def foul(self, seat: int) -> bool:
        """Count a foul; True when it removes the player (the 4th, with sport fouls)."""
        count = self.fouls[seat] = self.fouls.get(seat, 0) + 1
        self.events.append(ev.Fouled(seat, count))
        if self.rules.fouls != "sport" or seat in self.out:
            return False
        if count == 3 and self.rules.three_fouls != "no":  # 9.5.3: no penalty
            self.muted.add(seat)  # 9.5.1, 9.5.2: the next discussion speech, once
        return count == 4

    def tech_foul(self, seat: int) -> bool:
        """9.6.2: count a technical foul; True when it removes the player (the 2nd)."""
        count = self.tech_fouls[seat] = self.tech_fouls.get(seat, 0) + 1
        self.events.append(ev.TechFouled(seat, count))
        return count == 2 and seat not in self.out

    def remove(self, seat: int) -> None:
        """2.4.3: removal for a violation; cancels the vote not yet completed."""
        self.nominations = [(a, t) for a, t in self.nominations if t != seat]
        if self.presses.standing == seat:  # the speaker's nomination no longer stands (2.3)
            self.presses.standing = None
        if self.rules.monster_rule:
            self.removal_pending = True
        self.put_out(seat, Exit.REMOVED)

    def put_out(self, seat: int, how: Exit, *, check_win: bool = True) -> None:
        self.out[seat] = Departure(how, self.phase)
        if how is not Exit.REMOVED and self.rules.last_word(self.roles[seat], self.team(seat), how):
            self.last_word_due.add(seat)  # at the table until the last word ends (1.4)
        self._living = None
        if self.phase.is_day:
            self.days[-1].out.append(seat)
        self.events.append(ev.SeatOut(seat, how))
        if self.rules.reveal_cards and how not in self.rules.kill_how.values():
            # a night's victim shows the card with the night's result
            self.events.append(ev.CardShown(seat, self.roles[seat]))
        if check_win:
            self.check_win()

    def sides(self) -> tuple[int, int]:
        """The seats at the table playing for the mafia, and for the city."""
        living = self.living
        black = sum(1 for s in living if s in self.side_black)
        return black, len(living) - black

    def decided(self) -> Team | None:
        """The winner as the table stands (1.2, 1.3), or None: the game goes on."""
        return self.rules.winner(*self.sides())

    def check_win(self) -> None:
        """End the game (raise :class:`GameDecided`) when the table decides it; 8.19.1 (the
        club's ``game_end_speech = "yes"``): when the last one out has a last word, fix the
        winner and declare it once that word ends (:meth:`declare_final`)."""
        if self.final is not None:
            return  # 8.19.1: fouls and removals in the last word change nothing
        winner = self.decided()
        if winner is not None:
            if self.rules.game_end_speech == "yes" and self.last_word_due:
                self.final = winner
                return
            self.declare(winner)
        self.plays_on()

    def declare(self, winner: Team) -> None:
        """Say ``winner`` and end the game (:class:`GameDecided`)."""
        self.winner = winner
        self.events.append(ev.GameOver(winner, self.rules.why_won(winner, *self.sides())))
        raise GameDecided

    def declare_final(self) -> None:
        """8.19.1: once no last word is due, declare the winner fixed when it was decided."""
        if self.final is not None and not self.last_word_due:
            self.declare(self.final)

    def draw(self) -> None:
        """End the game in a draw (7.21.2: the whole table voted out together)."""
        self.winner = Team.DRAW
        self.events.append(ev.GameOver(Team.DRAW))
        raise GameDecided

    def plays_on(self) -> None:
        """Said once, when the last of the mafia's cards has left and a seat playing for the
        mafia (the maniac) is still at the table."""
        if (not self.plays_on_said and self.side_black != self.black
                and not any(s not in self.out for s in self.black)):
            self.plays_on_said = True
            self.events.append(ev.PlaysOn())
