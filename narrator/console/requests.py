"""What a request to one of the narrator's web apps gives, read without trusting it.

The console, the broadcast and the tournament's director each take input over HTTP: a JSON
body (a table's game, its state), a number in the query (the broadcast's ``after``). Each is
read here, the same way for all: a body no larger than its limit (the ``Content-Length`` a
client claims is checked before any byte is read, then the bytes as they come), as UTF-8, as
JSON by :func:`narrator.reading.loads` (no key twice, no NaN, no integer of thousands of
digits — Python's own reader raises a bare ``ValueError`` past its digit limit —, no nesting
deeper than any body here needs); a query's number as ASCII digits within its range. Each
failure is a :class:`BadRequest` with its status (400, 413) and a one-line reason, which the
app's :func:`json_errors` handler answers as ``{"error": "…"}``: bad input is never a 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from narrator.reading import MAX_DIGITS, BadJSON, loads

#: characters of a value an error quotes (a field may be as long as the body)
SHOWN = 40


def shown(value: object) -> str:
    """``value`` as an error quotes it: its ``repr``, cut to :data:`SHOWN` characters."""
    text = repr(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"


class BadRequest(Exception):
    """Input a handler does not take: ``status`` (4xx) and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def json_body(request: Request, limit: int) -> Any:
    """The request's body as JSON, at most ``limit`` bytes; BadRequest (413 too large, 400
    not UTF-8 or not JSON the narrator takes, saying why)."""
    length = request.headers.get("content-length")
    if length is not None:
        if not (length.isascii() and length.isdigit()) or len(length) > MAX_DIGITS:
            raise BadRequest(400, "Content-Length: expected a number of bytes")
        if int(length) > limit:
            raise BadRequest(413, f"the body is over {limit} bytes")
    got = bytearray()
    async for chunk in request.stream():
        got += chunk
        if len(got) > limit:  # (a body longer than it said, or sent in chunks)
            raise BadRequest(413, f"the body is over {limit} bytes")
    try:
        text = bytes(got).decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(400, "the body is not JSON (not UTF-8)") from None
    try:
        return loads(text)
    except BadJSON as e:
        raise BadRequest(400, f"the body is not JSON the narrator takes: {e}") from None


def whole_number(request: Request, name: str, *, default: int, most: int) -> int:
    """The query's ``name`` as a whole number from 0 to ``most`` (``default`` when it is not
    given); BadRequest 400 naming it otherwise."""
    text = request.query_params.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS or int(text) > most:
        raise BadRequest(400, f"{name}: expected a whole number from 0 to {most}")
    return int(text)


def json_errors(headers: Mapping[str, str]) -> dict[Any, Any]:
    """An app's ``exception_handlers``: a :class:`BadRequest` and Starlette's own refusals (a
    method a route does not take: 405) answered as ``{"error": "…"}`` with ``headers``."""

    async def bad(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BadRequest)
        return JSONResponse({"error": exc.message}, status_code=exc.status,
                            headers=dict(headers))

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code,
                            headers={**(exc.headers or {}), **headers})

    return {BadRequest: bad, HTTPException: refused}
