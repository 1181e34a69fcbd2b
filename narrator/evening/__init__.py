"""``narrator evening DIR``: a club's evening of games at one table, the same phones all night.

The evening's folder holds its book (:mod:`narrator.evening.book`: the roster with one link per
player, the settings, the games and their seating), each game's journal, and the results
(:mod:`narrator.evening.results`). The console stays up between games
(:mod:`narrator.evening.front`): a player's link shows their seat and card in a game, the last
game's result between games; the operator seats the players and starts the next game.
"""
