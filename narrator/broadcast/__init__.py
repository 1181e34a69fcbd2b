"""The stream's view of a game: every card and night act, held back by the club's delay,
on its own server and token (docs/broadcast.md)."""
