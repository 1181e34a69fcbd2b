"""The club's listening test (``narrator listen test``): how well the narrator hears this table.

The narrator shows and reads out a list of phrases; the players read them at their own seats,
with the narrator's voice and the night music playing and the echo gate on, as in a game. Each
phrase is heard by the game's own ears (:class:`~narrator.listening.ears.Ears`: the recognizer
on the game's grammar, the early decider, the echo gate) and decided by the engine, on a game
staged for it (the speaker's speech, a standing nomination, a seat out). The parts:

- :mod:`~narrator.rehearsal.prompts` — the phrases, what each must give, the game it is said in;
- :mod:`~narrator.rehearsal.judge` — a phrase's window of audio heard and decided;
- :mod:`~narrator.rehearsal.run` — the test on a stream: announce, listen, answer, record;
- :mod:`~narrator.rehearsal.report` — the figures and the verdict in words;
- :mod:`~narrator.rehearsal.record` — the session's prompt file, for a replay to the same report.
"""
