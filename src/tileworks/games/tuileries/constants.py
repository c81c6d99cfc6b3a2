"""Tuileries constants: tiles, squares, masks and phases.

A tile is a colour (b blue, y yellow, r red, g green), a value (k king,
q queen, n knight, j jack) and a sign (s spades, h hearts, d diamonds,
c clubs); its id is ``16 * colour + 4 * value + sign``. Squares are named
a1-h8 (files a-h left to right, ranks 1-8 bottom to top); square ``s`` is
bit ``s = 8 * (rank - 1) + file`` of a 64-bit board.

>>> tile_name(16 * 2 + 4 * 2 + 2), SQUARE_NAMES[18]
('rnd', 'c3')
"""

from tileworks.core.i18n import N_, _

COLOURS = "byrg"
VALUES = "kqnj"
SIGNS = "shdc"
COLOUR_NAMES = (N_("blue"), N_("yellow"), N_("red"), N_("green"))
VALUE_NAMES = (N_("king"), N_("queen"), N_("knight"), N_("jack"))
SIGN_NAMES = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
TILES = 64
HAND_SIZE = {2: 10, 3: 8, 4: 7, 5: 6, 6: 6}

SQUARE_NAMES = tuple(f"{'abcdefgh'[s % 8]}{s // 8 + 1}" for s in range(64))
SQUARE_INDEX = {name: s for s, name in enumerate(SQUARE_NAMES)}
DEFAULT_CIRCLES = ("c3", "f3", "c6", "f6")

FULL = (1 << 64) - 1
NOT_A = sum(1 << s for s in range(64) if s % 8 != 0)
NOT_H = sum(1 << s for s in range(64) if s % 8 != 7)


def neighbours(cells: int) -> int:
    """The squares sharing a side with any of ``cells`` (``cells`` themselves
    included only where two of them touch)."""
    return (((cells << 1) & NOT_A) | ((cells >> 1) & NOT_H) | (cells << 8) | (cells >> 8)) & FULL


def grow(seed: int, within: int) -> int:
    """The orthogonally connected part of ``within`` that contains ``seed``.

    >>> bin(grow(0b1, 0b1011))  # a1 b1 join, d1 stands apart
    '0b11'
    """
    group = seed
    while True:  # neighbours() written out: every score grows three groups
        grown = (group | ((group << 1) & NOT_A) | ((group >> 1) & NOT_H) | (group << 8) | (group >> 8)) & within
        if grown == group:
            return group
        group = grown

#: mask pairs of a tile's three groups: (colour, value), (value, sign), (sign, colour),
#: indexing the colour masks 0-3, value masks 4-7 and sign masks 8-11
PAIRS = tuple(
    ((t >> 4, 4 + ((t >> 2) & 3)), (4 + ((t >> 2) & 3), 8 + (t & 3)), (8 + (t & 3), t >> 4)) for t in range(TILES)
)

FIRST, DEAL, PLAY, REPLACE, BONUS, OVER = range(6)
PHASE_NAMES = ("first", "deal", "play", "replace", "bonus", "over")
EXTRA_TURN_AT = 5


def tile_name(tile: int) -> str:
    return COLOURS[tile >> 4] + VALUES[(tile >> 2) & 3] + SIGNS[tile & 3]


def tile_long_name(tile: int) -> str:
    """The tile's name in words.

    >>> tile_long_name(16 * 2 + 4 * 2 + 2)
    'red knight of diamonds'
    """
    return f"{COLOUR_NAMES[tile >> 4]} {VALUE_NAMES[(tile >> 2) & 3]} of {SIGN_NAMES[tile & 3]}"


def tile_of(name: str) -> int:
    """The id of a tile named like ``rnd``; ``ValueError`` otherwise."""
    if len(name) != 3 or name[0] not in COLOURS or name[1] not in VALUES or name[2] not in SIGNS:
        raise ValueError(_("{name} is not a tile: colour (b y r g), value (k q n j), sign (s h d c)", name=repr(name)))
    return 16 * COLOURS.index(name[0]) + 4 * VALUES.index(name[1]) + SIGNS.index(name[2])


def adjacent(a: int, b: int) -> bool:
    """Whether two squares share a side."""
    return (abs(a - b) == 8) or (abs(a - b) == 1 and a // 8 == b // 8)


def normalise_circles(value: object) -> tuple[str, ...]:
    """The ``circles`` option: four distinct squares, no two sharing a side
    (so the first four tiles always score 1 each)."""
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ValueError(N_("expected four square names such as c3,f3,c6,f6"))
    names = [v.strip().lower() for v in value]
    bad = [n for n in names if n not in SQUARE_INDEX]
    if bad:
        raise ValueError(_("{name} is not a square (a1 to h8)", name=repr(bad[0])))
    if len(names) != 4 or len(set(names)) != 4:
        raise ValueError(N_("expected exactly four different squares"))
    squares = [SQUARE_INDEX[n] for n in names]
    for i, a in enumerate(squares):
        for b in squares[i + 1 :]:
            if adjacent(a, b):
                raise ValueError(_("{one} and {other} share a side", one=SQUARE_NAMES[a], other=SQUARE_NAMES[b]))
    return tuple(sorted(names, key=lambda n: SQUARE_INDEX[n]))
