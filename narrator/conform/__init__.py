"""``narrator conform``: one table script played through every front end, protocols compared.

The reference is the replay (:mod:`narrator.conform.reference`): the script's game as a list
of steps — what the game waited for, the actions it took there and when. Each front end plays
the same game through its own inputs, as its users would: host-assist through the host's keys
(:mod:`~narrator.conform.assist`), the hostless listening loop through phrases said to a
scripted recognizer and the operator's typed entries (:mod:`~narrator.conform.hostless`), the
seat pads through presses as the pages send them (:mod:`~narrator.conform.pads`), and the
replay itself through its journal (:mod:`~narrator.conform.replayed`). Every player looks at
the game it drives, finds the reference's step for it and gives what that step still lacks —
so a game resumed from a cut journal goes on as a table would after a restart
(:mod:`~narrator.conform.kills`). The protocols are compared key by key
(:mod:`~narrator.conform.compare`).
"""
