"""Reading the grammar corpora (``corpus_ru.tsv``, ``corpus_uk.tsv``).

One phrase a line: ``shape<TAB>text<TAB>expected``. ``shape`` is ``asr`` (as Vosk prints it)
or ``typed``; ``expected`` lists the intents, space-separated, each ``kind/target/verdict``
where ``target`` is ``-`` for none and ``verdict`` is ``ok`` or a reason code. Lines starting
with ``#`` are comments.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    """One corpus line."""

    lang: str
    line: int
    shape: str
    text: str
    expected: tuple[tuple[str, int | None, bool, str | None], ...]

    @property
    def id(self) -> str:
        return f"{self.lang}:{self.line}:{self.text[:40]}"


def _intent(spec: str) -> tuple[str, int | None, bool, str | None]:
    kind, target, verdict = spec.split("/")
    return (
        kind,
        None if target == "-" else int(target),
        verdict == "ok",
        None if verdict == "ok" else verdict,
    )


def load(lang: str) -> list[Case]:
    """Every case of one language's corpus."""
    cases: list[Case] = []
    path = HERE / f"corpus_{lang}.tsv"
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        shape, text, expected = raw.split("\t")
        assert shape in ("asr", "typed"), f"{path.name}:{n}: bad shape {shape!r}"
        cases.append(Case(lang, n, shape, text, tuple(_intent(s) for s in expected.split())))
    return cases


ALL: list[Case] = load("ru") + load("uk")
