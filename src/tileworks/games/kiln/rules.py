"""KILN rules: the game, its options and the state machine of a turn.

A turn is a chain of decisions by the same player:

1. **push** - move the outer tile to another border cell and push it in;
2. **group** - choose among tied largest groups of your colour (skipped when
   they all lead to the same result);
3. **place** - choose where the copy goes in your warehouse (compulsory when
   it fits anywhere; skipped when exactly one place fits);
4. **erase** - with the erase rule, when none of the tied largest groups
   fits: erase one painted cell or keep (once a turn);
5. **sale** - sell a set of complete rows, a set of complete columns, or pass
   (skipped when nothing is complete).

In the advanced variant steps 2-3 run for each of the player's two colours,
then step 4 once, then step 5 for each warehouse in the same order. Each
colour scores on its own disc there (``advanced_scoring="per_colour"``) or
both add to one score (``"combined"``).

>>> import tileworks
>>> state = tileworks.load_game("kiln").new_initial_state()
>>> state.decision()
'chance fills b7 of the kiln'
"""

from __future__ import annotations

from typing import Any

from tileworks.core.bitboards import cell_labels
from tileworks.core.scoring import note
from tileworks.core import CHANCE, TERMINAL, DelegatingState, Game
from tileworks.games.kiln import board, heuristics, notation, observation, render
from tileworks.games.kiln.board import (
    COLUMN_MASKS,
    ROW_MASKS,
)
from tileworks.games.kiln.constants import (
    BLACK,
    BLACK_TILE,
    BLUE,
    CHOOSING,
    ERASE,
    ERASING,
    FILL,
    FIRST_PLAYER,
    GREEN,
    GROUP,
    KEEP,
    NO_SALE,
    NUM_ACTIONS,
    OVER,
    PLACE,
    PLACING,
    PUSH,
    PUSHING,
    RED,
    SELL_COLUMNS,
    SELL_ROWS,
    SELLING,
    TILES_PER_COLOUR,
    YELLOW,
)


def seat_colours(players: int, variant: str) -> tuple[tuple[int, ...], ...]:
    """The colours each seat plays, in the order they are copied and sold.

    >>> seat_colours(3, "standard")
    ((0,), (1,), (2,))
    >>> seat_colours(2, "advanced")
    ((0, 2), (1, 3))
    """
    if variant == "advanced":
        return ((RED, GREEN), (BLUE, YELLOW))
    return tuple((seat,) for seat in range(players))


def starting_colours(masks: list[int], owned: list[int]) -> list[int]:
    """Owned colours tied for starting: the lexicographically smallest list of
    group sizes (largest group first) wins.

    >>> row = lambda n, y: ((1 << n) - 1) << (6 * y)
    >>> masks = [row(3, 0), row(2, 1) | row(2, 3), row(2, 2), 0, 0]
    >>> starting_colours(masks, [RED, BLUE, GREEN])   # [3] vs [2, 2] vs [2]
    [2]
    """
    keyed = [(board.group_sizes(masks[c]), c) for c in owned]
    best = min(k for k, _ in keyed)
    return [c for k, c in keyed if k == best]


class KilnGame(Game):
    """KILN with fixed options (see ``tileworks.games.kiln.GAME_INFO``)."""

    name = "kiln"
    winner_rule = "other"  # a race: the first disc to the goal wins

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        self.players: int = options["players"]
        self.goal: int = options["goal"]
        self.variant: str = options["variant"]
        self.heat_tokens: tuple[int, ...] = tuple(options["heat_tokens"])
        self.erase_rule: bool = options["erase_rule"]
        self.turn_limit: int = options["turn_limit"]
        self.colours = seat_colours(self.players, self.variant)
        self.owner = [-1] * 4
        for seat, colours in enumerate(self.colours):
            for colour in colours:
                self.owner[colour] = seat
        self.owned = [c for c in range(4) if self.owner[c] >= 0]
        #: each colour scores on its own disc (advanced variant, per colour)
        #: or on its owner's one disc
        self.advanced_scoring: str = options["advanced_scoring"]
        self.per_colour = self.variant == "advanced" and self.advanced_scoring == "per_colour"
        self.num_discs = 4 if self.per_colour else self.players
        #: the score disc each colour moves (-1: nobody owns the colour)
        self.disc_of = [c if self.per_colour else self.owner[c] for c in range(4)]
        #: the discs each seat owns, in the order of its colours
        self.seat_discs = tuple(tuple(dict.fromkeys(self.disc_of[c] for c in cs)) for cs in self.colours)

    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return 24

    def decisions_per_turn(self) -> int:
        """Most decisions one turn can take: push, then group + place (or
        erase) per colour, then a sale per warehouse."""
        per_colour = len(self.colours[0])
        return 1 + 3 * per_colour

    def board_layout(self) -> dict[str, Any]:
        """The kiln in its rack and the warehouse in play, side by side on
        one canvas (:func:`tileworks.games.kiln.observation.canvas_layout`)."""
        return observation.canvas_layout(self)

    def max_game_length(self) -> int:
        return self.turn_limit * self.decisions_per_turn()

    def max_chance_nodes(self) -> int:
        return 36 + 1 + 1




class KilnState(DelegatingState):
    """A KILN position and whose decision it is."""

    notation = notation
    render = render
    heuristics = heuristics
    observation = observation

    __slots__ = (
        "masks",
        "outer_tile",
        "outer_cell",
        "warehouses",
        "points",
        "phase",
        "step",
        "pending",
        "heated",
        "skipped",
        "turns",
        "winner",
    )

    def __init__(self, game: KilnGame):
        super().__init__(game)
        #: one kiln bitboard per tile kind: red, blue, green, yellow, black
        self.masks = [0, 0, 0, 0, 0]
        #: the tile on the border (``BLACK`` at the start) and its border cell
        self.outer_tile = BLACK
        self.outer_cell = -1
        #: one warehouse bitboard per colour (unowned colours stay empty)
        self.warehouses = [0, 0, 0, 0]
        #: one score disc per seat, or per colour in the advanced variant
        #: with per-colour scoring (``game.disc_of`` maps colours to discs)
        self.points = [0] * game.num_discs
        self.player = CHANCE
        self.phase = FILL
        #: index into the mover's colours during the copy and sale steps
        self.step = 0
        #: the shape being placed (warehouse frame) during the place step
        self.pending = 0
        #: a score movement this turn ended exactly on a heat token
        self.heated = False
        #: colours whose copy was skipped this turn because none of the tied
        #: largest groups fitted (bitmask): the erase rule may erase there
        self.skipped = 0
        self.turns = 0
        self.winner = -1

    # -- predicates -----------------------------------------------------------
    def game(self) -> KilnGame:  # narrower type for readers and checkers
        return self._game  # type: ignore[return-value]


    def mover_colour(self) -> int:
        """The colour being copied or sold in the current step."""
        return self._game.colours[self.player][self.step]

    def tile_at(self, cell: int) -> int:
        """The tile kind on kiln cell ``cell``, or -1 while setup has not filled it."""
        bit = 1 << cell
        for tile, mask in enumerate(self.masks):
            if mask & bit:
                return tile
        return -1

    def kiln_tiles(self) -> list[int]:
        """The tile kind on every kiln cell, cell 0 first (-1 while setup
        has not filled it).

        >>> from tileworks import load_game
        >>> load_game("kiln").new_initial_state().kiln_tiles() == [-1] * 36
        True
        """
        return cell_labels(self.masks, 36)

    def is_draw(self) -> bool:
        """True when the turn-limit safeguard ended the game."""
        return self.phase == OVER and self.winner < 0

    # -- decisions ------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == PUSHING:
            return list(board.PUSH_TARGETS[self.outer_cell])
        if phase == SELLING:
            return self._sale_actions()
        if phase == PLACING:
            warehouse = self.warehouses[self.mover_colour()]
            return sorted(PLACE + board.first_cell(p) for p in board.placements(self.pending, warehouse))
        if phase == CHOOSING:
            return [GROUP + board.first_cell(g) for g in self._group_choices()]
        if phase == ERASING:
            warehouse = self.warehouses[self.mover_colour()]
            return [ERASE + i for i in range(25) if warehouse >> i & 1] + [KEEP]
        return [a for a, _ in self.chance_outcomes()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == FILL:
            left = [TILES_PER_COLOUR - self.masks[c].bit_count() for c in range(4)]
            total = sum(left)
            return [(c, n / total) for c, n in enumerate(left) if n]
        if phase == BLACK_TILE:
            return [(cell, 1 / 24) for cell in range(24)]
        if phase == FIRST_PLAYER:
            seats = self._tied_starters()
            return [(seat, 1 / len(seats)) for seat in seats]
        return []

    def _sale_actions(self) -> list[int]:
        warehouse = self.warehouses[self.mover_colour()]
        rows = board.complete_rows(warehouse)
        columns = board.complete_columns(warehouse)
        return (
            [SELL_ROWS + s - 1 for s in board.submasks(rows)]
            + [SELL_COLUMNS + s - 1 for s in board.submasks(columns)]
            + [NO_SALE]
        )

    def _group_choices(self) -> list[int]:
        """One group per distinct result: groups of the same shape are one
        choice, and so are all shapes that fit nowhere (each skips the copy)."""
        colour = self.mover_colour()
        warehouse = self.warehouses[colour]
        seen: dict[int, int] = {}
        for group in board.largest_groups(self.masks[colour]):
            key, shape = board.shape_of(group)
            if not (shape and board.placements(shape, warehouse)):
                key = -1
            seen.setdefault(key, group)
        return list(seen.values())

    def _tied_starters(self) -> list[int]:
        game = self._game
        colours = starting_colours(self.masks, game.owned)
        return sorted({game.owner[c] for c in colours})

    # -- applying -------------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PUSHING:
            self._push(action - PUSH)
        elif phase == CHOOSING:
            cell = action - GROUP
            self._copy(board.grow(1 << cell, self.masks[self.mover_colour()]), chosen=True)
        elif phase == PLACING:
            self._paint(self._placement_at(action - PLACE))
        elif phase == ERASING:
            if action == KEEP:
                self._offer_erase(self.step + 1)
            else:
                self.warehouses[self.mover_colour()] &= ~(1 << (action - ERASE))
                self._begin_sales()
        elif phase == SELLING:
            self._sell(action)
        elif phase == FILL:
            cell = sum(m.bit_count() for m in self.masks)
            self.masks[action] |= 1 << cell
            if cell == 35:
                self.phase = BLACK_TILE
        elif phase == BLACK_TILE:
            self.outer_cell = action
            self.outer_tile = BLACK
            seats = self._tied_starters()
            if len(seats) == 1:
                self._start_turn(seats[0])
            else:
                self.phase = FIRST_PLAYER
        elif phase == FIRST_PLAYER:
            self._start_turn(action)

    def _placement_at(self, cell: int) -> int:
        """The pending shape moved so that its first tile lands on ``cell``."""
        return self.pending << (cell - board.first_cell(self.pending))

    def _start_turn(self, seat: int) -> None:
        self.player = seat
        self.phase = PUSHING
        self.step = 0
        self.heated = False
        self.skipped = 0

    def _push(self, border: int) -> None:
        out = board.push(self.masks, self.outer_tile, border)
        self.outer_tile = out
        self.outer_cell = board.OPPOSITE[border]
        self.step = 0
        self._begin_copy()

    def _begin_copy(self) -> None:
        largest = board.largest_groups(self.masks[self.mover_colour()])
        if len(largest) == 1:  # the common case: nothing to choose
            self._copy(largest[0])
            return
        choices = self._group_choices()
        if len(choices) == 1:
            self._copy(choices[0])
        else:
            self.phase = CHOOSING

    def _copy(self, group: int, chosen: bool = False) -> None:
        """Copy ``group`` (compulsory where it fits) or skip it. ``chosen``:
        the player picked it among tied groups, so another may have fitted
        (otherwise it was the only largest group or the only distinct result,
        and a skip means none fits)."""
        _, shape = board.shape_of(group)
        colour = self.mover_colour()
        warehouse = self.warehouses[colour]
        fits = board.placements(shape, warehouse) if shape else ()
        if len(fits) == 1:
            self._paint(fits[0])
        elif fits:
            self.pending = shape
            self.phase = PLACING
        else:
            if self._game.erase_rule and not (chosen and self._any_largest_fits(colour)):
                self.skipped |= 1 << colour
            self._next_copy()

    def _any_largest_fits(self, colour: int) -> bool:
        """Whether some largest group of ``colour`` could be copied: the
        erase rule applies only when none can (a shape that fits nowhere,
        chosen over one that fits, earns no erase)."""
        warehouse = self.warehouses[colour]
        for group in board.largest_groups(self.masks[colour]):
            _, shape = board.shape_of(group)
            if shape and board.placements(shape, warehouse):
                return True
        return False

    def _paint(self, placed: int) -> None:
        self.warehouses[self.mover_colour()] |= placed
        self.pending = 0
        self._next_copy()

    def _next_copy(self) -> None:
        self.step += 1
        if self.step < len(self._game.colours[self.player]):
            self._begin_copy()
        elif self._game.erase_rule and self.skipped:
            self._offer_erase(0)
        else:
            self._begin_sales()

    def erasable_step(self, step: int) -> int | None:
        """The first of the mover's colours from ``step`` on whose copy was
        skipped and whose warehouse has a cell to erase (None: no such)."""
        colours = self._game.colours[self.player]
        for index in range(step, len(colours)):
            colour = colours[index]
            if self.skipped >> colour & 1 and self.warehouses[colour]:
                return index
        return None

    def _offer_erase(self, step: int) -> None:
        """The erase step in the first erasable warehouse from ``step`` on;
        keep there moves on to the next, so one erase a turn can go to either."""
        index = self.erasable_step(step)
        if index is None:
            self._begin_sales()
        else:
            self.step = index
            self.phase = ERASING

    def _begin_sales(self) -> None:
        self.step = 0
        self._begin_sale()

    def _begin_sale(self) -> None:
        warehouse = self.warehouses[self.mover_colour()]
        if board.complete_rows(warehouse) or board.complete_columns(warehouse):
            self.phase = SELLING
        else:
            self._next_sale()

    def _sell(self, action: int) -> None:
        if action != NO_SALE:
            if action >= SELL_COLUMNS:
                subset, masks = action - SELL_COLUMNS + 1, COLUMN_MASKS
            else:
                subset, masks = action - SELL_ROWS + 1, ROW_MASKS
            game = self._game
            colour = self.mover_colour()
            gained = board.price(subset.bit_count())
            note(self.player, gained, "sales")
            disc = game.disc_of[colour]
            self.points[disc] += gained
            if self.points[disc] in game.heat_tokens:
                self.heated = True
            if self.points[disc] >= game.goal:  # the win comes before the sold lines are erased
                self.winner = self.player
                self.phase = OVER
                self.player = TERMINAL
                return
            self.warehouses[colour] &= ~board.line_cells(subset, masks)
        self._next_sale()

    def _next_sale(self) -> None:
        self.step += 1
        if self.step < len(self._game.colours[self.player]):
            self._begin_sale()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        game = self._game
        self.turns += 1
        self.step = 0
        if self.turns >= game.turn_limit:
            self.phase = OVER
            self.player = TERMINAL
            return
        seat = self.player
        # the outer tile is still the one this turn's push released
        black_out = self.outer_tile == BLACK
        if not (black_out or self.heated):
            seat = (seat + 1) % game.players
        self._start_turn(seat)

    # -- results --------------------------------------------------------------
    def returns(self) -> list[float]:
        players = self._game.players
        if self.phase != OVER:
            return [0.0] * players
        if self.winner >= 0:
            return [1.0 if seat == self.winner else 0.0 for seat in range(players)]
        return [1.0 / players] * players

    def scores(self) -> list[int]:
        """Each seat's score: its disc, or its higher disc when each colour
        scores on its own."""
        points = self.points
        return [max(points[d] for d in discs) for discs in self._game.seat_discs]

    # -- copying --------------------------------------------------------------
    def clone(self) -> "KilnState":
        other = KilnState.__new__(KilnState)
        other._game = self._game
        other._history = self._history.copy()
        other._legal = self._legal
        other.masks = self.masks.copy()
        other.outer_tile = self.outer_tile
        other.outer_cell = self.outer_cell
        other.warehouses = self.warehouses.copy()
        other.points = self.points.copy()
        other.player = self.player
        other.phase = self.phase
        other.step = self.step
        other.pending = self.pending
        other.heated = self.heated
        other.skipped = self.skipped
        other.turns = self.turns
        other.winner = self.winner
        return other



KilnGame.state_class = KilnState
