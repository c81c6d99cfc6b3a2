"""KILN observation tensor (layout: src/tileworks/rules/kiln.md, "Observation tensor").

KILN hides nothing, so every seat's tensor differs only in the viewer's
one-hot code.

>>> import tileworks
>>> state = tileworks.load_game("kiln").new_initial_state()
>>> len(state.observation_tensor(0)) == state.game().observation_tensor_size() == 360
True
"""

from __future__ import annotations

from itertools import accumulate
from typing import TYPE_CHECKING

from tileworks.core.tensor import Tensor
from tileworks.games.kiln.constants import PHASE_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.kiln.rules import KilnGame, KilnState

MAX_SEATS = 4

#: the tensor's parts in order and their sizes (the table in src/tileworks/rules/kiln.md)
PARTS = (("kiln", 5 * 36), ("outer colour", 5), ("outer cell", 24), ("warehouses", 4 * 25), ("pending", 25),
         ("phase", len(PHASE_NAMES)), ("colour", 4), ("mover", MAX_SEATS), ("viewer", MAX_SEATS), ("discs", 4),
         ("turns", 1))
#: where each part starts
AT = dict(zip((name for name, _ in PARTS), accumulate((size for _, size in PARTS), initial=0)))


def tensor_size(game: "KilnGame") -> int:
    return sum(size for _, size in PARTS)


def observation_tensor(state: "KilnState", player: int) -> list[float]:
    game = state._game
    t = Tensor()
    for mask in state.masks:
        t.bits(mask, 36)
    t.one_hot(5, state.outer_tile if state.outer_cell >= 0 else -1)
    t.one_hot(24, state.outer_cell)
    for warehouse in state.warehouses:
        t.bits(warehouse, 25)
    t.bits(state.pending, 25)
    t.one_hot(len(PHASE_NAMES), state.phase)
    t.one_hot(4, state.mover_colour() if state.player >= 0 else -1)
    t.one_hot(MAX_SEATS, state.player)
    t.one_hot(MAX_SEATS, player)
    # the disc each colour moves (its own, or its owner's); unowned colours 0
    discs = [min(state.points[d], game.goal) if d >= 0 else 0 for d in game.disc_of]
    t.fractions(discs, game.goal, 4)
    t.fraction(state.turns, game.turn_limit)
    return t.values


# -- the boards a network reads (Game.board_layout) ----------------------------------------------
#: the canvas: the rack (8 x 8: the kiln's 6 x 6 inside its 24 border cells) in columns 0-7,
#: one empty column, then the warehouse in play in rows 0-4 of columns 9-13
CANVAS_HEIGHT, CANVAS_WIDTH, WAREHOUSE_LEFT = 8, 14, 9
#: the planes: five of the kiln's tiles (by colour), the outer tile, the kiln's cells (as against its
#: border), the four warehouses, the warehouse in play, the shape being placed
KILN_PLANE, OUTER_PLANE, INSIDE_PLANE, WAREHOUSE_PLANE, IN_PLAY_PLANE, PENDING_PLANE, PLANES = 0, 5, 6, 7, 11, 12, 13
#: the channels of a cell's logits: a push through it (one for each way: down, left, up, right, as the
#: border's four sides push), a group starting on it, a shape placed from it, an erase
PUSH_CHANNEL, GROUP_CHANNEL, PLACE_CHANNEL, ERASE_CHANNEL, CHANNELS = 0, 4, 5, 6, 7


def rack_cell(kiln_cell: int) -> int:
    """The canvas cell of kiln cell ``kiln_cell`` (reading order from b7).

    >>> rack_cell(0), rack_cell(35)  # b7, g2
    (15, 90)
    """
    return (1 + kiln_cell // 6) * CANVAS_WIDTH + 1 + kiln_cell % 6


def border_cell(border: int) -> int:
    """The canvas cell of border cell ``border`` (clockwise from b8, as the pushes).

    >>> [border_cell(i) for i in (0, 6, 12, 18)]  # b8, h7, g1, a2
    [1, 21, 104, 84]
    """
    side, k = divmod(border, 6)
    row, column = ((0, 1 + k), (1 + k, 7), (7, 6 - k), (6 - k, 0))[side]
    return row * CANVAS_WIDTH + column


def warehouse_cell(cell: int) -> int:
    """The canvas cell of warehouse cell ``cell`` (``5 * row + column``).

    >>> warehouse_cell(0), warehouse_cell(24)
    (9, 69)
    """
    return (cell // 5) * CANVAS_WIDTH + WAREHOUSE_LEFT + cell % 5


def canvas_layout(game: "KilnGame") -> dict:
    """The kiln in its rack and the warehouse in play as boards of one
    canvas (``Game.board_layout``; the fields in
    :func:`tileworks.agents.network.check_canvas`). A push's logit is read
    as the mean of the cells it moves (its border cell, the six kiln cells
    of its line and the border cell the line's last tile leaves for), a
    group's at its first tile's kiln cell, and a placement's and an
    erase's at their warehouse cell; the warehouse in
    play is the colour in play's warehouse, whichever seat owns it. Keeping
    or declining the erase and the sales are read from the boards' pooled
    features.

    >>> import tileworks
    >>> layout = tileworks.load_game("kiln").board_layout()
    >>> layout["planes"], layout["height"], layout["width"], layout["channels"], len(layout["actions"])
    (13, 8, 14, 7, 174)
    """
    from tileworks.games.kiln.board import LINE, OPPOSITE
    from tileworks.games.kiln.constants import ERASE, GROUP, NUM_ACTIONS, PLACE, PUSH

    size, cells = tensor_size(game), CANVAS_HEIGHT * CANVAS_WIDTH
    inputs = [[-1] * cells for _ in range(PLANES)]
    for kiln_cell in range(36):
        at = rack_cell(kiln_cell)
        for colour in range(5):
            inputs[KILN_PLANE + colour][at] = AT["kiln"] + 36 * colour + kiln_cell
        inputs[INSIDE_PLANE][at] = -2  # a kiln cell, not a border cell
    for border in range(24):
        inputs[OUTER_PLANE][border_cell(border)] = AT["outer cell"] + border
    for cell in range(25):
        at = warehouse_cell(cell)
        for colour in range(4):
            inputs[WAREHOUSE_PLANE + colour][at] = AT["warehouses"] + 25 * colour + cell
        inputs[IN_PLAY_PLANE][at] = size + cell  # derived entry ``cell``: the warehouse in play
        inputs[PENDING_PLANE][at] = AT["pending"] + cell
    mixed = [[[AT["colour"] + colour, AT["warehouses"] + 25 * colour + cell] for colour in range(4)]
             for cell in range(25)]
    actions: list = [-1] * NUM_ACTIONS
    for border in range(24):
        moved = [border_cell(border), *(rack_cell(k) for k in range(36) if LINE[border] >> k & 1),
                 border_cell(OPPOSITE[border])]
        actions[PUSH + border] = [cell * CHANNELS + PUSH_CHANNEL + border // 6 for cell in moved]
    for kiln_cell in range(36):
        actions[GROUP + kiln_cell] = rack_cell(kiln_cell) * CHANNELS + GROUP_CHANNEL
    for cell in range(25):
        actions[PLACE + cell] = warehouse_cell(cell) * CHANNELS + PLACE_CHANNEL
        actions[ERASE + cell] = warehouse_cell(cell) * CHANNELS + ERASE_CHANNEL
    rack = sorted([rack_cell(k) for k in range(36)] + [border_cell(b) for b in range(24)])
    return {"planes": PLANES, "height": CANVAS_HEIGHT, "width": CANVAS_WIDTH, "channels": CHANNELS, "observation": size,
            "inputs": [i for plane in inputs for i in plane], "mixed": mixed,
            "globals": list(range(AT["outer colour"], size)), "regions": [rack, [warehouse_cell(c) for c in range(25)]],
            "actions": actions}
