"""Where the console listens and the links it hands out: ``[HOST:]PORT``, URLs, QR codes, and
the links file (``--links FILE``, owner-only: each link is a seat's secret)."""

from __future__ import annotations

import functools
import io
import json
import socket
from pathlib import Path
from typing import TextIO

import segno

from narrator.console.tokens import Tokens
from narrator.errors import NarratorError
from narrator.host.texts import tx
from narrator.outputs import private_file

DEFAULT_HOST = "127.0.0.1"


def parse_address(text: str, option: str = "--console") -> tuple[str, int]:
    """``8765`` → (127.0.0.1, 8765); ``0.0.0.0:8765``, ``192.168.1.10:8765``, ``[::1]:8765``
    (``option``: the one a bad address is named by)."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = DEFAULT_HOST, text
    host = host.strip("[]") or DEFAULT_HOST
    if not port_text.isascii() or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise NarratorError(f"{option}: expected [HOST:]PORT (e.g. 8765 or 0.0.0.0:8765), "
                            f"got {text!r}")
    return host, int(port_text)


def check_address(host: str, port: int, option: str = "--console") -> None:
    """Before anything is written: can the console (or what ``option`` serves) listen there?
    (NarratorError if not)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as e:
        raise NarratorError(f"{option} {host}:{port}: cannot listen there ({e.strerror}; "
                            "the port is in use, or not an address of this machine)") from None


def public_host(bound: str) -> str:
    """The address the phones should use: the bound one, or this machine's address on the
    network when bound to every interface (0.0.0.0, ::)."""
    if bound not in ("0.0.0.0", "::", ""):
        return bound
    try:
        found = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        found = []
    lan = [a for a in found if not a.startswith("127.")]
    return lan[0] if lan else socket.gethostname()


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def links(tokens: Tokens, base: str) -> dict[str, object]:
    """``{"operator": URL, "seats": {"1": URL, …}}``."""
    return {"operator": f"{base}/op/{tokens.operator}",
            "seats": {str(s): f"{base}/pad/{t}" for s, t in sorted(tokens.seats.items())}}


def write_links(path: str | Path, table: dict[str, object]) -> None:
    """The links as JSON, created readable by its owner only."""
    try:
        with private_file(path) as f:
            json.dump(table, f, ensure_ascii=False, indent=1)
            f.write("\n")
    except OSError as e:
        raise NarratorError(f"--links {path}: cannot write ({e.strerror})") from None


@functools.lru_cache(maxsize=512)
def qr_of(url: str) -> str:
    """A QR code of ``url`` as an SVG data URI, for a page (a badge printed from it, a phone
    held to the screen); made once per link."""
    return str(segno.make(url, error="l").svg_data_uri(scale=4, border=2))


def qr_text(url: str) -> str:
    """A QR code of ``url`` drawn with half blocks, for the terminal."""
    out = io.StringIO()
    segno.make(url, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def print_links(table: dict[str, object], out: TextIO, *, qr: bool = True,
                lang: str = "en") -> None:
    """The operator's address, then each seat's link with its QR code (in ``lang``: the
    table's)."""
    out.write(tx("v_operator", lang, link=table["operator"]) + "\n")
    seats = table["seats"]
    assert isinstance(seats, dict)
    for seat, url in seats.items():
        out.write(f"{tx('t_seat', lang, seat=seat)}: {url}\n")
        if qr:
            out.write(qr_text(url))
    out.flush()
