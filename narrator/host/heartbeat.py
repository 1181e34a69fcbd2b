"""The journal's heartbeat: a resume after a kill counts the time left to within a second.

A resumed game takes its running timer up from the timer's mark and the journal's last line
(:meth:`~narrator.host.journal.JournalContents.time_left`). When nothing was said or pressed
for a while before the kill (a long speech heard in silence), that last line is old, and the
timer would come back with more time than it had. So while a timer runs the journal gets a
``beat`` line each :data:`BEAT_EVERY` seconds of the game's time: the error is at most that.

Only while a timer runs (nothing else is counted down), never while the game is paused (its
clock stands still, and the timer with it). A beat is written like any line: one that cannot be
written pauses the game (:func:`narrator.host.faults.watch_journal`). It is no input the game
takes and no part of the protocol.
"""

from __future__ import annotations

from narrator.engine import Timer
from narrator.host.host import Host
from narrator.host.recorder import InputLog
from narrator.inputs import BEAT, Input

#: seconds of the game's time between two beats
BEAT_EVERY = 1.0
#: the scheduler's key of the next beat
KEY = "heartbeat"


def keep_heartbeat(host: Host, journal: InputLog, every: float = BEAT_EVERY) -> None:
    """Write a beat to ``journal`` every ``every`` seconds while ``host`` runs a timer."""

    def beat() -> None:
        timer = host.timer
        if timer is None or host.paused:
            return  # the next timer to run schedules the next beat
        now = host.now()
        end = host.timer_started + timer.seconds
        if now >= end:
            return  # a step held past its end has no time left to count
        journal.write(Input(BEAT, now))
        if now + every < end:  # (the timer's own end is a line of its own)
            host.scheduler.call_at(now + every, KEY, beat)

    def started(timer: Timer) -> None:
        host.scheduler.cancel(KEY)
        # a timer starts once its announcement is over (its start may lie ahead)
        first = max(host.now(), host.timer_started) + every
        if first < host.timer_started + timer.seconds:
            host.scheduler.call_at(first, KEY, beat)

    host.timer_listeners.append(started)
    if host.timer is not None:  # a game started (or resumed) before it was watched
        started(host.timer)
