"""narrator.engine."""
