"""The double-six set: 28 tiles, each a pair of pip counts 0-6.

A tile's id is its place in the list of pairs ``(low, high)`` in order:
0-0, 0-1, ... 0-6, 1-1, 1-2, ... 6-6. Sets of tiles are bitmasks of ids.

>>> TILES[0], TILES[6], TILES[7], TILES[27]
((0, 0), (0, 6), (1, 1), (6, 6))
>>> tile_name(TILE_ID[3, 5]), pips(TILE_ID[3, 5])
('3-5', 8)
"""

from __future__ import annotations

TILES: tuple[tuple[int, int], ...] = tuple((low, high) for low in range(7) for high in range(low, 7))
TILE_ID: dict[tuple[int, int], int] = {pair: i for i, pair in enumerate(TILES)}
TILE_ID.update({(high, low): i for (low, high), i in list(TILE_ID.items())})
COUNT = len(TILES)
ALL = (1 << COUNT) - 1

#: SHOWING[n]: the tiles with an end of n pips (a bitmask)
SHOWING = tuple(sum(1 << i for i, pair in enumerate(TILES) if n in pair) for n in range(7))
DOUBLES = sum(1 << i for i, (low, high) in enumerate(TILES) if low == high)


def tile_name(tile: int) -> str:
    low, high = TILES[tile]
    return f"{low}-{high}"


def pips(tile: int) -> int:
    low, high = TILES[tile]
    return low + high


def ids(mask: int) -> list[int]:
    """The tile ids in a bitmask, in order.

    >>> ids(0b1010)
    [1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def pip_total(mask: int) -> int:
    """The pips of every tile in a bitmask.

    >>> pip_total((1 << TILE_ID[6, 6]) | (1 << TILE_ID[0, 1]))
    13
    """
    return sum(pips(t) for t in ids(mask))


def lead_rank(tile: int) -> tuple[int, int, int]:
    """How strongly a tile claims the lead: any double beats any other tile,
    doubles by their pips, other tiles by their pips, then their higher end.

    >>> sorted([TILE_ID[5, 6], TILE_ID[0, 0], TILE_ID[4, 6]], key=lead_rank)[-1] == TILE_ID[0, 0]
    True
    """
    low, high = TILES[tile]
    return (low == high, low + high, high)


#: each tile's lead rank as one number, and the tiles ranked above each tile
LEAD_ORDER = sorted(range(COUNT), key=lead_rank)
RANKED_ABOVE = tuple(sum(1 << t for t in LEAD_ORDER[LEAD_ORDER.index(tile) + 1 :]) for tile in range(COUNT))
