"""The hostless table: a game run by what the microphone hears, on the stream's timeline.

Three parts, each with one job, around the host's desk (:class:`narrator.host.desk.Desk`: who
is asked, whether the operator has answered):

- :mod:`~narrator.listening.ears` — what is heard: the recognizer (constrained to the grammar,
  reset at each speech), the decider, the echo gate;
- :mod:`~narrator.listening.tap` — the session tap: what the audio cannot give back (the table
  as dealt, announcement delays, gated chunks, each phrase heard) to the recorded session;
- :mod:`~narrator.listening.loop` — the loop: brings the game to each chunk's time, takes the
  operator's entries, hands the chunk to the ears and their decisions to the game.
"""

from narrator.listening.loop import DEFAULT_CHUNK_MS, Heard, ListeningLoop, Operator

__all__ = ["DEFAULT_CHUNK_MS", "Heard", "ListeningLoop", "Operator"]
