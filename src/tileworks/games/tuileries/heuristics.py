"""Tuileries heuristics: group potential of the seat's own hand, and the
placement the seat to move is about to make.

``evaluate`` is the score plus:

- for each tile in the seat's hand and each of its three pairs of
  characteristics, 0.25 × the number of tiles on the board sharing that pair
  (at most 3) when at least one of them has an empty neighbour, so that the
  tile could still join them;
- when the seat places the next tile, ``MOVE_WEIGHT`` × (the best score one
  of its tiles would make now − 1). The mover will cash it; for a seat that
  waits, the square may be gone by its turn.

It reads the board and the seat's own hand, never another hand.
``evaluate_after`` gives the same values for the mover's placements without
playing them out (the ordering MCTS and greedy need, about 5x faster); it
plays out only the placements after which the mover places again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.games.tuileries.constants import BONUS, EXTRA_TURN_AT, FULL, PAIRS, PLAY, REPLACE, grow, neighbours

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.tuileries.rules import TuileriesState

#: weight of the best placement the seat to move has in hand (it will take it)
MOVE_WEIGHT = 0.5


def next_mover(state: "TuileriesState") -> int | None:
    """The seat that places the next tile (None while dealing or at the end).
    At a replacement draw it is decided already: the placer again after an
    extra turn, else the next seat holding tiles (the drawer will hold one)."""
    if state.phase in (PLAY, BONUS):
        return state.seat
    if state.phase != REPLACE:
        return None
    if state.extra:
        return state.seat
    holder = state.next_holder()
    return state.seat if holder is None else holder


def best_placement(state: "TuileriesState", seat: int) -> int:
    """The most points one tile of ``seat``'s hand would score now (0: no tile).

    For each pair a hand tile has, the runs of tiles on the board sharing it
    add their sizes to the free squares next to them; a square's score is
    the sum over the tile's pairs of the group it would complete there.
    """
    hand = state.hands[seat]
    if not hand:
        return 0
    occupied = state.occupied
    if occupied.bit_count() < 4:  # the circles: no two touch, so 1 each
        return 1
    masks = state.masks
    free = ~occupied & FULL
    reach: dict[tuple[int, int], dict[int, int]] = {}
    best = 1
    for tile in hand:
        totals: dict[int, int] = {}
        for pair in PAIRS[tile]:
            joins = reach.get(pair)
            if joins is None:
                joins = reach[pair] = _joins(masks[pair[0]] & masks[pair[1]], free)
            for square, size in joins.items():
                totals[square] = totals.get(square, 0) + size + 1
        if totals:
            best = max(best, max(totals.values()))
    return best


def _joins(sharing: int, free: int) -> dict[int, int]:
    """For each free square beside the tiles ``sharing``: how many of them a
    tile placed there would join (whole orthogonal runs)."""
    joins: dict[int, int] = {}
    while sharing:
        run = grow(sharing & -sharing, sharing)
        sharing &= ~run
        size = run.bit_count()
        exits = neighbours(run) & free
        while exits:
            bit = exits & -exits
            exits ^= bit
            square = bit.bit_length() - 1
            joins[square] = joins.get(square, 0) + size
    return joins


def evaluate(state: "TuileriesState", seat: int) -> float:
    value = float(state.points[seat])
    if MOVE_WEIGHT and next_mover(state) == seat:
        value += MOVE_WEIGHT * (best_placement(state, seat) - 1)
    masks = state.masks
    free = ~state.occupied & FULL
    for tile in state.hands[seat]:
        for a, b in PAIRS[tile]:
            sharing = masks[a] & masks[b]
            if sharing and neighbours(sharing) & free:  # _pair_value inlined (every leaf of a search)
                value += 0.25 * min(sharing.bit_count(), 3)
    return value


def _pair_value(sharing: int, free: int) -> float:
    """What one hand tile gains from a pair shared by the tiles ``sharing``."""
    if sharing and neighbours(sharing) & free:
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
            exits = neighbours(sharing) & free
            if exits & (exits - 1) == 0:  # a single free neighbour
                last_free_at.setdefault(exits.bit_length() - 1, []).append((a, b))
    score_for = state.score_for
    others_hold = any(hand for other, hand in enumerate(state.hands) if other != seat)
    values = []
    for action in actions:
        tile, square = action >> 6, action & 63
        gain = score_for(tile, square)
        if MOVE_WEIGHT and (gain >= EXTRA_TURN_AT or not others_hold):  # the seat moves again
            child = state.clone()
            child.apply_action(action)
            values.append(evaluate(child, seat))
            continue
        bit = 1 << square
        value = base + gain
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
