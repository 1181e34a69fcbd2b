"""Who sits where: a plan's score in MafiaRatings' terms (:mod:`narrator.seating.score`), the
search for a tournament's plan (:mod:`narrator.seating.plan`) and our files of it
(:mod:`narrator.seating.ourfile`)."""
