"""narrator: an offline, voice-driven host for club and sport Mafia."""

__version__ = "0.1.0"
