"""KILN observation tensor (layout: src/tileworks/rules/kiln.md, "Observation tensor").

KILN hides nothing, so every seat's tensor differs only in the viewer's
one-hot code.

>>> import tileworks
>>> state = tileworks.load_game("kiln").new_initial_state()
>>> len(state.observation_tensor(0)) == state.game().observation_tensor_size() == 360
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.core.tensor import Tensor
from tileworks.games.kiln.constants import PHASE_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.kiln.rules import KilnGame, KilnState

MAX_SEATS = 4


def tensor_size(game: "KilnGame") -> int:
    # kiln planes, outer tile, its cell, warehouses, pending shape, phase,
    # colour in play, seat to move, viewer, each colour's score disc, turns
    return 5 * 36 + 5 + 24 + 4 * 25 + 25 + len(PHASE_NAMES) + 4 + MAX_SEATS + MAX_SEATS + 4 + 1


def observation_tensor(state: "KilnState", player: int) -> list[float]:
    game = state._game
    t = Tensor()
    for mask in state.masks:
        t.bits(mask, 36)
    t.one_hot(5, state.outer_tile if state.outer_cell >= 0 else -1)
    t.one_hot(24, state.outer_cell)
    for warehouse in state.warehouses:
        t.bits(warehouse, 25)
    t.bits(state.pending, 25)
    t.one_hot(len(PHASE_NAMES), state.phase)
    t.one_hot(4, state.mover_colour() if state.player >= 0 else -1)
    t.one_hot(MAX_SEATS, state.player)
    t.one_hot(MAX_SEATS, player)
    # the disc each colour moves (its own, or its owner's); unowned colours 0
    discs = [min(state.points[d], game.goal) if d >= 0 else 0 for d in game.disc_of]
    t.fractions(discs, game.goal, 4)
    t.fraction(state.turns, game.turn_limit)
    return t.values
