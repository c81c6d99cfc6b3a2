"""KILN heuristics: how well a player's warehouses are shaping up.

``evaluate`` is the score plus, for each of the seat's warehouses:
- 0.8 of what its complete lines would sell for together: k complete rows
  (or columns, whichever are more) sell for k(k+1)/2, so lines are worth
  more the more of them are kept for one sale, yet selling always gains;
- +0.1 per other painted cell (progress towards complete lines);
- +0.25 per line one cell short;
- −0.2 per empty cell with no empty neighbour (only a single-tile group can
  ever fill it, which makes the warehouse hard to complete);
- for the seat whose decision it is, what that decision adds at best: the
  copy in hand put in its best place (with the sale it opens), the best
  sale on offer, the best of tied groups or erasures (``pending_gain``),
  so a position in the middle of a turn is not read as if the copy were
  lost (greedy with it won 87 of 100 against greedy without;
  ``mcts:iterations=600`` with it, 39 of 60);
- for the seat about to start a turn, ``TURN_VALUE``: a turn in hand is
  worth about what a turn gains, so a sale that lands on a heat token, or
  a push that releases the black tile, is worth its extra turn, and the
  decision in hand counts the extra turn it earns or has earned (unless it
  wins). Without the term, two greedy players landed on heat tokens less
  often than two random players (0.75 against 0.95 times a game).

Everything here is public, as is everything in KILN.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from tileworks.games.kiln.board import (
    COLUMN_MASKS,
    ROW_MASKS,
    WAREHOUSE_FULL,
    complete_columns,
    complete_rows,
    line_cells,
    placements,
    price,
    submasks,
)
from tileworks.games.kiln.constants import BLACK, CHOOSING, ERASING, PLACING, PUSHING, SELLING

if TYPE_CHECKING:  # pragma: no cover
    from tileworks.games.kiln.rules import KilnState

LINES = ROW_MASKS + COLUMN_MASKS
#: what a turn in hand is worth: a 2-player greedy game reaches the goal of
#: 17 in about 15 turns a seat, a little over a point a turn
TURN_VALUE = 1.0
#: the share of a sale's price that complete lines are worth unsold
SALE_SHARE = 0.8
_NOT_LEFT = sum(1 << (5 * r + c) for r in range(5) for c in range(1, 5))
_NOT_RIGHT = sum(1 << (5 * r + c) for r in range(5) for c in range(4))


def _neighbours(cells: int) -> int:
    return (((cells << 1) & _NOT_LEFT) | ((cells >> 1) & _NOT_RIGHT) | (cells << 5) | (cells >> 5)) & WAREHOUSE_FULL


@lru_cache(maxsize=1 << 16)
def warehouse_value(warehouse: int) -> float:
    """The warehouse's heuristic value (see the module docs). Cached, as is
    ``_with_sale``: a search values the same warehouses at most of its leaves.

    >>> round(warehouse_value(0b11111), 2)          # a complete top row, a 1-point sale
    0.8
    >>> round(warehouse_value(0b11111_11111), 2)    # two complete rows sell for 3 together
    2.4
    """
    rows = columns = near = 0  # the cells of complete rows, of complete columns
    for i, line in enumerate(LINES):
        painted = (warehouse & line).bit_count()
        if painted == 5:
            if i < 5:
                rows |= line
            else:
                columns |= line
        elif painted == 4:
            near += 1
    sold = rows if rows.bit_count() >= columns.bit_count() else columns
    lines = sold.bit_count() // 5
    # the cells of those lines are valued by the sale, so selling always gains
    value = 0.1 * (warehouse & ~sold).bit_count() + 0.25 * near + SALE_SHARE * lines * (lines + 1) / 2
    empty = ~warehouse & WAREHOUSE_FULL
    isolated = empty & ~_neighbours(empty)
    return value - 0.2 * isolated.bit_count()


def evaluate(state: "KilnState", seat: int) -> float:
    value = _standing(state, seat)
    if seat == state.player:
        value += pending_gain(state)
        if state.phase == PUSHING:
            value += TURN_VALUE
    return value


def earned_extra_turn(state: "KilnState") -> bool:
    """The mover's turn under way already earns another: its push released
    the black tile, or a sale landed on a heat token."""
    return state.phase != PUSHING and (state.heated or state.outer_tile == BLACK)


def _standing(state: "KilnState", seat: int, colour: int = -1, gain: float = 0.0) -> float:
    """The seat's points and the value of its warehouses, with ``gain``
    added to ``colour``'s; when each colour scores on its own disc, the
    better of its colours (the first disc at the goal wins)."""
    game = state._game
    colours = game.colours[seat]
    if game.per_colour:
        return max(
            state.points[c] + warehouse_value(state.warehouses[c]) + (gain if c == colour else 0.0) for c in colours
        )
    return state.points[seat] + sum(warehouse_value(state.warehouses[c]) for c in colours) + gain


def pending_gain(state: "KilnState") -> float:
    """What the mover's decision in hand adds at best: the copy in its best
    place (and the sale that follows it), the best sale, the best group or
    erasure. In the basic game ``evaluate`` is then the best of its values
    after each legal move of the decision.

    Without it a position in the middle of a turn reads as if the copy in
    hand were lost, and the search cannot tell a push that copies a large
    group from one that copies a single tile.
    """
    phase = state.phase
    seat = state.player
    if phase in (PLACING, SELLING):
        colour = state.mover_colour()
        warehouse = state.warehouses[colour]
        game = state._game
        points = state.points[game.disc_of[colour]]
        to_goal = game.goal - points
        # another turn already earned, or a sale of these many points that earns one
        extra = TURN_VALUE if earned_extra_turn(state) else 0.0
        heating = () if extra else tuple(token - points for token in game.heat_tokens if token > points)
        if phase == PLACING:
            best = max(
                _with_sale(warehouse | placed, to_goal, heating, extra)
                for placed in placements(state.pending, warehouse)
            )
        else:
            best = _with_sale(warehouse, to_goal, heating, extra)
        gain = best - warehouse_value(warehouse)
        if game.per_colour:
            return _standing(state, seat, colour, gain) - _standing(state, seat)
        return gain
    if phase in (CHOOSING, ERASING):  # rare: look one decision ahead
        return max(state.evaluate_after(state.legal_actions(), seat)) - _standing(state, seat)
    return 0.0


@lru_cache(maxsize=1 << 16)
def _with_sale(warehouse: int, to_goal: int, heating: tuple[int, ...] = (), extra: float = 0.0) -> float:
    """The warehouse's value, or the best sale's price plus what it leaves;
    ``extra`` (an extra turn already earned) counts unless the sale wins.
    A sale of ``to_goal`` points or more wins before its lines are erased;
    a sale of a number of points in ``heating`` earns another turn.

    >>> _with_sale(0b11111, to_goal=10)                 # sell the row for 1
    1.0
    >>> _with_sale(0b11111, to_goal=10, heating=(1,))   # ... and land on a heat token
    2.0
    >>> _with_sale(0b11111, to_goal=1, heating=(1,))    # ... or win: no more turns
    1.8
    """
    best = warehouse_value(warehouse) + extra
    for lines, masks in ((complete_rows(warehouse), ROW_MASKS), (complete_columns(warehouse), COLUMN_MASKS)):
        for subset in submasks(lines):
            gained = price(subset.bit_count())
            if gained >= to_goal:
                value = gained + warehouse_value(warehouse)
            else:
                left = warehouse & ~line_cells(subset, masks)
                value = gained + warehouse_value(left) + (TURN_VALUE if gained in heating else extra)
            best = max(best, value)
    return best


#: a leaf is evaluated as it stands: ``pending_gain`` reads a half-finished
#: turn, and random decisions past the tree made more search worse
#: (with depth 2, 3000 iterations won 6 of 23 against 600; with depth 0,
#: 14 of 25)
ROLLOUT_DEPTH = 0
#: a point of lead is a clear edge in KILN (games are won by a few points),
#: so leads are read on a narrow logistic and explored with a small
#: constant: at the default (4 points, c = 1.4) the values of a push's
#: options lay within a few hundredths, their visits stayed nearly even and
#: 3,000 iterations beat 600 in only 14 of 25 games; with these, 30 of 40
VALUE_SCALE = 1.0
EXPLORATION = 0.25
