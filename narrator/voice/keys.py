"""Every key the narrator can say: what a voice pack's manifest must hold.

The host's narration picks these keys per game event; they are listed here, below the host, so
that ``narrator voices check`` and the pack loader can hold a manifest against them without
knowing the game. A ruleset other than crime-time says some lines in its own words (its
``lines``), and says a line that names a length without it when a club changes the figure:
those keys are listed from the registered rulesets. A test plays random games of every ruleset
and checks that nothing else is ever said.
"""

from __future__ import annotations

from collections.abc import Mapping

from narrator.engine.rules import RULESETS, Rules

#: the phrase of each phase the engine announces (by the engine's phase name)
PHASE_KEYS: dict[str, tuple[str, ...]] = {
    "night": ("night_falls", "city_sleeps"),  # 2.1
    "dealing": ("dealing",),  # 2.1.1
    "don_noted": ("don_wakes_first",),
    "agreement": ("mafia_agreement",),
    "sheriff_noted": ("mafia_sleeps_sheriff_wakes",),
    "sheriff_sleeps": ("sheriff_sleeps",),
    "mafia_sleeps": ("mafia_sleeps",),  # first-night steps of other rulesets
    "don_sleeps": ("don_sleeps",),
    "hunt": ("mafia_hunts",),  # 2.1.2
    "don_check": ("don_wakes",),  # 2.1.3
    "sheriff_check": ("don_sleeps_sheriff_wakes",),
    "day": ("day_breaks",),  # 2.2
}

#: why a vote did not happen → what is said
CANCELLED_KEYS: dict[str, str] = {
    "no_candidates": "no_candidates",
    "single_candidate_day1": "single_candidate_day1",  # 2.2.1
    "monster": "no_vote_today",  # 2.4.3
    "first_day": "first_day_no_vote",  # the club option first_day = "none"
}

#: phrases said as they are
PLAIN_KEYS: tuple[str, ...] = (
    "ten_seconds", "miss", "thanks", "accepted", "withdrawn", "revote", "tie",
    "withdrawn_catalogue",  # a club's withdraw (7.5.1's example): «Отозвано»
    "tie_speeches", "tie_stays", "unopposed",
    "crash", "crash_question", "crash_passed", "crash_failed", "crash_not_applied",
    "crash_not_applied_nine", "crash_not_applied_all",  # the catalogue's 7.23.2, 7.21.1
    "reverse_order",  # 7.18.2: a re-vote in the reverse order
    "win_civilians", "win_mafia", "draw",  # draw: 7.21.2
    "cards_awaited",  # the console's prompt while the deal waits for several cards (2.1.1)
)

#: phrases said with a seat number: ``<family>.<seat>``, seats 1..N
SEAT_FAMILIES: tuple[str, ...] = (
    "count", "killed", "speech", "last_word", "tie_speech", "number", "who_for", "leaves",
    "removed", "foul", "skips_speech", "best_move",
    # the club's fouls: 9.5.1 (the lost minute's nomination), 9.5.2 (cut to 30 s), 9.6.2
    "skips_speech_nominates", "short_speech", "tech_foul",
    "first_day_stays",  # the club option first_day = "lift_only": a single leader stays
    # the console's prompt while the deal waits for cards (2.1.1): one seat's card, and the
    # last of several seats named after «cards_awaited» («… номер три и номер семь») or after
    # the candidates' count (2.4: «… номер четыре и номер пять»)
    "card_awaited", "number.and",
)

#: the largest table a pack must be able to narrate
MAX_SEATS = 15


def wording_keys(wording: Mapping[str, tuple[str, ...]], seats: int = MAX_SEATS) -> list[str]:
    """Every key a ruleset's ``wording`` may say instead of crime-time's (seat families for
    1..``seats``), in a stable order: what a voice pack must hold for the ruleset."""
    keys: dict[str, None] = {}
    for said in wording.values():
        for key in said:
            if key.endswith(".{n}"):
                keys.update(dict.fromkeys(key.replace("{n}", str(n)) for n in range(1, seats + 1)))
            else:
                keys[key] = None
    return list(keys)


def spoken_keys(seats: int = MAX_SEATS) -> list[str]:
    """Every key the narrator may say at a table of up to ``seats`` seats, under any ruleset,
    in a stable order."""
    keys: dict[str, None] = {}
    for phase in PHASE_KEYS.values():
        keys.update(dict.fromkeys(phase))
    keys.update(dict.fromkeys(CANCELLED_KEYS.values()))
    keys.update(dict.fromkeys(PLAIN_KEYS))
    for family in SEAT_FAMILIES:
        keys.update(dict.fromkeys(f"{family}.{n}" for n in range(1, seats + 1)))
    keys.update(dict.fromkeys(f"votes.{n}" for n in range(seats + 1)))  # 2.4: 0..all hands
    keys.update(dict.fromkeys(f"candidates.{n}" for n in range(1, seats + 1)))
    # 2.4: the first round's announcement, the count in a sentence of its own
    keys.update(dict.fromkeys(f"nominated.{n}" for n in range(1, seats + 1)))
    for name in sorted(RULESETS):  # each ruleset's own lines
        keys.update(dict.fromkeys(wording_keys(RULESETS[name].lines, seats)))
        keys.update(dict.fromkeys(wording_keys(length_free(RULESETS[name]), seats)))
    return list(keys)


def length_free(rules: type[Rules] | Rules) -> dict[str, tuple[str, ...]]:
    """The lines of ``rules`` that name a length → the line said instead with a club's own
    figure (:attr:`~narrator.engine.rules.Rules.named_lengths`), as a wording."""
    return {key: (length.instead,) for key, length in rules.named_lengths.items()}
