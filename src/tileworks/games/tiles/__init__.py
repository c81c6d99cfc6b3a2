"""Tiles (BoneGames, 1995): place edge-matching tiles, close areas of your colour.

Rules in our words, with every ruling: ``src/tileworks/rules/tiles.md``.

>>> import tileworks
>>> game = tileworks.load_game("tiles")
>>> game.num_distinct_actions(), game.max_chance_outcomes()
(212089, 24)
"""

from __future__ import annotations

from pathlib import Path

from tileworks.core.i18n import N_
from tileworks.core import Option, OptionSet
from tileworks.core.options import int_option
from tileworks.core.registry import GameInfo
from tileworks.games import RULES
from tileworks.games.tiles.notation import position
from tileworks.games.tiles.rules import TilesGame, TilesState
from tileworks.games.tiles.tileset import TileSet, normalise_tile_set, parse_codes

#: a set where little fits (six each of the plain tiles, two half-and-half):
#: forced discards happen in every game, so the tests meet them
DISCARD_HEAVY = ",".join(["wwww"] * 6 + ["gggg"] * 6 + ["bbbb"] * 6 + ["wwgg"] * 2)

OPTIONS = OptionSet(
    (
        int_option("players", 2, 2, 3, N_("number of players"), label=N_("players")),
        Option(
            "tile_set", "default",
            N_("'default' or tile codes (e.g. 'wgbw,ggww,...'); on the command line also @FILE, one code per line"),
            normalise_tile_set,
            N_("the tiles in the game (at least 16, at most 100)"),
            label=N_("tile set"),
        ),
    )
)

GAME_INFO = GameInfo(
    name="tiles",
    title=N_("Tiles"),
    min_players=2,
    max_players=3,
    options=OPTIONS,
    factory=TilesGame,
    summary=N_("place edge-matching tiles and close areas of your colour (hidden hands)"),
    score_kinds=(("areas", N_("closed areas")),),
    click_words=(("cell", N_("cell")), ("tile", N_("tile"))),
    test_configs=(
        {},
        {"players": 3},
        # mostly single-colour tiles: forced discards in every game
        {"tile_set": DISCARD_HEAVY},
        {"players": 3, "tile_set": DISCARD_HEAVY},
    ),
    batched="tileworks.games.tiles.batched:TilesEnv",
    batched_test_configs=({"players": 3, "tile_set": DISCARD_HEAVY}, {}),
    rules=RULES,
    networks=Path(__file__).parent / "networks",
)

__all__ = ["GAME_INFO", "TileSet", "TilesGame", "TilesState", "parse_codes", "position"]
