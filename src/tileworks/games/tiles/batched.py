"""Tiles (BoneGames) as a batched, functional Pgx environment (JAX), the
same game as :mod:`tileworks.games.tiles` step for step.

**The window.** The Python layout is an unbounded grid; here it lives in a
fixed square of ``2N + 1`` cells a side (``N`` tiles in the set) centred on
the first tile. That is enough for every reachable layout: each tile is
placed next to an earlier one, so the ``k``-th tile lies at most ``k - 1``
steps from the first, and with ``N`` tiles every tile is within ``N - 1``
of the centre in each direction and every empty cell next to one within
``N``. The action ids are the Python engine's, counted in the frame of
``N + 2`` cells a side that starts one cell below and left of the layout's
bounds: ``((position * kinds + kind) << 2) | turn``, then one discard per
kind, then the pass.

**Areas** are kept as the Python engine keeps them, by union and find
over the layout's triangles: each area's root counts its triangles that
face an empty cell and holds the set of tiles it touches, so a placement
joins a few areas and finds those it closes without looking at the whole
window. Each cell also keeps its tile's side colours and the pattern of
colours its neighbours ask for, from which the legal placements and the
observation are read.

Chance (the colours, the first player, the deal, the first tile and each
draw) is resolved inside :meth:`TilesEnv.step` from the key, or taken from
given outcomes by :meth:`TilesEnv.step_with_chance`, in the order of the
Python engine's chance nodes. Hands and the deck stay in the state; a
seat's observation holds only its own hand.

>>> import jax
>>> from tileworks.jax import make
>>> env = make("tiles")
>>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
>>> env.num_actions, env.window
(212089, 91)
"""

from __future__ import annotations

import itertools
from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np
from pgx._src.struct import dataclass

from tileworks.core import TERMINAL
from tileworks.games.tiles.constants import ALL_FREE, DECIDE, HAND_SIZE, OPPOSITE, OVER, PHASE_NAMES, cell_xy
from tileworks.games.tiles.observation import score_bound
from tileworks.games.tiles.tileset import COLOUR_NAMES, colours_of, rotations
from tileworks.jax.core import (
    TileworksEnv, TileworksState, bits_of, computed_once, observation_vector, one_hot, pack_mask, unpack_mask,
)

#: a step from a cell to its neighbour on each side (N, E, S, W), in (dy, dx)
STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))
#: ``_faces`` of an empty cell (each side colour 3: no colour)
EMPTY = 0xFF


@dataclass
class TilesJaxState(TileworksState):
    game_name: ClassVar[str] = "tiles"
    # the whole table (the Python engine's fields, as arrays), after Pgx's public fields
    _tile_code: Any = jnp.zeros(0, dtype=jnp.int8)  # [tile t]: 4 * kind + turn of the t-th tile placed
    _order: Any = jnp.zeros(0, dtype=jnp.int8)  # [window cell]: when its tile was placed (0 first), -1 empty
    _faces: Any = jnp.zeros(0, dtype=jnp.uint8)  # [window cell]: its tile's side colours, 2 bits each (N lowest), 255 empty
    _pattern: Any = jnp.zeros(0, dtype=jnp.uint8)  # [window cell]: the colours its neighbours ask for, 3 free
    _root: Any = jnp.zeros(0, dtype=jnp.int16)  # [triangle 4t + side]: its area's root triangle
    _open: Any = jnp.zeros(0, dtype=jnp.int16)  # [root]: the area's triangles facing an empty cell
    _span: Any = jnp.zeros((0, 0), dtype=jnp.uint32)  # [root, word]: the tiles the area touches, a bit each
    _placed: Any = jnp.int32(0)  # tiles on the layout
    _bounds: Any = jnp.zeros(4, dtype=jnp.int32)  # min x, max x, min y, max y of the layout
    _hands: Any = jnp.zeros((0, 0), dtype=jnp.int32)  # [seat, kind]
    _deck: Any = jnp.zeros(0, dtype=jnp.int32)  # [kind]
    _discards: Any = jnp.zeros(0, dtype=jnp.int32)  # [kind]
    _points: Any = jnp.zeros(0, dtype=jnp.int32)
    _colour: Any = jnp.zeros(0, dtype=jnp.int32)  # [seat]: 0 white, 1 grey, 2 black
    _seat: Any = jnp.int32(0)
    _phase: Any = jnp.int32(DECIDE)
    _first: Any = jnp.int32(-1)
    _player: Any = jnp.int32(-1)  # the seat to move (the Python engine's player; -4 over)


class TilesEnv(TileworksEnv):
    """Tiles for 2 or 3 ``players`` with the default or a custom
    ``tile_set``: the options of ``tileworks.load_game("tiles", ...)``."""

    game_name = "tiles"
    over_phase = OVER

    def __init__(self, **options: Any):
        super().__init__(**options)
        game = self.game
        tileset = game.tileset
        self.hand_size = HAND_SIZE[self.players]
        self.kinds = game.kinds
        self.tiles = len(tileset)
        self.width = game.width  # the action frame
        self.window = 2 * self.tiles + 1
        self.centre = self.tiles
        self.discard_base = game.discard_base
        self.pass_action = game.pass_action
        #: per code (4 * kind + turn), the colours of its N, E, S, W triangles
        sides = np.full((4 * self.kinds, 4), 0, dtype=np.int32)
        turns = np.zeros((self.kinds, 4), dtype=bool)  # the distinct orientations the engine lists
        for kind, name in enumerate(tileset.kinds):
            for turn, code in enumerate(rotations(name)):
                sides[4 * kind + turn] = colours_of(code)
            for turn, _code in tileset.orientations[kind]:
                turns[kind, turn] = True
        self.sides = jnp.asarray(sides)
        #: FITS[pattern, kind, turn]: that orientation fits a cell with that requirement pattern
        fits = np.zeros((256, self.kinds, 4), dtype=bool)
        for pattern, row in enumerate(tileset.fits):
            for kind, ok in enumerate(row):
                fits[pattern, kind, list(ok)] = True
        #: the same table packed 32 placements (kind, turn) to a word: a cell's
        #: fitting placements are three words, not 96 booleans to gather
        self.words = -(-4 * self.kinds // 32)
        bits = np.zeros((256, 32 * self.words), dtype=np.uint32)
        bits[:, :4 * self.kinds] = fits.reshape(256, -1)
        self.fit_words = jnp.asarray((bits.reshape(256, self.words, 32) << np.arange(32, dtype=np.uint32)).sum(
            axis=-1, dtype=np.uint32))
        self.count = jnp.asarray(tileset.count, dtype=jnp.int32)
        #: every tile of the set by kind, in kind order: a shuffle of it is a deal
        self.tile_kinds = jnp.asarray([k for k, n in enumerate(tileset.count) for _ in range(n)], dtype=jnp.int32)
        self.colourings = jnp.asarray(list(itertools.permutations(range(3), self.players)), dtype=jnp.int32)
        self.dealt = self.players * self.hand_size
        #: the most chance outcomes one step draws: at the start the colours,
        #: the first player, the deal, the first tile and the first draw
        self.max_chance = 4 + self.dealt
        self.bound = score_bound(game)
        self._place_jit = jax.jit(self._place)

    def _blank(self) -> TilesJaxState:
        n, k, cells = self.players, self.kinds, self.window * self.window
        return TilesJaxState(
            rewards=jnp.zeros(n, dtype=jnp.float32),
            legal_action_mask=jnp.zeros(self.pass_action + 1, dtype=jnp.bool_),
            _tile_code=jnp.full(self.tiles, -1, dtype=jnp.int8),
            _order=jnp.full(cells, -1, dtype=jnp.int8),
            _faces=jnp.full(cells, EMPTY, dtype=jnp.uint8),
            _pattern=jnp.full(cells, ALL_FREE, dtype=jnp.uint8),
            _root=jnp.arange(4 * self.tiles, dtype=jnp.int16),
            _open=jnp.zeros(4 * self.tiles, dtype=jnp.int16),
            _span=jnp.zeros((4 * self.tiles, -(-self.tiles // 32)), dtype=jnp.uint32),
            _hands=jnp.zeros((n, k), dtype=jnp.int32),
            _deck=self.count,
            _discards=jnp.zeros(k, dtype=jnp.int32),
            _points=jnp.zeros(n, dtype=jnp.int32),
            _colour=jnp.full(n, -1, dtype=jnp.int32),
            _chance=jnp.full(self.max_chance, -1, dtype=jnp.int32),
            _options=tuple(sorted(self.options.items())),
        )

    def _start(self, state: TilesJaxState, chance: Any) -> TilesJaxState:
        """Chance assigns the colours and the first player, deals the hands
        (seat 1's first), turns up the first tile and gives the first player
        their first draw."""
        colouring = chance.index(0, self.colourings.shape[0])
        first = chance.index(1, self.players)
        drawn = self.dealt + 2
        if chance.outcomes is None:
            # tile after tile from the deck, each weighted by what is left, is
            # the start of a shuffle of the whole set
            # (-1 past the last tile: a small set can run out before the first draw)
            shuffled = chance.shuffled(2, self.tile_kinds, min(drawn, self.tiles))
            kinds = jnp.pad(shuffled, (0, max(0, drawn - self.tiles)), constant_values=-1)
        else:
            kinds = chance.outcomes[2: 2 + drawn]
        seats = jnp.arange(self.dealt) // self.hand_size
        dealt = kinds[:self.dealt]
        origin = kinds[self.dealt]
        state = state.replace(
            _colour=self.colourings[colouring], _first=first, _seat=first,
            _hands=state._hands.at[seats, dealt].add(1),
            _deck=state._deck.at[dealt].add(-1).at[origin].add(-1),
            _chance=state._chance.at[0].set(colouring).at[1].set(first).at[2: 2 + self.dealt + 1].set(kinds[:-1]),
        )
        state, _ = self._place(state, jnp.int32(self.centre * self.window + self.centre), 4 * origin, jnp.int32(-1))
        draws = state._deck.sum() > 0
        state = state.replace(
            _hands=state._hands.at[first, kinds[-1]].add(draws.astype(jnp.int32)),
            _deck=state._deck.at[kinds[-1]].add(-draws.astype(jnp.int32)),
            _chance=state._chance.at[self.max_chance - 1].set(jnp.where(draws, kinds[-1], -1)),
        )
        return self._finish(state.replace(_phase=jnp.int32(DECIDE), _player=first))

    def _apply(self, state: TilesJaxState, action: Any, chance: Any) -> TilesJaxState:
        seat = state._seat
        placing = action < self.discard_base
        discarding = ~placing & (action < self.pass_action)
        position, kind = jnp.divmod(action >> 2, self.kinds)
        py, px = jnp.divmod(position, self.width)
        x = px - 1 + state._bounds[0]
        y = py - 1 + state._bounds[2]
        cell = (y + self.centre) * self.window + x + self.centre
        state, gained = self._place(state, cell, 4 * kind + (action & 3), state._colour[seat], when=placing)
        taken = jnp.where(placing, kind, action - self.discard_base)
        state = state.replace(
            _hands=state._hands.at[seat, taken].add(-(placing | discarding).astype(jnp.int32)),
            _discards=state._discards.at[taken].add(discarding.astype(jnp.int32)),
            _points=state._points.at[seat].add(jnp.where(placing, gained, 0)),
        )
        # the next turn: the next seat draws while the deck lasts
        over = (state._deck.sum() == 0) & (state._hands.sum() == 0)
        following = (seat + 1) % self.players
        draws = ~over & (state._deck.sum() > 0)
        drawn = chance.weighted(0, state._deck)
        state = state.replace(
            _hands=state._hands.at[following, drawn].add(draws.astype(jnp.int32)),
            _deck=state._deck.at[drawn].add(-draws.astype(jnp.int32)),
            _chance=state._chance.at[0].set(jnp.where(draws, drawn, -1)),
            _seat=jnp.where(over, seat, following),
            _phase=jnp.where(over, OVER, DECIDE).astype(jnp.int32),
            _player=jnp.where(over, TERMINAL, following).astype(jnp.int32),
        )
        return self._finish(state)

    def _observe(self, state: TilesJaxState, player_id: Any) -> Any:
        return observation(self, state, player_id)

    def _opening_observation(self, state: TilesJaxState) -> Any:
        return opening_observation(self, state)

    # -- the layout ----------------------------------------------------------------------------
    def _place(self, state: TilesJaxState, cell: Any, code: Any, scorer: Any,
               when: Any = True) -> tuple[TilesJaxState, Any]:
        """Put the tile ``code`` (4 * kind + turn) on window ``cell`` (if
        ``when``); the state and the points its closed areas of colour
        ``scorer`` are worth (n(n-1)/2 for an area touching n tiles; -1
        scores nothing).

        The areas are kept as the Python engine keeps them: triangle ``4t +
        side`` of the ``t``-th tile belongs to the area named by its root,
        and each root counts the area's triangles that face an empty cell
        and holds the set of tiles it touches, so a placement updates a few
        hundred numbers and never looks at the whole window."""
        when = jnp.asarray(when)
        sides = self.sides[code]
        t = state._placed
        x, y = cell % self.window - self.centre, cell // self.window - self.centre
        base = 4 * t
        labels = jnp.arange(4 * self.tiles)
        root, open_, span = state._root, state._open, state._span
        neighbours = [cell + dy * self.window + dx for dy, dx in STEPS]
        others = [state._order[n].astype(jnp.int32) for n in neighbours]
        filled = [other >= 0 for other in others]
        # the tile's own triangles, each an area of its own so far
        tile_bit = jnp.where(jnp.arange(span.shape[1]) == t // 32, jnp.uint32(1) << (t % 32).astype(jnp.uint32),
                             jnp.uint32(0))
        own = when & (labels >= base) & (labels < base + 4)
        span = jnp.where(own[:, None], tile_bit, span)
        open_ = jnp.where(own, jnp.stack([~f for f in filled])[jnp.clip(labels - base, 0, 3)], open_).astype(open_.dtype)

        def union(root: Any, open_: Any, span: Any, a: Any, b: Any, join: Any) -> tuple[Any, Any, Any]:
            ra, rb = root[a], root[b]
            join = join & (ra != rb)
            into = join & (labels == ra)
            open_ = jnp.where(into, open_ + open_[rb], open_)
            span = jnp.where(into[:, None], span | span[rb], span)
            return jnp.where(join & (root == rb), ra, root).astype(root.dtype), open_, span

        # across each edge the triangles match (the placement rule): the
        # neighbour's triangle no longer faces an empty cell, and its area joins ours
        for side in range(4):
            touching = 4 * others[side] + OPPOSITE[side]
            joins = when & filled[side]
            open_ = jnp.where(joins & (labels == root[touching]), open_ - 1, open_).astype(open_.dtype)
            root, open_, span = union(root, open_, span, base + side, touching, joins)
        # within the tile, neighbouring triangles of one colour are one area
        for side in range(4):
            after = (side + 1) % 4
            root, open_, span = union(root, open_, span, base + side, base + after,
                                      when & (sides[side] == sides[after]))
        # the tile's cell, and each empty neighbour now asking for this tile's
        # colour on the facing side: one pass over the window each, not a
        # scatter per cell (XLA's CPU backend makes each of those a pass)
        cells = jnp.arange(self.window * self.window)
        at_cell = when & (cells == cell)
        pattern = state._pattern
        for side, neighbour in enumerate(neighbours):
            shift = 2 * OPPOSITE[side]
            asked = (pattern & jnp.uint8(ALL_FREE ^ 3 << shift)) | (sides[side] << shift).astype(jnp.uint8)
            pattern = jnp.where(when & ~filled[side] & (cells == neighbour), asked, pattern)
        faces = (sides[0] | sides[1] << 2 | sides[2] << 4 | sides[3] << 6).astype(jnp.uint8)
        bounds = jnp.where(t == 0, jnp.stack([x, x, y, y]), jnp.stack([
            jnp.minimum(state._bounds[0], x), jnp.maximum(state._bounds[1], x),
            jnp.minimum(state._bounds[2], y), jnp.maximum(state._bounds[3], y)]))
        state = state.replace(
            _tile_code=jnp.where(when & (jnp.arange(self.tiles) == t), code, state._tile_code).astype(jnp.int8),
            _order=jnp.where(at_cell, t, state._order).astype(jnp.int8),
            _faces=jnp.where(at_cell, faces, state._faces),
            _pattern=pattern, _root=root, _open=open_, _span=span,
            _placed=t + when.astype(jnp.int32), _bounds=jnp.where(when, bounds, state._bounds).astype(jnp.int32),
        )
        # each distinct area of the tile in the scorer's colour, if closed
        mine = root[base + jnp.arange(4)]
        gained = jnp.int32(0)
        for side in range(4):
            new = jnp.all(mine[:side] != mine[side]) if side else True
            closed = open_[mine[side]] == 0
            size = jax.lax.population_count(span[mine[side]]).sum().astype(jnp.int32)
            counts = when & new & closed & (sides[side] == scorer)
            gained += jnp.where(counts, size * (size - 1) // 2, 0).astype(jnp.int32)
        return state, gained

    def _frame(self, state: TilesJaxState, cells: Any) -> Any:
        """The action frame's part, ``[y, x]``, of a per-cell window array of ``state``."""
        return jax.lax.dynamic_slice(
            cells.reshape(self.window, self.window),
            (state._bounds[2] - 1 + self.centre, state._bounds[0] - 1 + self.centre), (self.width, self.width))

    # -- what a seat may do, and the end -----------------------------------------------------
    def _legal(self, state: TilesJaxState) -> Any:
        """Every fitting placement of a tile in hand; when none fits, a
        discard of any tile in hand; with an empty hand, the pass."""
        pattern = self._frame(state, state._pattern).astype(jnp.int32)
        open_cell = (self._frame(state, state._faces) == EMPTY) & (pattern != ALL_FREE)
        hand = state._hands[state._seat] > 0
        deciding = state._phase == DECIDE
        held = bits_of(jnp.pad(jnp.repeat(hand, 4), (0, 32 * self.words - 4 * self.kinds)).reshape(self.words, 32))
        words = jnp.where(open_cell[..., None] & deciding, self.fit_words[pattern] & held, 0)  # [y, x, word]
        fits = (words != 0).any()
        tail = jnp.concatenate([hand & ~fits & deciding, (~hand.any() & deciding)[None]])
        placements = self.width * self.width * 4 * self.kinds
        if 4 * self.kinds % 32 == 0:
            # a cell's placements fill whole words (the default set's 24 kinds: three), so the
            # whole mask is one run of words, and each action's bit is found by shifts alone
            return unpack_mask(jnp.concatenate([words.reshape(-1), pack_mask([(0, bits_of(tail), tail.size)], 32)]),
                               placements + tail.size)
        places = unpack_mask(words, 4 * self.kinds)  # [y, x, placement]
        # padded and chosen, not concatenated: XLA's CPU backend would copy the whole mask once more
        return jnp.where(jnp.arange(placements + tail.size) < placements,
                         jnp.pad(places.reshape(-1), (0, tail.size)), jnp.pad(tail, (placements, 0)))


def observation(env: TilesEnv, state: TilesJaxState, viewer: Any) -> Any:
    """The Python engine's observation tensor (``observation_tensor``) of
    ``viewer``, as float32: the layout's twelve planes (side by colour) in
    the action frame, then :func:`_table_features`."""
    # [position]: 2 bits a side, 3 empty; sliced once, and each plane a row of
    # its own: XLA's CPU backend writes a row of simple arithmetic several
    # times faster than one array indexed by side, colour and position
    faces = computed_once(env._frame(state, state._faces).reshape(-1))
    planes = [(((faces >> 2 * side) & 3) == colour).astype(jnp.float32) for side in range(4) for colour in range(3)]
    return jnp.concatenate(planes + [_table_features(env, state, viewer)])


def opening_observation(env: TilesEnv, state: TilesJaxState) -> Any:
    """:func:`observation` of an opening position by its mover, written
    directly: only the first tile is on the layout, at the frame's position
    (1, 1), so the planes are zero but for its four sides. ``auto_reset``
    runs ``init`` for every game at every step, and the general planes
    cost as much as the rest of the step."""
    positions = env.width * env.width
    sides = env.sides[state._tile_code[0]]  # its N, E, S, W colours
    ones = (jnp.arange(4) * 3 + sides) * positions + env.width + 1
    planes, features = 12 * positions, _table_features(env, state, state.current_player)
    return jnp.zeros(planes + features.size, dtype=jnp.float32).at[ones].set(1.0).at[planes:].set(features)


def _table_features(env: TilesEnv, state: TilesJaxState, viewer: Any) -> Any:
    """The observation after the planes: the viewer's own hand, every
    hand's size, the deck's size, the discards, the colours, points, phase,
    whose turn, who played first and the viewer."""
    n = env.players
    parts = [
        state._hands[viewer] / env.count, state._hands.sum(axis=1) / env.tiles,
        (state._deck.sum() / env.tiles)[None], state._discards / env.count,
        (state._colour[:, None] == jnp.arange(3)[None, :]).reshape(-1),
        jnp.clip(state._points / env.bound, 0.0, 1.0), one_hot(len(PHASE_NAMES), state._phase),
        one_hot(n, jnp.where(state._phase == OVER, -1, state._seat)), one_hot(n, state._first), one_hot(n, viewer),
    ]
    return observation_vector(parts)


# -- the Python engine's fields ------------------------------------------------------------------

def to_fields(env: TilesEnv, state: TilesJaxState) -> dict[str, Any]:
    """The Python engine's ``state_fields`` of one JAX state (a position
    with no history: its hands are whatever the state holds)."""
    names = env.game.tileset.kinds
    n = env.players
    phase = int(state._phase)
    codes, order = np.asarray(state._tile_code), np.asarray(state._order)
    layout = []
    for cell in sorted(np.flatnonzero(order >= 0), key=lambda c: order[c]):
        code = int(codes[order[cell]])
        y, x = divmod(int(cell), env.window)
        layout.append([x - env.centre, y - env.centre, rotations(names[code // 4])[code % 4]])
    return {
        "colours": [COLOUR_NAMES[int(c)] for c in state._colour],
        "first": int(state._first),
        "seat": int(state._seat),
        "to_move": TERMINAL if phase == OVER else int(state._seat),
        "phase": PHASE_NAMES[phase],
        "deal_index": env.dealt,
        "hands": [[names[k] for k, count in enumerate(state._hands[s]) for _ in range(int(count))] for s in range(n)],
        "hand_slots": [[] for _ in range(n)],
        "deck": {names[k]: int(count) for k, count in enumerate(state._deck) if int(count)},
        "discards": [names[k] for k, count in enumerate(state._discards) for _ in range(int(count))],
        "points": [int(p) for p in state._points],
        "layout": layout,
        "private_to": [],
    }


def from_fields(env: TilesEnv, fields: dict[str, Any]) -> TilesJaxState:
    """The JAX state of the Python engine's ``state_fields`` (a position
    where a seat decides, or the end), checked as the Python engine checks it."""
    from tileworks.games.tiles.notation import state_from_fields

    python = state_from_fields(env.game, fields)
    if python.phase not in (DECIDE, OVER):
        raise ValueError(f"a JAX state starts where a seat decides or at the end, not in phase {fields['phase']!r}")
    tileset = env.game.tileset
    state = env._blank()
    for key, code in zip(python.tile_cell, python.tile_code):
        x, y = cell_xy(key)
        kind = tileset.kind_of(code)
        turn = rotations(tileset.kinds[kind]).index(code)
        cell = (y + env.centre) * env.window + x + env.centre
        state, _ = env._place_jit(state, jnp.int32(cell), jnp.int32(4 * kind + turn), jnp.int32(-1))
    k = env.kinds
    discards = [0] * k
    for kind in python.discards:
        discards[kind] += 1
    over = python.phase == OVER
    state = state.replace(
        _hands=jnp.asarray(python.hands, dtype=jnp.int32).reshape(env.players, k),
        _deck=jnp.asarray(python.deck, dtype=jnp.int32), _discards=jnp.asarray(discards, dtype=jnp.int32),
        _points=jnp.asarray(python.points, dtype=jnp.int32), _colour=jnp.asarray(python.colour, dtype=jnp.int32),
        _seat=jnp.int32(python.seat), _first=jnp.int32(python.first), _phase=jnp.int32(python.phase),
        _player=jnp.int32(TERMINAL if over else python.seat), current_player=jnp.int32(python.seat),
    )
    return env._finish(state)


TilesEnv.to_fields = to_fields
TilesEnv.from_fields = from_fields
