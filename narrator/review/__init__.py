"""``narrator review``: a judge's page of a game — its timeline, and the recorded seconds of
each moment beside it."""
