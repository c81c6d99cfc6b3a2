"""The protocol every tileworks game speaks (OpenSpiel's vocabulary).

>>> import tileworks
>>> game = tileworks.load_game("kiln", players=3, goal=20)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

from tileworks.core.constants import CHANCE, SPECTATOR, TERMINAL
from tileworks.core.errors import IllegalActionError, RecordError
from tileworks.core.game import (
    DelegatingState,
    Game,
    HiddenHandState,
    State,
    sample_chance,
    shared_win,
)
from tileworks.core.options import Option, OptionSet
from tileworks.core.registry import GameInfo, list_games, load_game, register

__all__ = [
    "CHANCE",
    "DelegatingState",
    "SPECTATOR",
    "TERMINAL",
    "Game",
    "HiddenHandState",
    "GameInfo",
    "IllegalActionError",
    "Option",
    "OptionSet",
    "RecordError",
    "State",
    "list_games",
    "load_game",
    "register",
    "sample_chance",
    "shared_win",
]
