"""KILN geometry on integer bitboards.

The rack is 8x8 with chess-style names: files a-h left to right, ranks 1-8
bottom to top. The kiln is its inner 6x6 (b2-g7). Kiln cell ``i`` is bit
``i`` of a 36-bit int, in reading order: ``i = 6*y + x`` with ``y = 0`` the
top row (rank 7) and ``x = 0`` file b. A warehouse is a 25-bit int in the
same reading order (``5*row + column``, row 0 at the top).

The 24 border cells are numbered clockwise from the top-left: b8-g8 (0-5,
pushing down), h7-h2 (6-11, pushing left), g1-b1 (12-17, pushing up), a2-a7
(18-23, pushing right).

>>> KILN_CELL_NAMES[0], KILN_CELL_NAMES[35]
('b7', 'g2')
>>> BORDER_NAMES[0], BORDER_NAMES[6], BORDER_NAMES[12], BORDER_NAMES[18]
('b8', 'h7', 'g1', 'a2')
>>> BORDER_NAMES[OPPOSITE[0]]
'b1'
"""

from __future__ import annotations

from functools import lru_cache

FILES = "abcdefgh"
KILN_FULL = (1 << 36) - 1
WAREHOUSE_FULL = (1 << 25) - 1

#: kiln cells not in the leftmost / rightmost column (for shifting without wrap)
NOT_LEFT = sum(1 << (6 * y + x) for y in range(6) for x in range(1, 6))
NOT_RIGHT = sum(1 << (6 * y + x) for y in range(6) for x in range(5))

KILN_CELL_NAMES = tuple(f"{FILES[x + 1]}{7 - y}" for y in range(6) for x in range(6))
KILN_CELL_INDEX = {name: i for i, name in enumerate(KILN_CELL_NAMES)}


def _border_table():
    names, lines, entries, exits, shifts, opposite = [], [], [], [], [], []
    col = lambda x: sum(1 << (6 * y + x) for y in range(6))  # noqa: E731
    row = lambda y: 0b111111 << (6 * y)  # noqa: E731
    for x in range(6):  # top, pushing down
        names.append(f"{FILES[x + 1]}8")
        lines.append(col(x)); entries.append(1 << x); exits.append(1 << (30 + x)); shifts.append(6)
        opposite.append(17 - x)
    for y in range(6):  # right, pushing left
        names.append(f"h{7 - y}")
        lines.append(row(y)); entries.append(1 << (6 * y + 5)); exits.append(1 << (6 * y)); shifts.append(-1)
        opposite.append(23 - y)
    for k in range(6):  # bottom, pushing up
        x = 5 - k
        names.append(f"{FILES[x + 1]}1")
        lines.append(col(x)); entries.append(1 << (30 + x)); exits.append(1 << x); shifts.append(-6)
        opposite.append(x)
    for k in range(6):  # left, pushing right
        y = 5 - k
        names.append(f"a{7 - y}")
        lines.append(row(y)); entries.append(1 << (6 * y)); exits.append(1 << (6 * y + 5)); shifts.append(1)
        opposite.append(6 + y)
    return tuple(names), tuple(lines), tuple(entries), tuple(exits), tuple(shifts), tuple(opposite)


BORDER_NAMES, LINE, ENTRY, EXIT, SHIFT, OPPOSITE = _border_table()
BORDER_INDEX = {name: i for i, name in enumerate(BORDER_NAMES)}

#: legal push destinations for each position of the outer tile
PUSH_TARGETS = tuple(tuple(j for j in range(24) if j != i) for i in range(24))

ROW_MASKS = tuple(0b11111 << (5 * r) for r in range(5))
COLUMN_MASKS = tuple(sum(1 << (5 * r + c) for r in range(5)) for c in range(5))


def push(masks: list[int], outer: int, border: int) -> int:
    """Push tile ``outer`` (a tile index) in from ``border``; return the tile pushed out.

    ``masks`` holds one bitboard per tile kind and is updated in place.

    >>> masks = [0, 0, 0, 0, 0]
    >>> masks[0] = 1 << 30          # a red tile on b2 (bottom-left of the kiln)
    >>> push(masks, 4, BORDER_INDEX["b8"])  # black pushed down column b
    0
    >>> masks[4] == 1 << 0, masks[0]
    (True, 0)
    """
    line, exit_bit, shift = LINE[border], EXIT[border], SHIFT[border]
    out = -1
    for tile, mask in enumerate(masks):
        moving = mask & line
        if not moving:
            continue
        if moving & exit_bit:
            out = tile
            moving ^= exit_bit
        moving = moving << shift if shift > 0 else moving >> -shift
        masks[tile] = (mask & ~line) | moving
    masks[outer] |= ENTRY[border]
    return out


def grow(seed: int, within: int) -> int:
    """The orthogonally connected part of ``within`` that contains ``seed``."""
    group = seed
    while True:
        grown = (
            group
            | ((group << 1) & NOT_LEFT)
            | ((group >> 1) & NOT_RIGHT)
            | (group << 6)
            | (group >> 6)
        ) & within
        if grown == group:
            return group
        group = grown


def groups(mask: int) -> list[int]:
    """The orthogonal groups of ``mask``, ordered by their first cell."""
    out = []
    while mask:
        group = grow(mask & -mask, mask)
        out.append(group)
        mask ^= group
    return out


@lru_cache(maxsize=1 << 16)
def largest_groups(mask: int) -> tuple[int, ...]:
    """The groups of ``mask`` that tie for the largest size, ordered by first cell.

    Cached, as ``placements`` is: every copy starts here, and a search meets
    the same kiln many times.

    >>> largest_groups(0b000011_000000_110000)   # two dominoes on different rows
    (48, 12288)
    """
    best: list[int] = []
    size = 0
    while mask:
        group = grow(mask & -mask, mask)
        mask ^= group
        n = group.bit_count()
        if n > size:
            size, best = n, [group]
        elif n == size:
            best.append(group)
        if mask.bit_count() < size:  # no remaining group can reach the size
            break
    return tuple(best)


def group_sizes(mask: int) -> list[int]:
    """Group sizes of ``mask`` from largest to smallest."""
    return sorted((g.bit_count() for g in groups(mask)), reverse=True)


def first_cell(mask: int) -> int:
    """Index of the lowest set bit (the first cell in reading order)."""
    return (mask & -mask).bit_length() - 1


@lru_cache(maxsize=1 << 16)
def shape_of(group: int) -> tuple[int, int]:
    """``(key, shape)`` of a kiln group.

    ``key`` is the group translated to the kiln's top-left corner (equal for
    groups of the same shape); ``shape`` is the same cells as a warehouse
    mask at the warehouse's top-left, or 0 when the shape is wider or taller
    than 5 and so can never fit.
    """
    cells = [i for i in range(36) if group >> i & 1]
    top = min(i // 6 for i in cells)
    left = min(i % 6 for i in cells)
    key = 0
    shape = 0
    too_big = False
    for i in cells:
        y, x = i // 6 - top, i % 6 - left
        key |= 1 << (6 * y + x)
        if y >= 5 or x >= 5:
            too_big = True
        else:
            shape |= 1 << (5 * y + x)
    return key, 0 if too_big else shape


@lru_cache(maxsize=1 << 14)
def translations(shape: int) -> tuple[int, ...]:
    """Every translation of a warehouse-frame ``shape`` that stays inside the 5x5."""
    if not shape:
        return ()
    cells = [i for i in range(25) if shape >> i & 1]
    height = max(i // 5 for i in cells) + 1
    width = max(i % 5 for i in cells) + 1
    return tuple(
        shape << (5 * dy + dx) for dy in range(6 - height) for dx in range(6 - width)
    )


@lru_cache(maxsize=1 << 16)
def placements(shape: int, warehouse: int) -> tuple[int, ...]:
    """Placements of ``shape`` onto empty cells of ``warehouse`` (warehouse masks).

    Cached: a search asks about the same few warehouses thousands of times.
    """
    return tuple(p for p in translations(shape) if not p & warehouse)


def complete_rows(warehouse: int) -> int:
    """Bit ``r`` set when row ``r`` (0 = top) is fully painted."""
    return sum(1 << r for r, m in enumerate(ROW_MASKS) if warehouse & m == m)


def complete_columns(warehouse: int) -> int:
    """Bit ``c`` set when column ``c`` (0 = left) is fully painted."""
    return sum(1 << c for c, m in enumerate(COLUMN_MASKS) if warehouse & m == m)


def submasks(mask: int) -> list[int]:
    """Every non-empty subset of ``mask``, ascending."""
    out = []
    sub = mask
    while sub:
        out.append(sub)
        sub = (sub - 1) & mask
    out.reverse()
    return out


def line_cells(lines: int, masks: tuple[int, ...]) -> int:
    """The cells of the lines whose bits are set in ``lines`` (``masks``:
    ``ROW_MASKS`` or ``COLUMN_MASKS``).

    >>> line_cells(0b101, ROW_MASKS) == ROW_MASKS[0] | ROW_MASKS[2]
    True
    """
    return sum(mask for i, mask in enumerate(masks) if lines >> i & 1)


def price(lines: int) -> int:
    """Triangular price of selling ``lines`` rows or columns: 1, 3, 6, 10, 15."""
    return lines * (lines + 1) // 2
