"""A voice that writes down what is said (for the protocol's ``said`` and the transcript).

A prompt (a :class:`~narrator.host.narration.Line` with ``prompt``: the console naming the cards
the deal waits for) is said and written in the transcript, but it is no part of the game's
record: it stays out of ``said``, which the protocol is made of, so a game plays to the same
protocol however long the table took over it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import assert_never

from narrator.engine import Act, Game
from narrator.engine import events as ev
from narrator.host.narration import Line, lines_for
from narrator.voice.manifest import Manifest


@dataclass
class Transcript:
    """Collects spoken phrases (as text, from the manifest) and readable notes, with times.

    ``said``: every phrase of the game, in order (not the prompts); ``spoken``: one «…» per
    line said, prompts too; ``entries``: the lines and the notes, timed (what :meth:`render`
    prints).
    """

    manifest: Manifest
    said: list[str] = field(default_factory=list)
    spoken: list[str] = field(default_factory=list)
    entries: list[tuple[float, str]] = field(default_factory=list)
    #: nicknames per seat, written beside the seat numbers
    names: dict[int, str] = field(default_factory=dict)
    #: the game's start on its clock: :meth:`render` counts from here (a live or replayed
    #: session's clock is the monotonic one, whose zero is the machine's boot)
    origin: float = 0.0

    def say(self, line: Line, at: float) -> None:
        texts = [self.manifest.text(key) for key in line.keys]
        if not line.prompt:  # (a prompt is heard, but it is not the game's record)
            self.said.extend(texts)
        text = "«" + " ".join(texts) + "»"
        self.spoken.append(text)
        self.entries.append((at, text))

    def recall(self, game: Game) -> int:
        """A resumed game: write down in ``spoken`` (what a screen shows of the last lines)
        the lines the events of ``game``'s history said before the process was killed, the
        history played again on a copy of the table; returns how many. The lines said by the
        clock alone — the count's numbers, «Десять секунд» — are not in the history and are
        not recalled, and ``said`` (the protocol's) is left as it is: the journal does not
        hold what the killed process said."""
        table = game.table_copy()
        events = table.start()
        for action in game.history:
            events += table.apply(action)
        recalled = ["«" + " ".join(self.manifest.text(key) for key in line.keys) + "»"
                    for event in events for line in lines_for(event, game.rules.lines)]
        self.spoken[:0] = recalled
        return len(recalled)

    def note(self, event: ev.Event, at: float) -> None:
        """A readable line for events that matter in a transcript but are not spoken."""
        text = _note(event, self.names)
        if text:
            self.entries.append((at, text))

    def render(self) -> str:
        return "\n".join(f"{_clock(t - self.origin)}  {text}" for t, text in self.entries)


def _clock(t: float) -> str:
    minutes, seconds = divmod(t, 60.0)
    return f"{int(minutes):3d}:{seconds:04.1f}"


_ORDINAL = {3: "3rd", 4: "4th"}
#: each kind of speech, as the transcript names it beside a seat with a nickname
_SPEECH_NOTE = {"day": "speech", "last": "last word", "tie": "tie speech",
                "intro": "introduction", "extra": "30 s more", "justify": "justification",
                "leader": "leader's speech"}


def seat_label(seat: int, names: dict[int, str]) -> str:
    """``seat 4`` or, with a nickname, ``seat 4 (Ника)``."""
    name = names.get(seat)
    return f"seat {seat} ({name})" if name else f"seat {seat}"


#: the events of each part of the game the transcript notes; the rest are in :func:`_note`
_NightNote = ev.ShotsResolved | ev.Checked | ev.Acted | ev.Missed | ev.Saved
_SpeechNote = (ev.SpeechStarted | ev.Nominated | ev.Withdrawn | ev.PutUpCounted | ev.Fouled
               | ev.TechFouled | ev.SpeechSkipped | ev.SpeechCut | ev.BestMoveNamed
               | ev.OnRecordLeft)
_VoteNote = (ev.VotingCancelled | ev.VoteCounted | ev.TieStays | ev.Unopposed | ev.Stays
             | ev.CrashResult)
_Silent = (ev.PhaseStarted | ev.TimerStarted | ev.NightResult | ev.Declared | ev.Victims
           | ev.CardShown | ev.SpeechesBegin | ev.SpeechEnded | ev.VotingStarted | ev.VoteCall
           | ev.Tie | ev.CrashStarted | ev.CrashNotApplied | ev.BestMoveAsked | ev.PlaysOn)


def _note(event: ev.Event, names: dict[int, str]) -> str | None:
    if isinstance(event, _NightNote):
        return _night_note(event)
    if isinstance(event, _SpeechNote):
        return _speech_note(event, names)
    if isinstance(event, _VoteNote):
        return _vote_note(event)
    if isinstance(event, _Silent):
        return None  # said aloud (the narration's), or of no note
    match event:
        case ev.Refused(seat=s, kind=k, target=t, reason=r):
            who = seat_label(s, names) if s is not None else "input"
            return f"    refused: {who} {k} {t if t is not None else ''} ({r})"
        case ev.SeatOut(seat=s, how=h):
            return f"    {seat_label(s, names)} is out ({h})"
        case ev.GameOver(winner=w):
            return f"    winner: {w}"
        case ev.Marked():
            return f"    {seat_label(event.seat, names)} marks: {mark_words(event)}"
        case _:
            assert_never(event)


def mark_words(mark: ev.Marked) -> str:
    """The host's marks in a line: ``+0.3, best player — нашёл шерифа``; ``none``."""
    given = ([f"{mark.points:+g}"] if mark.points else []) + [
        t.replace("_", " ") for t in mark.titles]
    said = ", ".join(given)
    if mark.comment:
        said = f"{said} — {mark.comment}" if said else mark.comment
    return said or "none"


def _night_note(event: _NightNote) -> str | None:
    match event:
        case ev.ShotsResolved(night=n, target=t):
            return f"    night {n}: {'miss' if t is None else f'shot at {t}'}"
        case ev.Checked(role=r, target=t, result=res):
            return f"    {r} checks {t}: {'yes' if res else 'no'}"
        case ev.Acted(role=r, act=Act.KILL, target=t):
            return f"    {r} kills {t}"
        case ev.Acted():
            return None  # a save: the Saved event tells it
        case ev.Missed(role=r):
            return f"    {r}: no kill"
        case ev.Saved(role=r, target=t, saved=saved) if saved == t:
            return f"    {r} saves {t}"
        case ev.Saved(role=r, target=t, saved=None):
            return f"    {r} picks {t}: nobody is saved"
        case ev.Saved(role=r, target=t, saved=saved):
            return f"    {r} picks {t}: saved before, {saved} is saved instead"
        case _:
            assert_never(event)


def _speech_note(event: _SpeechNote, names: dict[int, str]) -> str | None:
    match event:
        case ev.SpeechStarted(seat=s, kind=k):
            # every kind of speech: vrn's introductions and amateur's justifications too
            return f"    {seat_label(s, names)}: {_SPEECH_NOTE.get(k, k)}" if names else None
        case ev.Nominated(seat=s, target=t):
            return f"    {seat_label(s, names)} nominates {t}"
        case ev.Withdrawn(seat=s, target=t):
            return f"    {seat_label(s, names)} withdraws {t}"
        case ev.PutUpCounted(target=t, thumbs=n, total=total):
            return f"    put up {t}: {n} thumb(s), {total} today"
        case ev.Fouled(seat=s, count=n) if n >= 3:
            # the host is told at the 3rd and the 4th foul (sport rules act on them)
            return f"    {seat_label(s, names)}: {_ORDINAL.get(n, f'{n}th')} foul"
        case ev.Fouled():
            return None  # said aloud
        case ev.TechFouled(seat=s, count=n):
            return f"    {seat_label(s, names)}: {_ORDINAL.get(n, f'{n}th')} technical foul"
        case ev.SpeechSkipped(seat=s, nominates=True):
            return f"    {seat_label(s, names)} loses this speech but may nominate (3rd foul)"
        case ev.SpeechSkipped(seat=s):
            return f"    {seat_label(s, names)} loses this speech (3rd foul)"
        case ev.SpeechCut(seat=s):
            return f"    {seat_label(s, names)} speaks 30 s (3rd foul)"
        case ev.BestMoveNamed(seat=s, named=named):
            return f"    {seat_label(s, names)} best move: {', '.join(map(str, named))}"
        case ev.OnRecordLeft(seat=s, red=red, black=black):
            said = [f"{x} red" for x in red] + [f"{x} black" for x in black]
            return f"    {seat_label(s, names)} on record: {', '.join(said)}"
        case _:
            assert_never(event)


def _vote_note(event: _VoteNote) -> str | None:
    match event:
        case ev.VotingCancelled(reason="first_day"):
            return "    first day: no vote"
        case ev.VotingCancelled():
            return None  # said aloud
        case ev.VoteCounted(candidate=c, votes=n):
            return f"    {c}: {n} vote(s)"
        case ev.TieStays(candidates=c):
            return f"    tie of {', '.join(map(str, c))} not played out: everybody stays"
        case ev.Unopposed(candidate=c):
            return f"    seat {c} is the only candidate: out without a vote"
        case ev.Stays(seats=seats, reason="first_day"):
            return (f"    first day: {', '.join(map(str, seats))} led the round and stay(s), "
                    f"only the lift removes")
        case ev.Stays(seats=seats):
            return f"    fewer votes than before: {', '.join(map(str, seats))} stay(s)"
        case ev.CrashResult(votes_for=f, votes_against=a, passed=p):
            return f"    car crash: {f} for, {a} against, {'passed' if p else 'failed'}"
        case _:
            assert_never(event)
