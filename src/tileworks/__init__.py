"""tileworks: tile-laying board games behind one OpenSpiel-style protocol.

>>> import tileworks
>>> {"azul", "kiln", "tiles", "tuileries"} <= {g["name"] for g in tileworks.list_games()}
True
"""

from tileworks.core import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Game,
    IllegalActionError,
    RecordError,
    State,
    list_games,
    load_game,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "SPECTATOR",
    "TERMINAL",
    "Game",
    "IllegalActionError",
    "RecordError",
    "State",
    "__version__",
    "list_games",
    "load_game",
]
