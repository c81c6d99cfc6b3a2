"""Tiles (BoneGames) rules: placement by edge matching, closed areas, hidden hands.

Cells are keyed by one int (see ``constants``). A placed tile ``t``
owns triangles ``4t + side`` (sides N=0, E=1, S=2, W=3). Areas are kept in a
union-find over triangles; each root knows how many of its triangles face an
empty cell and which tiles it touches (a bitmask), so closing an area is
seen the moment its count reaches 0, without scanning the layout.

>>> import tileworks
>>> state = tileworks.load_game("tiles").new_initial_state()
>>> state.decision()
'chance assigns the colours'
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from tileworks.core.scoring import note
from tileworks.core import CHANCE, TERMINAL, Game, HiddenHandState, shared_win
from tileworks.games.tiles import heuristics, notation, observation, render
from tileworks.games.tiles.constants import (
    ALL_FREE,
    COLOURS_PHASE,
    DEAL,
    DECIDE,
    DELTA,
    DRAW,
    FIRST_PHASE,
    HAND_SIZE,
    OPPOSITE,
    ORIGIN,
    ORIGIN_PHASE,
    OVER,
    cell_key,
    cell_xy,
)
from tileworks.games.tiles.tileset import TileSet, colours_of

#: the rows and columns from the observation frame's top-left cell that a layout seldom passes (board_layout)
CORNER = 19


class TilesGame(Game):
    """Tiles with fixed options (see ``tileworks.games.tiles.GAME_INFO``)."""

    name = "tiles"

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        self.players: int = options["players"]
        self.tileset = TileSet.from_option(options["tile_set"])
        self.kinds = len(self.tileset.kinds)
        self.hand_size = HAND_SIZE[self.players]
        #: positions are counted inside the layout's bounds plus a margin of one
        self.width = len(self.tileset) + 2
        self.discard_base = self.width * self.width * self.kinds * 4
        self.pass_action = self.discard_base + self.kinds
        #: colour assignments: one colour per seat, in seat order
        self.colourings = list(itertools.permutations(range(3), self.players))

    def num_distinct_actions(self) -> int:
        return self.pass_action + 1

    def max_chance_outcomes(self) -> int:
        return max(len(self.colourings), self.kinds, self.players)

    def board_layout(self) -> dict[str, int]:
        """The observation's 12 planes (a side's colour) and the placements
        (a tile kind in a turn, ``4 * kind + turn``) share the frame around
        the layout (``observation``, ``placement``). The layout is drawn
        from the frame's top-left cell, so its tiles lie in the frame's
        ``corner``: a frame as wide as a straight line of every tile, where
        a game's layout is seldom a third of that (the widest of 200 random
        games of the 45 tiles was 15 cells, of 40 greedy games 14). Training
        computes the corner alone while every tile is in it.

        >>> import tileworks
        >>> tileworks.load_game("tiles").board_layout()
        {'planes': 12, 'height': 47, 'width': 47, 'channels': 96, 'corner': 19}
        """
        return {"planes": 12, "height": self.width, "width": self.width, "channels": 4 * self.kinds,
                "corner": min(self.width, CORNER)}

    def max_game_length(self) -> int:
        # every turn plays, discards or passes; a seat passes only when the
        # others may still hold tiles, so each tile costs at most one round
        return len(self.tileset) * self.players

    def max_chance_nodes(self) -> int:
        return 2 + len(self.tileset)




class TilesState(HiddenHandState):
    """A Tiles position, hands and deck included (the view hides them)."""

    notation = notation
    render = render
    heuristics = heuristics
    observation = observation

    __slots__ = (
        "colour", "first", "seat", "phase", "deal_index",
        "hands", "hand_slots", "deck", "deck_total", "discards", "points",
        "board", "tile_cell", "tile_code", "frontier", "bounds",
        "parent", "open", "span", "tri_colour",
    )

    def __init__(self, game: TilesGame):
        super().__init__(game)
        n, k = game.players, game.kinds
        self.colour = [-1] * n
        self.first = -1
        #: whose turn it is (the player to move, or the one a draw goes to)
        self.seat = 0
        self.player = CHANCE
        self.phase = COLOURS_PHASE
        self.deal_index = 0
        #: hand counts per seat and kind (seat * kinds + kind)
        self.hands = [0] * (n * k)
        #: per seat, the history indices of the draws still in hand
        self.hand_slots: list[list[int]] = [[] for _ in range(n)]
        self.deck = list(game.tileset.count)
        self.deck_total = len(game.tileset)
        self.discards: list[int] = []
        self.points = [0] * n
        self.board: dict[int, int] = {}
        self.tile_cell: list[int] = []
        self.tile_code: list[str] = []
        #: empty cells next to the layout -> requirement pattern (2 bits a side)
        self.frontier: dict[int, int] = {}
        #: min x, max x, min y, max y of the layout
        self.bounds = [0, 0, 0, 0]
        self.parent: list[int] = []
        self.open: list[int] = []
        self.span: list[int] = []
        self.tri_colour: list[int] = []
        #: per history entry: the seat that alone sees it, or -1 (public)
        self.private_to: list[int] = []

    # -- predicates ---------------------------------------------------------------

    def game(self) -> TilesGame:
        return self._game  # type: ignore[return-value]

    def hand(self, seat: int) -> list[int]:
        k = self._game.kinds
        return self.hands[seat * k : seat * k + k]

    def hand_count(self, seat: int) -> int:
        return sum(self.hand(seat))

    def fitting_kinds(self) -> int:
        """The tile kinds (a bitmask) that fit somewhere on the layout now.

        >>> import tileworks
        >>> from tileworks.games.tiles import position
        >>> state = position(tileworks.load_game("tiles"), layout=[[0, 0, "wwww"]], hands=[["bbbb"], ["gggg"]])
        >>> kinds = state.game().tileset.kinds
        >>> sorted(kinds[k] for k in range(len(kinds)) if state.fitting_kinds() >> k & 1)[:3]
        ['bbbw', 'bbgw', 'bbwg']
        """
        fitting = self._game.tileset.fitting
        mask = 0
        for pattern in self.frontier.values():
            mask |= fitting[pattern]
        return mask

    def placements(self) -> list[int]:
        """Legal placements of the seat to move (empty when nothing fits)."""
        game = self._game
        k_count = game.kinds
        hand = self.hand(self.seat)
        held = [k for k in range(k_count) if hand[k]]
        fits = game.tileset.fits
        width = game.width
        minx, _, miny, _ = self.bounds
        out = []
        for key, pattern in self.frontier.items():
            row = fits[pattern]
            pos = ((key % 256 - 128) - miny + 1) * width + (key // 256 - 128) - minx + 1
            base = pos * k_count
            for kind in held:
                for turn in row[kind]:
                    out.append(((base + kind) << 2) | turn)
        out.sort()
        return out

    # -- decisions ----------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        if self.phase == DECIDE:
            game = self._game
            placed = self.placements()
            if placed:
                return placed
            hand = self.hand(self.seat)
            held = [game.discard_base + k for k in range(game.kinds) if hand[k]]
            return held or [game.pass_action]
        return [a for a, _ in self.chance_outcomes()]

    def _is_legal(self, action: int) -> bool:
        # A placement is checked where it lands, without listing every
        # placement (replaying a record checks each of its moves).
        game = self._game
        if self.phase != DECIDE or not 0 <= action < game.discard_base:
            return super()._is_legal(action)
        kind, turn, key = self.placement(action)
        if not self.hands[self.seat * game.kinds + kind]:
            return False
        pattern = self.frontier.get(key)
        return pattern is not None and turn in game.tileset.fits[pattern][kind]

    def placement(self, action: int) -> tuple[int, int, int]:
        """A placement action's tile kind, turn and cell key: the inverse of
        the numbering in :meth:`placements` (cells relative to the layout's
        bounds, so an id means a cell only in the state it was listed in)."""
        game = self._game
        pos, kind = divmod(action >> 2, game.kinds)
        py, px = divmod(pos, game.width)
        return kind, action & 3, cell_key(px - 1 + self.bounds[0], py - 1 + self.bounds[2])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase in (DEAL, ORIGIN_PHASE, DRAW):
            total = self.deck_total
            return [(k, n / total) for k, n in enumerate(self.deck) if n]
        if phase == COLOURS_PHASE:
            count = len(self._game.colourings)
            return [(i, 1 / count) for i in range(count)]
        if phase == FIRST_PHASE:
            n = self._game.players
            return [(s, 1 / n) for s in range(n)]
        return []

    def _sample_chance(self, rng: random.Random) -> int:
        if self.phase not in (DEAL, ORIGIN_PHASE, DRAW):
            return super()._sample_chance(rng)
        pick = int(rng.random() * self.deck_total)
        for kind, n in enumerate(self.deck):
            pick -= n
            if pick < 0:
                return kind
        return len(self.deck) - 1  # pragma: no cover - float edge

    # -- applying -----------------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        game = self._game
        if phase == DECIDE:
            self.private_to.append(-1)
            seat = self.seat
            if action < game.discard_base:
                kind, turn, key = self.placement(action)
                self._take(seat, kind)
                self.points[seat] += self._place(key, game.tileset.oriented(kind, turn), self.colour[seat])
            elif action < game.pass_action:
                kind = action - game.discard_base
                # a discard is forced: the discarder held no tile that fitted anywhere
                self.evidence += ((seat, len(self._history) - 1, self.fitting_kinds()),)
                self._take(seat, kind)
                self.discards.append(kind)
            self._next_turn()
            return
        if phase in (DEAL, DRAW):
            seat = self.deal_index // game.hand_size if phase == DEAL else self.seat
            self.private_to.append(seat)
            self._draw(action)
            self.hands[seat * game.kinds + action] += 1
            self.hand_slots[seat].append(len(self._history) - 1)
            if phase == DEAL:
                self.deal_index += 1
                if self.deal_index == game.players * game.hand_size:
                    self.phase = ORIGIN_PHASE
            else:
                self.phase = DECIDE
                self.player = self.seat
            return
        self.private_to.append(-1)
        if phase == ORIGIN_PHASE:
            self._draw(action)
            self._place(ORIGIN, game.tileset.kinds[action], -1)
            self.seat = self.first
            self._start_turn()
        elif phase == COLOURS_PHASE:
            self.colour = list(game.colourings[action])
            self.phase = FIRST_PHASE
        elif phase == FIRST_PHASE:
            self.first = action
            self.phase = DEAL

    def _draw(self, kind: int) -> None:
        self.deck[kind] -= 1
        self.deck_total -= 1

    def _take(self, seat: int, kind: int) -> None:
        """Remove one tile of ``kind`` from ``seat``'s hand (and its draw slot)."""
        self.hands[seat * self._game.kinds + kind] -= 1
        self._forget_draw(seat, kind)

    def _start_turn(self) -> None:
        if self.deck_total:
            self.phase = DRAW
            self.player = CHANCE
        else:
            self.phase = DECIDE
            self.player = self.seat

    def _next_turn(self) -> None:
        if not self.deck_total and not any(self.hands):
            self.phase = OVER
            self.player = TERMINAL
            return
        self.seat = (self.seat + 1) % self._game.players
        self._start_turn()

    # -- the layout and its areas ---------------------------------------------------
    def _find(self, tri: int) -> int:
        parent = self.parent
        root = tri
        while parent[root] != root:
            root = parent[root]
        while parent[tri] != root:
            parent[tri], tri = root, parent[tri]
        return root

    def _union(self, a: int, b: int) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            if self.span[ra].bit_count() < self.span[rb].bit_count():
                ra, rb = rb, ra
            self.parent[rb] = ra
            self.open[ra] += self.open[rb]
            self.span[ra] |= self.span[rb]

    def _place(self, key: int, code: str, scorer_colour: int) -> int:
        """Put a tile on the layout; the points its closed areas of
        ``scorer_colour`` are worth (n(n-1)/2 for an area touching n tiles)."""
        cols = colours_of(code)
        t = len(self.tile_cell)
        self.tile_cell.append(key)
        self.tile_code.append(code)
        self.board[key] = t
        self.frontier.pop(key, None)
        x, y = cell_xy(key)
        b = self.bounds
        if t == 0:
            b[:] = [x, x, y, y]
        else:
            b[0], b[1], b[2], b[3] = min(b[0], x), max(b[1], x), min(b[2], y), max(b[3], y)
        base = 4 * t
        board = self.board
        for side in range(4):
            self.parent.append(base + side)
            self.tri_colour.append(cols[side])
            self.span.append(1 << t)
            self.open.append(0 if key + DELTA[side] in board else 1)
        frontier = self.frontier
        for side in range(4):
            neighbour = key + DELTA[side]
            other = board.get(neighbour)
            if other is not None:
                touching = 4 * other + OPPOSITE[side]
                self.open[self._find(touching)] -= 1  # it no longer faces an empty cell
                self._union(base + side, touching)
            else:
                shift = 2 * OPPOSITE[side]
                pattern = frontier.get(neighbour, ALL_FREE)
                frontier[neighbour] = (pattern & ~(3 << shift)) | (cols[side] << shift)
        for side in range(4):
            if cols[side] == cols[(side + 1) % 4]:
                self._union(base + side, base + (side + 1) % 4)
        if scorer_colour < 0:
            return 0
        gained = 0
        for root in {self._find(base + side) for side in range(4)}:
            if not self.open[root] and self.tri_colour[root] == scorer_colour:
                n = self.span[root].bit_count()
                area = n * (n - 1) // 2
                gained += area
                note(self.seat, area, "areas")
        return gained

    def closed_areas(self) -> list[tuple[int, int]]:
        """Every closed area as ``(colour, tiles touched)``."""
        roots = {self._find(t) for t in range(len(self.parent))}
        return sorted((self.tri_colour[r], self.span[r].bit_count()) for r in roots if not self.open[r])

    # -- results --------------------------------------------------------------------
    def returns(self) -> list[float]:
        return shared_win(self.points) if self.phase == OVER else [0.0] * self._game.players

    def scores(self) -> list[int]:
        return list(self.points)

    def clone(self) -> "TilesState":
        other = TilesState.__new__(TilesState)
        other._game = self._game
        other._history = self._history.copy()
        other._legal = self._legal
        other.colour = self.colour.copy()
        other.first = self.first
        other.seat = self.seat
        other.player = self.player
        other.phase = self.phase
        other.deal_index = self.deal_index
        other.hands = self.hands.copy()
        other.hand_slots = [slots.copy() for slots in self.hand_slots]
        other.deck = self.deck.copy()
        other.deck_total = self.deck_total
        other.discards = self.discards.copy()
        other.points = self.points.copy()
        other.board = self.board.copy()
        other.tile_cell = self.tile_cell.copy()
        other.tile_code = self.tile_code.copy()
        other.frontier = self.frontier.copy()
        other.bounds = self.bounds.copy()
        other.parent = self.parent.copy()
        other.open = self.open.copy()
        other.span = self.span.copy()
        other.tri_colour = self.tri_colour.copy()
        other.private_to = self.private_to.copy()
        other.evidence = self.evidence
        return other

    # -- hidden information -------------------------------------------------------------
    def _hand_tiles(self, seat: int) -> list[int]:
        return [kind for kind, n in enumerate(self.hand(seat)) for _ in range(n)]

    def _undrawn(self) -> list[int]:
        return [kind for kind, n in enumerate(self.deck) for _ in range(n)]

    def _with_hidden(self, hands: dict[int, list[int]], undrawn: list[int]) -> "TilesState":
        k = self._game.kinds
        state = self.clone()
        for seat, tiles in hands.items():
            state.hands[seat * k : seat * k + k] = [tiles.count(kind) for kind in range(k)]
        state.deck = [undrawn.count(kind) for kind in range(k)]
        state._legal = None
        return state


TilesGame.state_class = TilesState
