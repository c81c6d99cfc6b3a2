"""KILN as a batched, functional Pgx environment (JAX), the same game as
:mod:`tileworks.games.kiln` step for step.

A turn is several decisions of one seat (push, tied largest group, place,
erase, sale), with the Python engine's action ids (``rules/kiln.md``,
"Action ids"). A step takes one decision and then everything that follows
without one, as the Python engine does: a single largest group is copied,
a shape that fits in one place only is painted, a warehouse with nothing
complete is not offered a sale, and the turn ends.

The geometry is array work on the 6×6 kiln and the 5×5 warehouses:
groups are labelled by passing each cell's smallest index to its
same-coloured neighbours (eight passes reach across any group, as a
colour has at most nine tiles in the kiln); a group's shape is moved to
the top-left corner; and every translation of a shape over a warehouse is
tried at once.

Chance is all in the setup (the kiln's 36 tiles, the black tile's border
cell, a tied first player) and is drawn in :meth:`KilnEnv.init` from the
key or imposed with :meth:`KilnEnv.init_with_chance`. Nothing is hidden.

>>> import jax
>>> from tileworks.jax import make
>>> env = make("kiln", players=3)
>>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
>>> env.num_actions, int(state.legal_action_mask.sum())  # push to any border cell but the black tile's own
(174, 23)
"""

from __future__ import annotations

from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np
from pgx._src.struct import dataclass

from tileworks.core import TERMINAL
from tileworks.games.kiln import board
from tileworks.games.kiln.constants import (
    BLACK, CHOOSING, ERASE, ERASING, GROUP, KEEP, NO_SALE, NUM_ACTIONS, OVER, PHASE_NAMES, PLACE, PLACING, PUSH,
    PUSHING, SELL_COLUMNS, SELL_ROWS, SELLING, TILES_PER_COLOUR,
)
from tileworks.games.kiln.observation import MAX_SEATS
from tileworks.jax.core import TileworksEnv, TileworksState, observation_vector, one_hot, running_total

CELLS = jnp.arange(36)
ROW, COLUMN = CELLS // 6, CELLS % 6
#: what follows a decision without one, in the order a turn takes it
COPY, OFFER_ERASE, SALE, END_TURN, DONE = range(5)


def _tables():
    """Per border cell, where each kiln cell's tile comes from after a push
    in from there (-1: the pushed tile), and the cell whose tile is pushed out."""
    source = np.tile(np.arange(36), (24, 1))
    exits = np.zeros(24, dtype=np.int32)
    for b in range(24):
        line = [i for i in range(36) if board.LINE[b] >> i & 1]
        entry = board.ENTRY[b].bit_length() - 1
        exits[b] = board.EXIT[b].bit_length() - 1
        for cell in line:
            source[b, cell] = -1 if cell == entry else cell - board.SHIFT[b]
    return jnp.asarray(source), jnp.asarray(exits)


PUSH_SOURCE, PUSH_EXIT = _tables()
FIVE = jnp.arange(5)
ROW_CELLS = (jnp.arange(25)[None, :] // 5) == jnp.arange(5)[:, None]  # [row, cell]
COLUMN_CELLS = (jnp.arange(25)[None, :] % 5) == jnp.arange(5)[:, None]  # [column, cell]
SUBSETS = jnp.arange(1, 32)  # the non-empty sets of five lines, as bitmasks
IN_SUBSET = (SUBSETS[:, None] >> jnp.arange(5)[None, :]) & 1 == 1  # [subset, line]


@dataclass
class KilnJaxState(TileworksState):
    game_name: ClassVar[str] = "kiln"
    # the whole table (the Python engine's fields, as arrays), after Pgx's public fields
    _kiln: Any = jnp.zeros(36, dtype=jnp.int32)  # [cell]: tile kind (0-3 colours, 4 black)
    _outer_tile: Any = jnp.int32(BLACK)
    _outer_cell: Any = jnp.int32(-1)
    _warehouses: Any = jnp.zeros((4, 25), dtype=jnp.bool_)  # [colour, cell]
    _points: Any = jnp.zeros(0, dtype=jnp.int32)  # [disc]
    _seat: Any = jnp.int32(0)
    _phase: Any = jnp.int32(PUSHING)
    _step: Any = jnp.int32(0)  # which of the mover's colours is copied or sold
    _pending: Any = jnp.zeros(25, dtype=jnp.bool_)  # the shape to place, at the top-left
    _heated: Any = jnp.bool_(False)
    _skipped: Any = jnp.zeros(4, dtype=jnp.bool_)  # [colour]: its copy was skipped (the erase rule)
    _turns: Any = jnp.int32(0)
    _winner: Any = jnp.int32(-1)
    _player: Any = jnp.int32(0)  # the Python engine's player (-4 over)


class KilnEnv(TileworksEnv):
    """KILN for 2-4 ``players``, the ``advanced`` 2-player variant with
    either ``advanced_scoring``, ``heat_tokens``, the ``erase_rule``, any
    ``goal`` and ``turn_limit``: the options of ``tileworks.load_game("kiln", ...)``."""

    game_name = "kiln"
    over_phase = OVER

    def __init__(self, **options: Any):
        super().__init__(**options)
        game = self.game
        self.colours = jnp.asarray(game.colours, dtype=jnp.int32)  # [seat, step]
        self.steps = len(game.colours[0])
        self.owner = jnp.asarray(game.owner, dtype=jnp.int32)
        self.owned = jnp.asarray([game.owner[c] >= 0 for c in range(4)])
        self.disc_of = jnp.asarray(game.disc_of, dtype=jnp.int32)
        self.seat_discs = jnp.asarray([[discs[min(i, len(discs) - 1)] for i in range(2)] for discs in game.seat_discs],
                                      dtype=jnp.int32)
        self.heat_tokens = jnp.asarray(game.heat_tokens or (-1,), dtype=jnp.int32)
        self.goal = game.goal
        self.turn_limit = game.turn_limit
        self.erase_rule = game.erase_rule
        self.num_discs = game.num_discs
        #: the setup's chance nodes: 36 fills, the black tile's cell, a tied first player
        self.max_chance = 38

    def _blank(self) -> KilnJaxState:
        return KilnJaxState(
            rewards=jnp.zeros(self.players, dtype=jnp.float32),
            legal_action_mask=jnp.zeros(NUM_ACTIONS, dtype=jnp.bool_),
            _points=jnp.zeros(self.num_discs, dtype=jnp.int32),
            _chance=jnp.full(self.max_chance, -1, dtype=jnp.int32),
            _options=tuple(sorted(self.options.items())),
        )

    def _start(self, state: KilnJaxState, chance: Any) -> KilnJaxState:
        """Chance fills the kiln in reading order, puts the black tile on a
        border cell and, when colours tie for the start, picks among their owners."""
        if chance.outcomes is None:
            # cell after cell, each colour weighted by what is left of it, is a shuffle of the 36
            kiln = chance.shuffled(0, jnp.arange(36) // TILES_PER_COLOUR, 36)
        else:
            kiln = chance.outcomes[:36]
        outer_cell = chance.index(36, 24)
        kiln_groups = self._kiln_groups(kiln)
        tied = self._tied_starters(kiln, kiln_groups)  # [seat]
        count = tied.sum()
        if chance.outcomes is None:
            drawn = jnp.argmax(running_total(tied.astype(jnp.int32)) > chance.index(37, count)).astype(jnp.int32)
        else:
            drawn = chance.outcomes[37]
        first = jnp.where(count > 1, drawn, jnp.argmax(tied)).astype(jnp.int32)
        state = state.replace(
            _kiln=kiln.astype(jnp.int32), _outer_tile=jnp.int32(BLACK), _outer_cell=outer_cell.astype(jnp.int32),
            _chance=state._chance.at[:36].set(kiln).at[36].set(outer_cell).at[37].set(jnp.where(count > 1, first, -1)),
        )
        state = _start_turn(state, first)
        return self._finish(state, self._legal(state, kiln_groups))

    def _tied_starters(self, kiln: Any, kiln_groups: dict) -> Any:
        """The seats (a mask) owning the colours whose group sizes, largest
        first, are the lexicographically smallest list.

        A colour's list, so compared, orders as the number whose digit k - 1
        counts its tiles in groups of size k (nine tiles: each digit 0-9),
        which is a sum over its cells of 10 ** (group size - 1)."""
        size = kiln_groups["size"][kiln_groups["label"]]  # [cell]: the size of its group
        worth = 10 ** (size - 1)
        key = (jnp.where(kiln[None, :] == jnp.arange(4)[:, None], worth[None, :], 0)).sum(axis=1)  # [colour]
        key = jnp.where(self.owned, key, jnp.iinfo(jnp.int32).max)
        best = self.owned & (key == key.min())
        return (jnp.arange(self.players)[:, None] == jnp.where(best, self.owner, -1)[None, :]).any(axis=1)

    def _apply(self, state: KilnJaxState, action: Any, chance: Any) -> KilnJaxState:
        phase = state._phase
        colour = self._mover_colour(state)
        # Only a push moves tiles in the kiln, so its groups are found once, after
        # the decision, for the choice, the copies and the next legal actions.
        pushed, then = self._push(state, action)
        state = jax.tree_util.tree_map(lambda a, b: jnp.where(phase == PUSHING, a, b), pushed, state)
        kiln_groups = self._kiln_groups(state._kiln)
        state, then = jax.lax.switch(
            jnp.clip(phase - PUSHING, 0, 4),
            [lambda s: (s, then), lambda s: self._choose(s, action, kiln_groups), lambda s: self._place(s, action),
             lambda s: self._erase(s, action, colour), lambda s: self._sell(s, action, colour)],
            state,
        )
        state = self._follow(state, then, kiln_groups)
        return self._finish(state, self._legal(state, kiln_groups))

    def _observe(self, state: KilnJaxState, player_id: Any) -> Any:
        return observation(self, state, player_id)

    # -- the decisions ----------------------------------------------------------------------
    def _push(self, state: KilnJaxState, action: Any) -> tuple[KilnJaxState, Any]:
        border = action - PUSH
        source = PUSH_SOURCE[border]
        kiln = jnp.where(source < 0, state._outer_tile, state._kiln[jnp.maximum(source, 0)])
        state = state.replace(
            _kiln=kiln, _outer_tile=state._kiln[PUSH_EXIT[border]],
            _outer_cell=jnp.asarray(board.OPPOSITE)[border].astype(jnp.int32), _step=jnp.int32(0),
        )
        return state, jnp.int32(COPY)

    def _choose(self, state: KilnJaxState, action: Any, kiln_groups: dict) -> tuple[KilnJaxState, Any]:
        groups = self._groups(state, kiln_groups)
        return self._copy(state, groups, groups["label"][action - GROUP], chosen=True)

    def _place(self, state: KilnJaxState, action: Any) -> tuple[KilnJaxState, Any]:
        cell = action - PLACE
        return self._paint(state, _translated(_rows(state._pending), cell - jnp.argmax(state._pending)))

    def _erase(self, state: KilnJaxState, action: Any, colour: Any) -> tuple[KilnJaxState, Any]:
        keep = action == KEEP
        cell = jnp.arange(25) == action - ERASE
        state = state.replace(
            _warehouses=state._warehouses.at[colour].set(state._warehouses[colour] & ~(cell & ~keep)),
            _step=jnp.where(keep, state._step + 1, 0).astype(jnp.int32),
        )
        return state, jnp.where(keep, OFFER_ERASE, SALE).astype(jnp.int32)

    def _sell(self, state: KilnJaxState, action: Any, colour: Any) -> tuple[KilnJaxState, Any]:
        columns = action >= SELL_COLUMNS
        subset = jnp.where(columns, action - SELL_COLUMNS + 1, action - SELL_ROWS + 1)
        selling = action != NO_SALE
        chosen = IN_SUBSET[jnp.clip(subset - 1, 0, 30)]  # [line]
        lines = jnp.where(columns, COLUMN_CELLS.T, ROW_CELLS.T)  # [cell, line]
        cells = (lines & chosen[None, :]).any(axis=1) & selling
        count = chosen.sum()
        disc = self.disc_of[colour]
        points = state._points.at[disc].add(jnp.where(selling, count * (count + 1) // 2, 0))
        won = selling & (points[disc] >= self.goal)
        state = state.replace(
            _points=points,
            _heated=state._heated | (selling & jnp.isin(points[disc], self.heat_tokens)),
            # the win is declared before the sold lines are erased
            _warehouses=state._warehouses.at[colour].set(state._warehouses[colour] & ~(cells & ~won)),
            _phase=jnp.where(won, OVER, state._phase).astype(jnp.int32),
            _winner=jnp.where(won, state._seat, state._winner).astype(jnp.int32),
            _player=jnp.where(won, TERMINAL, state._player).astype(jnp.int32),
            _step=jnp.where(won, state._step, state._step + 1).astype(jnp.int32),
        )
        return state, jnp.where(won, DONE, SALE).astype(jnp.int32)

    # -- what follows without a decision ------------------------------------------------------------
    def _follow(self, state: KilnJaxState, then: Any, kiln_groups: dict) -> KilnJaxState:
        """Everything after a decision that needs none, up to the next
        decision: ``then`` says where to go on. A turn only goes forward
        (copies, the erase, sales, its end), so each stage runs in that
        order as straight code, taking effect where ``then`` names it; no
        loop, and the groups are labelled once for each colour copied."""

        def stage(run: Any, active: Any, state: KilnJaxState, then: Any) -> tuple[KilnJaxState, Any]:
            ran, after = run(state)
            return jax.tree_util.tree_map(lambda a, b: jnp.where(active, a, b), ran, state), jnp.where(active, after, then)

        for _ in range(self.steps):
            state, then = stage(lambda s: self._begin_copy(s, kiln_groups), (then == COPY) & (state._step < self.steps),
                                state, then)
        copied = then == COPY  # every colour: the erase (with the rule, after a skipped copy) or the sales
        then = jnp.where(copied, jnp.where(self.erase_rule & state._skipped.any(), OFFER_ERASE, SALE), then)
        state = state.replace(_step=jnp.where(copied, 0, state._step).astype(jnp.int32))
        state, then = stage(self._offer_erase, then == OFFER_ERASE, state, then)
        for _ in range(self.steps + 1):
            state, then = stage(self._begin_sale, then == SALE, state, then)
        state, _ = stage(self._end_turn, then == END_TURN, state, then)
        return state

    def _begin_copy(self, state: KilnJaxState, kiln_groups: dict) -> tuple[KilnJaxState, Any]:
        """Copy the mover's largest group of the colour in play, or ask which of the tied ones."""
        groups = self._groups(state, kiln_groups)
        ask = groups["choice"].sum() > 1
        copied, then = self._copy(state, groups, jnp.argmax(groups["choice"]), chosen=False)
        asked = state.replace(_phase=jnp.int32(CHOOSING), _player=state._seat)
        state = jax.tree_util.tree_map(lambda a, b: jnp.where(ask, a, b), asked, copied)
        return state, jnp.where(ask, DONE, then).astype(jnp.int32)

    def _copy(self, state: KilnJaxState, groups: dict, root: Any, chosen: bool | Any) -> tuple[KilnJaxState, Any]:
        """Copy group ``root``: painted where it fits in one place only,
        the place asked where it fits in several, skipped where it fits
        nowhere (marked for the erase rule unless a tied group would have fitted)."""
        fits = groups["fits"][root]
        count = fits.sum()
        shape = groups["shape"][root]
        painted, then = self._paint(state, _translated(shape, jnp.argmax(fits)))
        asked = state.replace(_phase=jnp.int32(PLACING), _pending=_translated(shape, 0), _player=state._seat)
        colour = self._mover_colour(state)
        earns_erase = self.erase_rule & ~(jnp.asarray(chosen) & groups["any_fits"])
        skipped = state.replace(_skipped=state._skipped.at[colour].set(state._skipped[colour] | earns_erase),
                                _step=state._step + 1)
        state = jax.tree_util.tree_map(
            lambda a, b, c: jnp.where(count == 1, a, jnp.where(count > 1, b, c)), painted, asked, skipped)
        return state, jnp.where(count > 1, DONE, COPY).astype(jnp.int32)

    def _paint(self, state: KilnJaxState, placed: Any) -> tuple[KilnJaxState, Any]:
        colour = self._mover_colour(state)
        return state.replace(
            _warehouses=state._warehouses.at[colour].set(state._warehouses[colour] | placed),
            _pending=jnp.zeros(25, dtype=jnp.bool_), _step=state._step + 1,
        ), jnp.int32(COPY)

    def _offer_erase(self, state: KilnJaxState) -> tuple[KilnJaxState, Any]:
        """The erase step at the first of the mover's colours, from the one
        in play on, whose copy was skipped and whose warehouse has paint."""
        colours = self.colours[state._seat]
        index = jnp.arange(self.steps)
        open_ = (index >= state._step) & state._skipped[colours] & state._warehouses[colours].any(axis=1)
        found = open_.any()
        state = state.replace(
            _step=jnp.where(found, jnp.argmax(open_), 0).astype(jnp.int32),
            _phase=jnp.where(found, ERASING, state._phase).astype(jnp.int32),
        )
        return state, jnp.where(found, DONE, SALE).astype(jnp.int32)

    def _begin_sale(self, state: KilnJaxState) -> tuple[KilnJaxState, Any]:
        """A sale is offered for the colour in play when it has a complete
        row or column; after the last colour the turn ends."""
        done = state._step >= self.steps
        rows, columns = _complete(self._warehouse(state.replace(_step=jnp.minimum(state._step, self.steps - 1))))
        offer = ~done & (rows.any() | columns.any())
        state = state.replace(
            _phase=jnp.where(offer, SELLING, state._phase).astype(jnp.int32),
            _step=jnp.where(done | offer, state._step, state._step + 1).astype(jnp.int32),
        )
        return state, jnp.where(done, END_TURN, jnp.where(offer, DONE, SALE)).astype(jnp.int32)

    def _end_turn(self, state: KilnJaxState) -> tuple[KilnJaxState, Any]:
        """The turn limit ends the game as a draw; otherwise the next seat
        pushes, or the same seat again after the black tile came out or a
        score landed on a heat token."""
        turns = state._turns + 1
        limit = turns >= self.turn_limit
        again = (state._outer_tile == BLACK) | state._heated
        seat = jnp.where(again, state._seat, (state._seat + 1) % self.players)
        started = _start_turn(state.replace(_turns=turns), seat)
        ended = state.replace(_turns=turns, _step=jnp.int32(0), _phase=jnp.int32(OVER), _player=jnp.int32(TERMINAL))
        return jax.tree_util.tree_map(lambda a, b: jnp.where(limit, a, b), ended, started), jnp.int32(DONE)

    def scores(self, state: KilnJaxState) -> Any:
        """Each seat's score: its disc, or its higher disc when each colour scores on its own."""
        return jnp.take(state._points, self.seat_discs, axis=-1).max(axis=-1)

    # -- the geometry ----------------------------------------------------------------------------
    def _mover_colour(self, state: KilnJaxState) -> Any:
        return self.colours[state._seat, jnp.clip(state._step, 0, self.steps - 1)]

    def _warehouse(self, state: KilnJaxState) -> Any:
        return state._warehouses[self._mover_colour(state)]

    def _kiln_groups(self, kiln: Any) -> dict:
        """Every group of the kiln, of any colour (indexed by its first
        cell): its label on each cell, its size and its shape moved to the
        top-left corner (none when it spans more than five rows or columns)."""
        label = _labels(kiln)
        per_group = lambda start, values, how: getattr(jnp.full(36, start).at[label], how)(values)  # noqa: E731
        size = per_group(0, 1, "add")
        top, left = per_group(6, ROW, "min"), per_group(6, COLUMN, "min")
        bottom, right = per_group(-1, ROW, "max"), per_group(-1, COLUMN, "max")
        too_big = (bottom - top >= 5) | (right - left >= 5)
        rows = jnp.zeros((36, 6), dtype=jnp.int32).at[label, ROW].add(1 << COLUMN)  # [root, row]: bit x = column x
        # (the barriers keep XLA from fusing these into every later use and computing them again there:
        # measured on the CPU, a step at batch 1,024 takes half the time with them)
        size, top, left, too_big, rows = jax.lax.optimization_barrier((size, top, left, too_big, rows))
        below = top[:, None] + jnp.arange(6)[None, :]
        moved = jnp.where(below < 6, jnp.take_along_axis(rows, jnp.minimum(below, 5), axis=1), 0) >> left[:, None]
        return {"label": label, "root": label == CELLS, "size": size,
                "shape": jnp.where(too_big[:, None], 0, moved[:, :5])}

    def _groups(self, state: KilnJaxState, kiln_groups: dict) -> dict:
        """The groups of the colour in play: the tied largest, each one's
        placements in the mover's warehouse, and the distinct choices among them."""
        member = state._kiln == self._mover_colour(state)
        size, shape = kiln_groups["size"], kiln_groups["shape"]
        root = member & kiln_groups["root"]
        largest = jnp.where(root, size, 0).max()
        tied = root & (size == largest) & (largest > 0)
        fits = _fits(shape, _rows(self._warehouse(state)))  # [root, translation]
        fits = jax.lax.optimization_barrier(fits)
        fitting = fits.any(axis=1)
        # groups that fit are one choice when their shapes are one; all that fit nowhere are one
        code = jnp.where(fitting, (shape << (5 * FIVE)).sum(axis=1), -1)  # a fitting shape's 25 bits
        same = code[:, None] == code[None, :]
        earlier = (tied[:, None] & same & (CELLS[:, None] < CELLS[None, :])).any(axis=0)
        return {**kiln_groups, "choice": tied & ~earlier, "fits": fits, "any_fits": (tied & fitting).any()}

    # -- what a seat may do, and the end -----------------------------------------------------
    def _returns(self, state: KilnJaxState) -> Any:
        """The winner takes 1; the turn limit's draw shares it."""
        won = jnp.arange(self.players) == state._winner
        return jnp.where(state._winner >= 0, won.astype(jnp.float32), 1.0 / self.players).astype(jnp.float32)

    def _legal(self, state: KilnJaxState, kiln_groups: dict | None = None) -> Any:
        phase = state._phase
        warehouse = self._warehouse(state)
        push = (jnp.arange(24) != state._outer_cell) & (phase == PUSHING)
        if kiln_groups is None:
            kiln_groups = self._kiln_groups(state._kiln)
        choose = self._groups(state, kiln_groups)["choice"] & (phase == CHOOSING)
        fits = _fits(_rows(state._pending), _rows(warehouse))
        place = (jnp.roll(fits, jnp.argmax(state._pending)) & (phase == PLACING))  # first tile on f0 + t
        erase = warehouse & (phase == ERASING)
        rows, columns = _complete(warehouse)
        bits = lambda lines: (IN_SUBSET & ~lines[None, :]).any(axis=1) == 0  # noqa: E731
        selling = phase == SELLING
        return jnp.concatenate([
            push, choose, place, erase, (phase == ERASING)[None], bits(rows) & selling, bits(columns) & selling,
            selling[None]])


def _start_turn(state: KilnJaxState, seat: Any) -> KilnJaxState:
    return state.replace(
        _seat=jnp.asarray(seat, dtype=jnp.int32), _player=jnp.asarray(seat, dtype=jnp.int32),
        _phase=jnp.int32(PUSHING), _step=jnp.int32(0), _heated=jnp.bool_(False),
        _skipped=jnp.zeros(4, dtype=jnp.bool_),
    )


def _labels(kiln: Any) -> Any:
    """Each cell's group (its cells of one kind joined side to side), named
    by the group's first cell: a group of at most nine tiles settles in eight
    passes of taking the smallest name among same-kind neighbours.

    >>> kiln = jnp.zeros(36, dtype=jnp.int32).at[1].set(1).at[6].set(1)  # cells 1 and 6 cut the corner off
    >>> _labels(kiln)[:8].tolist()  # touching only at a corner, 1 and 6 are two groups
    [0, 1, 2, 2, 2, 2, 6, 2]
    """
    kind = kiln.reshape(6, 6)
    grid = CELLS.reshape(6, 6)
    padded_kind = jnp.pad(kind, 1, constant_values=-1)
    neighbours = [(slice(0, -2), slice(1, -1)), (slice(2, None), slice(1, -1)),
                  (slice(1, -1), slice(0, -2)), (slice(1, -1), slice(2, None))]
    joined = [padded_kind[rows, columns] == kind for rows, columns in neighbours]
    for _ in range(TILES_PER_COLOUR - 1):
        padded = jnp.pad(grid, 1, constant_values=36)
        around = [jnp.where(same, padded[rows, columns], 36) for same, (rows, columns) in zip(joined, neighbours)]
        grid = jnp.minimum(jnp.minimum(grid, jnp.minimum(around[0], around[1])), jnp.minimum(around[2], around[3]))
    return grid.reshape(36)


def _rows(cells: Any, width: int = 5) -> Any:
    """A ``[..., width * width]`` mask as ``width`` rows of bits (bit x = column x)."""
    grid = cells.reshape(cells.shape[:-1] + (width, width)).astype(jnp.int32)
    return (grid << jnp.arange(width)).sum(axis=-1)


def _fits(shape: Any, warehouse: Any) -> Any:
    """For top-left ``shape`` rows ``[..., 5]``, whether each translation
    ``t = 5*dy + dx`` fits a warehouse's rows ``[5]`` (inside the 5×5 and
    onto empty cells only): ``[..., 25]``."""
    height = jnp.where(shape != 0, FIVE, -1).max(axis=-1) + 1
    spread = jnp.bitwise_or.reduce(shape, axis=-1)
    width = jnp.where((spread[..., None] >> FIVE) & 1 == 1, FIVE, -1).max(axis=-1) + 1
    window = jnp.pad(warehouse, (0, 5))[FIVE[:, None] + FIVE[None, :]]  # [dy, row]: the rows under a shape moved down dy
    moved = shape[..., None, :] << FIVE[:, None]  # [..., dx, row]
    clash = (moved[..., None, :, :] & window[:, None, :]).any(axis=-1)  # [..., dy, dx]
    inside = (FIVE[:, None] + height[..., None, None] <= 5) & (FIVE[None, :] + width[..., None, None] <= 5)
    return (inside & ~clash & (height > 0)[..., None, None]).reshape(shape.shape[:-1] + (25,))


def _translated(shape: Any, t: Any) -> Any:
    """The warehouse cells a top-left ``shape`` (rows) paints moved by ``t = 5*dy + dx``."""
    dy, dx = t // 5, t % 5
    source = FIVE - dy
    rows = jnp.where(source >= 0, shape[jnp.maximum(source, 0)] << dx, 0)
    return ((rows[:, None] >> FIVE[None, :]) & 1 == 1).reshape(25)


def _complete(warehouse: Any) -> tuple[Any, Any]:
    """Which rows and which columns of a warehouse are fully painted."""
    return (ROW_CELLS & ~warehouse[None, :]).any(axis=1) == 0, (COLUMN_CELLS & ~warehouse[None, :]).any(axis=1) == 0


def observation(env: KilnEnv, state: KilnJaxState, viewer: Any) -> Any:
    """The Python engine's observation tensor (``observation_tensor``), as
    float32: the kiln by tile kind, the outer tile and its cell, the
    warehouses, the pending shape, the phase, the colour in play, the seat
    to move, the viewer, each colour's score disc and the turns played."""
    moving = state._player >= 0
    discs = jnp.where(env.disc_of >= 0, jnp.minimum(state._points[jnp.maximum(env.disc_of, 0)], env.goal), 0)
    parts = [
        (state._kiln[None, :] == jnp.arange(5)[:, None]).reshape(-1),
        one_hot(5, jnp.where(state._outer_cell >= 0, state._outer_tile, -1)), one_hot(24, state._outer_cell),
        state._warehouses.reshape(-1), state._pending, one_hot(len(PHASE_NAMES), state._phase),
        one_hot(4, jnp.where(moving, env._mover_colour(state), -1)), one_hot(MAX_SEATS, state._player),
        one_hot(MAX_SEATS, viewer), jnp.clip(discs / env.goal, 0.0, 1.0),
        jnp.clip(state._turns / env.turn_limit, 0.0, 1.0)[None],
    ]
    return observation_vector(parts)


# -- the Python engine's fields ------------------------------------------------------------------

def _mask(bits: Any) -> int:
    return sum(1 << i for i, bit in enumerate(np.asarray(bits)) if bit)


def to_fields(env: KilnEnv, state: KilnJaxState) -> dict[str, Any]:
    """The Python engine's ``state_fields`` of one JAX state."""
    from tileworks.games.kiln.notation import state_fields

    python = env.game.new_initial_state()
    kiln = np.asarray(state._kiln)
    python.masks = [_mask(kiln == tile) for tile in range(5)]
    python.outer_tile, python.outer_cell = int(state._outer_tile), int(state._outer_cell)
    python.warehouses = [_mask(w) for w in np.asarray(state._warehouses)]
    python.points = [int(p) for p in state._points]
    python.player, python.phase, python.step = int(state._player), int(state._phase), int(state._step)
    python.pending = _mask(state._pending)
    python.heated = bool(state._heated)
    python.skipped = _mask(state._skipped)
    python.turns, python.winner = int(state._turns), int(state._winner)
    return state_fields(python)


def from_fields(env: KilnEnv, fields: dict[str, Any]) -> KilnJaxState:
    """The JAX state of the Python engine's ``state_fields`` (a position
    where a seat decides, or the end), checked as the Python engine checks it."""
    from tileworks.games.kiln.notation import state_from_fields

    python = state_from_fields(env.game, fields)
    if python.phase not in (PUSHING, CHOOSING, PLACING, ERASING, SELLING, OVER):
        raise ValueError(f"a JAX state starts where a seat decides or at the end, not in phase {fields['phase']!r}")
    bits = lambda mask, n: jnp.asarray([bool(mask >> i & 1) for i in range(n)])  # noqa: E731
    kiln = [next(t for t in range(5) if python.masks[t] >> cell & 1) for cell in range(36)]
    over = python.phase == OVER
    seat = python.player if not over else max(python.winner, 0)
    state = env._blank().replace(
        _kiln=jnp.asarray(kiln, dtype=jnp.int32), _outer_tile=jnp.int32(python.outer_tile),
        _outer_cell=jnp.int32(python.outer_cell),
        _warehouses=jnp.stack([bits(w, 25) for w in python.warehouses]),
        _points=jnp.asarray(python.points, dtype=jnp.int32), _seat=jnp.int32(seat), _phase=jnp.int32(python.phase),
        _step=jnp.int32(python.step), _pending=bits(python.pending, 25), _heated=jnp.bool_(python.heated),
        _skipped=bits(python.skipped, 4), _turns=jnp.int32(python.turns), _winner=jnp.int32(python.winner),
        _player=jnp.int32(python.player), current_player=jnp.int32(seat),
    )
    return env._finish(state)


KilnEnv.to_fields = to_fields
KilnEnv.from_fields = from_fields
