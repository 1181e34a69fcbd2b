"""The pads in the terminal operator's place, for ``narrator play --console``.

With ``--listen off`` the host runs on a :class:`~narrator.host.driver.Driver` of its own; while
listening, the microphone's :class:`~narrator.listening.ListeningLoop` drives the game and the
console's presses run on its thread, through its driver. Either way no step of the night and no
vote waits for a pad: each ends with its timer, as at a real table. What the terminal operator
was told (a new step, an input not taken) is only logged.
"""

from __future__ import annotations

from collections.abc import Callable

from narrator.host.texts import tx


class PadsLog:
    """The listening loop's operator when the pads play: prompts go nowhere (the pads show
    each step), inputs not taken go to the log."""

    def __init__(self, log: Callable[[str], None], lang: str = "en") -> None:
        self.log = log
        self.lang = lang  # the table's (``--lang``)

    def prompt(self, text: str) -> None:
        """The pads show each step themselves."""

    def error(self, text: str) -> None:
        self.log(tx("t_not_taken", self.lang, what=text))
