"""The stand-in director for the tests of a table joining it."""

from tests.tournament.joining import director  # noqa: F401
