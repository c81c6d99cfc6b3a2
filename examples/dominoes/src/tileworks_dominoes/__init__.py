"""Block Dominoes (double-six) for tileworks: an example of a game plugin.

The package is written only against tileworks's public API, and one entry
point makes it a tileworks game (see pyproject.toml). Rules in our words:
``dominoes.md`` beside this file (served at ``/rules/dominoes``).

>>> import tileworks
>>> game = tileworks.load_game("dominoes", players=3)
>>> game.num_distinct_actions(), game.max_chance_outcomes()
(58, 28)
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from tileworks.core import GameInfo, OptionSet
from tileworks.core.i18n import N_
from tileworks.core.options import bool_option, int_option

from tileworks_dominoes.notation import position
from tileworks_dominoes.rules import DominoesGame, DominoesState

OPTIONS = OptionSet(
    (
        int_option("players", 2, 2, 4, N_("number of players"), label=N_("players")),
        bool_option("draw", False, N_("Draw variant: a player who cannot play draws from the boneyard"), label=N_("draw")),
    )
)

GAME_INFO = GameInfo(
    name="dominoes",
    title=N_("Dominoes"),
    min_players=2,
    max_players=4,
    options=OPTIONS,
    factory=DominoesGame,
    summary=N_("match the open ends of one line of dominoes; the first to empty their hand wins (hidden hands)"),
    test_configs=({}, {"players": 3}, {"players": 4}, {"draw": True}, {"players": 3, "draw": True}),
    rules=files("tileworks_dominoes"),
    networks=Path(__file__).parent / "networks",  # trained networks, for the net and alpha agents
    click_words=(("tile", N_("tile")), ("end", N_("end"))),
    # its own catalogs (locale/LANG/LC_MESSAGES/dominoes.po): the words tileworks's catalogs do not carry
    locale=files("tileworks_dominoes") / "locale",
    # the batched engine (JAX): imported only when asked for, by tileworks.jax.make("dominoes")
    batched="tileworks_dominoes.batched:DominoesEnv",
    batched_test_configs=({"players": 3, "draw": True}, {}, {"players": 4}),
)

__all__ = ["GAME_INFO", "DominoesGame", "DominoesState", "position"]
