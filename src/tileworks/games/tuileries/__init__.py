"""Tuileries (Bernard Tavitian, 1999): place tiles to form groups sharing two
of colour, value and sign.

Rules in our words, with every ruling: ``src/tileworks/rules/tuileries.md``.

>>> import tileworks
>>> game = tileworks.load_game("tuileries", players=4)
>>> game.num_distinct_actions(), game.max_chance_outcomes()
(4096, 64)
"""

from __future__ import annotations

from pathlib import Path

from tileworks.core.i18n import N_
from tileworks.core import Option, OptionSet
from tileworks.core.options import bool_option, int_option
from tileworks.core.registry import GameInfo
from tileworks.games import RULES
from tileworks.games.tuileries.constants import DEFAULT_CIRCLES, normalise_circles
from tileworks.games.tuileries.notation import position
from tileworks.games.tuileries.rules import TuileriesGame, TuileriesState

OPTIONS = OptionSet(
    (
        int_option("players", 2, 2, 6, N_("number of players"), label=N_("players")),
        bool_option("bonus_tile", False, N_("an extra turn starts by drawing one more tile (the hand grows)"), label=N_("bonus tile")),
        Option("circles", DEFAULT_CIRCLES, N_("four squares, no two sharing a side (e.g. c3,f3,c6,f6)"),
               normalise_circles, N_("the squares the first four tiles must cover"), label=N_("circles")),
    )
)

GAME_INFO = GameInfo(
    name="tuileries",
    title=N_("Tuileries"),
    min_players=2,
    max_players=6,
    options=OPTIONS,
    factory=TuileriesGame,
    summary=N_("place tiles to form groups sharing two of colour, value and sign (hidden hands)"),
    score_kinds=(("groups", N_("groups")),),
    click_words=(("square", N_("square")), ("tile", N_("tile"))),
    test_configs=(
        {},
        {"players": 3},
        {"players": 4, "bonus_tile": True},
        {"players": 5},
        {"players": 6, "circles": "b2,g2,b7,g7"},
        {"players": 2, "bonus_tile": True, "circles": "a1,h1,a8,h8"},
    ),
    batched="tileworks.games.tuileries.batched:TuileriesEnv",
    batched_test_configs=(
        {"players": 6, "bonus_tile": True, "circles": "b2,g2,b7,g7"},
        {},
        {"players": 3, "bonus_tile": True},
    ),
    rules=RULES,
    networks=Path(__file__).parent / "networks",
)

__all__ = ["GAME_INFO", "TuileriesGame", "TuileriesState", "position"]
