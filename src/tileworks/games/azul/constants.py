"""Azul constants: colours, the wall pattern, floor penalties, phases.

Colours are numbered blue 0, yellow 1, red 2, black 3, white 4. On the
coloured wall, row ``r`` holds colour ``c`` in column ``(c + r) % 5``.
"""

from tileworks.core.i18n import N_

BLUE, YELLOW, RED, BLACK, WHITE = range(5)
COLOUR_NAMES = (N_("blue"), N_("yellow"), N_("red"), N_("black"), N_("white"))
COLOUR_LETTERS = "byrkw"
TILES_PER_COLOUR = 20
TOTAL_TILES = 100
FLOOR_SPACES = 7
#: points lost for 0..7 occupied floor spaces (-1 -1 -2 -2 -2 -3 -3)
FLOOR_PENALTY = (0, 1, 2, 4, 6, 8, 11, 14)
FACTORIES = {2: 5, 3: 7, 4: 9}
#: pattern line 0 holds 1 tile ... line 4 holds 5
LINE_SIZE = (1, 2, 3, 4, 5)
FLOOR = 5  # destination index of the floor line
DESTINATIONS = 6

ROW_BONUS, COLUMN_BONUS, COLOUR_BONUS = 2, 7, 10


def wall_column(colour: int, row: int) -> int:
    """Column of ``colour`` in ``row`` of the coloured wall.

    >>> [wall_column(c, 1) for c in range(5)]
    [1, 2, 3, 4, 0]
    """
    return (colour + row) % 5


def wall_colour(row: int, column: int) -> int:
    """The colour whose place on the coloured wall is ``column`` of ``row``
    (the inverse of :func:`wall_column`).

    >>> [wall_colour(1, c) for c in range(5)]
    [4, 0, 1, 2, 3]
    """
    return (column - row) % 5


#: bit of the coloured wall's cell for (row, colour)
WALL_BIT = tuple(tuple(1 << (5 * row + wall_column(c, row)) for c in range(5)) for row in range(5))
ROW_MASKS = tuple(0b11111 << (5 * r) for r in range(5))
COLUMN_MASKS = tuple(sum(1 << (5 * r + c) for r in range(5)) for c in range(5))

# Phases.
FIRST_PLAYER, FILL, DRAFT, PLACE, OVER = range(5)
PHASE_NAMES = ("first-player", "fill", "draft", "place", "over")
