"""The vote: whether one is held (2.2.1, 2.4.3), its rounds (2.4) and what the ruleset's
verdict makes of each — the leader out, a tie's speeches and re-vote (2.4.1), the car crash
(2.4.2) — and the removal that cancels a vote not yet completed (2.4.3)."""

from __future__ import annotations

from collections.abc import Generator

from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import Action, HandCount, Hands, Remove, TimeUp
from narrator.engine.flow.speech import speech
from narrator.engine.flow.wait import Flow, wait
from narrator.engine.record import CrashRecord, DayRecord, VoteRound
from narrator.engine.state import Round, State
from narrator.engine.steps import VoteStep
from narrator.engine.types import Exit, Timer
from narrator.engine.verdict import Verdict, VoteState
from narrator.engine.waits import Expect
from narrator.reasons import Reason

__all__ = ["voting"]


def voting(s: State, n: int, record: DayRecord, step: VoteStep) -> Flow:
    """Day ``n``'s vote, from its ballot to the last word of whoever it puts out."""
    candidates = _ballot(s, n)
    if not candidates:
        return
    if len(candidates) == 1 and s.rules.lone_candidate_leaves(n):
        s.events.append(ev.Unopposed(candidates[0]))
        s.put_out(candidates[0], Exit.VOTE)
        if s.has_last_word(candidates[0]):
            yield from speech(s, candidates[0], "last")
        return
    if step.justify:
        for seat in candidates:
            if seat not in s.out:
                yield from speech(s, seat, "justify")
        candidates = tuple(c for c in candidates if c not in s.out)
    yield from _rounds(s, n, record, candidates)


def _ballot(s: State, n: int) -> tuple[int, ...]:
    """The candidates voted on, or none when no vote is held (the reason said)."""
    r = s.rules
    if not r.vote_held(n):
        # the club's first day without a vote: said even with nobody nominated; a removal
        # today stays pending, as 2.4.3's vote "not yet completed" is the next day's
        s.events.append(ev.VotingCancelled("first_day"))
        return ()
    candidates = r.ballot(n, tuple(s.living), tuple(c for c in s.candidates if c not in s.out),
                          s.today.put_up)
    if _cancelled_by_removal(s):
        return ()
    if not candidates:
        s.events.append(ev.VotingCancelled("no_candidates"))
        return ()
    reason = r.no_vote(n, candidates)  # 2.2.1
    if reason is not None:
        s.events.append(ev.VotingCancelled(reason))
        return ()
    return candidates


def _cancelled_by_removal(s: State) -> bool:
    """2.4.3: a removal since the last completed vote cancels this one."""
    if not s.removal_pending:
        return False
    s.removal_pending = False
    s.events.append(ev.VotingCancelled("monster"))
    return True


def _rounds(s: State, n: int, record: DayRecord, candidates: tuple[int, ...]) -> Flow:
    """Round after round until the ruleset's verdict ends the vote."""
    rnd = 1
    ballot = candidates
    rounds: list[dict[int, int]] = []
    while candidates:
        counts = yield from _round(s, rnd, candidates, record)
        if counts is None:
            return
        verdict = s.rules.verdict(VoteState(
            n, rnd, candidates, counts, rounds, s.justified(), len(s.living),
            {c: frozenset(v) for c, v in s.round.voters.items()},
            s.rules.abstainers_to_last(rnd, candidates)))
        rounds.append(counts)
        if (yield from _settled(s, n, verdict, record)):
            return
        if verdict.tie:
            # 2.4.1: the tied speak 30 s in nomination order, then vote again among them
            s.events.append(ev.Tie(verdict.tie))
        rnd += 1
        order = _order(s, rnd, ballot)
        place = {c: i for i, c in enumerate(order)}  # (a seat not on the ballot: after them)
        for seat in sorted(verdict.speak, key=lambda c: place.get(c, len(order))):
            if seat not in s.out:
                yield from speech(s, seat, verdict.speech)
        if _cancelled_by_removal(s):
            return
        revote = sorted(verdict.revote, key=lambda c: place.get(c, len(order)))
        candidates = tuple(c for c in revote if c not in s.out)


def _order(s: State, rnd: int, ballot: tuple[int, ...]) -> tuple[int, ...]:
    """The order of round ``rnd``'s candidates and of the speeches before it: the ballot's
    (the nomination order), reversed for every even round under 7.18.2 — as the judge's app
    has both (js/src/game.js ``gameGetNominees(votingRound)``: the leaders «in nomination
    order», then «if (gameGetRule(5) == 1 && (votingRound & 1) != 0)» reversed; its tie
    speeches and its next vote both follow that list)."""
    if s.rules.split_order == "reverse" and rnd % 2 == 0:
        return ballot[::-1]
    return ballot


def _settled(s: State, n: int, verdict: Verdict,
             record: DayRecord) -> Generator[Expect, Action, bool]:
    """Play out a verdict that ends the vote (True); False: it goes to another round."""
    if verdict.out:
        for seat in verdict.out:
            s.put_out(seat, Exit.VOTE)
        for seat in verdict.out:
            if s.has_last_word(seat):
                yield from speech(s, seat, "last")
        return True
    if verdict.crash:
        yield from _crash(s, n, verdict.crash, record)
        return True
    if verdict.tie_stays:
        s.events.append(ev.TieStays(verdict.tie_stays))
        return True
    if verdict.stays:
        s.events.append(ev.Stays(verdict.stays, verdict.why))
        for seat in verdict.speak:  # the first day's single leader: a speech, then night
            if seat not in s.out:
                yield from speech(s, seat, verdict.speech)
        return True
    return False


def _round(s: State, rnd: int, candidates: tuple[int, ...],
           record: DayRecord) -> Generator[Expect, Action, dict[int, int] | None]:
    """One round of 2.4; returns the counts, or None when 2.4.3 cancelled the vote."""
    reverse = s.rules.split_order == "reverse" and rnd % 2 == 0
    s.events.append(ev.VotingStarted(rnd, candidates, reverse))
    rd = s.round = Round(candidates)
    last = len(candidates) - 1
    to_last = s.rules.abstainers_to_last(rnd, candidates)
    for i, cand in enumerate(candidates):
        ended = yield from _window(s, cand, rnd, to_last)
        if isinstance(ended, Remove):
            s.removal_pending = False
            s.events.append(ev.VotingCancelled("monster"))
            return None
        if i == last and to_last:  # 2.4: abstainers count for the last candidate
            abstained = len([x for x in s.living if x not in rd.voted]) - rd.anonymous
            rd.counts[cand] += max(0, abstained)
        s.events.append(ev.VoteCounted(cand, rd.counts[cand]))
    counts = dict(rd.counts)
    record.rounds.append(VoteRound(candidates, counts))
    return counts


def _window(s: State, cand: int, rnd: int, to_last: bool) -> Flow:
    """The voting window of ``cand`` in round ``rnd`` (2.4); it ends with a removal when that
    cancelled the vote (2.4.3)."""
    s.events.append(ev.VoteCall(cand))
    t = Timer("vote", s.rules.vote_window)
    s.events.append(ev.TimerStarted(t))
    vote = w.Vote(t, tuple(s.living), True, s.serials, cand, rnd, to_last)
    return wait(s, vote, _take_hands)


def _take_hands(s: State, action: Action, expect: w.Vote) -> bool:
    rd = s.round
    cand = expect.candidate
    if isinstance(action, HandCount):
        rd.anonymous += action.n
        rd.counts[cand] += action.n
    elif isinstance(action, Hands):
        for seat in action.seats:
            if seat in rd.voted:  # 2.4: a second hand is ignored
                s.refuse(seat, "vote", cand, Reason.ALREADY_VOTED)
            else:
                rd.voted.add(seat)
                rd.voters[cand].add(seat)
                rd.counts[cand] += 1
    elif isinstance(action, Remove):
        # 2.4.3: cancels the vote unless the round's result is fixed already; then it stays
        # pending and cancels the next vote
        index = rd.candidates.index(cand)
        return s.removal_pending and not _round_decided(s, index, extra=1)
    return isinstance(action, TimeUp)


def _round_decided(s: State, current: int, extra: int) -> bool:
    """2.4.3: is the round's result already fixed whatever the remaining hands (counting
    ``extra`` removed voters' hands as still to come)?"""
    rd = s.round
    remaining = len([x for x in s.living if x not in rd.voted]) - rd.anonymous + extra
    if remaining == 0:
        return True
    counts = rd.counts
    best = max(counts.values())
    leaders = [c for c in rd.candidates if counts[c] == best]
    if len(leaders) != 1:
        return False
    leader = leaders[0]
    for j, c in enumerate(rd.candidates):
        if c == leader:
            continue
        reach = counts[c] + (remaining if j >= current else 0)
        if reach >= best:
            return False
    return True


def _crash(s: State, n: int, candidates: tuple[int, ...], record: DayRecord) -> Flow:
    """2.4.2: the car crash, unless the club's 7.21-7.23 put none (:meth:`Rules.no_crash`);
    7.21.2: one of the whole table that passes is a draw."""
    if _cancelled_by_removal(s):
        return
    r = s.rules
    why = r.no_crash(n, len(s.living), candidates)
    if why is not None:
        s.events.append(ev.CrashNotApplied(candidates, why))
        return
    s.events.append(ev.CrashStarted(candidates))
    t = Timer("vote", r.vote_window)
    s.events.append(ev.TimerStarted(t))
    s.presses.hands = set()
    ended = yield from wait(s, w.Crash(t, tuple(s.living), True, s.serials), _take_crash_hands)
    s.removal_pending = False
    if isinstance(ended, Remove):
        s.events.append(ev.VotingCancelled("monster"))
        return
    votes_for = len(s.presses.hands)
    living = len(s.living)
    passed = r.crash_passes(votes_for, living)
    record.crash = CrashRecord(votes_for, living - votes_for, passed)
    s.events.append(ev.CrashResult(votes_for, living - votes_for, passed))
    if not passed:
        return
    if len(candidates) == living:
        s.draw()  # 7.21.2: «объявляется ничья», the game stops (no last words)
    for seat in candidates:
        s.put_out(seat, Exit.CRASH, check_win=False)
    s.check_win()
    for seat in candidates:
        if s.has_last_word(seat):
            yield from speech(s, seat, "last")


def _take_crash_hands(s: State, action: Action, expect: w.Crash) -> bool:
    if isinstance(action, Hands):
        s.presses.hands.update(action.seats)
        return False
    if isinstance(action, Remove):
        return s.removal_pending  # 2.4.3: the car crash is a vote too
    return isinstance(action, TimeUp)
