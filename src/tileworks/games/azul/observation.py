"""Azul observation tensor (layout: src/tileworks/rules/azul.md, "Observation tensor").

Everything in Azul is public (the bag's contents follow from the tiles in
sight), so every seat's tensor differs only in the viewer's one-hot code.

>>> import tileworks
>>> state = tileworks.load_game("azul").new_initial_state()
>>> len(state.observation_tensor(0)) == state.game().observation_tensor_size() == 384
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.core.tensor import Tensor
from tileworks.games.azul.constants import FLOOR_SPACES, LINE_SIZE, PHASE_NAMES, PLACE, TILES_PER_COLOUR

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.azul.rules import AzulGame, AzulState

#: no score can pass this: 25 wall tiles of at most 10 points each, plus
#: every end bonus (5 rows x 2, 5 columns x 7, 5 colours x 10)
SCORE_BOUND = 345
#: per seat: pattern lines (colour and fill), wall (colour per cell),
#: floor (tiles per colour and spaces taken), marker, points
SEAT_SIZE = 5 * (5 + 1) + 25 * 5 + 5 + 1 + 1 + 1


def tensor_size(game: "AzulGame") -> int:
    n = game.players
    # factories, centre, marker in centre, bag, lid, seats, phase, place line,
    # seat to move, starter, viewer, round
    return 5 * game.factories + 5 + 1 + 5 + 5 + n * SEAT_SIZE + len(PHASE_NAMES) + 5 + 3 * n + 1


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
