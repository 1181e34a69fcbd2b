"""The terminal of a console game (``narrator play --listen off --console``): it says how the
game goes (nothing secret) and takes the operator's lines; ``q`` asks first."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

from tests.console.browser import launched_game

WAIT = 30.0


def test_the_console_games_terminal_says_the_progress_and_stops_on_q_then_y(
        tmp_path: Path) -> None:
    with launched_game(tmp_path, "--seed", "1") as game:
        proc = game.proc
        assert proc.stdout is not None and proc.stdin is not None
        lines: queue.Queue[str] = queue.Queue()

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.put(line.rstrip("\n"))
            lines.put("<eof>")

        threading.Thread(target=read, daemon=True).start()
        seen: list[str] = []

        def until(part: str) -> str:
            while True:
                line = lines.get(timeout=WAIT)
                seen.append(line)
                assert line != "<eof>", seen
                if part in line:
                    return line

        def type_line(text: str) -> None:
            assert proc.stdin is not None
            proc.stdin.write(text + "\n")
            proc.stdin.flush()

        # 2.1.1: no pad has looked at its card: the deal waits, and the terminal says for whom
        assert until("waiting for the cards of seats") .endswith(
            "waiting for the cards of seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10")
        type_line("f 4")  # an operator's line, taken as in hostless play
        type_line("q")
        until("stop the game here?")
        type_line("n")
        until("going on")
        type_line("q")
        until("stop the game here?")
        type_line("y")
        assert proc.wait(timeout=WAIT) == 0
        until("stopped; resume with")
        text = "\n".join(seen)
        assert "n1: the deal" in text  # the step, in the engine's words
        for secret in ("don", "sheriff", "mafia"):  # no card is named
            assert secret not in text.lower().replace("mafia win", ""), secret
    assert '"action":"foul 4"' in game.journal.read_text()
