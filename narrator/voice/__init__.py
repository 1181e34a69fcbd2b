"""narrator.voice."""
