"""Tiles observation tensor (layout: src/tileworks/rules/tiles.md, "Observation tensor").

The layout is drawn in the frame placement actions use: the layout's
bounds plus a margin of one, ``width`` cells a side, so plane cell
``py * width + px`` is where action position ``py * width + px`` puts a
tile. Only the viewer's own hand is in it; other hands appear as sizes.

>>> import tileworks
>>> game = tileworks.load_game("tiles")
>>> game.observation_tensor_size()
26580
"""

from __future__ import annotations

import array
from typing import TYPE_CHECKING, Any

from tileworks.core.tensor import Tensor
from tileworks.games.tiles.constants import OVER, PHASE_NAMES, cell_xy
from tileworks.games.tiles.tileset import colours_of

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.tiles.rules import TilesGame, TilesState


def score_bound(game: "TilesGame") -> int:
    """No score can pass this: an area touching n tiles scores n(n-1)/2 with
    n at most the number of tiles N, and a player's areas hold at most 4N
    triangles between them, so the sum stays below 4N(N-1)/2."""
    tiles = len(game.tileset)
    return max(1, 2 * tiles * (tiles - 1))


def tensor_size(game: "TilesGame") -> int:
    n, kinds, width = game.players, game.kinds, game.width
    # layout planes, own hand, hand sizes, deck, discards, colours, points,
    # phase, seat whose turn, first player, viewer
    return 12 * width * width + kinds + n + 1 + kinds + 3 * n + n + len(PHASE_NAMES) + 3 * n


def observation_tensor(state: "TilesState", player: int) -> list[float]:
    return _observation(state, player, [0.0] * (12 * state._game.width ** 2))


def observation_floats(state: "TilesState", player: int) -> array.array:
    """The tensor as 32-bit floats, its planes zeroed in one step and only
    the placed tiles' sides set (``State.observation_floats``)."""
    return _observation(state, player, array.array("f", bytes(4 * 12 * state._game.width ** 2)))


def _observation(state: "TilesState", player: int, planes: Any) -> Any:
    """The tensor in ``planes``, a list or array of the layout planes' zeros:
    the placed tiles' sides set, then the rest appended."""
    game = state._game
    n, kinds, width = game.players, game.kinds, game.width
    tiles = len(game.tileset)
    area = width * width
    minx, miny = state.bounds[0], state.bounds[2]
    for key, code in zip(state.tile_cell, state.tile_code):
        x, y = cell_xy(key)
        pos = (y - miny + 1) * width + (x - minx + 1)
        for side, colour in enumerate(colours_of(code)):
            planes[(3 * side + colour) * area + pos] = 1.0
    t = Tensor()
    hand = state.hand(player) if player >= 0 else [0] * kinds
    t.values += [held / total for held, total in zip(hand, game.tileset.count)]
    t.fractions([state.hand_count(seat) for seat in range(n)], tiles)
    t.fraction(state.deck_total, tiles)
    discarded = [0] * kinds
    for kind in state.discards:
        discarded[kind] += 1
    t.values += [d / total for d, total in zip(discarded, game.tileset.count)]
    for seat in range(n):
        t.one_hot(3, state.colour[seat])
    t.fractions(state.points, score_bound(game))
    t.one_hot(len(PHASE_NAMES), state.phase)
    t.one_hot(n, state.seat if state.phase != OVER else -1)
    t.one_hot(n, state.first)
    t.one_hot(n, player)
    planes.extend(t.values)
    return planes
