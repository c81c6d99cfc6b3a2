"""Tuileries as a batched, functional Pgx environment (JAX), the same game
as :mod:`tileworks.games.tuileries` step for step.

The action ids are the Python engine's: ``64 * tile + square`` (tile ids
``16 * colour + 4 * value + sign``, squares a1 = 0 … h8 = 63). Chance (who
plays first, the deal, each replacement and bonus draw) is resolved inside
:meth:`TuileriesEnv.step` from the key, or taken from given outcomes by
:meth:`TuileriesEnv.step_with_chance`; ``_chance`` records what a step
drew, in the order the Python engine's chance nodes take it. Hands and the
draw stay in the state for search; a seat's observation holds only its own
hand and the other hands' sizes.

>>> import jax
>>> from tileworks.jax import make
>>> env = make("tuileries", players=4)
>>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
>>> env.num_actions, int(state.legal_action_mask.sum())  # 7 tiles in hand, 4 circle squares
(4096, 28)
"""

from __future__ import annotations

from typing import Any, ClassVar

import jax
import jax.numpy as jnp
from pgx._src.struct import dataclass

from tileworks.games.tuileries.constants import (
    EXTRA_TURN_AT, HAND_SIZE, OVER, PHASE_NAMES, PLAY, SQUARE_INDEX, SQUARE_NAMES, TILES, tile_name, tile_of,
)
from tileworks.games.tuileries.observation import SCORE_BOUND
from tileworks.jax.core import TileworksEnv, TileworksState, bits_of, observation_vector, one_hot, unpack_mask

TILE_IDS = jnp.arange(TILES, dtype=jnp.int32)
#: each tile's colour, value and sign; its three groups pair them as
#: (colour, value), (value, sign), (sign, colour)
TRAITS = jnp.stack([TILE_IDS >> 4, (TILE_IDS >> 2) & 3, TILE_IDS & 3], axis=1)  # [tile, trait]
PAIRED = jnp.asarray([[0, 1], [1, 2], [2, 0]], dtype=jnp.int32)  # [group, the two traits it shares]
#: a group holds at most the four tiles that share two traits, so three
#: steps of growth reach all of it
GROWTH_STEPS = 3


@dataclass
class TuileriesJaxState(TileworksState):
    game_name: ClassVar[str] = "tuileries"
    # the whole table (the Python engine's fields, as arrays), after Pgx's public fields
    _board: Any = jnp.full(64, -1, dtype=jnp.int32)  # [square]: tile id, -1 empty
    _hands: Any = jnp.zeros((0, TILES), dtype=jnp.bool_)  # [seat, tile]
    _pile: Any = jnp.ones(TILES, dtype=jnp.bool_)  # [tile]: still to draw
    _points: Any = jnp.zeros(0, dtype=jnp.int32)
    _seat: Any = jnp.int32(0)
    _phase: Any = jnp.int32(PLAY)
    _extra: Any = jnp.bool_(False)  # the last placement earned an extra turn (the Python engine's flag)
    _first: Any = jnp.int32(-1)
    _player: Any = jnp.int32(-1)  # the seat to move (the Python engine's player; -4 over)


class TuileriesEnv(TileworksEnv):
    """Tuileries for ``players`` 2-6, with or without the ``bonus_tile``
    variant, on any legal set of four ``circles``: the options of
    ``tileworks.load_game("tuileries", ...)``."""

    game_name = "tuileries"
    over_phase = OVER

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.hand_size = HAND_SIZE[self.players]
        self.bonus_tile = bool(self.options["bonus_tile"])
        circles = jnp.zeros(64, dtype=jnp.bool_)
        self.circles = circles.at[jnp.asarray([SQUARE_INDEX[c] for c in self.options["circles"]])].set(True)
        #: the most chance outcomes one step draws: who starts and the deal
        #: (at the start); a replacement and a bonus tile (after a play)
        self.max_chance = max(2, 1 + self.players * self.hand_size)

    def _blank(self) -> TuileriesJaxState:
        n = self.players
        return TuileriesJaxState(
            rewards=jnp.zeros(n, dtype=jnp.float32),
            legal_action_mask=jnp.zeros(TILES * 64, dtype=jnp.bool_),
            _hands=jnp.zeros((n, TILES), dtype=jnp.bool_),
            _points=jnp.zeros(n, dtype=jnp.int32),
            _chance=jnp.full(self.max_chance, -1, dtype=jnp.int32),
            _options=tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in self.options.items())),
        )

    def _start(self, state: TuileriesJaxState, chance: Any) -> TuileriesJaxState:
        """Chance picks who plays first, then deals each seat its hand in
        turn, seat 1 first."""
        first = chance.index(0, self.players)
        dealt = self.players * self.hand_size
        if chance.outcomes is None:
            # tile after tile from the draw, each uniform among those left, is
            # the start of a random order of all 64: one shuffle, not 20-36 draws
            tiles = chance.shuffled(1, jnp.arange(TILES), dealt)
        else:
            tiles = chance.outcomes[1: 1 + dealt]
        seats = jnp.arange(dealt) // self.hand_size
        state = state.replace(
            _hands=state._hands.at[seats, tiles].set(True), _pile=state._pile.at[tiles].set(False),
            _first=first, _seat=first, _player=first,
            _chance=state._chance.at[0].set(first).at[1: 1 + dealt].set(tiles),
        )
        return self._finish(state)

    def _apply(self, state: TuileriesJaxState, action: Any, chance: Any) -> TuileriesJaxState:
        tile, square = action >> 6, action & 63
        seat = state._seat
        gained = score_for(state._board, tile, square)
        state = state.replace(
            _hands=state._hands.at[seat, tile].set(False),
            _board=state._board.at[square].set(tile),
            _points=state._points.at[seat].add(gained),
            _extra=gained >= EXTRA_TURN_AT,
        )
        state = _draw_to(state, seat, chance, 0)  # the replacement, while the draw lasts
        over = (state._board >= 0).all()
        extra = state._extra & ~over
        bonus = extra & self.bonus_tile & state._pile.any()  # the extra turn starts with an extra tile
        state = _draw_to(state, seat, chance, 1, bonus)
        again = bonus | (extra & state._hands[seat].any())
        following = next_holder(state._hands, seat)
        seat = jnp.where(again | over, seat, following)
        return self._finish(state.replace(
            _extra=state._extra & over, _seat=seat, _player=jnp.where(over, -4, seat),
            _phase=jnp.where(over, OVER, PLAY),
        ))

    def _observe(self, state: TuileriesJaxState, player_id: Any) -> Any:
        return observation(self, state, player_id)

    # -- what a seat may do, and the end -----------------------------------------------------
    def _legal(self, state: TuileriesJaxState) -> Any:
        """Any tile of the mover's hand on any open square: a free circle
        square until the first four are down, then any empty square."""
        empty = state._board < 0
        opening = (~empty).sum() < 4
        squares = jnp.where(opening, empty & self.circles, empty)
        hand = state._hands[state._seat] & (state._phase == PLAY)
        # as words: a tile's 64 actions are two words, the open squares' or none
        halves = bits_of(squares.reshape(2, 32))
        return unpack_mask(jnp.where(hand[:, None], halves[None, :], jnp.uint32(0)).reshape(-1), TILES * 64)


# -- pieces of a step ----------------------------------------------------------------------------

def _draw_to(state: TuileriesJaxState, seat: Any, chance: Any, index: int, allowed: Any = True) -> TuileriesJaxState:
    """Chance outcome ``index`` of the step: a tile from the draw into
    ``seat``'s hand, when the draw holds one and it is ``allowed``."""
    go = state._pile.any() & allowed
    tile = chance.weighted(index, state._pile.astype(jnp.int32))
    return state.replace(
        _hands=state._hands.at[seat, tile].set(state._hands[seat, tile] | go),
        _pile=state._pile.at[tile].set(state._pile[tile] & ~go),
        _chance=state._chance.at[index].set(jnp.where(go, tile, state._chance[index])),
    )


def next_holder(hands: Any, seat: Any) -> Any:
    """The first seat after ``seat``, round the table and back to it, that holds a tile."""
    n = hands.shape[0]
    order = (seat + 1 + jnp.arange(n)) % n
    return order[jnp.argmax(hands[order].any(axis=1))]


def score_for(board: Any, tile: Any, square: Any) -> Any:
    """Points for ``tile`` placed on ``square`` of ``board``: each of its
    three groups (tiles sharing two traits with it, joined side to side)
    of 2-4 tiles scores its size; no group at all scores 1.

    >>> board = jnp.full(64, -1).at[0].set(0).at[1].set(1)  # b k s on a1, b k h on b1
    >>> int(score_for(board, jnp.int32(2), jnp.int32(2)))  # b k d on c1: blue kings a1-c1
    3
    """
    traits = jnp.where(board[:, None] >= 0, TRAITS[jnp.maximum(board, 0)], -1)  # [square, trait]
    mine = TRAITS[tile]  # [trait]
    shares = traits == mine  # [square, trait]
    here = jnp.arange(64) == square
    within = (shares[:, PAIRED[:, 0]] & shares[:, PAIRED[:, 1]]).T | here  # [group, square]
    group = jnp.broadcast_to(here, within.shape).reshape(3, 8, 8)
    within = within.reshape(3, 8, 8)
    for _ in range(GROWTH_STEPS):
        grown = group
        grown = grown.at[:, 1:, :].set(grown[:, 1:, :] | group[:, :-1, :])
        grown = grown.at[:, :-1, :].set(grown[:, :-1, :] | group[:, 1:, :])
        grown = grown.at[:, :, 1:].set(grown[:, :, 1:] | group[:, :, :-1])
        grown = grown.at[:, :, :-1].set(grown[:, :, :-1] | group[:, :, 1:])
        group = grown & within
    sizes = group.sum(axis=(1, 2))
    total = jnp.where(sizes > 1, sizes, 0).sum()
    return jnp.where(total > 0, total, 1).astype(jnp.int32)


def observation(env: TuileriesEnv, state: TuileriesJaxState, viewer: Any) -> Any:
    """The Python engine's observation tensor (``observation_tensor``) of
    ``viewer``, as float32: the board, the circles, the viewer's own hand,
    every hand's size, the draw's size, points, phase, whose turn, the
    viewer, the extra-turn flag and who played first."""
    n = env.players
    placed = state._board >= 0
    traits = TRAITS[jnp.maximum(state._board, 0)]  # [square, trait]
    planes = jnp.concatenate([
        (traits[:, trait][None, :] == jnp.arange(4)[:, None]) & placed[None, :] for trait in range(3)])  # [12, 64]
    parts = [
        planes.reshape(-1), env.circles, state._hands[viewer], state._hands.sum(axis=1) / TILES,
        (state._pile.sum() / TILES)[None], state._points / SCORE_BOUND, one_hot(len(PHASE_NAMES), state._phase),
        one_hot(n, jnp.where(state._phase == OVER, -1, state._seat)), one_hot(n, viewer), state._extra[None],
        one_hot(n, state._first),
    ]
    return observation_vector(parts)


# -- the Python engine's fields ------------------------------------------------------------------

def _names(mask: Any) -> list[str]:
    return [tile_name(t) for t in range(TILES) if bool(mask[t])]


def to_fields(env: TuileriesEnv, state: TuileriesJaxState) -> dict[str, Any]:
    """The Python engine's ``state_fields`` of one JAX state (a position
    with no history: its hands are whatever the state holds)."""
    n = env.players
    phase = int(state._phase)
    return {
        "board": {SQUARE_NAMES[s]: tile_name(int(t)) for s, t in enumerate(state._board) if int(t) >= 0},
        "hands": [_names(state._hands[s]) for s in range(n)],
        "pile": _names(state._pile),
        "points": [int(p) for p in state._points],
        "seat": int(state._seat),
        "to_move": -4 if phase == OVER else int(state._seat),
        "phase": PHASE_NAMES[phase],
        "deal_index": n * env.hand_size,
        "extra": bool(state._extra),
        "first": int(state._first),
        "hand_slots": [[] for _ in range(n)],
        "private_to": [],
        "players": n,
    }


def from_fields(env: TuileriesEnv, fields: dict[str, Any]) -> TuileriesJaxState:
    """The JAX state of the Python engine's ``state_fields`` (a position
    where a seat decides, or the end)."""
    phase = PHASE_NAMES.index(fields["phase"])
    if phase not in (PLAY, OVER):
        raise ValueError(f"a JAX state starts where a seat decides or at the end, not in phase {fields['phase']!r}")
    board = [-1] * 64
    for square, name in fields["board"].items():
        board[SQUARE_INDEX[square]] = tile_of(name)
    hands = [[False] * TILES for _ in range(env.players)]
    for seat, hand in enumerate(fields["hands"]):
        for name in hand:
            hands[seat][tile_of(name)] = True
    pile = [False] * TILES
    for name in fields["pile"]:
        pile[tile_of(name)] = True
    seat = int(fields["seat"])
    state = env._blank().replace(
        _board=jnp.asarray(board, dtype=jnp.int32), _hands=jnp.asarray(hands), _pile=jnp.asarray(pile),
        _points=jnp.asarray(fields["points"], dtype=jnp.int32), _seat=jnp.int32(seat), _phase=jnp.int32(phase),
        _extra=jnp.bool_(fields["extra"]), _first=jnp.int32(fields["first"]),
        _player=jnp.int32(-4 if phase == OVER else seat), current_player=jnp.int32(seat),
    )
    return env._finish(state)


TuileriesEnv.to_fields = to_fields
TuileriesEnv.from_fields = from_fields
