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
    parent, open_edges, tri_colour, span = state.parent, state.open, state.tri_colour, state.span
    for tri, root in enumerate(parent):
        # each area counted once, at its union-find root
        if tri == root and open_edges[tri] and tri_colour[tri] == colour:
            n = span[tri].bit_count()
            value += n * (n - 1) / 2 / (1 + open_edges[tri])
    return value
