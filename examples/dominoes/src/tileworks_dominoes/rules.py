"""Block Dominoes rules: a hand of dominoes played to one line with two open ends.

A decision is one of:

- **play** a tile of your hand on the left or the right end of the line
  (the first tile of the game is the lead: the highest double dealt, or
  the heaviest tile when no double was dealt);
- **pass**, when no tile of your hand matches either end;
- **draw** (Draw variant, option ``draw``), instead of passing while the
  boneyard has tiles: chance gives you one, and you decide again.

>>> import tileworks
>>> state = tileworks.load_game("dominoes").new_initial_state()
>>> state.decision()
'chance deals a tile to P1'
"""

from __future__ import annotations

from typing import Any

from tileworks.core import CHANCE, TERMINAL, Game, HiddenHandState

from tileworks_dominoes import heuristics, notation, observation, render
from tileworks_dominoes.tiles import ALL, COUNT, RANKED_ABOVE, SHOWING, TILES, ids, lead_rank, pip_total

DEAL, DRAW, PLAY, OVER = range(4)
PHASE_NAMES = ("deal", "draw", "play", "over")
LEFT, RIGHT = 0, 1
#: player action ids: 2 * tile + end (0 left, 1 right); then pass and draw
PASS = 2 * COUNT
DRAW_TILE = PASS + 1
HAND_SIZE = {2: 7, 3: 5, 4: 5}


class DominoesGame(Game):
    """Block Dominoes with fixed options (see ``tileworks_dominoes.GAME_INFO``)."""

    name = "dominoes"
    winner_rule = "other"  # going out (or the fewest pips when blocked) wins

    def __init__(self, options: dict[str, Any]):
        super().__init__(options)
        self.players: int = options["players"]
        self.draw: bool = options["draw"]
        self.hand_size = HAND_SIZE[self.players]

    def num_distinct_actions(self) -> int:
        return DRAW_TILE + 1

    def max_chance_outcomes(self) -> int:
        return COUNT

    def max_game_length(self) -> int:
        # each tile is played at most once; after a play the others may pass
        # (n - 1 passes), a full round of n passes blocks the game, and each
        # tile left after the deal may be drawn once
        return (COUNT + 1) * self.players + COUNT

    def max_chance_nodes(self) -> int:
        return COUNT


class DominoesState(HiddenHandState):
    """A position: hands and boneyard included (views hide them)."""

    notation = notation
    render = render
    heuristics = heuristics
    observation = observation

    __slots__ = ("hands", "boneyard", "line", "seat", "phase", "deal_index", "passes", "points", "winners")

    def __init__(self, game: DominoesGame):
        super().__init__(game)
        n = game.players
        #: each seat's tiles, a bitmask of tile ids
        self.hands = [0] * n
        #: the tiles not dealt or drawn (face down; in the Block game they stay so)
        self.boneyard = ALL
        #: the line of play, left to right, each tile as (left pips, right pips)
        self.line: list[tuple[int, int]] = []
        self.seat = 0
        self.player = CHANCE
        self.phase = DEAL
        self.deal_index = 0
        #: passes in a row: a full round of them blocks the game
        self.passes = 0
        self.points = [0] * n
        self.winners: list[int] = []
        self.hand_slots: list[list[int]] = [[] for _ in range(n)]
        self.private_to: list[int] = []

    # -- predicates -------------------------------------------------------------------
    def game(self) -> DominoesGame:
        return self._game  # type: ignore[return-value]

    def ends(self) -> tuple[int, int] | None:
        """The pips of the open ends, left and right (None before the lead)."""
        if not self.line:
            return None
        return self.line[0][0], self.line[-1][1]

    def matching(self) -> int:
        """The tiles that would fit an open end now (a bitmask; all before the lead)."""
        ends = self.ends()
        return ALL if ends is None else SHOWING[ends[0]] | SHOWING[ends[1]]

    def can_play(self, seat: int) -> bool:
        if not self.line:
            return True
        return bool(self.hands[seat] & self.matching())

    def lead_tile(self) -> int:
        """The tile that opens the game: the highest-ranked tile dealt."""
        dealt = [t for hand in self.hands for t in ids(hand)]
        return max(dealt, key=lead_rank)

    # -- decisions --------------------------------------------------------------------
    def _legal_actions(self) -> list[int]:
        if self.phase != PLAY:
            return [a for a, _ in self.chance_outcomes()]
        ends = self.ends()
        if ends is None:
            return [2 * self.lead_tile() + LEFT]
        left, right = ends
        hand = self.hands[self.seat]
        out = [2 * t + LEFT for t in ids(hand & SHOWING[left])]
        if right != left:  # with equal ends either side gives the same line
            out += [2 * t + RIGHT for t in ids(hand & SHOWING[right])]
        if out:
            return sorted(out)
        return [DRAW_TILE] if self._game.draw and self.boneyard else [PASS]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase in (DEAL, DRAW):
            left = ids(self.boneyard)
            return [(t, 1 / len(left)) for t in left]
        return []

    # -- applying ---------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self.phase in (DEAL, DRAW):
            self._draw(action)
            return
        self.private_to.append(-1)
        seat = self.seat
        if action == DRAW_TILE:
            # a draw is forced too: the drawer held no tile that fitted an end
            self._reveal_none_of(seat, len(self._history) - 1, self.matching())
            self.phase, self.player = DRAW, CHANCE
            return
        if action == PASS:
            # a pass is forced: the passer held no tile that fitted an end
            self._reveal_none_of(seat, len(self._history) - 1, self.matching())
            self.passes += 1
            if self.passes == self._game.players:
                self._finish(blocked=True)
                return
        else:
            tile, end = divmod(action, 2)
            self._place(tile, end)
            self.hands[seat] &= ~(1 << tile)
            self._forget_draw(seat, tile)
            self.passes = 0
            if not self.hands[seat]:
                self._finish(blocked=False)
                return
        self._next_turn()

    def _draw(self, tile: int) -> None:
        game = self._game
        seat = self.deal_index // game.hand_size if self.phase == DEAL else self.seat
        self.private_to.append(seat)
        self.boneyard &= ~(1 << tile)
        self.hands[seat] |= 1 << tile
        self.hand_slots[seat].append(len(self._history) - 1)
        if self.phase == DEAL:
            self.deal_index += 1
            if self.deal_index == game.players * game.hand_size:
                self._call_the_lead()
        else:  # the drawer decides again: play the tile, draw again, or pass
            self.phase, self.player = PLAY, seat

    def _call_the_lead(self) -> None:
        """After the deal the players call their highest tiles: the holder of
        the highest shows it and must lead with it. So the lead tile is
        public, and nobody holds a tile ranked above it."""
        lead = self.lead_tile()
        self.seat = next(s for s in range(self._game.players) if self.hands[s] >> lead & 1)
        slot = next(i for i in self.hand_slots[self.seat] if self._history[i] == lead)
        self.private_to[slot] = -1
        for seat in range(self._game.players):
            self._reveal_none_of(seat, len(self._history), RANKED_ABOVE[lead])
        self.phase, self.player = PLAY, self.seat

    def _place(self, tile: int, end: int) -> None:
        low, high = TILES[tile]
        ends = self.ends()
        if ends is None:
            self.line.append((low, high))
        elif end == LEFT:
            self.line.insert(0, (low, high) if high == ends[0] else (high, low))
        else:
            self.line.append((low, high) if low == ends[1] else (high, low))

    def _reveal_none_of(self, seat: int, when: int, tiles: int) -> None:
        """Public evidence: ``seat`` held none of ``tiles`` before history index ``when``."""
        self.evidence += ((seat, when, tiles),)

    def _next_turn(self) -> None:
        self.seat = seat = (self.seat + 1) % self._game.players
        self.phase, self.player = PLAY, seat

    def _finish(self, blocked: bool) -> None:
        """Score the hand: the winners take the pips left in the other hands,
        and every hand is shown."""
        totals = [pip_total(hand) for hand in self.hands]
        if blocked:  # the lightest hand wins; equal lightest hands share the win
            low = min(totals)
            self.winners = [s for s, total in enumerate(totals) if total == low]
        else:
            self.winners = [self.seat]
        losers = sum(total for s, total in enumerate(totals) if s not in self.winners)
        for seat in self.winners:
            self.points[seat] += losers
        for seat, slots in enumerate(self.hand_slots):
            for index in slots:
                self.private_to[index] = -1
        self.phase, self.player = OVER, TERMINAL

    # -- results ----------------------------------------------------------------------
    def is_blocked(self) -> bool:
        """True when the game ended with nobody able to play (no hand emptied)."""
        return self.phase == OVER and all(self.hands)

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self._game.players
        share = 1.0 / len(self.winners)
        return [share if s in self.winners else 0.0 for s in range(self._game.players)]

    def scores(self) -> list[int]:
        return list(self.points)

    def clone(self) -> "DominoesState":
        other = DominoesState.__new__(DominoesState)
        other._game = self._game
        other._history = self._history.copy()
        other._legal = self._legal
        other.hands = self.hands.copy()
        other.boneyard = self.boneyard
        other.line = self.line.copy()
        other.seat = self.seat
        other.player = self.player
        other.phase = self.phase
        other.deal_index = self.deal_index
        other.passes = self.passes
        other.points = self.points.copy()
        other.winners = self.winners.copy()
        other.hand_slots = [slots.copy() for slots in self.hand_slots]
        other.private_to = self.private_to.copy()
        other.evidence = self.evidence
        return other

    # -- hidden information -----------------------------------------------------------
    def _hand_tiles(self, seat: int) -> list[int]:
        return ids(self.hands[seat])

    def _undrawn(self) -> list[int]:
        return ids(self.boneyard)

    def _with_hidden(self, hands: dict[int, list[int]], undrawn: list[int]) -> "DominoesState":
        state = self.clone()
        for seat, tiles in hands.items():
            state.hands[seat] = sum(1 << t for t in tiles)
        state.boneyard = sum(1 << t for t in undrawn)
        state._legal = None
        return state


DominoesGame.state_class = DominoesState
