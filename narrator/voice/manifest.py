"""Voice-pack manifests: load, validate and expand.

A manifest is ``{"lang", "name", "numbers": [lo, hi], "phrases": {key: text}}``. A key ending in
``.{n}`` is a template, expanded for every n in ``numbers`` (inclusive); ``{num}`` in its text
becomes the text of ``num.<n>``. Other keys are plain. An explicit key (``count.1``) overrides
the same key expanded from a template, so a pack can fix one grammatical exception.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.reading import read_json

#: a voice pack's manifest lists a few hundred lines; this is a hundred times that
MAX_MANIFEST = 16 << 20

MANIFEST_NAME = "manifest.json"


def default_voices_root() -> Path:
    """The ``voices/`` folder of this checkout (or of the working directory)."""
    repo = Path(__file__).resolve().parents[2] / "voices"
    return repo if repo.is_dir() else Path.cwd() / "voices"


_KEY = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)*$")
_TEMPLATE = re.compile(r"^([a-z0-9_]+(?:\.[a-z0-9_]+)*)\.\{n\}$")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True)
class Manifest:
    """An expanded manifest: every clip key in order, and the text each one says."""

    path: Path
    lang: str
    name: str
    numbers: tuple[int, int]
    phrases: dict[str, str] = field(repr=False)  # as written, templates unexpanded
    _texts: dict[str, str] = field(repr=False)

    def keys(self) -> list[str]:
        """Every clip key (templates expanded), in manifest order."""
        return list(self._texts)

    def text(self, key: str) -> str:
        """What the clip ``key`` says; KeyError for a key the manifest does not have."""
        return self._texts[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._texts)

    def __contains__(self, key: object) -> bool:
        return key in self._texts

    def __len__(self) -> int:
        return len(self._texts)

    def lacking(self, keys: list[str]) -> list[str]:
        """Those of ``keys`` this manifest does not have, in their order."""
        return [k for k in keys if k not in self._texts]

    def text_hash(self, key: str) -> str:
        """A short stable hash of the language and text of ``key`` (to spot re-worded phrases)."""
        return hashlib.sha256(f"{self.lang}\0{self._texts[key]}".encode()).hexdigest()[:16]

    def to_json(self) -> str:
        """The manifest as written (for a copy next to a recorded pack)."""
        data = {
            "lang": self.lang,
            "name": self.name,
            "numbers": list(self.numbers),
            "phrases": self.phrases,
        }
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def load_manifest(path: Path | str) -> Manifest:
    """Read and expand ``path`` (a manifest file, or a pack folder holding one).

    Raises NarratorError naming the file and the field on anything broken.
    """
    path = Path(path)
    if path.is_dir():
        path = path / MANIFEST_NAME
    if not os.path.lexists(path):
        raise NarratorError(f"{path}: voice pack manifest not found")
    data = read_json(path, "the manifest", limit=MAX_MANIFEST)  # (regular, bounded, strict)
    return parse_manifest(data, path)


def parse_manifest(data: Any, path: Path) -> Manifest:
    """Validate and expand already-parsed manifest JSON; ``path`` is named in errors."""
    lang, name, (lo, hi), phrases = _fields(data, path)
    # Plain keys first, so templates can both use num.<n> and be overridden by explicit keys.
    plain = _plain_phrases(phrases, path)
    texts: dict[str, str] = {}
    for key, text in phrases.items():
        m = _TEMPLATE.match(key)
        if m:
            _expand(key, m.group(1), text, (lo, hi), plain, texts, path)
        else:
            texts.setdefault(key, plain[key])
    return Manifest(path, lang, name, (lo, hi), dict(phrases), texts)


def _fail(path: Path, what: str) -> NarratorError:
    return NarratorError(f"{path}: {what}")


def _fields(data: Any, path: Path) -> tuple[str, str, tuple[int, int], dict[str, Any]]:
    """The manifest's four fields, each checked: its language, name, numbers and phrases."""
    if not isinstance(data, dict):
        raise _fail(path, "the manifest must be a JSON object")
    for name in ("lang", "name", "numbers", "phrases"):
        if name not in data:
            raise _fail(path, f'field "{name}" is missing')
    lang, name = data["lang"], data["name"]
    if not isinstance(lang, str) or not re.fullmatch(r"[a-z]{2,3}", lang):
        raise _fail(path, f'field "lang" must be a language code such as "ru", got {lang!r}')
    if not isinstance(name, str):
        raise _fail(path, 'field "name" must be a string')
    numbers = data["numbers"]
    if (
        not isinstance(numbers, list)
        or len(numbers) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers)
        or numbers[0] > numbers[1]
        or numbers[0] < 0
    ):
        raise _fail(path, f'field "numbers" must be [first, last] with 0 <= first <= last, '
                          f"got {numbers!r}")
    phrases = data["phrases"]
    if not isinstance(phrases, dict) or not phrases:
        raise _fail(path, 'field "phrases" must be a non-empty object {key: text}')
    return lang, name, (int(numbers[0]), int(numbers[1])), phrases


def _plain_phrases(phrases: dict[str, Any], path: Path) -> dict[str, str]:
    """The phrases that are not templates; every phrase's text checked."""
    plain: dict[str, str] = {}
    for key, text in phrases.items():
        if not isinstance(text, str) or not text.strip():
            raise _fail(path, f'phrase "{key}" must be a non-empty string')
        if _TEMPLATE.match(key):
            continue
        if not _KEY.match(key):
            raise _fail(path, f'phrase key "{key}" may hold only a-z, 0-9, "_" and "." '
                              f"(or end in .{{n}})")
        if _PLACEHOLDER.search(text):
            raise _fail(path, f'phrase "{key}" has a placeholder but is not a template '
                              f"(.{{n}}): {text!r}")
        plain[key] = text
    return plain


def _expand(key: str, stem: str, text: str, numbers: tuple[int, int], plain: dict[str, str],
            texts: dict[str, str], path: Path) -> None:
    """Add to ``texts`` the template ``key`` (``stem.{n}``) said for every number, except where
    a key already there or a plain key of the same name says it."""
    for placeholder in _PLACEHOLDER.findall(text):
        if placeholder != "num":
            raise _fail(path, f'phrase "{key}": unknown placeholder {{{placeholder}}} '
                              f"(only {{num}})")
    lo, hi = numbers
    for n in range(lo, hi + 1):
        expanded = f"{stem}.{n}"
        if expanded in texts:
            continue
        if expanded in plain:
            texts[expanded] = plain[expanded]
            continue
        if "{num}" in text:
            num = plain.get(f"num.{n}")
            if num is None:
                raise _fail(path, f'phrase "{key}" needs "num.{n}" (numbers run {lo}..{hi})')
            texts[expanded] = text.replace("{num}", num)
        else:
            texts[expanded] = text


_DEFAULTS: dict[tuple[Path, int, int, int], Manifest] = {}


def default_manifest(lang: str) -> Manifest:
    """The manifest of the default voice pack for ``lang``: read once while its file is
    unchanged (a replay, a console or a conformance run each asked for it again, ~5 ms a time;
    nothing changes a Manifest once made)."""
    path = default_voices_root() / lang / MANIFEST_NAME
    try:
        st = path.stat()
    except OSError:
        return load_manifest(path.parent)  # its own error, as before
    key = (path, st.st_mtime_ns, st.st_size, st.st_ino)
    manifest = _DEFAULTS.get(key)
    if manifest is None:
        manifest = _DEFAULTS[key] = load_manifest(path.parent)
    return manifest
