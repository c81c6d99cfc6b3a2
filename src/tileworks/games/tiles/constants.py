"""Tiles constants: sides, cell keys and phases.

Cells of the unbounded grid are keyed by one int, ``(x + 128) * 256 + (y + 128)``
(x grows east, y grows north; the first tile is at 0,0).

>>> cell_xy(cell_key(-3, 5))
(-3, 5)
"""

N, E, S, W = range(4)
OPPOSITE = (S, W, N, E)
DELTA = (1, 256, -1, -256)  # key step to the neighbour on each side
ALL_FREE = 0xFF  # a frontier pattern with no requirement yet
HAND_SIZE = {2: 7, 3: 5}

COLOURS_PHASE, FIRST_PHASE, DEAL, ORIGIN_PHASE, DRAW, DECIDE, OVER = range(7)
PHASE_NAMES = ("colours", "first-player", "deal", "origin", "draw", "decide", "over")


def cell_key(x: int, y: int) -> int:
    return (x + 128) * 256 + (y + 128)


def cell_xy(key: int) -> tuple[int, int]:
    return key // 256 - 128, key % 256 - 128


ORIGIN = cell_key(0, 0)
