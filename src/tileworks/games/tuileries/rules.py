"""Tuileries rules on bitboards.

Twelve 64-bit masks hold where the tiles of each colour, value and sign lie;
the group a placed tile forms for a pair of characteristics is a flood fill
from its square inside the intersection of two masks.

>>> import tileworks
>>> state = tileworks.load_game("tuileries", players=3).new_initial_state()
>>> state.decision()
'chance picks the first player'
"""

from __future__ import annotations

import bisect
import random
from operator import itemgetter
from typing import Any

from tileworks.core.scoring import is_recording, note
from tileworks.core import CHANCE, TERMINAL, Game, HiddenHandState, shared_win
from tileworks.games.tuileries import heuristics, notation, observation, render
from tileworks.games.tuileries.constants import (
    BONUS,
    DEAL,
    FIRST,
    EXTRA_TURN_AT,
    HAND_SIZE,
    OVER,
    PAIRS,
    PLAY,
    REPLACE,
    SQUARE_INDEX,
    TILES,
    grow,
)

#: ROW[tile][square] = the action id of that tile on that square
ROW = tuple(tuple((tile << 6) | square for square in range(64)) for tile in range(TILES))


class TuileriesGame(Game):
    """Tuileries with fixed options (see ``tileworks.games.tuileries.GAME_INFO``)."""

    name = "tuileries"

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        self.players: int = options["players"]
        self.hand_size = HAND_SIZE[self.players]
        self.bonus_tile: bool = options["bonus_tile"]
        self.circles = tuple(SQUARE_INDEX[name] for name in options["circles"])

    def num_distinct_actions(self) -> int:
        return TILES * 64

    def max_chance_outcomes(self) -> int:
        return TILES

    def board_layout(self) -> dict[str, Any]:
        """The observation's first 13 planes (a placed tile's colour, value
        and sign, and the circle squares) are the 8 x 8 squares, and a
        placement's action id is its tile's number times 64 plus its square,
        so a board network reads each tile's logit at the square it would take.

        >>> import tileworks
        >>> tileworks.load_game("tuileries").board_layout()
        {'planes': 13, 'height': 8, 'width': 8, 'channels': 64, 'order': 'channel'}
        """
        return {"planes": 13, "height": 8, "width": 8, "channels": TILES, "order": "channel"}

    def max_game_length(self) -> int:
        return TILES  # every decision places a tile

    def max_chance_nodes(self) -> int:
        return 1 + TILES  # the first player, then every tile's draw


class TuileriesState(HiddenHandState):
    """A Tuileries position, hands and draw included (the view hides them)."""

    notation = notation
    render = render
    heuristics = heuristics
    observation = observation

    __slots__ = (
        "masks", "occupied", "empty", "board", "hands", "pile", "points", "seat", "phase",
        "deal_index", "extra", "first",
    )

    def __init__(self, game: TuileriesGame):
        super().__init__(game)
        n = game.players
        #: colour masks 0-3, value masks 4-7, sign masks 8-11
        self.masks = [0] * 12
        self.occupied = 0
        #: the empty squares, ascending
        self.empty = list(range(64))
        self.board = [-1] * 64
        self.hands: list[list[int]] = [[] for _ in range(n)]
        #: the draw, as a sorted list (its order is chance's)
        self.pile = list(range(TILES))
        self.points = [0] * n
        self.seat = 0
        self.player = CHANCE
        #: chance picks the first player, then deals
        self.phase = FIRST
        #: the seat that played first (-1 until chance has picked it)
        self.first = -1
        self.deal_index = 0
        #: the tile just placed earned an extra turn
        self.extra = False
        self.hand_slots: list[list[int]] = [[] for _ in range(n)]
        self.private_to: list[int] = []

    # -- predicates -----------------------------------------------------------------
    def placed(self) -> int:
        return self.occupied.bit_count()

    def open_squares(self) -> list[int]:
        """Where the next tile may go: free circle squares first, then any empty square."""
        occupied = self.occupied
        if occupied.bit_count() < 4:
            return [s for s in self._game.circles if not occupied >> s & 1]
        return self.empty

    def score_for(self, tile: int, square: int) -> int:
        """Points for ``tile`` on ``square`` given the tiles already down.

        Each pair of characteristics it shares with an orthogonally connected
        run of tiles is a group worth its size (2-4); no group at all scores 1.
        """
        masks = self.masks
        bit = 1 << square
        total = 0
        for a, b in PAIRS[tile]:
            size = grow(bit, (masks[a] & masks[b]) | bit).bit_count()
            if size > 1:
                total += size
        return total or 1

    def score_parts(self, tile: int, square: int) -> list[int]:
        """The groups ``score_for`` adds up, one size each (``[1]`` for none)."""
        masks = self.masks
        bit = 1 << square
        sizes = [grow(bit, (masks[a] & masks[b]) | bit).bit_count() for a, b in PAIRS[tile]]
        return [size for size in sizes if size > 1] or [1]

    # -- decisions --------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        if self.phase == PLAY:
            squares = self.open_squares()
            hand = self.hands[self.seat]
            if len(squares) == 1:
                return [ROW[tile][squares[0]] for tile in hand]
            pick = itemgetter(*squares)  # gathers existing ints in C: no allocation per action
            out: list[int] = []
            for tile in hand:
                out.extend(pick(ROW[tile]))
            return out
        return [a for a, _ in self.chance_outcomes()]

    def _is_legal(self, action: int) -> bool:
        if self.phase == FIRST:
            return type(action) is int and 0 <= action < self._game.players
        if self.phase != PLAY:  # a draw: legal when that tile is in the (sorted) pile
            pile = self.pile
            i = bisect.bisect_left(pile, action) if type(action) is int else len(pile)
            return self.phase != OVER and i < len(pile) and pile[i] == action
        if not 0 <= action < TILES * 64:
            return False
        tile, square = action >> 6, action & 63
        if self.occupied >> square & 1 or tile not in self.hands[self.seat]:
            return False
        return self.occupied.bit_count() >= 4 or square in self._game.circles

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase in (DEAL, REPLACE, BONUS):
            p = 1 / len(self.pile)
            return [(tile, p) for tile in self.pile]
        if self.phase == FIRST:
            n = self._game.players
            return [(seat, 1 / n) for seat in range(n)]
        return []

    def _sample_chance(self, rng: random.Random) -> int:
        if self.phase in (DEAL, REPLACE, BONUS):
            return self.pile[int(rng.random() * len(self.pile))]
        return super()._sample_chance(rng)  # the first player

    # -- applying ---------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        game = self._game
        if self.phase == PLAY:
            self.private_to.append(-1)
            tile, square = action >> 6, action & 63
            seat = self.seat
            self._take(seat, tile)
            gained = self.score_for(tile, square)
            if is_recording():
                for part in self.score_parts(tile, square):
                    note(seat, part, "groups")
            self._put(tile, square)
            self.points[seat] += gained
            self.extra = gained >= EXTRA_TURN_AT
            if self.pile:
                self.phase, self.player = REPLACE, CHANCE
            else:
                self._continue()
            return
        if self.phase == FIRST:
            self.private_to.append(-1)
            self.first = action
            self.phase = DEAL
            return
        seat = self.deal_index // game.hand_size if self.phase == DEAL else self.seat
        self.private_to.append(seat)
        self.pile.remove(action)
        bisect.insort(self.hands[seat], action)
        self.hand_slots[seat].append(len(self._history) - 1)
        if self.phase == DEAL:
            self.deal_index += 1
            if self.deal_index == game.players * game.hand_size:
                self.seat = self.first
                self.phase, self.player = PLAY, self.first
        elif self.phase == REPLACE:
            self._continue()
        else:  # BONUS
            self.phase, self.player = PLAY, seat

    def _put(self, tile: int, square: int) -> None:
        bit = 1 << square
        masks = self.masks
        masks[tile >> 4] |= bit
        masks[4 + ((tile >> 2) & 3)] |= bit
        masks[8 + (tile & 3)] |= bit
        self.occupied |= bit
        self.board[square] = tile
        self.empty.remove(square)

    def _take(self, seat: int, tile: int) -> None:
        self.hands[seat].remove(tile)
        self._forget_draw(seat, tile)

    def _continue(self) -> None:
        """After a play and its replacement draw: the extra turn, the next
        seat holding tiles, or the end once all 64 tiles are down."""
        if self.occupied.bit_count() == TILES:
            self.phase, self.player = OVER, TERMINAL
            return
        seat = self.seat
        if self.extra:
            self.extra = False
            if self._game.bonus_tile and self.pile:  # the extra turn starts with an extra tile
                self.phase, self.player = BONUS, CHANCE
                return
            if self.hands[seat]:
                self.phase, self.player = PLAY, seat
                return
        nxt = self.next_holder()
        if nxt is None:  # pragma: no cover
            raise AssertionError("tiles remain but nobody holds one")
        self.seat = nxt
        self.phase, self.player = PLAY, nxt

    def next_holder(self) -> int | None:
        """The first seat after the current one, round the table and back to
        it, that holds a tile (None: nobody does)."""
        hands = self.hands
        n = len(hands)
        for step in range(1, n + 1):
            seat = (self.seat + step) % n
            if hands[seat]:
                return seat
        return None

    # -- results ---------------------------------------------------------------------------
    def returns(self) -> list[float]:
        return shared_win(self.points) if self.phase == OVER else [0.0] * self._game.players

    def scores(self) -> list[int]:
        return list(self.points)

    def clone(self) -> "TuileriesState":
        other = TuileriesState.__new__(TuileriesState)
        other._game = self._game
        other._history = self._history.copy()
        other._legal = self._legal
        other.masks = self.masks.copy()
        other.occupied = self.occupied
        other.empty = self.empty.copy()
        other.board = self.board.copy()
        other.hands = [hand.copy() for hand in self.hands]
        other.pile = self.pile.copy()
        other.points = self.points.copy()
        other.seat = self.seat
        other.player = self.player
        other.phase = self.phase
        other.deal_index = self.deal_index
        other.extra = self.extra
        other.first = self.first
        other.hand_slots = [slots.copy() for slots in self.hand_slots]
        other.private_to = self.private_to.copy()
        other.evidence = self.evidence
        return other

    # -- hidden information (any square is always playable, so a play reveals
    # nothing but the tile played, and every deal is consistent) --------------------
    def _hand_tiles(self, seat: int) -> list[int]:
        return list(self.hands[seat])

    def _undrawn(self) -> list[int]:
        return list(self.pile)

    def _with_hidden(self, hands: dict[int, list[int]], undrawn: list[int]) -> "TuileriesState":
        state = self.clone()
        for seat, tiles in hands.items():
            state.hands[seat] = sorted(tiles)
        state.pile = sorted(undrawn)
        state._legal = None
        return state


TuileriesGame.state_class = TuileriesState
