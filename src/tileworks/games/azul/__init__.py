"""Azul (Michael Kiesling): draft tiles from factories, fill pattern lines,
tile your wall.

Rules in our words, with every ruling: ``src/tileworks/rules/azul.md``.

>>> import tileworks
>>> game = tileworks.load_game("azul", players=3)
>>> game.num_distinct_actions(), game.max_chance_outcomes()
(245, 5)
"""

from __future__ import annotations

from pathlib import Path

from tileworks.core.i18n import N_
from tileworks.core import OptionSet
from tileworks.core.options import choice_option, int_option
from tileworks.core.registry import GameInfo
from tileworks.games import RULES
from tileworks.games.azul.notation import position
from tileworks.games.azul.rules import AzulGame, AzulState

OPTIONS = OptionSet(
    (
        int_option("players", 2, 2, 4, N_("number of players"), label=N_("players")),
        choice_option("variant", "standard", (N_("standard"), N_("grey")),
                      N_("grey: the grey side of the boards, where players choose each wall space"), label=N_("variant")),
        choice_option("tiebreak", "seed", (N_("seed"), N_("official")),
                      N_("seed: most wall tiles, then fewest floor tiles; official: most complete rows"), label=N_("tie-break")),
        int_option("round_limit", 100, 1, 1000, N_("safeguard: the game ends after this many rounds"), label=N_("round limit")),
    )
)

GAME_INFO = GameInfo(
    name="azul",
    title=N_("Azul"),
    min_players=2,
    max_players=4,
    options=OPTIONS,
    factory=AzulGame,
    summary=N_("draft tiles from factories into pattern lines and tile your wall"),
    score_kinds=(("wall", N_("wall tiles")), ("rows", N_("row bonuses")), ("columns", N_("column bonuses")),
                 ("colours", N_("colour bonuses")), ("floor", N_("floor penalties"))),
    click_words=(("source", N_("factory")), ("colour", N_("colour")), ("seat", N_("seat")), ("line", N_("line")), ("row", N_("row")), ("column", N_("column"))),
    test_configs=(
        {},
        {"players": 3},
        {"players": 4},
        {"variant": "grey"},
        {"players": 3, "variant": "grey", "tiebreak": "official"},
        {"players": 4, "variant": "grey"},
    ),
    batched="tileworks.games.azul.batched:AzulEnv",
    batched_test_configs=(
        {"players": 3, "variant": "grey", "tiebreak": "official"},
        {},
        {"players": 4},
        {"players": 4, "variant": "grey"},
    ),
    rules=RULES,
    networks=Path(__file__).parent / "networks",
)

__all__ = ["GAME_INFO", "AzulGame", "AzulState", "position"]
