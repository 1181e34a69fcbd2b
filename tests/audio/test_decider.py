"""The early decider on scripted recognition events: no model needed.

Partials are what Vosk shows while a phrase is being said (``quiet``: how long the audio has been
quiet at its end); the Final comes after Vosk's endpoint. The grammar is the real Russian one.
"""

from __future__ import annotations

from collections.abc import Sequence

from narrator.audio.decider import Decision, StableDecider
from narrator.audio.recognizer import Final, Partial, RecognitionEvent, Word
from narrator.grammar import Intent
from narrator.host.hearing import game_hearing

HEARING = game_hearing("ru", 10)
NOMINATE = "выставляю номер пять"


def decider(guard_stable_ms: float | None = 400.0) -> StableDecider[list[Intent]]:
    return StableDecider(HEARING.understand, guard=HEARING.guard,
                         guard_stable_ms=guard_stable_ms)


def partials(text: str, start: float, end: float, *, quiet_from: float | None = None,
             step: float = 0.05) -> list[Partial]:
    """One partial per 50 ms chunk from ``start`` to ``end``; the speaker pauses at
    ``quiet_from`` (the chunks after it are quiet)."""
    out = []
    n = round((end - start) / step)
    for k in range(n + 1):
        t = round(start + k * step, 6)
        quiet = 0.0 if quiet_from is None or t <= quiet_from else t - quiet_from
        out.append(Partial(text, t, (), round(quiet, 6)))
    return out


def decide(d: StableDecider[list[Intent]], events: Sequence[RecognitionEvent]
           ) -> list[Decision[list[Intent]]]:
    return [x for x in map(d.observe, events) if x is not None]


def final(text: str, t: float) -> Final:
    words = tuple(Word(w, t - 1.0 + i * 0.2, t - 0.8 + i * 0.2, 1.0)
                  for i, w in enumerate(text.split()))
    return Final(text, words, t)


def test_a_stable_partial_is_decided_once_the_speaker_pauses() -> None:
    d = StableDecider(HEARING.understand)  # no guard: stability and the pause decide
    # stable for a long time but no pause yet: nothing
    assert decide(d, partials("спасибо", 1.0, 1.5)) == []
    got = decide(d, partials("спасибо", 1.55, 1.8, quiet_from=1.6))
    assert [(x.text, x.early, x.t) for x in got] == [("спасибо", True, 1.7)]
    assert [i.kind for i in got[0].meaning or []] == ["end_speech"]
    assert got[0].end == 1.0  # the text has been the same since 1.0 s
    # the Final agrees: no second decision
    assert d.observe(final("спасибо", 2.3)) is None


def test_a_text_that_keeps_changing_or_means_nothing_is_not_decided() -> None:
    d = StableDecider(HEARING.understand)
    changing = [Partial(text, 1.0 + k * 0.05, (), 0.5) for k, text in enumerate(
        ["выставляю", "выставляю номер", "выставляю номер пя", "выставляю номер пять"])]
    assert decide(d, changing) == []  # the last text was seen once only
    assert decide(d, partials("добрый вечер", 2.0, 3.0, quiet_from=2.0)) == []
    assert d.observe(final("добрый вечер", 3.5)) is None  # a Final that means nothing


def test_a_tense_twin_verb_waits_until_it_has_stood_still() -> None:
    # «выставляю» (I nominate) and «выставлю» (I will nominate, refused) differ by a syllable:
    # the verb is taken from partials only once it has stayed the same for 0.4 s
    d = decider()
    events: list[RecognitionEvent] = [
        *partials("выставлю номер пять", 1.0, 1.2, quiet_from=1.0),
        *partials(NOMINATE, 1.25, 1.6, quiet_from=1.0)]
    got = decide(d, events)
    # «выставляю» first seen at 1.25 s: not before 0.4 s later, though stable and quiet
    assert got == []
    got = decide(d, partials(NOMINATE, 1.7, 1.8, quiet_from=1.0))
    assert [(x.text, x.early, x.t) for x in got] == [(NOMINATE, True, 1.7)]
    # with no trust in partials for guarded verbs, only the Final decides
    strict = decider(guard_stable_ms=None)
    assert decide(strict, partials(NOMINATE, 1.0, 3.0, quiet_from=1.0)) == []
    late = strict.observe(final(NOMINATE, 3.2))
    assert late is not None and (late.early, late.revised) == (False, False)
    assert late.end == late.words[-1].end


def test_a_final_that_revises_an_early_decision_says_what_was_taken() -> None:
    d = decider()
    (early,) = decide(d, partials(NOMINATE, 1.0, 1.5, quiet_from=1.0))
    revised = d.observe(final("выставляю номер шесть", 2.0))
    assert revised is not None and (revised.revised, revised.early) == (True, False)
    assert revised.earlier == early.meaning
    assert [(i.kind, i.target) for i in revised.meaning or []] == [("nominate", 6)]
    # the next utterance starts afresh
    assert decide(d, partials("спасибо", 3.0, 3.2, quiet_from=3.0))[0].revised is False


def test_a_phrase_after_the_decided_one_comes_with_the_final() -> None:
    # the speaker nominates (decided early), then goes on: «… спасибо» in the same utterance
    d = decider()
    (early,) = decide(d, partials(NOMINATE, 1.0, 1.5, quiet_from=1.0))
    assert decide(d, partials(NOMINATE + " спасибо", 1.8, 2.0)) == []  # one decision a phrase
    after = d.observe(final(NOMINATE + " спасибо", 2.6))
    assert after is not None and after.revised and after.earlier == early.meaning
    assert [i.kind for i in after.meaning or []] == ["nominate", "end_speech"]


def test_a_new_speech_forgets_the_last_one() -> None:
    d = decider()
    decide(d, partials(NOMINATE, 1.0, 1.5, quiet_from=1.0))
    d.reset()  # the next speaker: their Final is their own, not a revision
    got = d.observe(final("выставляю номер шесть", 70.0))
    assert got is not None and (got.revised, got.earlier) == (False, None)
    # a half-seen text of the last speech does not count towards the next one's stability
    d.reset()
    assert decide(d, partials("спасибо", 80.0, 80.0)) == []
    assert decide(d, [Partial("спасибо", 80.05, (), 0.5)])[0].t == 80.05
