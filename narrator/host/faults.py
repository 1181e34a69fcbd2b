"""A journal that cannot be written pauses the game, as a lost sound card does.

Nothing may be taken that a resume could not take up again: while the journal's lines wait in
memory (:class:`~narrator.host.journal.Journal`), the game's clock stops, the screens and the
terminal say why in one line, and the write is retried every two seconds; the game goes on when
it succeeds, or the operator stops it and resumes later from the journal as it was.
"""

from __future__ import annotations

from collections.abc import Callable

from narrator.host.host import Host
from narrator.host.journal import Journal

#: seconds between two tries of a journal that cannot be written
RETRY_EVERY = 2.0
#: the host's pause cause
JOURNAL = "journal"


def watch_journal(host: Host, journal: Journal, call: Callable[[Callable[[], object]], None],
                  log: Callable[[str], None]) -> None:
    """Pause ``host`` while ``journal`` cannot be written, retry every :data:`RETRY_EVERY`
    seconds on the host's scheduler, go on when it is whole again. ``call`` runs a function on
    the game's loop after the input in progress (a write fails in the middle of one)."""

    def retry() -> None:
        if not journal.retry():
            host.scheduler.call_at(host.now() + RETRY_EVERY, "journal-retry", retry)

    def failed(why: str) -> None:
        log(f"{why}: the game is paused, the journal is tried again every "
            f"{RETRY_EVERY:g} s (q stops; the journal holds the game up to here)")

        def pause() -> None:
            # (the screens get no path: only that the game waits, and why)
            host.pause(JOURNAL, f"the journal cannot be written ({journal.error})")
            host.scheduler.call_at(host.now() + RETRY_EVERY, "journal-retry", retry)

        call(pause)

    def recovered() -> None:
        log(f"{journal.path}: written again: the game goes on")
        host.unpause(JOURNAL)

    journal.on_failure.append(failed)
    journal.on_recovered.append(recovered)
