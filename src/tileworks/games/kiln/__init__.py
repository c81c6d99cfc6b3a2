"""KILN (Néstor Romeral Andrés): push tiles through a shared kiln, copy your
colour's largest group into your warehouse, sell complete rows or columns.

Rules in our words, with every ruling: ``src/tileworks/rules/kiln.md``.

>>> import tileworks
>>> game = tileworks.load_game("kiln", players=2)
>>> game.num_distinct_actions(), game.max_chance_outcomes()
(174, 24)
"""

from __future__ import annotations

from pathlib import Path

from typing import Any

from tileworks.core.i18n import N_, _
from tileworks.core import OptionSet
from tileworks.core.options import bool_option, choice_option, int_option, subset_option
from tileworks.core.registry import GameInfo
from tileworks.games import RULES
from tileworks.games.kiln.constants import HEAT_CELLS
from tileworks.games.kiln.notation import position
from tileworks.games.kiln.rules import KilnGame, KilnState


def _check(values: dict[str, Any]) -> None:
    if values["variant"] == "advanced" and values["players"] != 2:
        raise ValueError(
            _("bad value {value} for option 'players': the advanced variant is for 2 players; "
              "allowed: 2 with variant='advanced', 2 to 4 with variant='standard'", value=repr(values["players"]))
        )


OPTIONS = OptionSet(
    (
        int_option("players", 2, 2, 4, N_("number of players"), label=N_("players")),
        int_option("goal", 17, 1, 100, N_("score that wins at once"), label=N_("goal")),
        choice_option("variant", "standard", (N_("standard"), N_("advanced")),
                      N_("advanced: 2 players with two colours and two warehouses each"), label=N_("variant")),
        subset_option("heat_tokens", HEAT_CELLS, N_("score cells that give an extra turn"), label=N_("heating up")),
        choice_option("advanced_scoring", "per_colour", (N_("per_colour"), N_("combined")),
                      N_("advanced variant: each colour scores on its own disc, or both add to one score"),
                      label=N_("advanced scoring")),
        bool_option("erase_rule", False, N_("erase one cell when the shape fits nowhere"), label=N_("erase rule")),
        int_option("turn_limit", 300, 1, 10_000, N_("safeguard: the game is a draw after this many turns"), label=N_("turn limit")),
    ),
    _check,
)

GAME_INFO = GameInfo(
    name="kiln",
    title=N_("KILN"),
    min_players=2,
    max_players=4,
    options=OPTIONS,
    factory=KilnGame,
    summary=N_("push tiles through a shared kiln, copy shapes into your warehouse, sell rows or columns"),
    score_kinds=(("sales", N_("sales")),),
    click_words=(("border", N_("border cell")), ("kiln", N_("kiln cell")), ("warehouse", N_("warehouse")), ("cell", N_("cell")), ("sale", N_("sale")), ("tile", N_("tile"))),
    test_configs=(
        {},
        {"players": 3, "turn_limit": 60},
        {"players": 4, "goal": 10, "turn_limit": 60},
        {"variant": "advanced", "turn_limit": 60},
        {"variant": "advanced", "advanced_scoring": "combined", "turn_limit": 60},
        {"erase_rule": True, "heat_tokens": (5, 8, 14, 17, 19, 23, 26), "goal": 30, "turn_limit": 80},
        {"variant": "advanced", "erase_rule": True, "heat_tokens": (5, 8, 14, 17, 19, 23, 26), "goal": 30,
         "turn_limit": 80},
        {"variant": "advanced", "advanced_scoring": "combined", "erase_rule": True,
         "heat_tokens": (5, 8, 14, 17, 19, 23, 26), "goal": 30, "turn_limit": 80},
        {"players": 3, "goal": 6, "heat_tokens": (5,), "erase_rule": True},
    ),
    batched="tileworks.games.kiln.batched:KilnEnv",
    batched_test_configs=(
        {"variant": "advanced", "erase_rule": True, "heat_tokens": (5, 8, 14, 17, 19, 23, 26), "goal": 30,
         "turn_limit": 80},
        {},
        {"players": 4, "goal": 10, "turn_limit": 60},
    ),
    rules=RULES,
    networks=Path(__file__).parent / "networks",
)

__all__ = ["GAME_INFO", "KilnGame", "KilnState", "position"]
