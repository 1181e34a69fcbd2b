"""Who sits where: a plan's score in MafiaRatings' terms (:mod:`narrator.seating.score`), one
player's figures in it (:mod:`narrator.seating.player`), the search for a tournament's plan
(:mod:`narrator.seating.plan`), the formats a plan is read from and written to
(:mod:`narrator.seating.formats`), and an evening's next game fairly seated
(:mod:`narrator.seating.fair`)."""
