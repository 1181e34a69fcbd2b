"""``narrator tournament …``: a tournament's seating plan, its score and its formats."""
