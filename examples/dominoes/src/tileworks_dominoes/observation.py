"""The dominoes observation tensor: what one seat sees, as floats in [0, 1].

| size | contents |
| ---: | --- |
| 28 | the viewer's hand, by tile id (all 0 for a spectator) |
| 28 | the tiles in the line |
| 7 + 7 | the left end's and the right end's pips, one-hot (all 0 before the lead) |
| 4 | each seat's hand size ÷ 28 (0 for absent seats) |
| 1 | the boneyard's size ÷ 28 |
| 4 | the phase: deal, draw, play, over |
| 4 + 4 | the seat to move, the viewer's seat |
| 1 | passes in a row ÷ 4 |
| 4 | each seat's points ÷ 168 (every pip of the set) |

>>> import tileworks
>>> tileworks.load_game("dominoes").observation_tensor_size()
92
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks.core.tensor import Tensor

from tileworks_dominoes.tiles import COUNT, TILE_ID

if TYPE_CHECKING:  # pragma: no cover
    from tileworks_dominoes.rules import DominoesGame, DominoesState

SEATS = 4
ALL_PIPS = 168


def tensor_size(game: "DominoesGame") -> int:
    return COUNT + COUNT + 7 + 7 + SEATS + 1 + 4 + SEATS + SEATS + 1 + SEATS


def observation_tensor(state: "DominoesState", player: int) -> list[float]:
    t = Tensor()
    t.bits(state.hands[player] if player >= 0 else 0, COUNT)
    t.bits(sum(1 << TILE_ID[pair] for pair in state.line), COUNT)
    ends = state.ends()
    t.one_hot(7, ends[0] if ends else -1)
    t.one_hot(7, ends[1] if ends else -1)
    t.fractions([hand.bit_count() for hand in state.hands], COUNT, SEATS)
    t.fraction(state.boneyard.bit_count(), COUNT)
    t.one_hot(4, state.phase)
    t.one_hot(SEATS, state.player)
    t.one_hot(SEATS, player)
    t.fraction(state.passes, SEATS)
    t.fractions(state.points, ALL_PIPS, SEATS)
    return t.values
