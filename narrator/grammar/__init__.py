"""narrator.grammar."""
