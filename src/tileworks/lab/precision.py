"""Stopping at a precision: play a cell until its main interval is narrow enough.

Looking at an interval after every batch of games and stopping once it is
narrow breaks a fixed-sample interval's 95% (each look is another chance
to stop on a lucky run). A *confidence sequence* holds at every number of
games at once, so a run may stop whenever it likes and keep its coverage.
We use the betting confidence sequence of Waudby-Smith and Ramdas
(*Estimating means of bounded random variables by betting*, JRSS-B 86(1),
2024): their hedged capital process, in which for each candidate mean
``m`` two bettors wager on the games' values being above and below ``m``,
and ``m`` leaves the sequence once their average wealth reaches 1/α.
The bets are their predictable plug-in empirical-Bernstein bets tuned to
a number of games (section 5.1), here twice what a fixed-sample interval
of an even cell needs for the precision asked; any fixed tuning keeps the
coverage. The bets follow the variance seen so far, so a lopsided cell
(one seat nearly always wins) stops early, and an even one plays until
its interval is as narrow as asked.

The main value of a game is the first seat's share of the win (1, 1/k for
a win shared by k, or 0), or, in a line-up that names a ``weaker`` agent,
that agent's share.

>>> low, high = betting_interval([1.0, 0.0] * 200, target=400)
>>> round(low, 2), round(high, 2)
(0.43, 0.57)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: the candidate means the sequence is computed over (a grid of [0, 1])
GRID = 2001


def target_games(precision: float) -> int:
    """The number of games the bets are tuned for: twice what a fixed-sample
    interval of an even cell needs for ``precision`` (the confidence
    sequence is about 1.4 times as wide as Wilson's at its target), which
    is also about what an even cell plays before it stops (a plan's
    estimate; a lopsided cell stops sooner).

    >>> target_games(0.05), round(half_width(even(769), 769), 3)
    (769, 0.049)
    """
    return math.ceil(2 * 1.96 ** 2 * 0.25 / precision ** 2)


def betting_interval(values: Sequence[float], target: int, alpha: float = 0.05,
                     truncation: float = 0.5) -> tuple[float, float]:
    """The ``1 - alpha`` betting confidence sequence for the mean of
    ``values`` (each in [0, 1], in the order played), after all of them,
    with bets tuned to be tightest near ``target`` games (any fixed target
    keeps the coverage; it only moves where the sequence is narrowest)."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0:
        return 0.0, 1.0
    steps = np.arange(1, n + 1)
    # predictable bets: game t's bet uses games 1..t-1 only (the variance starts from a prior of 1/4)
    running = (0.5 + np.cumsum(x)) / (steps + 1)  # the mean after game t
    squares = np.concatenate([[0.0], np.cumsum((x - running) ** 2)[:-1]])
    variance = (0.25 + squares) / steps
    bets = np.sqrt(2 * math.log(2 / alpha) / (variance * target))
    grid = np.linspace(0.0, 1.0, GRID)
    wealth = np.empty(GRID)
    rows = max(1, 2_000_000 // n)  # candidate means at a time: bounded memory for long cells
    with np.errstate(divide="ignore", invalid="ignore"):
        for start in range(0, GRID, rows):
            m = grid[start:start + rows, None]
            up = np.minimum(bets[None, :], truncation / np.maximum(m, 1e-12))
            down = np.minimum(bets[None, :], truncation / np.maximum(1 - m, 1e-12))
            log_up = np.log1p(up * (x[None, :] - m)).sum(axis=1)
            log_down = np.log1p(-down * (x[None, :] - m)).sum(axis=1)
            wealth[start:start + rows] = 0.5 * np.exp(np.minimum(log_up, 700)) + 0.5 * np.exp(np.minimum(log_down, 700))
    inside = np.nonzero(wealth < 1 / alpha)[0]
    if len(inside) == 0:  # numerically empty: the mean itself
        centre = float(np.mean(x))
        return centre, centre
    step = 1 / (GRID - 1)
    return max(0.0, float(grid[inside[0]]) - step), min(1.0, float(grid[inside[-1]]) + step)


def even(n: int) -> list[float]:
    """``n`` games of an even cell: won and lost in turn."""
    return [1.0, 0.0] * (n // 2) + [1.0] * (n % 2)


def half_width(values: Sequence[float], target: int, alpha: float = 0.05) -> float:
    low, high = betting_interval(values, target, alpha)
    return (high - low) / 2


def main_value(row: dict, weaker: str | None) -> float:
    """A game's value for the stopping rule: the weaker agent's share of
    the win where the line-up names one, else the first seat's share."""
    from tileworks.lab import measures as m

    return m.first_seat_share(row) if weaker is None else m.agent_share(row, weaker)


def settled(values_by_index: dict[int, float], precision: float, cap: int) -> tuple[bool, tuple[float, float], int]:
    """Whether a cell may stop: its games 0..n-1 (the longest run without a
    gap, in the order played) give an interval within ``precision`` of its
    mean, or it has played ``cap`` games. Returns (done, interval, n)."""
    n = 0
    while n in values_by_index:
        n += 1
    values = [values_by_index[i] for i in range(n)]
    interval = betting_interval(values, target_games(precision)) if n else (0.0, 1.0)
    reached = n > 0 and (interval[1] - interval[0]) / 2 <= precision
    return reached or n >= cap, interval, n
