"""Azul rules: drafting from factories, wall-tiling, refills and the end.

Each round: chance fills the factories tile by tile from the bag; players
draft in turn (one action = source x colour x destination); then the wall
is tiled (automatically on the coloured wall, or line by line as decisions
on the grey wall); the game ends after the round in which a wall row is
completed.

>>> import tileworks
>>> state = tileworks.load_game("azul").new_initial_state()
>>> state.decision()
'chance picks the first player'
"""

from __future__ import annotations

import random
from typing import Any

from tileworks.core.bitboards import cell_labels
from tileworks.core.scoring import is_recording, note
from tileworks.core import CHANCE, TERMINAL, DelegatingState, Game
from tileworks.games.azul import heuristics, notation, observation, render
from tileworks.games.azul.constants import (
    COLUMN_MASKS,
    DESTINATIONS,
    DRAFT,
    FACTORIES,
    FILL,
    FIRST_PLAYER,
    FLOOR,
    FLOOR_PENALTY,
    FLOOR_SPACES,
    OVER,
    PLACE,
    ROW_MASKS,
    TILES_PER_COLOUR,
)
from tileworks.games.azul.scoring import WALL_COLUMN, end_bonus, end_bonus_parts, run_score


NO_TILES = (0, 0, 0, 0, 0)
#: the colours in a 5-bit colour mask, in order
COLOURS_IN = tuple(tuple(c for c in range(5) if mask >> c & 1) for mask in range(32))


def _action_tables(sources: int):
    """Precomputed draft actions: ``TABLE[source*5 + colour][line_mask]`` is the
    sorted tuple of actions to every accepting line plus the floor."""
    table = []
    for source in range(sources):
        for colour in range(5):
            base = (source * 5 + colour) * DESTINATIONS
            table.append(
                tuple(
                    tuple(base + d for d in range(5) if mask >> d & 1) + (base + FLOOR,)
                    for mask in range(32)
                )
            )
    return tuple(table)


class AzulGame(Game):
    """Azul with fixed options (see ``tileworks.games.azul.GAME_INFO``)."""

    name = "azul"
    winner_rule = "score+tiebreak"  # ties go to the most complete rows

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        self.players: int = options["players"]
        self.grey: bool = options["variant"] == "grey"
        self.tiebreak: str = options["tiebreak"]
        self.round_limit: int = options["round_limit"]
        self.factories = FACTORIES[self.players]
        self.sources = self.factories + 1  # the centre is the last source
        self.centre = self.factories
        self.fill_slots = 4 * self.factories
        self.place_base = self.sources * 5 * DESTINATIONS
        self.table = _action_tables(self.sources)
        #: action -> (source, colour, destination) for drafts
        self.decode = tuple(
            (a // (5 * DESTINATIONS), a // DESTINATIONS % 5, a % DESTINATIONS) for a in range(self.place_base)
        )

    def num_distinct_actions(self) -> int:
        return self.place_base + 5

    def board_layout(self) -> dict[str, Any] | None:
        """The factories, the centre and every seat's board from the mover's
        on, as boards of one canvas
        (:func:`tileworks.games.azul.observation.canvas_layout`); none on the
        grey wall, where a line's tiles have no fixed wall cell to be read at."""
        return None if self.grey else observation.canvas_layout(self)

    def max_chance_outcomes(self) -> int:
        return max(5, self.players)

    def max_game_length(self) -> int:
        # each draft takes at least one tile; grey placements at most 5 per player
        per_round = 4 * self.factories + (5 * self.players if self.grey else 0)
        return per_round * self.round_limit

    def max_chance_nodes(self) -> int:
        return 1 + 4 * self.factories * self.round_limit




class AzulState(DelegatingState):
    """An Azul position. Per-player data live in flat lists (seat * 5 + index)."""

    notation = notation
    render = render
    heuristics = heuristics
    observation = observation

    __slots__ = (
        "bag", "lid", "factory", "centre", "present", "table_tiles", "marker_in_centre",
        "line_colour", "line_count", "accepts", "walls", "wall_all", "floor_tiles", "floor_spaces",
        "points", "marker_holder", "starter", "phase", "fill_slot",
        "place_line", "round", "last_floor",
    )

    def __init__(self, game: AzulGame):
        super().__init__(game)
        n = game.players
        self.bag = [TILES_PER_COLOUR] * 5
        self.lid = [0] * 5
        #: tile counts per factory and colour (factory * 5 + colour)
        self.factory = [0] * (5 * game.factories)
        self.centre = [0] * 5
        #: bitmask of the colours present in each source (factories, then the centre)
        self.present = [0] * game.sources
        #: tiles on factories and in the centre (drafting ends at 0)
        self.table_tiles = 0
        self.marker_in_centre = True
        #: pattern lines: colour (-1 empty) and count, seat * 5 + line
        self.line_colour = [-1] * (5 * n)
        self.line_count = [0] * (5 * n)
        #: seat * 5 + colour -> mask of pattern lines that accept that colour now
        self.accepts = [0b11111] * (5 * n)
        #: seat * 5 + colour -> wall cells holding that colour
        self.walls = [0] * (5 * n)
        #: occupied wall cells of each seat (the union of its colour masks)
        self.wall_all = [0] * n
        #: floor tiles by colour (seat * 5 + colour) and occupied floor spaces (marker included)
        self.floor_tiles = [0] * (5 * n)
        self.floor_spaces = [0] * n
        self.points = [0] * n
        #: who took the first-player marker this round (-1: nobody yet)
        self.marker_holder = -1
        self.starter = -1
        self.player = CHANCE
        self.phase = FIRST_PLAYER
        #: next factory slot to fill (factory * 4 + k)
        self.fill_slot = 0
        #: the pattern line being placed on the grey wall
        self.place_line = 0
        self.round = 0
        #: occupied floor spaces of each seat in the last tiled round (tie-break)
        self.last_floor = [0] * n

    # -- predicates -----------------------------------------------------------
    def game(self) -> AzulGame:
        return self._game  # type: ignore[return-value]


    def wall(self, seat: int) -> int:
        """Occupied wall cells of ``seat`` (25 bits, row-major from the top-left)."""
        return self.wall_all[seat]

    def wall_colour_at(self, seat: int, cell: int) -> int:
        """The colour of the tile on ``seat``'s wall ``cell`` (0-24), or -1."""
        bit = 1 << cell
        for colour in range(5):
            if self.walls[5 * seat + colour] & bit:
                return colour
        return -1

    def wall_colours(self, seat: int) -> list[int]:
        """The colour of every cell of ``seat``'s wall (-1 empty), row-major
        from the top-left.

        >>> from tileworks import load_game
        >>> load_game("azul").new_initial_state().wall_colours(0) == [-1] * 25
        True
        """
        return cell_labels(self.walls[5 * seat: 5 * seat + 5], 25)

    def has_complete_row(self, seat: int) -> bool:
        wall = self.wall(seat)
        return any(wall & m == m for m in ROW_MASKS)

    def tiles_in_play(self) -> int:
        """Every tile the state accounts for; always 100."""
        n = self._game.players
        walls = sum(self.wall(s).bit_count() for s in range(n))
        return (
            sum(self.bag) + sum(self.lid) + sum(self.factory) + sum(self.centre)
            + sum(self.line_count) + walls + sum(self.floor_tiles)
        )

    # -- decisions ------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == DRAFT:
            game = self._game
            table = game.table
            accepts = self.accepts
            base = 5 * self.player
            out: list[int] = []
            extend = out.extend
            colours_in = COLOURS_IN
            mine = accepts[base : base + 5]
            k = 0
            for colours in self.present:
                if colours:
                    for c in colours_in[colours]:
                        extend(table[k + c][mine[c]])
                k += 5
            return out
        if phase == PLACE:
            return [self._game.place_base + col for col in self._free_columns(self.player, self.place_line)]
        return [a for a, _ in self.chance_outcomes()]

    def _is_legal(self, action: int) -> bool:
        phase = self.phase
        if phase == FILL:
            return 0 <= action < 5 and self.bag[action] > 0
        if phase == DRAFT:
            game = self._game
            if not 0 <= action < game.place_base:
                return False
            source, rest = divmod(action, 5 * DESTINATIONS)
            colour, dest = divmod(rest, DESTINATIONS)
            held = self.centre[colour] if source == game.centre else self.factory[5 * source + colour]
            return held > 0 and (dest == FLOOR or self.accepts[5 * self.player + colour] >> dest & 1 == 1)
        return super()._is_legal(action)

    def _sample_chance(self, rng: random.Random) -> int:
        if self.phase != FILL:
            return super()._sample_chance(rng)
        bag = self.bag
        pick = int(rng.random() * (bag[0] + bag[1] + bag[2] + bag[3] + bag[4]))
        for colour in range(4):
            pick -= bag[colour]
            if pick < 0:
                return colour
        return 4

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == FILL:
            bag = self.bag
            total = bag[0] + bag[1] + bag[2] + bag[3] + bag[4]
            return [(c, n / total) for c, n in enumerate(bag) if n]
        if self.phase == FIRST_PLAYER:
            n = self._game.players
            return [(seat, 1 / n) for seat in range(n)]
        return []

    def _free_columns(self, seat: int, line: int) -> list[int]:
        """Grey wall: columns of row ``line`` that are empty and lack the line's colour."""
        colour = self.line_colour[5 * seat + line]
        wall = self.wall_all[seat]
        column_has = self.walls[5 * seat + colour]
        return [
            col for col in range(5)
            if not wall >> (5 * line + col) & 1 and not column_has & COLUMN_MASKS[col]
        ]

    # -- applying -------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        # Fast paths for the two commonest nodes: a tile drawn from the bag, and
        # a draft already listed as legal. Everything else, illegal actions
        # included, takes the checked general path.
        phase = self.phase
        if phase == FILL and type(action) is int and 0 <= action < 5 and self.bag[action]:
            self._legal = None
            self._history.append(action)
            self._draw(action)
        elif phase == DRAFT and type(action) is int and self._legal is not None and action in self._legal:
            self._legal = None
            self._history.append(action)
            self._draft(action)
        else:
            super().apply_action(action)

    def _draw(self, colour: int) -> None:
        """Put a tile of ``colour`` from the bag on the next factory slot."""
        slot = self.fill_slot
        f = slot >> 2
        self.factory[5 * f + colour] += 1
        self.present[f] |= 1 << colour
        bag = self.bag
        bag[colour] -= 1
        self.table_tiles += 1
        self.fill_slot = slot + 1
        if slot + 1 == self._game.fill_slots or not (bag[0] or bag[1] or bag[2] or bag[3] or bag[4]):
            self._continue_fill()

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == FILL:
            self._draw(action)
        elif phase == DRAFT:
            self._draft(action)
        elif phase == PLACE:
            self._place(self.player, self.place_line, action - self._game.place_base)
            self.place_line += 1
            if self._continue_grey_tiling():
                self._start_round()
        elif phase == FIRST_PLAYER:
            self.starter = action
            self._start_round()

    def _start_round(self) -> None:
        """Start the next round, and go on through rounds that have nothing to
        draft (bag, lid and table all empty) in a loop, not a call per round,
        so that any ``round_limit`` ends cleanly."""
        while True:
            self.round += 1
            self.phase = FILL
            self.player = CHANCE
            self.fill_slot = 0
            self.marker_in_centre = True
            self.marker_holder = -1
            self._continue_fill()
            if self.phase != DRAFT or self.table_tiles:
                return  # chance fills the factories, or there are tiles to draft
            # not a tile left anywhere: nothing to draft this round
            if not self._tile_walls():
                return

    def _continue_fill(self) -> None:
        """Refill the bag from the lid when it runs dry; start drafting when the
        factories are full or no tile is left anywhere (the caller then finds
        the table empty)."""
        bag = self.bag
        if self.fill_slot < 4 * self._game.factories:
            if bag[0] + bag[1] + bag[2] + bag[3] + bag[4]:
                return
            if sum(self.lid):
                self.bag, self.lid = self.lid, bag  # the empty bag list becomes the empty lid
                return
        self.phase = DRAFT
        self.player = self.starter

    def _draft(self, action: int) -> None:
        game = self._game
        source, colour, dest = game.decode[action]
        seat = self.player
        present = self.present
        if source == game.centre:
            taken = self.centre[colour]
            self.centre[colour] = 0
            present[source] &= ~(1 << colour)
            if self.marker_in_centre:
                self.marker_in_centre = False
                self.marker_holder = seat
                if self.floor_spaces[seat] < FLOOR_SPACES:
                    self.floor_spaces[seat] += 1
        else:
            k = 5 * source
            factory = self.factory
            taken = factory[k + colour]
            factory[k + colour] = 0
            rest = present[source] & ~(1 << colour)
            if rest:
                centre = self.centre
                for c in COLOURS_IN[rest]:
                    centre[c] += factory[k + c]
                    factory[k + c] = 0
                present[game.centre] |= rest
            present[source] = 0
        self.table_tiles -= taken
        if dest == FLOOR:
            self._to_floor(seat, colour, taken)
        else:
            i = 5 * seat + dest
            count = self.line_count[i]
            room = dest + 1 - count
            placed = taken if taken < room else room
            self.line_colour[i] = colour
            self.line_count[i] = count + placed
            if not count or placed == room:
                # the line now takes only its colour, and nothing once full
                b = 5 * seat
                keep = ~(1 << dest)
                accepts = self.accepts
                accepts[b] &= keep
                accepts[b + 1] &= keep
                accepts[b + 2] &= keep
                accepts[b + 3] &= keep
                accepts[b + 4] &= keep
                if placed < room:
                    accepts[b + colour] |= 1 << dest
            if taken > placed:
                self._to_floor(seat, colour, taken - placed)
        if self.table_tiles:
            self.player = (seat + 1) % game.players
        elif self._tile_walls():
            self._start_round()

    def _to_floor(self, seat: int, colour: int, count: int) -> None:
        room = FLOOR_SPACES - self.floor_spaces[seat]
        kept = count if count < room else room
        self.floor_tiles[5 * seat + colour] += kept
        self.floor_spaces[seat] += kept
        self.lid[colour] += count - kept

    def _refresh_line(self, seat: int, line: int) -> None:
        """Recompute which colours pattern line ``line`` of ``seat`` accepts:
        an empty line takes any colour its wall row lacks, a started line only
        its own colour until it is full."""
        i = 5 * seat + line
        base = 5 * seat
        colour = self.line_colour[i]
        walls = self.walls
        if colour < 0:
            row = ROW_MASKS[line]
            allowed = 0
            for c in range(5):
                if not walls[base + c] & row:
                    allowed |= 1 << c
        elif self.line_count[i] <= line:
            allowed = 1 << colour
        else:
            allowed = 0
        bit = 1 << line
        accepts = self.accepts
        for c in range(5):
            if allowed >> c & 1:
                accepts[base + c] |= bit
            else:
                accepts[base + c] &= ~bit

    # -- wall-tiling ------------------------------------------------------------
    def _tile_walls(self) -> bool:
        """Wall-tiling at the end of the drafting. True when the round is
        over and another follows (the caller starts it); False when the game
        ended or a grey-wall placement waits for its player."""
        game = self._game
        if game.grey:
            self.phase = PLACE
            self.player = self.starter
            self.place_line = 0
            return self._continue_grey_tiling()
        counts = self.line_count
        row_done = False
        for seat in range(game.players):
            base = 5 * seat
            for line in range(5):
                if counts[base + line] == line + 1:
                    row_done |= self._place(seat, line, WALL_COLUMN[line][self.line_colour[base + line]])
            self._score_floor(seat)
        return self._end_round(row_done)

    def _continue_grey_tiling(self) -> bool:
        """Advance through full lines, seat by seat from the starter; stop at a
        line with a real choice (False). True when every seat is done and
        another round follows."""
        game = self._game
        while True:
            seat, line = self.player, self.place_line
            if line == 5:
                self._score_floor(seat)
                seat = (seat + 1) % game.players
                if seat == self.starter:
                    self.place_line = 0
                    return self._end_round()
                self.player, self.place_line = seat, 0
                continue
            i = 5 * seat + line
            if self.line_count[i] == line + 1:
                free = self._free_columns(seat, line)
                if len(free) > 1:
                    return False
                if free:
                    self._place(seat, line, free[0])
                else:  # fits nowhere: the whole line falls to the floor
                    colour = self.line_colour[i]
                    self.line_colour[i], self.line_count[i] = -1, 0
                    self._to_floor(seat, colour, line + 1)
                    self._refresh_line(seat, line)
            self.place_line += 1

    def _place(self, seat: int, line: int, column: int) -> bool:
        """Move the tile of full line ``line`` to ``column``, score it, and clear
        the line. True when the placement completes its wall row."""
        i = 5 * seat + line
        colour = self.line_colour[i]
        cell = 5 * line + column
        self.walls[5 * seat + colour] |= 1 << cell
        wall = self.wall_all[seat] | 1 << cell
        self.wall_all[seat] = wall
        gained = run_score(wall, cell)
        note(seat, gained, "wall")
        self.points[seat] += gained
        self.lid[colour] += line
        self.line_colour[i], self.line_count[i] = -1, 0
        # the emptied line takes every colour its wall row still lacks (unrolled: hot)
        b = 5 * seat
        w = self.walls
        row = ROW_MASKS[line]
        bit = 1 << line
        off = ~bit
        a = self.accepts
        a[b] = a[b] & off if w[b] & row else a[b] | bit
        a[b + 1] = a[b + 1] & off if w[b + 1] & row else a[b + 1] | bit
        a[b + 2] = a[b + 2] & off if w[b + 2] & row else a[b + 2] | bit
        a[b + 3] = a[b + 3] & off if w[b + 3] & row else a[b + 3] | bit
        a[b + 4] = a[b + 4] & off if w[b + 4] & row else a[b + 4] | bit
        return wall & row == row

    def _score_floor(self, seat: int) -> None:
        spaces = self.floor_spaces[seat]
        self.last_floor[seat] = spaces
        if not spaces:
            return
        points = self.points[seat] - FLOOR_PENALTY[spaces]
        points = points if points > 0 else 0
        note(seat, points - self.points[seat], "floor")
        self.points[seat] = points
        floor = self.floor_tiles
        lid = self.lid
        b = 5 * seat
        lid[0] += floor[b]
        lid[1] += floor[b + 1]
        lid[2] += floor[b + 2]
        lid[3] += floor[b + 3]
        lid[4] += floor[b + 4]
        floor[b : b + 5] = NO_TILES
        self.floor_spaces[seat] = 0

    def _end_round(self, row_done: bool | None = None) -> bool:
        """Score the end of the game (False), or say that another round
        follows (True: the caller starts it, so that rounds never nest).
        ``row_done``: whether this round's tiling completed a wall row (None:
        look at every wall)."""
        game = self._game
        n = game.players
        if self.marker_holder >= 0:
            self.starter = self.marker_holder
        if row_done is None:
            row_done = any(self.has_complete_row(s) for s in range(n))
        if row_done or self.round >= game.round_limit:
            for seat in range(n):
                colour_walls = self.walls[5 * seat : 5 * seat + 5]
                bonus = end_bonus(colour_walls)
                if is_recording():
                    for kind, points in end_bonus_parts(colour_walls).items():
                        note(seat, points, kind)
                self.points[seat] += bonus
            self.phase = OVER
            self.player = TERMINAL
            return False
        return True

    # -- results --------------------------------------------------------------
    def winners(self) -> list[int]:
        """Seats sharing the win (by score, then the tie-break option)."""
        n = self._game.players
        if self._game.tiebreak == "official":
            key = lambda s: (  # noqa: E731
                self.points[s],
                sum(1 for m in ROW_MASKS if self.wall(s) & m == m),
            )
        else:
            key = lambda s: (self.points[s], self.wall(s).bit_count(), -self.last_floor[s])  # noqa: E731
        best = max(key(s) for s in range(n))
        return [s for s in range(n) if key(s) == best]

    def returns(self) -> list[float]:
        n = self._game.players
        if self.phase != OVER:
            return [0.0] * n
        won = self.winners()
        return [1.0 / len(won) if s in won else 0.0 for s in range(n)]

    def scores(self) -> list[int]:
        return list(self.points)

    def clone(self) -> "AzulState":
        other = AzulState.__new__(AzulState)
        other._game = self._game
        other._history = self._history.copy()
        other._legal = self._legal
        other.bag = self.bag.copy()
        other.lid = self.lid.copy()
        other.factory = self.factory.copy()
        other.centre = self.centre.copy()
        other.present = self.present.copy()
        other.table_tiles = self.table_tiles
        other.marker_in_centre = self.marker_in_centre
        other.line_colour = self.line_colour.copy()
        other.line_count = self.line_count.copy()
        other.accepts = self.accepts.copy()
        other.walls = self.walls.copy()
        other.wall_all = self.wall_all.copy()
        other.floor_tiles = self.floor_tiles.copy()
        other.floor_spaces = self.floor_spaces.copy()
        other.points = self.points.copy()
        other.marker_holder = self.marker_holder
        other.starter = self.starter
        other.player = self.player
        other.phase = self.phase
        other.fill_slot = self.fill_slot
        other.place_line = self.place_line
        other.round = self.round
        other.last_floor = self.last_floor.copy()
        return other


AzulGame.state_class = AzulState
