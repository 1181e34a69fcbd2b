"""narrator.audio."""
