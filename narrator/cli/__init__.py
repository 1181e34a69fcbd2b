"""The ``narrator`` command line: play | evening | assist | replay | resume | conform | export |
demo | parse | voices | models.

Each command's work lives in its package; the command line only parses arguments (every
command's options, the value it is given and its entry are a row of the table in
:mod:`narrator.cli.commands`), imports the command lazily (so ``narrator parse`` does not load
audio libraries) and turns a :class:`~narrator.errors.NarratorError` into one line on stderr
and exit code 2.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from narrator.cli.commands import Command, build_parser
from narrator.errors import NarratorError


class OutputError(NarratorError):
    """Standard output cannot be written (a full disk, a closed pipe)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(f"cannot write the output ({error.strerror or error})")
        self.error = error


class _GuardedOutput:
    """Standard output whose write errors are :class:`OutputError` s, not tracebacks."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as e:
            raise OutputError(e) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise OutputError(e) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_stdout() -> None:
    """Point the failed standard output at /dev/null, so that the interpreter's last flush at
    exit does not print a second, noisy error."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ else 1)
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``narrator`` console script."""
    args = build_parser().parse_args(argv)
    stdout = sys.stdout
    # A terminal is left alone (the assist screen draws on it); files and pipes are guarded.
    guarded = not stdout.isatty()
    if guarded:
        sys.stdout = _GuardedOutput(stdout)
    try:
        command: Command = args.command_row
        code = command.run(args)
        sys.stdout.flush()
        return code
    except OutputError as e:
        _drop_stdout()
        if e.error.errno == errno.EPIPE:
            return 141  # the reader went away (`| head`): as quiet as any command
        print(f"narrator: {e}", file=sys.stderr)
        return 2
    except NarratorError as e:
        print(f"narrator: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("narrator: interrupted", file=sys.stderr)
        return 130
    finally:
        if guarded:
            sys.stdout = stdout


if __name__ == "__main__":
    raise SystemExit(main())
