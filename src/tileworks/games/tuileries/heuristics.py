"""Tuileries heuristics: group potential of the seat's own hand.

``evaluate`` is the score plus, for each tile in the seat's hand and each of
its three pairs of characteristics, 0.25 × the number of tiles on the board
sharing that pair (at most 3) when at least one of them has an empty
neighbour, so that the tile could still join them.

It reads the board and the seat's own hand, never another hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.games.tuileries.constants import NOT_A, NOT_H, PAIRS

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.tuileries.rules import TuileriesState

FULL = (1 << 64) - 1


def _neighbours(cells: int) -> int:
    return (((cells << 1) & NOT_A) | ((cells >> 1) & NOT_H) | (cells << 8) | (cells >> 8)) & FULL


def evaluate(state: "TuileriesState", seat: int) -> float:
    value = float(state.points[seat])
    masks = state.masks
    free = ~state.occupied & FULL
    for tile in state.hands[seat]:
        for a, b in PAIRS[tile]:
            sharing = masks[a] & masks[b]
            if sharing and _neighbours(sharing) & free:
                value += 0.25 * min(sharing.bit_count(), 3)
    return value
