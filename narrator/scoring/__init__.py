"""The points a club publishes: each player's game read as MafiaRatings' "matters"
(:mod:`narrator.scoring.matters`), scored by a scoring system given as data
(:mod:`narrator.scoring.system`, its formulas :mod:`narrator.scoring.formula`), and the
standings of any set of games (:mod:`narrator.scoring.standings`)."""
