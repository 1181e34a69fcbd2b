"""Store and forward: the outbox's games sent to the director on a thread of their own.

A game is never held up by the director: the table writes what it owes into the outbox
(:mod:`narrator.evening.outbox`) and :meth:`Forwarder.kick` sends every entry there on the
sending thread, each request with its own timeout (:data:`narrator.evening.director.TIMEOUT`).
The evening kicks it when it starts (what a stopped or killed box owed), after each game, and
every :data:`RETRY` seconds between games by its own clock (:meth:`Forwarder.tick`: a virtual
clock in tests). The first request without an answer ends the round: the director is "not
reachable now", the rest wait for the next. A sent game is idempotent on the director's side
(the same key twice is stored once), so a retry after a lost answer is harmless.

The table's word on itself (:meth:`Forwarder.report`: its console's address, the game and the
round in play, day or night) goes first in a round, the latest one only: the director's board
and its players' pad links follow it. A director that has no such request (404) is not told.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from narrator.errors import NarratorError
from narrator.evening.director import (
    TIMEOUT,
    Answer,
    Unreachable,
    address_of,
    post_game,
    post_status,
)
from narrator.evening.outbox import Outbox, number_of
from narrator.host.texts import tx

#: seconds between two tries of the outbox between games
RETRY = 30.0

#: one request: (the join link, the body) → the director's answer; tests give their own
Post = Callable[[str, dict[str, Any]], Answer]


class Forwarder:
    """The outbox of one evening and the director it owes (``link``). ``say`` prints a line
    (sent, refused, the director lost or back); ``on_change`` is called on the sending thread
    after each round (the operator's page shows :meth:`state`); ``reachable``: what the start
    found (None: not tried)."""

    def __init__(self, outbox: Outbox, link: str, *, say: Callable[[str], None],
                 on_change: Callable[[], None] | None = None, post: Post = post_game,
                 post_status: Post = post_status, reachable: bool | None = None,
                 lang: str = "en") -> None:
        self.outbox = outbox
        self.lang = lang  # what it says is in the table's words (the API's English by default)
        self.link = link
        self.say = say
        self.on_change = on_change or (lambda: None)
        self.post = post
        self.post_status = post_status
        self.reachable = reachable
        self._status: dict[str, Any] | None = None  # the word to say (None: said)
        self._said: dict[str, Any] | None = None  # the last word the director took
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._again = False
        self._next: float | None = None  # the timer's next try, on the evening's clock
        self._rearm = False
        #: the tournament's standings as the director's last answer gave them (None: none
        #: yet) — the table's pads show these, not the table's own points
        self.standings: dict[str, Any] | None = None

    def _took(self, answer: Answer) -> None:
        """An answer's standings kept (the director's of the moment)."""
        got = answer.body.get("standings")
        if answer.status == 200 and isinstance(got, dict) and \
                isinstance(got.get("standings"), list):
            self.standings = got

    def state(self) -> dict[str, Any]:
        """What the operator's page shows: the director reached at the last try (None: not
        tried yet), the games it does not have, and of them the ones it refused, each with
        the director's reason (``refusals``: the game's number and why)."""
        refused = self.outbox.refused()
        return {"reachable": self.reachable, "unsent": self.outbox.unsent(),
                "refused": len(refused),
                "refusals": [{"game": number_of(key), "why": self.outbox.why(key)}
                             for key in refused]}

    # -- on the evening's thread ------------------------------------------------------------

    def owe(self, key: str, body: dict[str, Any]) -> None:
        """The game ``key`` into the outbox (once: a game owed or sent already is left)."""
        if self.outbox.holds(key):
            return
        try:
            self.outbox.put(key, body)
        except NarratorError as e:  # (a full disk): said; the evening goes on
            self.say(self._tx("j_not_kept", game=body.get("game"), error=e))

    def report(self, status: dict[str, Any]) -> None:
        """The table's word on itself, said to the director on the sending thread (a word
        said already is not said again; one not said yet gives way to a newer)."""
        with self._lock:
            if status == self._said or status == self._status:
                return
            self._status = dict(status)
        self.kick()

    def kick(self) -> None:
        """Send what the outbox holds, on the sending thread (started if none runs; one that
        runs goes round once more). Returns at once."""
        with self._lock:
            self._rearm = True  # the timer's 30 s count from this try
            if self._thread is not None:
                self._again = True
                return
            self._thread = threading.Thread(target=self._run, name="narrator-director",
                                            daemon=True)
            self._thread.start()

    def tick(self, now: float) -> None:
        """Between games, at the evening's time ``now``: every :data:`RETRY` s from the last
        try, the outbox again (when it holds a game to send)."""
        if self._next is None or self._rearm:
            self._next, self._rearm = now + RETRY, False
        elif now >= self._next:
            self._next = now + RETRY
            if self.outbox.waiting() or self._status is not None:
                self.kick()
                self._rearm = False  # (its own try: the next is RETRY from now, as set)

    def close(self, again: str) -> None:
        """The evening ends: the send in flight waited for (at most one request's time), what
        is left said (``again``: the command that sends it)."""
        self.wait(TIMEOUT + 1)
        unsent = self.outbox.unsent()
        if unsent:
            self.say(self._tx("j_unsent", n=unsent, box=self.outbox.box, again=again))

    def wait(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) for the sending thread to finish; whether it has."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
        return self._thread is None or not self._thread.is_alive()

    # -- on the sending thread ----------------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                self._round()
            except Exception as e:  # (a bug here must not take the evening down)
                self.say(self._tx("j_not_sent_d", error=e))
            self.on_change()
            with self._lock:
                if not self._again:
                    self._thread = None
                    return
                self._again = False

    def _round(self) -> None:
        """The table's word, then each waiting game once, in order; the first request
        without an answer ends the round."""
        if not self._tell():
            return
        sent = False
        for key in self.outbox.waiting():
            try:
                body = self.outbox.body(key)
            except NarratorError as e:  # (a damaged entry: said once, kept aside)
                self.outbox.refuse(key, str(e))
                self.say(self._tx("j_not_sent", error=e))
                continue
            try:
                answer = self.post(self.link, body)
            except Unreachable as e:
                self._lost(str(e))
                return
            if not self._answered(key, body, answer):
                return
            sent = True
        if sent:
            self._standings_again()

    def _standings_again(self) -> None:
        """After games taken, the table's last word said once more: its answer holds the
        standings those games made (the pads show them)."""
        with self._lock:
            said = self._said
        if said is None:
            return
        try:
            self._took(self.post_status(self.link, said))
        except Unreachable:
            return

    def _tell(self) -> bool:
        """The latest word on the table said (False: the director gave no answer)."""
        with self._lock:
            status = self._status
        if status is None:
            return True
        try:
            answer = self.post_status(self.link, status)
        except Unreachable as e:
            self._lost(str(e))
            return False
        if answer.status >= 500:
            self._lost(self._tx("j_answers", address=address_of(self.link), error=answer.error))
            return False
        if answer.status == 200:
            self._found()
            self._took(answer)
        elif answer.status != 404:  # (404: a director without the request: nothing to say)
            self.say(self._tx("j_state", status=answer.status,
                              error=" ".join(answer.error.split())[:200]))
        with self._lock:
            self._said = status
            if self._status == status:
                self._status = None
        return True

    def _answered(self, key: str, body: dict[str, Any], answer: Answer) -> bool:
        """The director's answer to ``key`` taken (False: it is not taking games now)."""
        game = body.get("game", key)
        if answer.status == 200 and (answer.body.get("stored") is True or
                                     answer.body.get("already") is True):
            self._found()
            self._took(answer)
            self.outbox.done(key, body)  # (a newer version written meanwhile stays owed)
            self.say(self._tx("j_sent", game=game) +
                     (self._tx("j_already") if answer.body.get("already") else "") +
                     (self._tx("j_updated") if answer.body.get("updated") else ""))
            return True
        if answer.status in (400, 409):
            self._found()
            why = " ".join(answer.error.split())[:300]
            self.outbox.refuse(key, f"HTTP {answer.status}: {why}", body)
            self.say(self._tx("j_refused", game=game, status=answer.status, why=why,
                              box=self.outbox.box))
            return True
        self._lost(f"the director at {address_of(self.link)} answers {answer.error}")
        return False

    def _tx(self, key: str, **fields: object) -> str:
        return tx(key, self.lang, **fields)

    def _found(self) -> None:
        if self.reachable is False:
            self.say(self._tx("j_back", address=address_of(self.link)))
        self.reachable = True

    def _lost(self, why: str) -> None:
        if self.reachable is not False:  # (said once, not at every try)
            unsent = self.outbox.unsent()
            self.say(self._tx("j_wait", why=why, n=unsent, box=self.outbox.box) if unsent
                     else self._tx("j_later", why=why))
        self.reachable = False
