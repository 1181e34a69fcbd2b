"""narrator.console."""
