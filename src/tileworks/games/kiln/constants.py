"""KILN constants: tiles, colours, action ids and phases (see src/tileworks/rules/kiln.md)."""

from tileworks.core.i18n import N_

RED, BLUE, GREEN, YELLOW, BLACK = range(5)
COLOUR_NAMES = (N_("red"), N_("blue"), N_("green"), N_("yellow"), N_("black"))
TILE_LETTERS = "RBGYK"
TILES_PER_COLOUR = 9
HEAT_CELLS = (5, 8, 14, 17, 19, 23, 26)

# Player action ids (see src/tileworks/rules/kiln.md, "Action ids").
PUSH = 0  # + border cell (24)
GROUP = 24  # + kiln cell of the chosen group's first tile (36)
PLACE = 60  # + warehouse cell where the shape's first tile goes (25)
ERASE = 85  # + warehouse cell (25)
KEEP = 110  # decline the erase
SELL_ROWS = 111  # + row subset mask - 1 (31)
SELL_COLUMNS = 142  # + column subset mask - 1 (31)
NO_SALE = 173
NUM_ACTIONS = 174

# Phases of the state machine.
FILL, BLACK_TILE, FIRST_PLAYER, PUSHING, CHOOSING, PLACING, ERASING, SELLING, OVER = range(9)
PHASE_NAMES = (
    "fill", "black", "first-player", "push", "group", "place", "erase", "sale", "over",
)
