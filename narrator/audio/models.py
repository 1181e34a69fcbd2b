"""Vosk models: fetch the official small ones, find one, check that it takes runtime grammars.

``narrator models fetch ru|uk`` downloads from alphacephei.com with a progress bar, resumes a
partial ``.part`` file with an HTTP Range request, checks the SHA-256 and every member of the
zip (a bad download is removed and never resumed from), and unpacks atomically
(into a temporary folder, then one rename), so an interrupted fetch never leaves a half model
where :func:`find_model` would pick it up.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import os
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from narrator.arguments import ModelsCheckArgs, ModelsFetchArgs, ModelsInstallArgs
from narrator.errors import NarratorError

BASE_URL = "https://alphacephei.com/vosk/models/"
ENV_MODEL = "NARRATOR_MODEL"
DEFAULT_DIR = Path("models")


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """An official model: its folder name, where to get it and its pinned SHA-256.

    ``sha256`` is None when no published hash was available to pin: the download is then
    hashed and the hash printed with a warning instead of being verified.
    """

    name: str
    url: str
    sha256: str | None = None


def _official(name: str, sha256: str | None = None) -> ModelInfo:
    return ModelInfo(name, f"{BASE_URL}{name}.zip", sha256)


# No SHA-256 is pinned: alphacephei.com publishes none next to the zips, and none could be
# obtained from a trusted public source while writing this (no network to download and hash).
# Pin one here as soon as a maintainer has downloaded and hashed the official zip.
MODELS: Mapping[str, ModelInfo] = {
    "ru": _official("vosk-model-small-ru-0.22"),
    "uk": _official("vosk-model-small-uk-v3-small"),
}


def _say(message: str) -> None:
    print(message, file=sys.stderr)


# -- fetching -------------------------------------------------------------------------------


class _Response(Protocol):
    def read(self, n: int = -1, /) -> bytes: ...

    def close(self) -> None: ...


def _open(url: str, offset: int, timeout: float) -> tuple[_Response, int, int | None]:
    """Open ``url`` from byte ``offset``. Returns (response, real offset, total size)."""
    request = urllib.request.Request(url, headers={"User-Agent": "narrator"})
    if offset:
        request.add_header("Range", f"bytes={offset}-")
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as e:
        if e.code == 416 and offset:  # the .part is already complete
            return _EmptyResponse(), offset, offset
        raise
    status = response.status
    length = response.headers.get("Content-Length")
    if offset and status == 206:
        total = offset + int(length) if length is not None else None
        return response, offset, total
    # 200: the server ignored the Range header; start over.
    return response, 0, int(length) if length is not None else None


class _EmptyResponse:
    def read(self, n: int = -1, /) -> bytes:
        return b""

    def close(self) -> None:
        pass


def _download(url: str, part: Path, *, progress: bool, timeout: float) -> None:
    from tqdm import tqdm

    offset = part.stat().st_size if part.exists() else 0
    response, offset, total = _open(url, offset, timeout)
    if offset:
        _say(f"resuming {part.name} from {offset / 1e6:.1f} MB")
    mode = "ab" if offset else "wb"
    try:
        with part.open(mode) as out, tqdm(
            total=total, initial=offset, unit="B", unit_scale=True, unit_divisor=1024,
            desc=part.name.removesuffix(".part"), disable=not progress, file=sys.stderr,
        ) as bar:
            while True:
                block = response.read(1 << 16)
                if not block:
                    break
                out.write(block)
                bar.update(len(block))
    finally:
        response.close()
    size = part.stat().st_size
    if total is not None and size != total:
        raise NarratorError(
            f"download of {url} stopped at {size} of {total} bytes: run the command again "
            "to resume"
        )


def sha256_of(path: Path) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _unpack(archive: Path, dest: Path, name: str) -> Path:
    """Unzip into a temporary folder beside ``dest/name``, then rename it into place."""
    target = dest / name
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=dest))
    try:
        try:
            with zipfile.ZipFile(archive) as z:
                root = tmp.resolve()
                for member in z.namelist():
                    # Refuse paths that would land outside the folder (zip slip).
                    if not (tmp / member).resolve().is_relative_to(root):
                        raise NarratorError(f"{archive.name}: unsafe path in archive: {member}")
                z.extractall(tmp)
        except zipfile.BadZipFile as e:
            raise NarratorError(f"{archive.name} is not a valid zip ({e})") from e
        # Official zips hold one top folder named like the model; accept a flat zip too.
        entries = [p for p in tmp.iterdir() if not p.name.startswith("__MACOSX")]
        inner = entries[0] if len(entries) == 1 and entries[0].is_dir() else tmp
        if not (inner / "am").is_dir():
            raise NarratorError(f"{archive.name} does not contain a Vosk model (no am/)")
        if target.exists():
            shutil.rmtree(target)
        os.replace(inner, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


ZIP_MAGIC = b"PK\x03\x04"


class _BadDownload(NarratorError):
    """The downloaded bytes are not the model (a web page, a corrupt or foreign zip)."""


def _validate(part: Path, info: ModelInfo) -> str:
    """The SHA-256 of ``part``; _BadDownload when it is not a sound zip of the pinned hash.

    Every member is read and its CRC checked, so a corrupt archive of full size is caught here
    rather than half-way through unpacking.
    """
    digest = sha256_of(part)
    if info.sha256 is not None and digest != info.sha256.lower():
        raise _BadDownload(f"checksum mismatch for {info.name}: expected {info.sha256}, "
                           f"got {digest}")
    try:
        with zipfile.ZipFile(part) as z:
            broken = z.testzip()
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError,
            NotImplementedError) as e:  # what a damaged archive raises while being read
        raise _BadDownload(f"the download of {info.name} is not a valid zip ({e})") from e
    if broken is not None:
        raise _BadDownload(f"the download of {info.name} is a corrupt zip ({broken} is damaged)")
    return digest


def _another_way(info: ModelInfo) -> str:
    return (f"without a network here, download {info.url} on another computer, carry the file "
            f"over (a USB stick) and run `narrator models install {info.name}.zip`")


def _fetch_part(info: ModelInfo, part: Path, *, progress: bool, timeout: float) -> None:
    try:
        _download(info.url, part, progress=progress, timeout=timeout)
    except urllib.error.HTTPError as e:
        raise NarratorError(f"cannot download {info.url}: HTTP {e.code} {e.reason}") from e
    except urllib.error.URLError as e:
        raise NarratorError(f"cannot download {info.url}: {e.reason}; "
                            f"{_another_way(info)}") from e
    except (OSError, http.client.HTTPException) as e:  # timeouts, resets, cut transfers
        raise NarratorError(f"cannot download {info.url}: {e or type(e).__name__}") from e


def fetch_model(info: ModelInfo, dest: Path = DEFAULT_DIR, *, progress: bool = True,
                timeout: float = 30.0) -> Path:
    """Download, verify and unpack ``info`` into ``dest``; returns the model folder.

    A leftover ``<name>.zip.part`` is resumed when it starts like a zip. A finished download is
    checked (pinned SHA-256, every member's CRC); a bad one is removed, since resuming from it
    could only fail again: a resumed one is then fetched once more from the start, a fresh one
    is an error. Each step is said in one line; network failures are one-line NarratorErrors.
    """
    created = _made(dest)
    part = dest / f"{info.name}.zip.part"
    try:
        return _fetch_into(info, dest, part, progress=progress, timeout=timeout)
    except NarratorError:
        if part.exists() and part.stat().st_size == 0:
            part.unlink()  # nothing came: nothing to resume from
        for folder in created:  # a folder made for nothing is not left behind
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def _made(dest: Path) -> list[Path]:
    """Make ``dest`` (and its missing parents); the folders made, deepest first."""
    missing = [p for p in (dest, *dest.parents) if not p.exists()]
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise NarratorError(f"{dest}: cannot create the models folder ({e.strerror})") from None
    return missing


def _fetch_into(info: ModelInfo, dest: Path, part: Path, *, progress: bool,
                timeout: float) -> Path:
    resumed = False
    if part.exists():
        with part.open("rb") as f:
            head = f.read(len(ZIP_MAGIC))
        if head and not ZIP_MAGIC.startswith(head) and not head.startswith(ZIP_MAGIC):
            _say(f"{part.name} is not the start of a zip: discarded, downloading from the start")
            part.unlink()
        else:
            resumed = part.stat().st_size > 0
    _fetch_part(info, part, progress=progress, timeout=timeout)
    try:
        digest = _validate(part, info)
    except _BadDownload as e:
        part.unlink()
        if not resumed:
            raise NarratorError(f"{e}; the download was removed: run the command again") from None
        _say(f"{e}: the resumed download was discarded, downloading from the start")
        _fetch_part(info, part, progress=progress, timeout=timeout)
        try:
            digest = _validate(part, info)
        except _BadDownload as e2:
            part.unlink()
            raise NarratorError(f"{e2}; the download was removed: run the command again"
                                ) from None
    if info.sha256 is None:
        _say(f"warning: no SHA-256 is pinned for {info.name}; not verified. "
             f"sha256 of the download: {digest} ({part.stat().st_size} bytes)")
    try:
        target = _unpack(part, dest, info.name)
    except NarratorError:
        part.unlink()  # a sound zip, but not a model: nothing to resume from either
        raise
    part.unlink()
    return target


#: the zip's own name → the official model it is (a pinned hash is checked when there is one)
_BY_FILE = {f"{info.name}.zip": info for info in MODELS.values()}


def install_model(archive: Path, dest: Path = DEFAULT_DIR) -> Path:
    """Unpack a model's zip downloaded elsewhere (``narrator models install FILE.zip``):
    every member checked, no path out of the folder (zip slip), the SHA-256 of an official
    model checked where one is pinned; then Vosk must load it and take runtime grammars. On
    any failure nothing is left behind. Returns the model's folder."""
    if not archive.is_file():
        raise NarratorError(f"{archive}: no such file (the model's .zip)")
    known = _BY_FILE.get(archive.name)
    info = known or ModelInfo(archive.name.removesuffix(".zip"), str(archive))
    try:
        digest = _validate(archive, info)
    except _BadDownload as e:
        raise NarratorError(f"{archive}: {e}") from None
    name = _top_folder(archive) or info.name
    target = dest / name
    if (target / "am").is_dir():
        raise NarratorError(f"{target} holds a model already (delete it to install again)")
    created = _made(dest)
    try:
        path = _unpack(archive, dest, name)
        try:
            check_model(path)
        except NarratorError:
            shutil.rmtree(path, ignore_errors=True)
            raise
    except NarratorError:
        for folder in created:
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    if known is not None and known.sha256 is None:
        _say(f"note: no SHA-256 is pinned for {known.name}; sha256 of the file: {digest}")
    return path


def _top_folder(archive: Path) -> str | None:
    """The one top folder of the zip (official zips hold one, named like the model)."""
    with zipfile.ZipFile(archive) as z:
        tops = {m.split("/", 1)[0] for m in z.namelist() if not m.startswith("__MACOSX")}
    if len(tops) == 1:
        (top,) = tops
        if top and top not in (".", "..") and Path(top).name == top:
            return top
    return None


def run_install(args: ModelsInstallArgs) -> int:
    """``narrator models install FILE.zip [--dir DIR]``."""
    dest = Path(args.dir) if args.dir else DEFAULT_DIR
    path = install_model(Path(args.file), dest)
    print(f"installed into {path}; Vosk loads it and it takes runtime grammars")
    if not path.name.startswith("vosk-model-small-"):
        print(f"(its name is not vosk-model-small-LANG…: give it with --model {path})")
    return 0


def run_fetch(args: ModelsFetchArgs) -> int:
    """``narrator models fetch LANG [--dir DIR]``."""
    info = MODELS[args.lang]
    dest = Path(args.dir) if args.dir else DEFAULT_DIR
    target = dest / info.name
    if (target / "am").is_dir():
        print(f"{info.name} is already in {dest}/ (delete the folder to fetch it again)")
        return 0
    path = fetch_model(info, dest)
    print(f"{info.name} unpacked into {path}")
    return 0


# -- finding and checking -------------------------------------------------------------------


def user_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/narrator/models`` (default ``~/.cache/narrator/models``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "narrator" / "models"


def _candidates(folder: Path, lang: str) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(f"vosk-model-small-{lang}*") if p.is_dir())


def find_model(lang: str, explicit: str | Path | None = None, *,
               models_dir: Path = DEFAULT_DIR) -> Path:
    """The model folder to use for ``lang``.

    Order: ``--model PATH`` > ``$NARRATOR_MODEL`` > ``models/vosk-model-small-<lang>*`` >
    the user cache (``~/.cache/narrator/models``, then Vosk's own ``~/.cache/vosk``).
    """
    for given, origin in ((explicit, "--model"), (os.environ.get(ENV_MODEL), ENV_MODEL)):
        if given:
            path = Path(given).expanduser()
            if not path.is_dir():
                raise NarratorError(f"{origin}: no model folder at {path}")
            return path
    for folder in (models_dir, user_cache_dir(), Path.home() / ".cache" / "vosk"):
        found = _candidates(folder, lang)
        if found:
            return found[-1]  # the highest version sorts last
    raise NarratorError(
        f"no Vosk model for {lang}: run `narrator models fetch {lang}` or pass --model PATH"
    )


@dataclass(frozen=True, slots=True)
class ModelReport:
    """What :func:`check_model` found."""

    path: Path
    unknown_token: str | None
    load_seconds: float


def grammar_support(path: Path) -> bool:
    """True when the model's graph can be constrained at run time (HCLr.fst + Gr.fst)."""
    graph = path / "graph"
    return (graph / "HCLr.fst").is_file() and (graph / "Gr.fst").is_file()


def check_model(path: str | Path) -> ModelReport:
    """Load the model and make sure it takes runtime grammars; NarratorError otherwise."""
    from narrator.audio.vosk_recognizer import load_model, unknown_token

    p = Path(path)
    if not p.is_dir():
        raise NarratorError(f"no model folder at {p}")
    if not (p / "am" / "final.mdl").is_file():
        raise NarratorError(f"{p} is not a Vosk model (no am/final.mdl)")
    if not grammar_support(p):
        if (p / "graph" / "HCLG.fst").is_file():
            raise NarratorError(
                f"{p} does not support runtime grammars (it has a static HCLG.fst graph; "
                "use a small model, e.g. `narrator models fetch ru`)"
            )
        raise NarratorError(f"{p} has no decoding graph (graph/HCLr.fst + graph/Gr.fst)")
    started = time.perf_counter()
    model = load_model(p)
    seconds = time.perf_counter() - started
    return ModelReport(p, unknown_token(model, p), seconds)


def run_check(args: ModelsCheckArgs) -> int:
    """``narrator models check [--model PATH] [--lang LANG]``."""
    path = find_model(args.lang, args.model)
    report = check_model(path)
    print(f"model: {report.path}")
    print(f"loaded in {report.load_seconds:.1f} s; runtime grammars: yes; "
          f"unknown-word token: {report.unknown_token or 'none'}")
    return 0
