"""Reading integer bitboards (bit ``i`` is cell ``i``), as the engines keep
their boards."""

from __future__ import annotations

from collections.abc import Iterable


def cell_labels(boards: Iterable[int], cells: int) -> list[int]:
    """For each of ``cells`` cells, which of the disjoint ``boards`` holds
    it (its index), or -1: each board is visited bit by bit, not each cell
    looked up on every board.

    >>> cell_labels([0b0011, 0b1000], 4)
    [0, 0, -1, 1]
    """
    labels = [-1] * cells
    for label, board in enumerate(boards):
        while board:
            low = board & -board
            labels[low.bit_length() - 1] = label
            board ^= low
    return labels
