"""The walk over a game's history that the MafiaRatings record is read from: it lives in the
engine (:mod:`narrator.engine.walk`) so that the club's points (:mod:`narrator.scoring`), a
floor below the exports, read the same days, hands and removals the export writes."""

from narrator.engine.walk import Day, Round, Walk

__all__ = ["Day", "Round", "Walk"]
