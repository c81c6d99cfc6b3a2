"""Player-id constants shared by every game (OpenSpiel's values)."""

#: ``current_player()`` while the next action is a chance outcome.
CHANCE = -1
#: ``current_player()`` once the game is over.
TERMINAL = -4
#: ``view(SPECTATOR)`` shows what someone who holds no seat may see.
SPECTATOR = -2
