"""Tiles heuristics: open-area potential.

``evaluate`` is the score plus, for each open area of the seat's colour,
n(n−1)/2 / (1 + e): what it would score if closed now (n tiles touched),
discounted by e, the number of its triangles still facing an empty cell.

It reads the layout and the seat's colour, both public, and never a hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.tiles.rules import TilesState


def evaluate(state: "TilesState", seat: int) -> float:
    value = float(state.points[seat])
    colour = state.colour[seat]
    if colour < 0:
        return value
    seen = set()
    for tri in range(len(state.parent)):
        root = state._find(tri)
        if root in seen:
            continue
        seen.add(root)
        edges = state.open[root]
        if edges and state.tri_colour[root] == colour:
            n = state.span[root].bit_count()
            value += n * (n - 1) / 2 / (1 + edges)
    return value
