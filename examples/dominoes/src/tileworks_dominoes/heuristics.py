"""How a dominoes hand is shaping up, for the agents.

``evaluate`` is the seat's points plus, while the game goes on:
- 2 per tile fewer than the average other hand (emptying your hand first
  wins the game);
- -0.15 per pip still in hand (a blocked game goes to the lightest hand);
- +0.4 per distinct pip count in hand (more numbers, fewer passes).

It reads the seat's own hand and public facts only (hand sizes, the line).

>>> import tileworks
>>> from tileworks_dominoes.notation import position
>>> state = position(tileworks.load_game("dominoes"), line=["6-6"], hands=[["3-5", "0-1"], ["2-2", "4-4", "1-6"]])
>>> round(evaluate(state, 0), 2), round(evaluate(state, 1), 2)
(2.25, -3.25)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tileworks_dominoes.tiles import TILES, ids, pip_total

if TYPE_CHECKING:  # pragma: no cover
    from tileworks_dominoes.rules import DominoesState


def evaluate(state: "DominoesState", seat: int) -> float:
    value = float(state.points[seat])
    if state.winners:
        return value
    sizes = [hand.bit_count() for hand in state.hands]
    others = [n for s, n in enumerate(sizes) if s != seat]
    hand = state.hands[seat]
    numbers = {pip for t in ids(hand) for pip in TILES[t]}
    return value + 2.0 * (sum(others) / len(others) - sizes[seat]) - 0.15 * pip_total(hand) + 0.4 * len(numbers)
