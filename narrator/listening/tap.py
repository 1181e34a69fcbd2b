"""The session tap: what a hostless game's audio cannot give back, written as it happens."""

from __future__ import annotations

from typing import Any

from narrator.audio.format import AudioChunk
from narrator.audio.session import SessionRecorder
from narrator.engine import Game
from narrator.engine.options import options_of
from narrator.engine.tuning import settings_of
from narrator.host.recorder import InputLog
from narrator.inputs import TABLE, Input


class SessionTap:
    """The recorded session (``session``: the audio and the protocol) and the input events
    (``recorder``): the table as dealt, first; then each chunk of audio, each announcement's
    delay, each span the echo gate closed, each phrase heard; the protocol at the end. A
    replay of the session gives back the same game from these and the audio."""

    def __init__(self, session: SessionRecorder | None = None,
                 recorder: InputLog | None = None) -> None:
        self.session = session
        self.recorder = recorder

    def record(self, event: Input) -> None:
        if self.recorder is not None:
            self.recorder.write(event)

    def audio(self, chunk: AudioChunk) -> None:
        if self.session is not None:
            self.session.write_audio(chunk)

    def table(self, game: Game, t: float, *, lang: str, chunk_ms: int) -> None:
        """The session's first line: the table as it was dealt (and the actions it resumed
        from), with the club's figures, options and nicknames."""
        table: dict[str, Any] = {
            "rules": game.rules.name, "seats": game.seats, "lang": lang, "chunk_ms": chunk_ms,
            "roles": {str(s): r.value for s, r in sorted(game.roles.items())},
            "settings": settings_of(game.rules), "options": options_of(game.rules),
            "names": {str(s): n for s, n in sorted(game.names.items())},
            "history": [str(a) for a in game.history]}
        if game.dealt:  # besides the cards (the maniac's side)
            table["dealt"] = dict(game.dealt)
        self.record(Input(TABLE, t, table))

    def close(self, protocol: dict[str, Any]) -> None:
        """The game's end, or where it stopped: the protocol goes with the audio."""
        if self.session is not None:
            self.session.write_protocol(protocol)
