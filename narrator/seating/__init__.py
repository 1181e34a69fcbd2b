"""Who sits where: a plan's score in MafiaRatings' terms (:mod:`narrator.seating.score`)."""
