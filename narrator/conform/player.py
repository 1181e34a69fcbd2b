"""What a player of the reference does at a step: find it, see what it still lacks, give that.

A front end's game says which step of the reference it stands at and where that step began in
its history (``Game.step``, ``Game.step_start``) — the same count whether the game ran from the
deal or was rebuilt from a journal. :func:`remaining` compares the
step's actions in the front end with the reference's, one seat at a time (a pad's hand is one
seat, an operator's line several), and gives what is still to be done, in the reference's order
and at its moments. :class:`LoopPlayer` is the loop of a front end that the player drives itself
(replay, assist, the pads); the hostless table drives itself and asks the player
(:mod:`narrator.conform.hostless`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

from narrator.clock import VirtualClock
from narrator.conform.reference import Reference, Step
from narrator.engine import (
    Action,
    HandCount,
    Hands,
    HandsUp,
    Malformed,
    Mark,
    Thumbs,
    TimeUp,
)
from narrator.host.driver import Driver
from narrator.host.host import Host

#: moves a player may make beyond two for each action and step of the reference, before it
#: gives up (a front end that never moves on: :class:`Stuck`)
SPARE_MOVES = 1_000


def atoms(actions: Iterable[Action]) -> list[Action]:
    """Actions one seat at a time: a hand, a thumb, a raised hand each its own."""
    out: list[Action] = []
    for a in actions:
        if isinstance(a, Hands):
            out.extend(Hands((s,)) for s in a.seats)
        elif isinstance(a, Thumbs):
            out.extend(Thumbs(a.target, (s,)) for s in a.seats)
        elif isinstance(a, HandsUp):
            out.extend(HandsUp((s,)) for s in a.seats)
        else:
            out.append(a)
    return out


def _key(atom: Action) -> str:
    """What an action counts as: a hand, a thumb for a seat, a raised hand are counted, not
    named (a host counts them; the pads press them in the reference's order)."""
    if isinstance(atom, Hands):
        return "hands"
    if isinstance(atom, Thumbs):
        return f"put_up {atom.target}"
    if isinstance(atom, HandsUp):
        return "extra"
    return str(atom)


#: what a pad does not send and a host does not count
SECOND_HANDS = "second hands and thumbs (a pad takes one a round, a host counts each once)"


class StepProgress:
    """One step of the reference, and a front end's actions in it matched against it as the
    front end takes them: :meth:`todo` is what the step still lacks.

    Built once per step and brought up to date with each look (:meth:`update`): the history
    only grows between two looks, or is a new list (an undo replays the game into one), so a
    look costs the actions taken since the last one, not the whole step — a speech of 10⁴
    refused nominations is 10⁴ moves of a player, each a look."""

    def __init__(self, step: Step, *, refused: bool = True) -> None:
        skip = Counter(step.refused if not refused else ())
        #: (moment in the step, one-seat action, what it counts as), in the reference's order
        self.items: list[tuple[float, Action, str]] = []
        for offset, action in zip(step.offsets, step.actions, strict=True):
            if isinstance(action, TimeUp):  # the time running out is not listed
                continue
            for atom in atoms([action]):
                if skip[str(atom)]:
                    skip[str(atom)] -= 1
                    continue
                self.items.append((offset, atom, _key(atom)))
        self.by_key: dict[str, list[int]] = {}
        for i, (_, _, key) in enumerate(self.items):
            self.by_key.setdefault(key, []).append(i)
        self.taken: Counter[str] = Counter()
        self.counted = False  # a count of hands stands for every hand of its window
        self.version = 0  # one more with every change of what was taken
        self._history: list[Action] | None = None
        self._start = self._seen = 0
        self._todo: list[tuple[float, Action]] | None = None

    def update(self, history: list[Action], start: int) -> StepProgress:
        """Take the front end's actions in the step: ``history[start:]``."""
        if history is not self._history or start != self._start or len(history) < self._seen:
            self._history, self._start, self._seen = history, start, start
            self.taken, self.counted = Counter(), False
            self._changed()
        if len(history) > self._seen:
            for atom in atoms(history[self._seen:]):
                self.taken[_key(atom)] += 1
                self.counted = self.counted or isinstance(atom, HandCount)
            self._seen = len(history)
            self._changed()
        return self

    def _changed(self) -> None:
        self.version += 1
        self._todo = None

    def _lacking(self, atom: Action) -> bool:
        return not (self.counted and isinstance(atom, Hands))

    def todo(self) -> list[tuple[float, Action]]:
        """What the step still lacks: (moment in the step, action), in the reference's order."""
        if self._todo is None:
            used: Counter[str] = Counter()
            out: list[tuple[float, Action]] = []
            for offset, atom, key in self.items:
                if used[key] < self.taken[key]:
                    used[key] += 1
                elif self._lacking(atom):
                    out.append((offset, atom))
            self._todo = out
        return self._todo

    def first(self, left_out: Callable[[Action], bool]) -> tuple[float, Action] | None:
        """The first of :meth:`todo` that ``left_out`` does not leave out, looking at the first
        lacking action of each kind only: a front end leaves an action out for what it is
        (a refused phrase, a seat out of reach), and the actions of a kind are alike."""
        best: int | None = None
        for key, places in self.by_key.items():
            n = self.taken[key]
            if n >= len(places):
                continue
            i = places[n]
            atom = self.items[i][1]
            if self._lacking(atom) and not left_out(atom) and (best is None or i < best):
                best = i
        return None if best is None else self.items[best][:2]


def remaining(step: Step, done: list[Action], *,
              refused: bool = True) -> list[tuple[float, Action]]:
    """What ``step`` of the reference still lacks after ``done`` (the front end's actions in
    it): (moment in the step, action) in the reference's order; the time running out is not
    listed. A count of hands (host-assist counts) stands for every hand of its window.
    ``refused=False``: without the hands and thumbs the engine refused (seats that had
    voted already). A player that looks again and again keeps a :class:`StepProgress`."""
    return StepProgress(step, refused=refused).update(done, 0).todo()


#: what no front end but the replay and the voice can enter: the grammar's refusals are said,
#: not tapped or typed
REFUSED_PHRASES = "refused phrases (a pad or a key cannot say one)"
#: a pad's grid offers only the seats at the table
OUT_OF_REACH = ("refused kills and put-ups of a seat already out (a pad offers only the seats "
                "at the table)")
#: what each reason for leaving an input out keeps out of the protocols' comparison
UNCOMPARED = {REFUSED_PHRASES: "refused", SECOND_HANDS: "refused", OUT_OF_REACH: "refused"}


def unspeakable(action: Action) -> str | None:
    """Why ``action`` cannot be given through keys or pads (None: it can)."""
    if isinstance(action, Malformed):
        return REFUSED_PHRASES
    return None


class Stuck(Exception):
    """The front end does not move on: its game stays where it is."""


class LoopPlayer:
    """Plays the reference on a front end whose loop it drives: ``host`` on a virtual clock,
    ``driver`` moving its time. Subclasses give an action (:meth:`give`) and end a step that
    waits for its time (:meth:`close`) the way their users do."""

    mode = "?"

    def __init__(self, ref: Reference, host: Host, driver: Driver, clock: VirtualClock) -> None:
        self.ref = ref
        self.host = host
        self.game = host.game
        self.driver = driver
        self.clock = clock
        self.left_out: set[str] = set()
        #: inputs the front end did not take, as its user was told
        self.errors: list[str] = []
        self._progress: dict[int, StepProgress] = {}  # by step, built on the first look at it

    def play(self) -> None:
        """Play the reference from where the game stands to its end."""
        last: tuple[int, float, int] | None = None
        idle = 0
        steps = self.ref.steps
        most = 2 * (sum(len(s.actions) for s in steps) + len(steps)) + SPARE_MOVES
        for _ in range(most):
            game = self.game
            if game.is_over:
                if not self._mark():  # the host's marks, the inputs after the game
                    return
                continue
            index = game.step
            if index >= len(self.ref.steps):
                return  # past the reference: the protocols will say where
            step = self.ref.steps[index]
            todo = self.progress(step).first(self._left_out)
            now = (len(game.history), self.driver.now(), index)
            idle = idle + 1 if now == last else 0
            last = now
            if idle > 3:
                told = f"; last not taken: {self.errors[-1]}" if self.errors else ""
                raise Stuck(f"{self.mode}: stays at {game.expect} "
                            f"({game.notation(secret=False)}){told}")
            if todo is not None:
                offset, action = todo
                # as the replay does: what is due by then (a number of the count, the
                # warning) comes first, then the input
                self.driver.run_until(max(self.driver.now(), self.host.timer_started + offset))
                if self.game.step != index or self.game.is_over:
                    continue  # the step ended first: look again
                self.give(step, action)
            elif not step.complete:
                # the script ends here: at this moment, after what is due at it (the count's
                # «один»), as the replay stands at its end
                self.driver.run_until(self.driver.now())
                return
            else:
                self.close(step)
        raise Stuck(f"{self.mode}: no end after {most:,} moves, at {self.game.expect} "
                    f"({self.game.notation(secret=False)})")

    def _mark(self) -> bool:
        """Give the next of the host's marks the reference took once the game was over;
        False: none is left."""
        index = self.game.step
        if index >= len(self.ref.steps):
            return False
        step = self.ref.steps[index]
        todo = self.progress(step).first(self._left_out)
        if todo is None or not isinstance(todo[1], Mark):
            return False
        self.give(step, todo[1])
        return True

    def progress(self, step: Step) -> StepProgress:
        """The step's progress in this front end, up to date: a second hand is not given."""
        if step.refused:
            self.left_out.add(SECOND_HANDS)
        made = self._progress.get(id(step))
        if made is None:
            made = self._progress[id(step)] = StepProgress(step, refused=not step.refused)
        return made.update(self.game.history, self.game.step_start)

    def remaining(self, step: Step) -> list[tuple[float, Action]]:
        """What the step still lacks in this front end (:meth:`progress`)."""
        return self.progress(step).todo()

    def _left_out(self, action: Action) -> bool:
        why = self.cannot(action)
        if why is None:
            return False
        self.left_out.add(why)
        return True

    def cannot(self, action: Action) -> str | None:
        """Why this front end cannot give ``action`` (None: it can)."""
        return unspeakable(action)

    def give(self, step: Step, action: Action) -> None:
        raise NotImplementedError

    def close(self, step: Step) -> None:
        """Let the step run out (its time, or the end its users give it)."""
        self.driver.run_next()
