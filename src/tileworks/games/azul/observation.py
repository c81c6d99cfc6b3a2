"""Azul observation tensor (layout: src/tileworks/rules/azul.md, "Observation tensor").

Everything in Azul is public (the bag's contents follow from the tiles in
sight), so every seat's tensor differs only in the viewer's one-hot code.

>>> import tileworks
>>> state = tileworks.load_game("azul").new_initial_state()
>>> len(state.observation_tensor(0)) == state.game().observation_tensor_size() == 384
True
"""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING

from tileworks.core.tensor import Tensor
from tileworks.games.azul.constants import FLOOR_SPACES, LINE_SIZE, PHASE_NAMES, PLACE, TILES_PER_COLOUR

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.azul.rules import AzulGame, AzulState

#: no score can pass this: 25 wall tiles of at most 10 points each, plus
#: every end bonus (5 rows x 2, 5 columns x 7, 5 colours x 10)
SCORE_BOUND = 345
#: where a seat's entries start in its part of the tensor: pattern line ``r``'s colour one-hot at
#: ``6r``, its fill at ``6r + 5``; wall cell ``i``'s colour one-hot at ``SEAT_WALL + 5i``; then the
#: floor's tiles by colour, the floor spaces taken, the marker, the points
SEAT_WALL = 5 * (5 + 1)
SEAT_FLOOR_SPACES = SEAT_WALL + 25 * 5 + 5
SEAT_MARKER, SEAT_POINTS = SEAT_FLOOR_SPACES + 1, SEAT_FLOOR_SPACES + 2
SEAT_SIZE = SEAT_POINTS + 1


def tensor_size(game: "AzulGame") -> int:
    return sum(size for _, size in parts(game))


def observation_tensor(state: "AzulState", player: int) -> list[float]:
    game = state._game
    n = game.players
    t = Tensor()
    t.fractions(state.factory, 4)
    t.fractions(state.centre, TILES_PER_COLOUR)
    t.flag(state.marker_in_centre)
    t.fractions(state.bag, TILES_PER_COLOUR)
    t.fractions(state.lid, TILES_PER_COLOUR)
    for seat in range(n):
        for line in range(5):
            i = 5 * seat + line
            t.one_hot(5, state.line_colour[i])
            t.fraction(state.line_count[i], LINE_SIZE[line])
        for colour in state.wall_colours(seat):
            t.one_hot(5, colour)
        t.fractions(state.floor_tiles[5 * seat : 5 * seat + 5], FLOOR_SPACES)
        t.fraction(state.floor_spaces[seat], FLOOR_SPACES)
        t.flag(state.marker_holder == seat)
        t.fraction(state.points[seat], SCORE_BOUND)
    t.one_hot(len(PHASE_NAMES), state.phase)
    t.one_hot(5, state.place_line if state.phase == PLACE else -1)
    t.one_hot(n, state.player)
    t.one_hot(n, state.starter)
    t.one_hot(n, player)
    t.fraction(state.round, game.round_limit)
    return t.values


def parts(game: "AzulGame") -> tuple[tuple[str, int], ...]:
    """The tensor's parts in order and their sizes (the table in src/tileworks/rules/azul.md).

    >>> import tileworks
    >>> dict(parts(tileworks.load_game("azul")))["seats"] == 2 * SEAT_SIZE
    True
    """
    n = game.players
    return (("factories", 5 * game.factories), ("centre", 5), ("marker in centre", 1), ("bag", 5), ("lid", 5),
            ("seats", n * SEAT_SIZE), ("phase", len(PHASE_NAMES)), ("place line", 5), ("mover", n),
            ("starter", n), ("viewer", n), ("round", 1))


def starts(game: "AzulGame") -> dict[str, int]:
    """Where each of the tensor's parts starts."""
    names, sizes = zip(*parts(game))
    return dict(zip(names, accumulate(sizes, initial=0)))


# -- the boards a network reads (Game.board_layout) ----------------------------------------------
#: each seat's board is 5 rows of 10 cells: the pattern lines right-aligned in columns 0-4 (line r
#: has r + 1 spaces, as on the printed board), the wall in columns 5-9. The factories and the centre
#: (one row each, a column for each colour) lie in columns 0-4, the seats' boards from column 6,
#: the mover's first, then each seat after it in turn, one empty row apart.
BOARD_LEFT, CANVAS_WIDTH, BOARD_ROWS = 6, 16, 6
#: the planes: on a seat's board, its tiles by colour (pattern lines and wall), how full each line
#: is, which cells are line spaces and which are wall, each colour's home on the wall, and the
#: seat's floor, marker and points (on all its cells); on the sources, the tiles of the cell's
#: colour, the centre's row, the marker in the centre, then what the mover's pattern lines (their
#: colour, how full) and wall rows (the cell's colour placed) say of the cell's colour, and what
#: the next seat's say
(COLOUR_PLANE, FILL_PLANE, LINE_SPACE_PLANE, WALL_SPACE_PLANE, HOME_PLANE, FLOOR_PLANE, MARKER_PLANE,
 POINTS_PLANE, TILES_PLANE, CENTRE_PLANE, CENTRE_MARKER_PLANE, MINE_LINE_PLANE, MINE_FILL_PLANE,
 MINE_WALL_PLANE, NEXT_LINE_PLANE, NEXT_WALL_PLANE, PLANES) = (
    0, 5, 6, 7, 8, 13, 14, 15, 16, 17, 18, 19, 24, 29, 34, 39, 44)
#: the channels of a cell's logits: on a source's cell, taking its colour to pattern line 0-4 or to
#: the floor; on a wall cell, a line's tiles of that cell's colour bound for it
LINE_CHANNEL, FLOOR_CHANNEL, BOUND_CHANNEL, CHANNELS = 0, 5, 6, 7


def board_cell(seat: int, row: int, column: int) -> int:
    """The canvas cell of ``column`` (0-4 pattern lines, 5-9 wall) in ``row``
    of the board of the seat ``seat`` places after the mover.

    >>> board_cell(0, 0, 4), board_cell(1, 4, 9)  # the mover's first line space, the next seat's last wall cell
    (10, 175)
    """
    return (BOARD_ROWS * seat + row) * CANVAS_WIDTH + BOARD_LEFT + column


def source_cell(source: int, colour: int) -> int:
    """The canvas cell of ``colour`` in ``source`` (the factories, then the centre)."""
    return source * CANVAS_WIDTH + colour


def canvas_layout(game: "AzulGame") -> dict:
    """The factories and the centre, and every seat's pattern lines and wall
    from the mover's on, as boards of one canvas (``Game.board_layout``; the
    fields in :func:`tileworks.agents.network.check_canvas`). Taking a
    colour from a source to a pattern line reads the mean of the source's
    cell for that colour and the wall cell the line fills; taking it to the
    floor reads the source's cell alone. The boards are the mover's first,
    so each seat's board is drawn from whichever seat's entries the mover
    makes it: a sum of products with the seat to move.

    >>> import tileworks
    >>> layout = tileworks.load_game("azul", players=3).board_layout()
    >>> layout["planes"], layout["height"], layout["width"], layout["channels"], len(layout["actions"])
    (44, 17, 16, 7, 245)
    """
    from tileworks.games.azul.constants import FLOOR, wall_colour, wall_column

    n, sources, size = game.players, game.sources, tensor_size(game)
    at = starts(game)
    height = max(sources, BOARD_ROWS * n - 1)
    cells = height * CANVAS_WIDTH
    inputs = [[-1] * cells for _ in range(PLANES)]
    mixed: list[list[list[int]]] = []
    derived: dict[tuple[int, int], int] = {}

    def seat_entry(seat: int, entry: int) -> int:
        """The extended tensor's index of ``entry`` of the seat ``seat`` places after the mover."""
        if (seat, entry) not in derived:
            derived[seat, entry] = size + len(mixed)
            mixed.append([[at["mover"] + s, at["seats"] + SEAT_SIZE * ((s + seat) % n) + entry] for s in range(n)])
        return derived[seat, entry]

    regions = [[source_cell(s, c) for s in range(sources) for c in range(5)]]
    for seat in range(n):
        region = []
        for row in range(5):
            for space in range(row + 1):
                cell = board_cell(seat, row, 4 - space)
                region.append(cell)
                for colour in range(5):
                    inputs[COLOUR_PLANE + colour][cell] = seat_entry(seat, 6 * row + colour)
                inputs[FILL_PLANE][cell] = seat_entry(seat, 6 * row + 5)
                inputs[LINE_SPACE_PLANE][cell] = -2
            for column in range(5):
                cell = board_cell(seat, row, 5 + column)
                region.append(cell)
                for colour in range(5):
                    inputs[COLOUR_PLANE + colour][cell] = seat_entry(seat, SEAT_WALL + 5 * (5 * row + column) + colour)
                inputs[WALL_SPACE_PLANE][cell] = -2
                inputs[HOME_PLANE + wall_colour(row, column)][cell] = -2
        for cell in region:
            inputs[FLOOR_PLANE][cell] = seat_entry(seat, SEAT_FLOOR_SPACES)
            inputs[MARKER_PLANE][cell] = seat_entry(seat, SEAT_MARKER)
            inputs[POINTS_PLANE][cell] = seat_entry(seat, SEAT_POINTS)
        regions.append(sorted(region))
    for source in range(sources):
        for colour in range(5):
            cell = source_cell(source, colour)
            if source == game.centre:
                inputs[TILES_PLANE][cell] = at["centre"] + colour
                inputs[CENTRE_PLANE][cell] = -2
                inputs[CENTRE_MARKER_PLANE][cell] = at["marker in centre"]
            else:
                inputs[TILES_PLANE][cell] = at["factories"] + 5 * source + colour
            for row in range(5):
                home = SEAT_WALL + 5 * (5 * row + wall_column(colour, row)) + colour
                inputs[MINE_LINE_PLANE + row][cell] = seat_entry(0, 6 * row + colour)
                inputs[MINE_FILL_PLANE + row][cell] = seat_entry(0, 6 * row + 5)
                inputs[MINE_WALL_PLANE + row][cell] = seat_entry(0, home)
                inputs[NEXT_LINE_PLANE + row][cell] = seat_entry(1, 6 * row + colour)
                inputs[NEXT_WALL_PLANE + row][cell] = seat_entry(1, home)
    actions: list = [-1] * game.num_distinct_actions()
    for action, (source, colour, destination) in enumerate(game.decode):
        taken = source_cell(source, colour) * CHANNELS
        if destination == FLOOR:
            actions[action] = taken + FLOOR_CHANNEL
        else:
            bound = board_cell(0, destination, 5 + wall_column(colour, destination)) * CHANNELS + BOUND_CHANNEL
            actions[action] = [taken + LINE_CHANNEL + destination, bound]
    globals_ = [at["marker in centre"], *range(at["bag"], at["seats"]), *range(at["phase"], at["mover"]), at["round"]]
    return {"planes": PLANES, "height": height, "width": CANVAS_WIDTH, "channels": CHANNELS, "observation": size,
            "inputs": [i for plane in inputs for i in plane], "mixed": mixed, "globals": globals_,
            "regions": regions, "actions": actions}
