"""Azul heuristics: pattern-line progress and floor risk.

``evaluate`` is the score plus:
- for each pattern line, 1.5 × the fraction of it filled (a full line will
  soon place a tile worth at least 1, more beside others);
- minus the penalty the floor line will cost at the end of the round;
- +0.3 per wall tile in a row or column that already holds three or more
  (runs grow scoring and lead to end bonuses).

Everything here is public, as is everything in Azul.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.games.azul.constants import COLUMN_MASKS, FLOOR_PENALTY, ROW_MASKS

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.azul.rules import AzulState

LINES = ROW_MASKS + COLUMN_MASKS


def evaluate(state: "AzulState", seat: int) -> float:
    value = float(state.points[seat])
    base = 5 * seat
    for line in range(5):
        count = state.line_count[base + line]
        if count:
            value += 1.5 * count / (line + 1)
    value -= FLOOR_PENALTY[state.floor_spaces[seat]]
    wall = state.wall_all[seat]
    for mask in LINES:
        tiles = (wall & mask).bit_count()
        if tiles >= 3:
            value += 0.3 * tiles
    return value
