"""Tuileries heuristics: group potential of the seat's own hand.

``evaluate`` is the score plus, for each tile in the seat's hand and each of
its three pairs of characteristics, 0.25 × the number of tiles on the board
sharing that pair (at most 3) when at least one of them has an empty
neighbour, so that the tile could still join them.

It reads the board and the seat's own hand, never another hand.
``evaluate_after`` gives the same values for the mover's placements without
playing them out (the ordering MCTS and greedy need, about 5x faster).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.games.tuileries.constants import NOT_A, NOT_H, PAIRS, PLAY

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


def _pair_value(sharing: int, free: int) -> float:
    """What one hand tile gains from a pair shared by the tiles ``sharing``."""
    if sharing and _neighbours(sharing) & free:
        return 0.25 * min(sharing.bit_count(), 3)
    return 0.0


def evaluate_after(state: "TuileriesState", actions: list[int], seat: int) -> list[float] | None:
    """``evaluate(seat)`` after each placement in ``actions``, by difference:
    only the pairs of the placed tile change what they share, and a pair
    loses its prospect when the square taken was its last free neighbour.
    None (play them out) unless ``seat`` is placing now."""
    if state.phase != PLAY or state.seat != seat:
        return None
    masks = state.masks
    free = ~state.occupied & FULL
    holders: dict[tuple[int, int], int] = {}
    for tile in state.hands[seat]:
        for pair in PAIRS[tile]:
            holders[pair] = holders.get(pair, 0) + 1
    prospect: dict[tuple[int, int], float] = {}
    last_free_at: dict[int, list[tuple[int, int]]] = {}
    base = float(state.points[seat])
    for (a, b), count in holders.items():
        sharing = masks[a] & masks[b]
        value = prospect[a, b] = _pair_value(sharing, free)
        base += count * value
        if value:
            exits = _neighbours(sharing) & free
            if exits & (exits - 1) == 0:  # a single free neighbour
                last_free_at.setdefault(exits.bit_length() - 1, []).append((a, b))
    score_for = state.score_for
    values = []
    for action in actions:
        tile, square = action >> 6, action & 63
        bit = 1 << square
        value = base + score_for(tile, square)
        own = PAIRS[tile]
        for a, b in own:
            count = holders[a, b]
            value -= count * prospect[a, b]
            if count > 1:
                value += (count - 1) * _pair_value((masks[a] & masks[b]) | bit, free & ~bit)
        for pair in last_free_at.get(square, ()):
            if pair not in own:
                value -= holders[pair] * prospect[pair]
        values.append(value)
    return values
