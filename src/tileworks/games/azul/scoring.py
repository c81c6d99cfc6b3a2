"""Azul wall scoring: the points a placed tile makes and the end bonuses."""

from __future__ import annotations

from tileworks.games.azul.constants import (
    COLOUR_BONUS, COLUMN_BONUS, COLUMN_MASKS, ROW_BONUS, ROW_MASKS, WALL_BIT,
)


def _run_length(bits: int, pos: int) -> int:
    """Length of the run of set bits through ``pos`` in a 5-bit line."""
    if not bits >> pos & 1:
        return 0
    lo = pos
    while lo > 0 and bits >> (lo - 1) & 1:
        lo -= 1
    hi = pos
    while hi < 4 and bits >> (hi + 1) & 1:
        hi += 1
    return hi - lo + 1


#: RUN[line_bits * 5 + pos]: the run through ``pos`` of a 5-bit line
RUN = tuple(_run_length(bits, pos) for bits in range(32) for pos in range(5))
#: a wall column shifted down to bit 0, spread every 5 bits -> the column as 5 bits
COLUMN_BITS = {sum(1 << (5 * r) for r in range(5) if bits >> r & 1): bits for bits in range(32)}
SPREAD = sum(1 << (5 * r) for r in range(5))


def run_score(wall: int, cell: int) -> int:
    """Points for a tile just placed on ``cell`` of the occupied mask ``wall``.

    An isolated tile scores 1; otherwise the horizontal run (if longer than 1)
    plus the vertical run (if longer than 1), the new tile counted in each.

    >>> run_score(0b1, 0)
    1
    >>> run_score(0b00111, 1)            # middle of three in a row
    3
    >>> run_score((1 << 0) | (1 << 1) | (1 << 6), 1)   # joins a row of 2 and a column of 2
    4
    """
    row, col = divmod(cell, 5)
    across = RUN[(wall >> (5 * row) & 31) * 5 + col]
    down = RUN[COLUMN_BITS[wall >> col & SPREAD] * 5 + row]
    if across == 1 and down == 1:
        return 1
    return (across if across > 1 else 0) + (down if down > 1 else 0)


def end_bonus(colour_walls: list[int]) -> int:
    """+2 per complete row, +7 per complete column, +10 per colour with all 5 tiles.

    ``colour_walls`` holds one occupied mask per colour.
    """
    return sum(end_bonus_parts(colour_walls).values())


def end_bonus_parts(colour_walls: list[int]) -> dict[str, int]:
    """The end bonus by kind: complete rows, columns and colours.

    >>> full_row = [1 << col for col in range(5)]  # the top row, one tile of each colour
    >>> end_bonus_parts(full_row)
    {'rows': 2, 'columns': 0, 'colours': 0}
    """
    wall = 0
    for mask in colour_walls:
        wall |= mask
    return {
        "rows": sum(ROW_BONUS for m in ROW_MASKS if wall & m == m),
        "columns": sum(COLUMN_BONUS for m in COLUMN_MASKS if wall & m == m),
        "colours": sum(COLOUR_BONUS for mask in colour_walls if mask.bit_count() == 5),
    }


#: column of each colour in each row of the coloured wall
WALL_COLUMN = tuple(tuple((WALL_BIT[row][c].bit_length() - 1) % 5 for c in range(5)) for row in range(5))
