"""Fixtures for the voice tests: the default packs, rendered once per session if needed."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.voice.build import build_pack
from narrator.voice.manifest import MANIFEST_NAME, default_voices_root
from narrator.voice.pack import VoicePack

LANGS = ("ru", "uk")


@pytest.fixture(scope="session")
def voices_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``voices/`` root with complete ru and uk packs.

    setup.sh renders ``voices/<lang>/clips`` before the tests; when they are absent or
    incomplete (a fresh checkout) the packs are built into a temporary folder instead, so the
    tests never write into the working tree.
    """
    source = default_voices_root()
    if all(VoicePack.load(source / lang, synthesize=False).check().ok for lang in LANGS):
        return source
    root = tmp_path_factory.mktemp("voices")
    for lang in LANGS:
        build_pack(source / lang / MANIFEST_NAME, root / lang)
    return root


@pytest.fixture(scope="session")
def ru_pack(voices_root: Path) -> VoicePack:
    """The Russian pack, shared by the session (its clips are cached once decoded)."""
    return VoicePack.load(voices_root / "ru")
