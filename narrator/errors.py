"""The one error type users see: a one-line message, printed without a traceback."""


class NarratorError(Exception):
    """Bad input or a missing resource; ``str(error)`` is the whole message, one line."""

    def words(self, lang: str) -> str:
        """The message as a screen in ``lang`` (``ru``, ``uk``) shows it. ``str(error)`` is the
        English of the logs and the command line; an error a table's screen meets (a line the
        operator typed, an action the game refuses) puts itself in the table's words."""
        del lang  # (this one has only its English)
        return str(self)


class ScriptError(NarratorError):
    """A table script or a recorded session that cannot be replayed.

    The message has the form ``FILE:LINE: what was expected, what came``.
    """

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
