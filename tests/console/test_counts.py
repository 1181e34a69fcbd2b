"""Counts a screen shows are the engine's, and a count that takes the abstainers says so (2.4:
the hands not raised count for the last candidate): the operator's tally of a pad vote shows
the window's own candidate's hands, and in the last window «6 рук + 4 воздержавшихся» — the
narrator's «десять голосов»; the transcript (the judge's review reads it) says the same."""

from __future__ import annotations

from narrator.console.tokens import OPERATOR
from narrator.engine import waits as w
from tests.console.conftest import make_rig


def test_the_tally_shows_the_windows_own_hands_and_the_abstainers_of_the_last() -> None:
    rig = make_rig()
    rig.to_the_vote()  # 4, then 6
    for seat in (1, 2, 3, 5, 6, 7):
        assert rig.press(seat, "vote", candidate=4).ok
    assert rig.views[OPERATOR]["tally"] == {"candidate": 4, "hands": [1, 2, 3, 5, 6, 7],
                                            "abstaining": 0}
    rig.until(w.Vote, candidate=6)
    # 6's window: none of 4's hands, the four not raised yet counted for 6 (2.4)
    assert rig.views[OPERATOR]["tally"] == {"candidate": 6, "hands": [], "abstaining": 4}
    assert rig.press(8, "vote", candidate=6).ok
    assert rig.views[OPERATOR]["tally"] == {"candidate": 6, "hands": [8], "abstaining": 3}
    rig.until((w.Speech, w.Pause, w.Hunt))
    assert rig.game.days[0].rounds[0].votes == {4: 6, 6: 4}
    assert rig.game.days[0].rounds[0].abstained == 3
    notes = rig.transcript.render()
    assert "    4: 6 vote(s)\n" in notes
    assert ("    6: 4 vote(s) = 1 hand(s) + 3 abstaining (2.4: the hands not raised count "
            "for the last candidate)") in notes


def test_the_hand_vote_box_of_the_last_candidate_says_the_hands_not_given_count_for_him() -> None:
    """A table that votes by hand: the operator types each window's count; in the last one the
    view says how many living players have not voted — every one of them counts for this
    candidate (2.4), the hands the operator types and the abstainers — as the engine counts."""
    from narrator.console.settings import ConsoleSettings

    rig = make_rig(ConsoleSettings(hand_votes=True))
    rig.to_the_vote()  # 4, then 6
    assert rig.views[OPERATOR]["to_last"] == 0  # 4 is not the last: no abstainer is his
    assert rig.op("hands", candidate=4, count=3).ok
    rig.until(w.Vote, candidate=6)
    assert rig.views[OPERATOR]["to_last"] == 7 == rig.game.abstaining
    assert rig.views[OPERATOR]["tally"] is None  # (a pad vote's tally: not this table's)
    assert rig.op("hands", candidate=6, count=2).ok
    rnd = rig.game.days[0].rounds[0]
    assert rnd.votes == {4: 3, 6: 7} and rnd.abstained == 5  # the 7 the box said, 2 + 5
    assert rig.views[OPERATOR]["to_last"] == 0
