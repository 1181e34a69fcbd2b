"""The terminal of a console game (``narrator play --listen off --console``): it says how the
game goes (nothing secret) and takes the operator's lines; ``q`` asks first."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest

from narrator.host.texts import tx
from narrator.reasons import words as reason_words
from tests.console.browser import ROLE_WORDS, launched_game
from tests.words.english import english

WAIT = 30.0


#: what the terminal says, in each table language (the test waits for these)
SAYS = {
    "ru": {"cards": "ждём карты игроков", "ask": "остановить игру здесь?", "on": "продолжаем",
           "stopped": "игра остановлена; продолжить:", "deal": "Ночь 1: Раздача карт"},
    "uk": {"cards": "чекаємо на карти гравців", "ask": "зупинити гру тут?", "on": "продовжуємо",
           "stopped": "гру зупинено; продовжити:", "deal": "Ніч 1: Роздача карт"},
}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_console_games_terminal_says_the_progress_and_stops_on_q_then_y(
        tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    with launched_game(tmp_path, "--seed", "1", lang=lang) as game:
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
        # (in the table's words: --lang)
        assert until(says["cards"]).endswith(f"{says['cards']} 1, 2, 3, 4, 5, 6, 7, 8, 9, 10")
        type_line("f 4")  # an operator's line, taken as in hostless play
        type_line("w 5")  # nobody speaks: not taken, and said so in the table's words
        until(tx("t_not_taken", lang, what=""))
        type_line("q")
        until(says["ask"])
        type_line("n")
        until(says["on"])
        type_line("q")
        until(says["ask"])
        type_line("y")
        assert proc.wait(timeout=WAIT) == 0
        until(says["stopped"])
        text = "\n".join(seen)
        assert says["deal"] in text  # the step, in the engine's words
        assert not ROLE_WORDS.search(text), text  # no card is named
        # every line in the table's language: no English word but a command to type
        assert english(text) == [], text
    assert '"action":"foul 4"' in game.journal.read_text()



def test_after_the_game_the_terminal_takes_the_hosts_marks_until_enter(tmp_path: Path) -> None:
    """Over, the game's driver runs on while the console stays up: an ``m`` line is the host's
    marks (into the journal, the engine's reason when it refuses one), any other line closes
    the console."""
    from narrator.host.journal import load_journal

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

        def until(part: str) -> None:
            while part not in (line := lines.get(timeout=WAIT)):
                seen.append(line)
                assert line != "<eof>", seen
            seen.append(line)

        def type_line(text: str) -> None:
            assert proc.stdin is not None
            proc.stdin.write(text + "\n")
            proc.stdin.flush()

        for seat in sorted(s for s, r in game.roles.items() if r in ("mafia", "don")):
            type_line(f"r {seat}")
        until("оценки ведущего — на пульте ведущего или здесь")
        type_line("m 5 +0.3")  # points need a comment: the engine's reason
        until("не принято")
        assert reason_words("comment_needed", "ru") in seen[-1]
        type_line("m 4 +0.3 bp -- нашла шерифа")
        type_line("")  # Enter: the console closes
        assert proc.wait(timeout=WAIT) == 0
    marks = load_journal(game.journal).game().marks
    assert set(marks) == {4} and marks[4].titles == ("best_player",)
