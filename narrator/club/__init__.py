"""The club's own setup: its options file (``club.toml``) read once into typed values
(:mod:`narrator.club.file`), the scoring it names (:mod:`narrator.club.scoring`), and a club
folder fetched once from its rating site (:mod:`narrator.club.fetch`, the one online step)."""
