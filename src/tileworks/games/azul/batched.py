"""Azul as a batched, functional Pgx environment (JAX), the same game as
:mod:`tileworks.games.azul` step for step.

The action ids are the Python engine's: ``(source * 5 + colour) * 6 +
destination`` for a draft (sources: the factories, then the centre;
destinations: pattern lines 0-4, then the floor) and ``place_base + column``
for a placement on the grey wall. Chance (who starts, each tile drawn from
the bag) is resolved inside :meth:`AzulEnv.step` from the key, or taken from
given outcomes by :meth:`AzulEnv.step_with_chance`; every state records the
outcomes it drew in ``_chance`` (``-1`` padded), in the order the Python
engine's chance nodes take them.

>>> import jax
>>> from tileworks.jax import make
>>> env = make("azul", players=2)
>>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
>>> env.num_actions, int(state.legal_action_mask.sum()) > 0
(185, True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import jax
import jax.numpy as jnp
from pgx._src.struct import dataclass

from tileworks.games.azul.constants import COLUMN_BONUS, COLOUR_BONUS, FACTORIES, FLOOR_PENALTY, ROW_BONUS
from tileworks.games.azul.scoring import RUN
from tileworks.jax.core import (
    TileworksEnv, TileworksState, bits_of, observation_vector, one_hot, pack_mask, unpack_mask,
)

# Phases as the Python engine numbers them; the others are steps between
# decisions that :func:`_advance` runs through.
FIRST_PLAYER, FILL, DRAFT, PLACE, OVER = range(5)
TILING, GREY_SCAN, END_ROUND, ROUND_START = range(5, 9)

RUN_TABLE = jnp.asarray(RUN, dtype=jnp.int32).reshape(32, 5)
PENALTY = jnp.asarray(FLOOR_PENALTY, dtype=jnp.int32)
BITS = 1 << jnp.arange(5, dtype=jnp.int32)
#: on the coloured wall, row r holds colour c in column (c + r) % 5
WALL_COLUMN = (jnp.arange(5)[None, :] + jnp.arange(5)[:, None]) % 5  # [row, colour]


@dataclass
class AzulJaxState(TileworksState):
    game_name: ClassVar[str] = "azul"
    # the whole table (the Python engine's fields, as arrays)
    _bag: Any = jnp.zeros(5, dtype=jnp.int32)
    _lid: Any = jnp.zeros(5, dtype=jnp.int32)
    _factory: Any = jnp.zeros((0, 5), dtype=jnp.int32)  # [factory, colour]
    _centre: Any = jnp.zeros(5, dtype=jnp.int32)
    _marker_in_centre: Any = jnp.bool_(True)
    _line_colour: Any = jnp.zeros((0, 5), dtype=jnp.int32)  # [seat, line], -1 empty
    _line_count: Any = jnp.zeros((0, 5), dtype=jnp.int32)
    _wall: Any = jnp.zeros((0, 5, 5), dtype=jnp.int32)  # [seat, row, column]: colour + 1, 0 empty
    _floor_tiles: Any = jnp.zeros((0, 5), dtype=jnp.int32)  # [seat, colour]
    _floor_spaces: Any = jnp.zeros(0, dtype=jnp.int32)  # marker included
    _points: Any = jnp.zeros(0, dtype=jnp.int32)
    _marker_holder: Any = jnp.int32(-1)
    _starter: Any = jnp.int32(-1)
    _phase: Any = jnp.int32(FIRST_PLAYER)
    _place_line: Any = jnp.int32(0)
    _round: Any = jnp.int32(0)
    _last_floor: Any = jnp.zeros(0, dtype=jnp.int32)
    _player: Any = jnp.int32(-1)  # the seat to move (the Python engine's player; -4 over)


class AzulEnv(TileworksEnv):
    """Azul for ``players`` 2-4, ``variant`` "standard" or "grey",
    ``tiebreak`` "seed" or "official", and the ``round_limit`` safeguard:
    the options of ``tileworks.load_game("azul", ...)``."""

    game_name = "azul"
    over_phase = OVER

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.grey = self.options["variant"] == "grey"
        self.official = self.options["tiebreak"] == "official"
        self.round_limit = self.options["round_limit"]
        self.factories = FACTORIES[self.players]
        self.sources = self.factories + 1
        self.place_base = self.sources * 30
        #: the most chance outcomes one step draws: who starts, then a full fill
        self.max_chance = 1 + 4 * self.factories

    def _blank(self) -> AzulJaxState:
        n, f = self.players, self.factories
        return AzulJaxState(
            rewards=jnp.zeros(n, dtype=jnp.float32),
            legal_action_mask=jnp.zeros(self.place_base + 5, dtype=jnp.bool_),
            _bag=jnp.full(5, 20, dtype=jnp.int32),
            _factory=jnp.zeros((f, 5), dtype=jnp.int32),
            _line_colour=jnp.full((n, 5), -1, dtype=jnp.int32),
            _line_count=jnp.zeros((n, 5), dtype=jnp.int32),
            _wall=jnp.zeros((n, 5, 5), dtype=jnp.int32),
            _floor_tiles=jnp.zeros((n, 5), dtype=jnp.int32),
            _floor_spaces=jnp.zeros(n, dtype=jnp.int32),
            _points=jnp.zeros(n, dtype=jnp.int32),
            _last_floor=jnp.zeros(n, dtype=jnp.int32),
            _chance=jnp.full(self.max_chance, -1, dtype=jnp.int32),
            _options=tuple(sorted(self.options.items())),
        )

    def _start(self, state: AzulJaxState, chance: Any) -> AzulJaxState:
        """From the opening chance node: who starts, then the first round."""
        starter = chance.index(0, self.players)
        state = state.replace(_starter=starter, _phase=jnp.int32(ROUND_START), _chance=state._chance.at[0].set(starter))
        return self._finish(self._advance(state, chance))

    def _apply(self, state: AzulJaxState, action: Any, chance: Any) -> AzulJaxState:
        # Under vmap both sides of Pgx's "already over?" test run, so a finished
        # game (or an action of the wrong kind) must pass through untouched.
        draft = (state._phase == DRAFT) & (action < self.place_base)
        place = (state._phase == PLACE) & (action >= self.place_base)
        state = jax.lax.cond(draft, self._draft, lambda s, a: s, state, action)
        state = jax.lax.cond(place, self._place_choice, lambda s, a: s, state, action)
        return self._finish(self._advance(state, chance))

    def _observe(self, state: AzulJaxState, player_id: Any) -> Any:
        return observation(self, state, player_id)

    # -- moves -------------------------------------------------------------------------------
    def _draft(self, state: AzulJaxState, action: Any) -> AzulJaxState:
        source, colour, dest = action // 30, action // 6 % 5, action % 6
        seat = state._player
        centre_taken = source == self.factories
        f = jnp.minimum(source, self.factories - 1)
        factory_row = state._factory[f]
        taken = jnp.where(centre_taken, state._centre[colour], factory_row[colour])
        others = factory_row.at[colour].set(0)
        centre = jnp.where(centre_taken, state._centre.at[colour].set(0), state._centre + others)
        factory = jnp.where(centre_taken, state._factory, state._factory.at[f].set(0))
        marker = centre_taken & state._marker_in_centre
        spaces = state._floor_spaces[seat]
        state = state.replace(
            _centre=centre, _factory=factory,
            _marker_in_centre=state._marker_in_centre & ~marker,
            _marker_holder=jnp.where(marker, seat, state._marker_holder),
            _floor_spaces=state._floor_spaces.at[seat].set(spaces + (marker & (spaces < 7))),
        )
        line = jnp.minimum(dest, 4)
        count = state._line_count[seat, line]
        room = line + 1 - count
        placed = jnp.where(dest == 5, 0, jnp.minimum(taken, room))
        to_line = dest < 5
        state = state.replace(
            _line_colour=state._line_colour.at[seat, line].set(
                jnp.where(to_line, colour, state._line_colour[seat, line])),
            _line_count=state._line_count.at[seat, line].add(placed),
        )
        state = _to_floor(state, seat, colour, taken - placed)
        on_table = state._factory.sum() + state._centre.sum()
        return state.replace(
            _player=jnp.where(on_table > 0, (seat + 1) % self.players, seat),
            _phase=jnp.where(on_table > 0, DRAFT, TILING),
        )

    def _place_choice(self, state: AzulJaxState, action: Any) -> AzulJaxState:
        state = _place(state, state._player, state._place_line, action - self.place_base)
        return state.replace(_place_line=state._place_line + 1, _phase=jnp.int32(GREY_SCAN))

    # -- between decisions ---------------------------------------------------------------------
    def _advance(self, state: AzulJaxState, chance: Any) -> AzulJaxState:
        """Run through tiling, scoring, the end of the round and refills until
        a seat must decide or the game is over. The usual path is straight
        code (under ``vmap`` every branch runs anyway, so fewer branches and
        loop turns are what make a batch fast); a loop takes the rare rounds
        that have nothing to draft."""
        state = _when(state, TILING, self._tile_walls)
        if self.grey:
            state = jax.lax.while_loop(lambda s: s._phase == GREY_SCAN, self._grey_scan, state)
        state = _when(state, END_ROUND, self._end_round)
        state = _when(state, ROUND_START, lambda s: self._round_start(s, chance))
        never = lambda s: s.replace(_phase=jnp.int32(END_ROUND))  # noqa: E731 (no grey scan on the coloured wall)
        branches = [self._tile_walls, self._grey_scan if self.grey else never, self._end_round,
                    lambda s: self._round_start(s, chance)]
        return jax.lax.while_loop(lambda s: s._phase >= TILING,
                                  lambda s: jax.lax.switch(s._phase - TILING, branches, s), state)

    def _tile_walls(self, state: AzulJaxState) -> AzulJaxState:
        if self.grey:
            return state.replace(_phase=jnp.int32(GREY_SCAN), _player=state._starter, _place_line=jnp.int32(0))
        seats = jnp.arange(self.players)
        wall, points, lid = state._wall, state._points, state._lid
        line_colour, line_count = state._line_colour, state._line_count
        for line in range(5):  # top to bottom, every seat at once: each placement scores as it lands
            full = line_count[:, line] == line + 1
            colour = jnp.maximum(line_colour[:, line], 0)
            column = WALL_COLUMN[line][colour]
            wall = wall.at[seats, line, column].set(jnp.where(full, colour + 1, wall[seats, line, column]))
            filled = (wall > 0).astype(jnp.int32)
            across = RUN_TABLE[(filled[:, line, :] * BITS).sum(axis=1), column]
            down = RUN_TABLE[(filled[seats, :, column] * BITS).sum(axis=1), line]
            gained = jnp.where((across == 1) & (down == 1), 1,
                               jnp.where(across > 1, across, 0) + jnp.where(down > 1, down, 0))
            points = points + jnp.where(full, gained, 0)
            lid = lid.at[colour].add(jnp.where(full, line, 0))
            line_colour = line_colour.at[:, line].set(jnp.where(full, -1, line_colour[:, line]))
            line_count = line_count.at[:, line].set(jnp.where(full, 0, line_count[:, line]))
        # then every floor: its penalty, its tiles to the lid
        spaces = state._floor_spaces
        return state.replace(
            _wall=wall, _lid=lid + state._floor_tiles.sum(axis=0), _line_colour=line_colour, _line_count=line_count,
            _points=jnp.maximum(points - PENALTY[spaces], 0), _last_floor=spaces,
            _floor_tiles=jnp.zeros_like(state._floor_tiles), _floor_spaces=jnp.zeros_like(spaces),
            _phase=jnp.int32(END_ROUND),
        )

    def _grey_scan(self, state: AzulJaxState) -> AzulJaxState:
        """One step of the grey wall's tiling, seat by seat from the starter
        and line by line: place where only one column is free, drop a line
        that fits nowhere, stop where the seat has a choice."""
        seat, line = state._player, state._place_line

        def seat_done(s: AzulJaxState) -> AzulJaxState:
            s = _score_floor(s, seat)
            following = (seat + 1) % self.players
            back = following == s._starter
            return s.replace(_player=jnp.where(back, s._player, following), _place_line=jnp.int32(0),
                             _phase=jnp.where(back, END_ROUND, GREY_SCAN))

        def at_line(s: AzulJaxState) -> AzulJaxState:
            full = s._line_count[seat, line] == line + 1
            free = _free_columns(s, seat, line)
            choices = free.sum()
            decide = full & (choices > 1)
            s = jax.lax.cond(full & (choices == 1), lambda x: _place(x, seat, line, jnp.argmax(free)), lambda x: x, s)
            s = jax.lax.cond(full & (choices == 0), lambda x: _drop_line(x, seat, line), lambda x: x, s)
            return s.replace(_place_line=jnp.where(decide, line, line + 1), _phase=jnp.where(decide, PLACE, GREY_SCAN))

        return jax.lax.cond(line == 5, seat_done, at_line, state)

    def _end_round(self, state: AzulJaxState) -> AzulJaxState:
        starter = jnp.where(state._marker_holder >= 0, state._marker_holder, state._starter)
        filled = state._wall > 0
        row_done = filled.all(axis=2).any()
        over = row_done | (state._round >= self.round_limit)
        bonus = (ROW_BONUS * filled.all(axis=2).sum(axis=1) + COLUMN_BONUS * filled.all(axis=1).sum(axis=1)
                 + COLOUR_BONUS * ((state._wall[:, :, :, None] == jnp.arange(1, 6)).sum(axis=(1, 2)) == 5).sum(axis=1))
        return state.replace(
            _starter=starter,
            _points=jnp.where(over, state._points + bonus, state._points),
            _phase=jnp.where(over, OVER, ROUND_START),
        )

    def _round_start(self, state: AzulJaxState, chance: Any) -> AzulJaxState:
        state = state.replace(_round=state._round + 1, _marker_in_centre=jnp.bool_(True), _marker_holder=jnp.int32(-1))
        # The fill's draws follow whatever this step drew before (who starts),
        # one outcome per tile until bag and lid are both empty. Bag and lid
        # are carried colour by colour as separate numbers: under vmap each
        # is one vector over the batch, and a draw is one pass of arithmetic
        # (as [colour] arrays, each draw was a chain of small reductions,
        # scatters and gathers, several times slower on a CPU).
        first = (state._chance >= 0).sum()
        fill = chance.window(first, 4 * self.factories)

        def draw(slot: Any, carry: Any) -> Any:
            bag, lid, drawn = carry
            empty = sum(bag) == 0
            bag, lid = tuple(jnp.where(empty, x, y) for x, y in zip(lid, bag)), \
                tuple(jnp.where(empty, y, x) for x, y in zip(lid, bag))
            go = sum(bag) > 0
            colour = fill.weighted(slot, bag)
            bag = tuple(x - (go & (colour == c)).astype(jnp.int32) for c, x in enumerate(bag))
            return bag, lid, drawn.at[slot].set(jnp.where(go, colour, -1))

        bag, lid, drawn = jax.lax.fori_loop(
            0, 4 * self.factories, draw,
            (tuple(state._bag[c] for c in range(5)), tuple(state._lid[c] for c in range(5)),
             jnp.zeros(4 * self.factories, dtype=jnp.int32)))
        factory = state._factory + (drawn.reshape(self.factories, 4)[:, :, None] == jnp.arange(5)).sum(axis=1)
        record = jax.lax.dynamic_update_slice(state._chance, drawn, (first,))  # where the window took them from
        on_table = factory.sum() + state._centre.sum()
        return state.replace(_bag=jnp.stack(bag).astype(jnp.int32), _lid=jnp.stack(lid).astype(jnp.int32),
                             _factory=factory, _chance=record,
                             _phase=jnp.where(on_table > 0, DRAFT, TILING), _player=state._starter)

    # -- what a seat may do, and the end -----------------------------------------------------------
    def _finish(self, state: AzulJaxState) -> AzulJaxState:
        state = super()._finish(state)
        return state.replace(_player=jnp.where(state.terminated, -4, state._player))

    def _mover(self, state: AzulJaxState) -> Any:
        return state._player

    def _legal(self, state: AzulJaxState) -> Any:
        seat = jnp.maximum(state._player, 0)
        tiles = jnp.concatenate([state._factory, state._centre[None, :]])  # [source, colour]
        count, colour = state._line_count[seat], state._line_colour[seat]
        in_row = (state._wall[seat][:, :, None] == jnp.arange(1, 6)).any(axis=1)  # [row, colour]
        open_line = (count == 0)[:, None] & ~in_row  # [line, colour]
        same = (colour[:, None] == jnp.arange(5)) & (count < jnp.arange(1, 6))[:, None] & (count > 0)[:, None]
        accepts = (open_line | same).T  # [colour, line]
        destinations = jnp.concatenate([accepts, jnp.ones((5, 1), dtype=jnp.bool_)], axis=1)  # [colour, 6]
        # As bits: a source's 30 drafts (colour * 6 + destination) are the
        # destinations word masked by its colours, each spread over 6 bits.
        to = bits_of(destinations.reshape(30))
        colours = bits_of((tiles > 0) & (state._phase == DRAFT))  # [source]
        spread = sum(((colours >> c) & 1) * jnp.uint32(63 << 6 * c) for c in range(5))
        free = bits_of(_free_columns(state, seat, jnp.minimum(state._place_line, 4)) & (state._phase == PLACE))
        fields = [(30 * source, to & spread[source], 30) for source in range(self.sources)]
        return unpack_mask(pack_mask(fields + [(self.place_base, free, 5)], self.place_base + 5), self.place_base + 5)

    def _returns(self, state: AzulJaxState) -> Any:
        filled = state._wall > 0
        if self.official:
            second = filled.all(axis=2).sum(axis=1)
            third = jnp.zeros(self.players, dtype=jnp.int32)
        else:
            second = filled.sum(axis=(1, 2))
            third = -state._last_floor
        key = state._points * 10_000 + second * 100 + third + 50  # third in -7..0, second <= 25
        won = key == key.max()
        return jnp.where(won, 1.0 / won.sum(), 0.0).astype(jnp.float32)


# -- pieces shared by the steps ------------------------------------------------------------------

def _when(state: AzulJaxState, phase: int, then: Any) -> AzulJaxState:
    return jax.lax.cond(state._phase == phase, then, lambda s: s, state)


def _to_floor(state: AzulJaxState, seat: Any, colour: Any, count: Any) -> AzulJaxState:
    spaces = state._floor_spaces[seat]
    kept = jnp.minimum(count, 7 - spaces)
    return state.replace(
        _floor_tiles=state._floor_tiles.at[seat, colour].add(kept),
        _floor_spaces=state._floor_spaces.at[seat].add(kept),
        _lid=state._lid.at[colour].add(count - kept),
    )


def _run(bits_line: Any, position: Any) -> Any:
    return RUN_TABLE[(bits_line * BITS).sum(), position]


def _place(state: AzulJaxState, seat: Any, line: Any, column: Any, really: Any = True) -> AzulJaxState:
    """Move full pattern line ``line`` of ``seat`` to ``column`` of its wall and score it."""
    colour = jnp.maximum(state._line_colour[seat, line], 0)
    wall = state._wall[seat].at[line, column].set(colour + 1)
    filled = (wall > 0).astype(jnp.int32)
    across, down = _run(filled[line], column), _run(filled[:, column], line)
    gained = jnp.where((across == 1) & (down == 1), 1, jnp.where(across > 1, across, 0) + jnp.where(down > 1, down, 0))
    return state.replace(
        _wall=jnp.where(really, state._wall.at[seat].set(wall), state._wall),
        _points=state._points.at[seat].add(jnp.where(really, gained, 0)),
        _lid=state._lid.at[colour].add(jnp.where(really, line, 0)),
        _line_colour=state._line_colour.at[seat, line].set(jnp.where(really, -1, state._line_colour[seat, line])),
        _line_count=state._line_count.at[seat, line].set(jnp.where(really, 0, state._line_count[seat, line])),
    )


def _score_floor(state: AzulJaxState, seat: Any) -> AzulJaxState:
    spaces = state._floor_spaces[seat]
    return state.replace(
        _last_floor=state._last_floor.at[seat].set(spaces),
        _points=state._points.at[seat].set(jnp.maximum(state._points[seat] - PENALTY[spaces], 0)),
        _lid=state._lid + state._floor_tiles[seat],
        _floor_tiles=state._floor_tiles.at[seat].set(0),
        _floor_spaces=state._floor_spaces.at[seat].set(0),
    )


def _free_columns(state: AzulJaxState, seat: Any, line: Any) -> Any:
    """The grey wall's columns of row ``line`` that are empty and lack the line's colour."""
    colour = state._line_colour[seat, line]
    wall = state._wall[seat]
    return (wall[line] == 0) & ~(wall == colour + 1).any(axis=0)


def _drop_line(state: AzulJaxState, seat: Any, line: Any) -> AzulJaxState:
    colour = state._line_colour[seat, line]
    state = state.replace(_line_colour=state._line_colour.at[seat, line].set(-1),
                          _line_count=state._line_count.at[seat, line].set(0))
    return _to_floor(state, seat, colour, line + 1)


def observation(env: AzulEnv, state: AzulJaxState, viewer: Any) -> Any:
    """The Python engine's observation tensor (``observation_tensor``), as
    float32: everything in Azul is public, so seats differ only in the
    viewer's one-hot code."""
    n = env.players
    seats = []
    for seat in range(n):
        lines = jnp.concatenate([
            jnp.concatenate([one_hot(5, state._line_colour[seat, line]),
                             (state._line_count[seat, line] / (line + 1))[None]]) for line in range(5)])
        wall = (state._wall[seat].reshape(25)[:, None] == jnp.arange(1, 6)).astype(jnp.float32).reshape(-1)
        seats += [lines, wall, state._floor_tiles[seat] / 7, (state._floor_spaces[seat] / 7)[None],
                  (state._marker_holder == seat)[None], (state._points[seat] / 345)[None]]
    playing = jnp.where(state._phase < TILING, state._phase, FILL)
    parts = [state._factory.reshape(-1) / 4, state._centre / 20, state._marker_in_centre[None], state._bag / 20,
             state._lid / 20, *seats, one_hot(5, playing), one_hot(5, jnp.where(state._phase == PLACE, state._place_line, -1)),
             one_hot(n, state._player), one_hot(n, state._starter), one_hot(n, viewer),
             (state._round / env.round_limit)[None]]
    return observation_vector(parts)


# -- the Python engine's fields ------------------------------------------------------------------
LETTERS = "byrkw"
PHASE_NAMES = ("first-player", "fill", "draft", "place", "over")


def _letters(counts: Any) -> str:
    return "".join(LETTERS[c] * int(n) for c, n in enumerate(counts))


def to_fields(env: AzulEnv, state: AzulJaxState) -> dict[str, Any]:
    """The Python engine's ``state_fields`` of one JAX state."""
    n = env.players
    phase = int(state._phase)
    return {
        "bag": [int(x) for x in state._bag], "lid": [int(x) for x in state._lid],
        "factories": [_letters(row) for row in state._factory], "centre": _letters(state._centre),
        "marker_in_centre": bool(state._marker_in_centre), "marker_holder": int(state._marker_holder),
        "lines": [["" if int(c) < 0 else LETTERS[int(c)] * int(k) for c, k in zip(state._line_colour[s], state._line_count[s])]
                  for s in range(n)],
        "walls": [["".join("." if int(v) == 0 else LETTERS[int(v) - 1] for v in row) for row in state._wall[s]]
                  for s in range(n)],
        "floors": [_letters(state._floor_tiles[s]) for s in range(n)],
        "floor_spaces": [int(x) for x in state._floor_spaces], "points": [int(x) for x in state._points],
        "starter": int(state._starter), "to_move": -4 if phase == OVER else int(state._player),
        "phase": PHASE_NAMES[phase], "fill_slot": 4 * env.factories if phase != OVER else 0,
        "place_line": int(state._place_line) if phase == PLACE else 0, "round": int(state._round),
        "last_floor": [int(x) for x in state._last_floor],
    }


def _counts(text: str) -> list[int]:
    return [text.count(letter) for letter in LETTERS]


def from_fields(env: AzulEnv, fields: dict[str, Any]) -> AzulJaxState:
    """The JAX state of the Python engine's ``state_fields`` (a position
    where a seat decides, or the end)."""
    phase = PHASE_NAMES.index(fields["phase"])
    if phase not in (DRAFT, PLACE, OVER):
        raise ValueError(f"a JAX state starts where a seat decides or at the end, not in phase {fields['phase']!r}")
    n = env.players
    walls = [[[0 if ch == "." else LETTERS.index(ch) + 1 for ch in row] for row in fields["walls"][s]] for s in range(n)]
    lines = fields["lines"]
    state = env._blank().replace(
        _bag=jnp.asarray(fields["bag"], dtype=jnp.int32), _lid=jnp.asarray(fields["lid"], dtype=jnp.int32),
        _factory=jnp.asarray([_counts(t) for t in fields["factories"]], dtype=jnp.int32).reshape(env.factories, 5),
        _centre=jnp.asarray(_counts(fields["centre"]), dtype=jnp.int32),
        _marker_in_centre=jnp.bool_(fields["marker_in_centre"]), _marker_holder=jnp.int32(fields["marker_holder"]),
        _line_colour=jnp.asarray([[LETTERS.index(t[0]) if t else -1 for t in lines[s]] for s in range(n)], dtype=jnp.int32),
        _line_count=jnp.asarray([[len(t) for t in lines[s]] for s in range(n)], dtype=jnp.int32),
        _wall=jnp.asarray(walls, dtype=jnp.int32),
        _floor_tiles=jnp.asarray([_counts(t) for t in fields["floors"]], dtype=jnp.int32),
        _floor_spaces=jnp.asarray(fields["floor_spaces"], dtype=jnp.int32),
        _points=jnp.asarray(fields["points"], dtype=jnp.int32), _starter=jnp.int32(fields["starter"]),
        _phase=jnp.int32(phase), _place_line=jnp.int32(fields["place_line"]), _round=jnp.int32(fields["round"]),
        _last_floor=jnp.asarray(fields["last_floor"], dtype=jnp.int32),
        _player=jnp.int32(fields["to_move"] if phase != OVER else -4),
        current_player=jnp.int32(max(fields["to_move"], 0)),
    )
    return env._finish(state)


AzulEnv.to_fields = to_fields
AzulEnv.from_fields = from_fields
