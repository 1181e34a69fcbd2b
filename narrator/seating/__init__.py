"""Who sits where: a plan's score in MafiaRatings' terms (:mod:`narrator.seating.score`), one
player's figures in it (:mod:`narrator.seating.player`), and the formats a plan is read from
and written to (:mod:`narrator.seating.formats`)."""
