"""Block Dominoes as a batched, functional Pgx environment (JAX): the same
game as :mod:`tileworks_dominoes.rules`, step for step, declared in the
plugin's ``GameInfo.batched`` and found by ``tileworks.jax.make``.

The action ids are the Python engine's: ``2 * tile + end`` (tile ids
0-0 = 0 … 6-6 = 27, end 0 left and 1 right), then ``pass`` (56) and
``draw`` (57). A step is one decision and the chance that follows it:
``init`` deals every hand (one tile per chance node, seat by seat, as the
Python engine deals) and calls the lead; a ``draw`` takes one tile from the
boneyard for the drawer, who then decides again. ``_chance`` records the
tiles a step dealt or drew, in the order the Python engine's chance nodes
take them. The hands and the boneyard stay in the state for search; a
seat's observation holds only its own hand.

>>> import jax
>>> from tileworks.jax import make
>>> env = make("dominoes", players=3, draw=True)
>>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
>>> env.num_actions, int(state.legal_action_mask.sum())  # the lead: one tile, one way
(58, 1)
"""

from __future__ import annotations

from typing import Any, ClassVar

import jax
import jax.numpy as jnp
from pgx._src.struct import dataclass

from tileworks.core import TERMINAL
from tileworks.jax.core import TileworksEnv, TileworksState, observation_vector, one_hot

from tileworks_dominoes.notation import PHASE_NAMES
from tileworks_dominoes.observation import ALL_PIPS, SEATS
from tileworks_dominoes.rules import DRAW_TILE, HAND_SIZE, OVER, PASS, PLAY
from tileworks_dominoes.tiles import COUNT, LEAD_ORDER, TILE_ID, TILES, tile_name

LOW = jnp.asarray([low for low, _ in TILES], dtype=jnp.int32)
HIGH = jnp.asarray([high for _, high in TILES], dtype=jnp.int32)
PIPS = LOW + HIGH
#: SHOWS[n, tile]: the tile has an end of n pips
SHOWS = (LOW[None, :] == jnp.arange(7)[:, None]) | (HIGH[None, :] == jnp.arange(7)[:, None])
#: each tile's place in the order of claims on the lead (higher leads)
LEAD_RANK = jnp.zeros(COUNT, dtype=jnp.int32).at[jnp.asarray(LEAD_ORDER)].set(jnp.arange(COUNT, dtype=jnp.int32))
#: an oriented tile in the line (left pips, right pips) as one number
ORIENTED = 7


@dataclass
class DominoesJaxState(TileworksState):
    game_name: ClassVar[str] = "dominoes"
    # the whole table (the Python engine's fields, as arrays), after Pgx's public fields
    _hands: Any = jnp.zeros((0, COUNT), dtype=jnp.bool_)  # [seat, tile]
    _boneyard: Any = jnp.ones(COUNT, dtype=jnp.bool_)  # [tile]: not dealt or drawn
    _line: Any = jnp.full(COUNT, -1, dtype=jnp.int32)  # left to right, oriented: ``7 * left + right``; -1 empty
    _length: Any = jnp.int32(0)  # tiles in the line
    _ends: Any = jnp.full(2, -1, dtype=jnp.int32)  # the open ends' pips, left and right (-1 before the lead)
    _seat: Any = jnp.int32(0)
    _phase: Any = jnp.int32(PLAY)
    _passes: Any = jnp.int32(0)  # passes in a row
    _points: Any = jnp.zeros(0, dtype=jnp.int32)
    _winners: Any = jnp.zeros(0, dtype=jnp.bool_)


class DominoesEnv(TileworksEnv):
    """Block Dominoes for 2-4 ``players``, with or without the ``draw``
    variant: the options of ``tileworks.load_game("dominoes", ...)``."""

    game_name = "dominoes"
    over_phase = OVER

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.hand_size = HAND_SIZE[self.players]
        self.draw = bool(self.options["draw"])
        #: the most chance outcomes one step takes: the deal (then one a draw)
        self.max_chance = self.players * self.hand_size

    def _blank(self) -> DominoesJaxState:
        n = self.players
        return DominoesJaxState(
            rewards=jnp.zeros(n, dtype=jnp.float32),
            legal_action_mask=jnp.zeros(DRAW_TILE + 1, dtype=jnp.bool_),
            _hands=jnp.zeros((n, COUNT), dtype=jnp.bool_),
            _points=jnp.zeros(n, dtype=jnp.int32),
            _winners=jnp.zeros(n, dtype=jnp.bool_),
            _chance=jnp.full(self.max_chance, -1, dtype=jnp.int32),
            _options=tuple(sorted(self.options.items())),
        )

    def _start(self, state: DominoesJaxState, chance: Any) -> DominoesJaxState:
        """The deal, a hand at a time, seat 1 first; then the holder of the
        highest tile dealt leads with it."""
        dealt = self.players * self.hand_size
        if chance.outcomes is None:
            # tile after tile, each uniform among those left, is the start of
            # a random order of all 28: one shuffle, not 14-20 draws
            tiles = chance.shuffled(1, jnp.arange(COUNT), dealt)
        else:
            tiles = chance.outcomes[:dealt]
        hands = state._hands.at[jnp.arange(dealt) // self.hand_size, tiles].set(True)
        lead = lead_tile(hands)
        seat = jnp.argmax(hands[:, lead]).astype(jnp.int32)
        return self._finish(state.replace(
            _hands=hands, _boneyard=state._boneyard.at[tiles].set(False), _seat=seat,
            _chance=state._chance.at[:dealt].set(tiles),
        ))

    def _apply(self, state: DominoesJaxState, action: Any, chance: Any) -> DominoesJaxState:
        seat = state._seat
        plays, passes, draws = action < PASS, action == PASS, action == DRAW_TILE
        played = _played(state, action)
        # a draw: chance gives the drawer a tile, and the drawer decides again
        drawn = chance.weighted(0, state._boneyard.astype(jnp.int32))
        hands = jnp.where(plays, played._hands, state._hands.at[seat, drawn].set(state._hands[seat, drawn] | draws))
        state = jax_where(plays, played, state).replace(
            _hands=hands,
            _boneyard=state._boneyard.at[drawn].set(state._boneyard[drawn] & ~draws),
            _chance=state._chance.at[0].set(jnp.where(draws, drawn, -1)),
            _passes=jnp.where(plays, 0, state._passes + passes),
        )
        emptied = plays & ~state._hands[seat].any()
        blocked = passes & (state._passes == self.players)
        over = emptied | blocked
        following = jnp.where(draws, seat, (seat + 1) % self.players)
        state = jax_where(over, _finished(state, blocked), state.replace(_seat=following))
        return self._finish(state)

    def _observe(self, state: DominoesJaxState, player_id: Any) -> Any:
        return observation(self, state, player_id)

    # -- what a seat may do, and the end -----------------------------------------------------
    def _legal(self, state: DominoesJaxState) -> Any:
        """A tile of the mover's hand on an end it matches (one side only when
        both ends show the same pips); the lead before the first tile; else
        a draw while the Draw variant's boneyard lasts, or a pass."""
        hand = state._hands[state._seat] & (state._phase == PLAY)
        left, right = state._ends[0], state._ends[1]
        on_left = hand & SHOWS[jnp.maximum(left, 0)]
        on_right = hand & SHOWS[jnp.maximum(right, 0)] & (right != left)
        leading = state._length == 0
        lead = jnp.arange(COUNT) == lead_tile(state._hands)
        on_left = jnp.where(leading, lead & (state._phase == PLAY), on_left)
        on_right = on_right & ~leading
        tiles = jnp.stack([on_left, on_right], axis=1).reshape(-1)
        stuck = ~tiles.any() & (state._phase == PLAY)
        draw = stuck & self.draw & state._boneyard.any()
        return jnp.concatenate([tiles, jnp.stack([stuck & ~draw, draw])])

    def _returns(self, state: DominoesJaxState) -> Any:
        """The winners share the win (1/k each)."""
        return (state._winners / jnp.maximum(state._winners.sum(), 1)).astype(jnp.float32)


# -- pieces of a step ----------------------------------------------------------------------------

def jax_where(condition: Any, chosen: DominoesJaxState, otherwise: DominoesJaxState) -> DominoesJaxState:
    """Field by field: ``chosen`` where ``condition``, else ``otherwise``."""
    return jax.tree.map(lambda a, b: jnp.where(condition, a, b), chosen, otherwise)


def lead_tile(hands: Any) -> Any:
    """The tile that opens the game: the highest-ranked tile dealt."""
    return jnp.argmax(jnp.where(hands.any(axis=0), LEAD_RANK, -1))


def _played(state: DominoesJaxState, action: Any) -> DominoesJaxState:
    """The mover's tile of ``action`` played on its end (the lead, first),
    turned so that it matches the end it meets."""
    tile, end = jnp.minimum(action, PASS - 1) // 2, action % 2
    low, high = LOW[tile], HIGH[tile]
    left, right = state._ends[0], state._ends[1]
    leading = state._length == 0
    on_left = ~leading & (end == 0)
    # left: the pips that meet the left end go on the right of the tile
    left_turned = jnp.where(high == left, ORIENTED * low + high, ORIENTED * high + low)
    right_turned = jnp.where(low == right, ORIENTED * low + high, ORIENTED * high + low)
    code = jnp.where(leading, ORIENTED * low + high, jnp.where(on_left, left_turned, right_turned))
    # the line stays left-aligned (one layout per line): a tile on the left moves the rest along
    line = jnp.where(on_left, jnp.roll(state._line, 1), state._line)
    line = line.at[jnp.where(on_left | leading, 0, state._length)].set(code)
    ends = jnp.where(leading, jnp.stack([low, high]),
                     jnp.where(on_left, jnp.stack([code // ORIENTED, right]), jnp.stack([left, code % ORIENTED])))
    return state.replace(
        _hands=state._hands.at[state._seat, tile].set(False),
        _line=line, _length=state._length + 1, _ends=ends.astype(jnp.int32),
    )


def _finished(state: DominoesJaxState, blocked: Any) -> DominoesJaxState:
    """Score the hand: the seat that emptied its hand wins, or in a blocked
    game the lightest hands share the win; the winners take the pips left
    in every other hand."""
    totals = (state._hands * PIPS).sum(axis=1)
    seats = jnp.arange(totals.shape[0])
    winners = jnp.where(blocked, totals == totals.min(), seats == state._seat)
    losers = jnp.where(winners, 0, totals).sum()
    return state.replace(_winners=winners, _points=state._points + jnp.where(winners, losers, 0).astype(jnp.int32),
                         _phase=jnp.int32(OVER))


def observation(env: DominoesEnv, state: DominoesJaxState, viewer: Any) -> Any:
    """The Python engine's observation tensor (``observation_tensor``) of
    ``viewer``, as float32: its own hand, the line's tiles, the open ends,
    the hands' and the boneyard's sizes, the phase, whose turn, the viewer,
    the passes in a row and the points."""
    padded = lambda values: jnp.pad(values, (0, SEATS - env.players))  # noqa: E731
    in_line = ~(state._boneyard | state._hands.any(axis=0))
    mover = jnp.where(state._phase == OVER, -1, state._seat)
    parts = [
        state._hands[viewer], in_line, one_hot(7, state._ends[0]), one_hot(7, state._ends[1]),
        padded(state._hands.sum(axis=1) / COUNT), (state._boneyard.sum() / COUNT)[None],
        one_hot(len(PHASE_NAMES), state._phase), one_hot(SEATS, mover), one_hot(SEATS, viewer),
        (state._passes / SEATS)[None], padded(jnp.minimum(state._points / ALL_PIPS, 1.0)),
    ]
    return observation_vector(parts)


# -- the Python engine's fields ------------------------------------------------------------------

def _names(mask: Any) -> list[str]:
    return [tile_name(t) for t in range(COUNT) if bool(mask[t])]


def to_fields(env: DominoesEnv, state: DominoesJaxState) -> dict[str, Any]:
    """The Python engine's ``state_fields`` of one JAX state (a position
    with no history: its hands are whatever the state holds)."""
    n = env.players
    phase = int(state._phase)
    line = [int(code) for code in state._line[:int(state._length)]]
    return {
        "hands": [_names(state._hands[s]) for s in range(n)],
        "boneyard": _names(state._boneyard),
        "line": [f"{code // ORIENTED}-{code % ORIENTED}" for code in line],
        "seat": int(state._seat),
        "to_move": TERMINAL if phase == OVER else int(state._seat),
        "phase": PHASE_NAMES[phase],
        "deal_index": n * env.hand_size,
        "passes": int(state._passes),
        "points": [int(p) for p in state._points],
        "winners": [s for s in range(n) if bool(state._winners[s])],
        "hand_slots": [[] for _ in range(n)],
        "private_to": [],
    }


def from_fields(env: DominoesEnv, fields: dict[str, Any]) -> DominoesJaxState:
    """The JAX state of the Python engine's ``state_fields`` (a position
    where a seat decides, or the end)."""
    phase = PHASE_NAMES.index(fields["phase"])
    if phase not in (PLAY, OVER):
        raise ValueError(f"a JAX state starts where a seat decides or at the end, not in phase {fields['phase']!r}")
    tile = lambda name: TILE_ID[int(name[0]), int(name[2])]  # noqa: E731
    hands = [[False] * COUNT for _ in range(env.players)]
    for seat, hand in enumerate(fields["hands"]):
        for name in hand:
            hands[seat][tile(name)] = True
    boneyard = [False] * COUNT
    for name in fields["boneyard"]:
        boneyard[tile(name)] = True
    pairs = [(int(name[0]), int(name[2])) for name in fields["line"]]
    line = [ORIENTED * left + right for left, right in pairs] + [-1] * (COUNT - len(pairs))
    ends = [pairs[0][0], pairs[-1][1]] if pairs else [-1, -1]
    winners = [s in fields["winners"] for s in range(env.players)]
    seat = int(fields["seat"])
    state = env._blank().replace(
        _hands=jnp.asarray(hands), _boneyard=jnp.asarray(boneyard), _line=jnp.asarray(line, dtype=jnp.int32),
        _length=jnp.int32(len(pairs)), _ends=jnp.asarray(ends, dtype=jnp.int32),
        _seat=jnp.int32(seat), _phase=jnp.int32(phase), _passes=jnp.int32(fields["passes"]),
        _points=jnp.asarray(fields["points"], dtype=jnp.int32), _winners=jnp.asarray(winners),
        current_player=jnp.int32(seat),
    )
    return env._finish(state)


DominoesEnv.to_fields = to_fields
DominoesEnv.from_fields = from_fields
