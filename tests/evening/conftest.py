"""The evening's tests share the console's browser."""

from tests.console.conftest import browser_context  # noqa: F401
