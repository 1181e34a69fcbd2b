"""The hostless table as a front end: :class:`~narrator.listening.ListeningLoop` on a quiet
room's stream, the speeches said to a scripted recognizer (the script's own phrases, heard at
their moments, through the real grammar and decider) and the night's and the votes' gestures
typed by the operator at the terminal, each when the loop waits for it; resumed as ``narrator
resume`` takes a ``play`` journal up."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import assert_never

from narrator.audio.format import AudioChunk
from narrator.audio.recognizer import Final, RecognitionEvent
from narrator.audio.sources import QuietRoom
from narrator.clock import VirtualClock
from narrator.conform.player import StepProgress, unspeakable
from narrator.conform.reference import Reference, Step
from narrator.conform.runs import Run, new_journal, take_up
from narrator.engine import (
    Action,
    BestMove,
    Check,
    EndSpeech,
    Foul,
    Game,
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
    Withdraw,
)
from narrator.engine import waits as w
from narrator.grammar.numbers import number_forms
from narrator.host.hearing import game_hearing
from narrator.host.journal import Journal
from narrator.inputs import STOP, Input, entry
from narrator.listening import ListeningLoop
from narrator.voice.manifest import default_manifest

CHUNK_S = 0.2  # a quiet room's chunks: a timer fires at most this late

#: the words of a phrase said for what a cut journal lost of a longer one
_WORDS = {"ru": ("выставляю номер", "снимаю номер", "спасибо"),
          "uk": ("виставляю номер", "знімаю номер", "дякую")}


class SaidAloud:
    """A recognizer that hears what the table says: at each new speech it asks ``phrases()``
    for (stream time, text) and gives each text as a Final from the chunk that reaches it."""

    def __init__(self, player: _HostlessTable) -> None:
        self.player = player
        self.pending: list[tuple[float, str]] = []

    def set_grammar(self, phrases: Sequence[str] | None) -> list[str]:
        self.reset()
        return []

    def reset(self) -> None:
        self.pending = self.player.phrases()

    def feed(self, chunk: AudioChunk) -> list[RecognitionEvent]:
        due = [text for t, text in self.pending if t <= chunk.end + 1e-9]
        self.pending = [(t, text) for t, text in self.pending if t > chunk.end + 1e-9]
        return [Final(text, (), chunk.end) for text in due]

    def flush(self) -> list[RecognitionEvent]:
        return []


class _Operator:
    """The terminal: prompts are read by the player from the game; errors are kept."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def prompt(self, text: str) -> None:
        pass

    def error(self, text: str) -> None:
        self.errors.append(text)


def _seats(seats: Sequence[int]) -> str:
    """Seats as the operator types them (one seat with a comma: a bare number is a count)."""
    return " ".join(map(str, seats)) + ("," if len(seats) == 1 else "")


class _HostlessTable:
    """The players' voices and the operator's hands: both read the game and the reference."""

    def __init__(self, ref: Reference, game: Game) -> None:
        self.ref = ref
        self.game = game
        self.left_out: set[str] = set()
        self.loop: ListeningLoop | None = None
        self._progress: dict[int, StepProgress] = {}  # by step
        self._todo: dict[int, tuple[int, list[tuple[float, Action]]]] = {}  # by step: version

    def _step(self) -> tuple[Step | None, list[tuple[float, Action]]]:
        index, start = self.game.step, self.game.step_start
        if index >= len(self.ref.steps) or self.game.is_over:
            return None, []
        step = self.ref.steps[index]
        # asked at every chunk of audio: what the step lacks is worked out again only once the
        # game has taken something since the last time
        progress = self._progress.get(id(step))
        if progress is None:
            progress = self._progress[id(step)] = StepProgress(step)
        progress.update(self.game.history, start)
        seen = self._todo.get(id(step))
        if seen is not None and seen[0] == progress.version:
            return step, seen[1]
        todo = []
        for offset, action in progress.todo():
            why = unspeakable(action)
            if why is not None and not isinstance(action, Malformed):  # refusals are said here
                self.left_out.add(why)
            else:
                todo.append((offset, action))
        self._todo[id(step)] = (progress.version, todo)
        return step, todo

    def marks(self) -> list[Mark]:
        """The host's marks the reference took after the game, not given here yet."""
        index = self.game.step
        if not self.game.is_over or index >= len(self.ref.steps):
            return []
        progress = StepProgress(self.ref.steps[index])
        return [a for _, a in progress.update(self.game.history, self.game.step_start).todo()
                if isinstance(a, Mark)]

    # -- the speakers ------------------------------------------------------------------------

    def phrases(self) -> list[tuple[float, str]]:
        """What is still to be said in the speech starting now: the reference's phrases (a
        phrase a cut journal half lost: what it lacks, in plain words)."""
        step, _ = self._step()
        assert self.loop is not None
        if step is None or not isinstance(step.expect, w.Speech):
            return []
        host = self.loop.host
        origin, now = host.timer_started, host.now()
        done = len(self.game.history) - self.game.step_start
        out: list[tuple[float, str]] = []
        covered = {i for said in step.said for i in range(said.first, said.last)}
        for i in range(done, len(step.actions)):  # given without words («speech» alone)
            action = step.actions[i]
            if i not in covered and isinstance(action, Nominate | Withdraw | EndSpeech | BestMove):
                out.append((max(now, origin + step.offsets[i]), self._plain(action)))
        for said in step.said:
            if said.first > done or (said.first == done and origin + said.offset >= now - 1e-6):
                out.append((origin + said.offset, said.text))
            elif said.first < done < said.last:
                out.extend((now, self._plain(a)) for a in step.actions[done:said.last])
        return out

    def _plain(self, action: Action) -> str:
        nominate, withdraw, thanks = _WORDS[self.ref.script.lang]
        if isinstance(action, BestMove):  # 8.17: «лучший ход три пять восемь»
            forms = number_forms(self.ref.script.lang)
            head = "лучший ход" if self.ref.script.lang == "ru" else "кращий хід"
            return " ".join([head, *(forms[s][0] for s in action.seats)])
        if isinstance(action, Nominate | Withdraw):
            word = number_forms(self.ref.script.lang)[action.target][0]
            return f"{nominate if isinstance(action, Nominate) else withdraw} {word}"
        return thanks

    # -- the operator ------------------------------------------------------------------------

    def take(self, now: float, *, block: bool) -> Input | None:
        step, todo = self._step()
        if self.game.is_over:
            return None
        if step is None:
            return Input(STOP, now, {"reason": "past the reference"})
        assert self.loop is not None
        due = self.loop.host.scheduler.next_deadline()
        if not block and due is not None and due <= now + 1e-6:
            return None  # what is due at this moment (the count's «один») comes first
        origin = self.loop.host.timer_started
        aside = next(((o, a) for o, a in todo
                      if isinstance(a, Foul | TechFoul | Remove | OnRecord)), None)
        if aside is not None and (block or origin + aside[0] <= now + 1e-9) \
                and todo[0] == aside:
            return entry(now, _aside(aside[1]))
        exp = self.game.expect
        if not todo and not step.complete:
            return Input(STOP, now, {"reason": "the script ends here"})
        if not block or not exp.waits_for_human:
            return None
        return entry(now, self._answer(exp, [a for _, a in todo]))

    def _answer(self, exp: w.Expect, todo: list[Action]) -> str:
        """The operator's line for the step the loop waits at."""
        if not todo:
            return "-"
        first = todo[0]
        match exp:
            case w.Hunt():
                return " ".join(f"{a.shooter}:{a.target}" for a in todo if isinstance(a, Shot))
            case w.Vote() | w.Crash():
                return _seats([a.seats[0] for a in todo if isinstance(a, Hands)])
            case w.Extra():
                return _seats([a.seats[0] for a in todo if isinstance(a, HandsUp)])
            case w.PutUp() if isinstance(first, Thumbs):
                thumbs = [a.seats[0] for a in todo
                          if isinstance(a, Thumbs) and a.target == first.target]
                return f"{first.target}: " + " ".join(map(str, thumbs))
            case (w.PutUp() | w.Pause() | w.Deal() | w.Speech() | w.NightAct() | w.Floor()
                  | w.Over()):
                pass  # the first action says the line
            case _:
                assert_never(exp)
        if isinstance(first, TakeFloor):
            return str(first.seat)
        if isinstance(first, Check) and isinstance(exp, w.NightAct) and exp.checks:
            return str(first.target)
        if isinstance(first, Check | Kill | Save):
            verb = "c" if isinstance(first, Check) else "k" if isinstance(first, Kill) else "s"
            return f"{verb} {first.target}"
        return "-"


def _aside(action: Foul | TechFoul | Remove | OnRecord) -> str:
    """The operator's entry of an input taken at any moment of a step: a foul, a technical
    foul (9.6.2: ``e 5``), a removal, the speaker's colours on record (6.7: ``o 3 4 / 7``)."""
    if isinstance(action, OnRecord):
        red, black = (" ".join(map(str, x)) for x in (action.red, action.black))
        return f"o {red} / {black}"
    verb = "f" if isinstance(action, Foul) else "e" if isinstance(action, TechFoul) else "r"
    return f"{verb} {action.seat}"


class Hostless:
    name = "hostless"

    def why_not(self, ref: Reference) -> str | None:
        return None

    def _run(self, ref: Reference, game: Game, clock: VirtualClock, journal: Journal,
             left: float | None = None, entry_of: tuple[int, Input] | None = None) -> Run:
        table = _HostlessTable(ref, game)
        operator = _Operator()
        lang = ref.script.lang
        try:
            loop = ListeningLoop(game, clock=clock, source=QuietRoom(round(CHUNK_S * 1000), clock.now(),
                                                   chunks=round(50 * 3600 / CHUNK_S)),
                                 recognizer=SaidAloud(table), hearing=game_hearing(lang, game.seats),
                                 operator=operator, entries=table, manifest=default_manifest(lang),
                                 journal=journal, lang=lang, chunk_ms=round(CHUNK_S * 1000))
            table.loop = loop
            loop.resume_left = left
            loop.resume_entry = entry_of
            loop.run()
            # the game over, the terminal still takes the host's marks (as `narrator play`'s
            # does until the Enter that closes its console)
            for mark in table.marks():
                loop.submit(entry(clock.now(), "m" + str(mark).removeprefix("mark")))
            loop.driver.take()
        finally:
            journal.close()
        return Run(loop.protocol(), table.left_out, operator.errors)

    def start(self, ref: Reference, journal: Path) -> Run:
        game = ref.game.table_copy()
        return self._run(ref, game, VirtualClock(), new_journal(ref, journal, game))

    def resume(self, ref: Reference, journal: Path) -> Run:
        up = take_up(journal)
        return self._run(ref, up.game, up.clock, up.journal, up.left, up.contents.last_entry())
