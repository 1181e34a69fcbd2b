"""narrator.host."""
