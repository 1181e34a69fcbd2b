"""The one error type users see: a one-line message, printed without a traceback."""


class NarratorError(Exception):
    """Bad input or a missing resource; ``str(error)`` is the whole message, one line."""


class ScriptError(NarratorError):
    """A table script or a recorded session that cannot be replayed.

    The message has the form ``FILE:LINE: what was expected, what came``.
    """

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line
