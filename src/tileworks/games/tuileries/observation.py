"""Tuileries observation tensor (layout: src/tileworks/rules/tuileries.md, "Observation tensor").

Only the viewer's own hand is in it; other hands appear as sizes.

>>> import tileworks
>>> game = tileworks.load_game("tuileries")
>>> game.observation_tensor_size()
914
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.core.tensor import Tensor
from tileworks.games.tuileries.constants import OVER, PHASE_NAMES, TILES

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.tuileries.rules import TuileriesGame, TuileriesState

#: no score can pass this: 64 placements of at most 12 points each
SCORE_BOUND = 12 * TILES


def tensor_size(game: "TuileriesGame") -> int:
    n = game.players
    # board (colour, value, sign per square), circles, own hand, hand sizes,
    # draw pile, points, phase, seat whose turn, viewer, extra turn, first player
    return 12 * 64 + 64 + TILES + n + 1 + n + len(PHASE_NAMES) + n + n + 1 + n


def observation_tensor(state: "TuileriesState", player: int) -> list[float]:
    game = state._game
    n = game.players
    board = [0.0] * (12 * 64)
    for square, tile in enumerate(state.board):
        if tile >= 0:
            board[(tile >> 4) * 64 + square] = 1.0
            board[(4 + (tile >> 2 & 3)) * 64 + square] = 1.0
            board[(8 + (tile & 3)) * 64 + square] = 1.0
    t = Tensor()
    t.values = board
    circles = 0
    for square in game.circles:
        circles |= 1 << square
    t.bits(circles, 64)
    hand = 0
    for tile in state.hands[player] if player >= 0 else ():
        hand |= 1 << tile
    t.bits(hand, TILES)
    t.fractions([len(h) for h in state.hands], TILES)
    t.fraction(len(state.pile), TILES)
    t.fractions(state.points, SCORE_BOUND)
    t.one_hot(len(PHASE_NAMES), state.phase)
    t.one_hot(n, state.seat if state.phase != OVER else -1)
    t.one_hot(n, player)
    t.flag(state.extra)
    t.one_hot(n, state.first)
    return t.values
