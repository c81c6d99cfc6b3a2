"""What every tileworks JAX environment shares: options checked as
``load_game`` checks them, chance drawn from the key or imposed, Pgx's
step semantics, and conversion to and from the Python engine's states.

A game's environment implements ``_blank()`` (the arrays of an empty
table), ``_start(state, chance)`` (the opening chance and the first
decision), ``_apply(state, action, chance)`` (a legal action and everything
up to the next decision), ``_observe``, and ``to_fields``/``from_fields``
(the Python engine's ``state_fields``).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp
import pgx.core
from pgx._src.struct import dataclass, field

from tileworks.core.registry import game_info, load_game

#: Pgx's convention: a hyphen marks a game from another source than Pgx's own
ENV_PREFIX = "tileworks-"


class Chance(NamedTuple):
    """Where a step's chance outcomes come from: sampled from ``key``, or
    ``outcomes`` imposed (the i-th chance node of the step takes
    ``outcomes[i]``).

    A sampled step draws all its uniform numbers at once (:meth:`sampled`):
    on a CPU each call of JAX's generator is a loop of its own, and a round
    of Azul draws twenty tiles."""

    key: Any = None
    outcomes: Any = None
    uniforms: Any = None

    @classmethod
    def sampled(cls, key: Any, count: int) -> "Chance":
        """Chance drawn from ``key``: ``count`` uniform numbers in [0, 1),
        one per chance node a step may meet (unused ones cost nothing
        under jit)."""
        return cls(key=key, uniforms=jax.random.uniform(jax.random.fold_in(key, UNIFORMS_STREAM), (count,)))

    def shuffled(self, stream: int, items: Any, count: int) -> Any:
        """The first ``count`` of ``items`` in a uniformly random order,
        drawn from the key's ``stream`` (Fisher and Yates: place ``i`` takes
        a random one of the items not yet placed). On a CPU this costs a
        tenth of ``jax.random.permutation``, whose sort compares through a
        callback."""
        n = items.shape[0]
        numbers = jax.random.uniform(jax.random.fold_in(self.key, stream), (count,))

        def place(i: Any, order: Any) -> Any:
            # a swap by index: under vmap one gather and two scatters of a
            # number per game, half the time of a masked pass over the items
            j = jnp.minimum(i + jnp.floor(numbers[i] * (n - i)).astype(jnp.int32), n - 1)
            chosen = order[j]
            return order.at[j].set(order[i]).at[i].set(chosen)

        return jax.lax.fori_loop(0, count, place, items)[:count]

    def window(self, start: Any, count: int) -> "Chance":
        """The chance nodes ``start, start + 1, ...`` as nodes ``0, 1, ...``
        (``count`` of them, all within the step's)."""
        source = self.outcomes if self.outcomes is not None else self.uniforms
        part = jax.lax.dynamic_slice(source, (start,), (count,))
        return self._replace(outcomes=part) if self.outcomes is not None else self._replace(uniforms=part)

    def index(self, index: Any, upper: Any) -> Any:
        """Outcome ``index`` of the step: a uniform integer in ``[0, upper)``, or the imposed one."""
        if self.outcomes is not None:
            return self.outcomes[index]
        return jnp.minimum(jnp.floor(self.uniforms[index] * upper), jnp.maximum(upper - 1, 0)).astype(jnp.int32)

    def weighted(self, index: Any, weights: Any) -> Any:
        """Outcome ``index``: ``i`` with probability ``weights[i] / sum``, or
        the imposed one. Drawn as the Python engines draw, from one uniform
        number scaled to the total: the outcome is how many running totals
        the pick has passed. ``weights`` is an array or a sequence of
        numbers (under vmap, each number one vector over the batch)."""
        if self.outcomes is not None:
            return self.outcomes[index]
        weights = [weights[i] for i in range(len(weights))]
        pick = jnp.floor(self.uniforms[index] * sum(weights)).astype(jnp.int32)
        below, outcome = 0, 0
        for weight in weights[:-1]:
            below = below + weight
            outcome = outcome + (below <= pick)
        return jnp.asarray(outcome, dtype=jnp.int32)


#: the stream of a step's uniform numbers, apart from the streams a game
#: folds into its key for shuffles (0, 1, 2, ...)
UNIFORMS_STREAM = 0x7FFF_FFFF


def running_total(values: Any) -> Any:
    """``jnp.cumsum`` of a short vector, as one masked sum: XLA's CPU backend
    runs a cumulative sum as a reduce-window, several times slower.

    >>> running_total(jnp.asarray([3, 0, 2])).tolist()
    [3, 3, 5]
    >>> bool((running_total(jnp.arange(70)) == jnp.cumsum(jnp.arange(70))).all())
    True
    """
    n = values.shape[-1]
    if n > 16:  # block by block, so the work grows as n * 8, not n * n
        padded = jnp.pad(values, [(0, 0)] * (values.ndim - 1) + [(0, -n % 8)])
        within = running_total(padded.reshape(padded.shape[:-1] + (-1, 8)))
        before = running_total(within[..., -1]) - within[..., -1]
        return (within + before[..., None]).reshape(padded.shape)[..., :n]
    return (values[..., None, :] * (jnp.arange(n)[:, None] >= jnp.arange(n)[None, :])).sum(axis=-1)


def bits_of(flags: Any) -> Any:
    """The booleans along the last axis (at most 32) as the bits of a uint32, the first lowest.

    >>> int(bits_of(jnp.asarray([True, False, True])))
    5
    """
    width = flags.shape[-1]
    return (flags.astype(jnp.uint32) << jnp.arange(width, dtype=jnp.uint32)).sum(axis=-1, dtype=jnp.uint32)


def pack_mask(fields: Any, size: int) -> Any:
    """The words of a ``size``-bit mask put together from ``(offset, bits,
    width)`` fields: the low ``width`` bits of each uint32 ``bits`` land at
    bit ``offset``. Offsets and widths are static; a field may straddle two
    words.

    >>> pack_mask([(0, jnp.uint32(3), 2), (31, jnp.uint32(3), 2)], 40).tolist()
    [2147483651, 1]
    """
    words = [jnp.uint32(0)] * (-(-size // 32))
    for offset, bits, width in fields:
        word, shift = divmod(offset, 32)
        bits = jnp.asarray(bits).astype(jnp.uint32)
        words[word] = words[word] | (bits << shift)
        if shift + width > 32:
            words[word + 1] = words[word + 1] | (bits >> (32 - shift))
    return jnp.stack(jnp.broadcast_arrays(*words), axis=-1)


def computed_once(words: Any) -> Any:
    """``words`` (unsigned), unchanged, but computed once where many
    elements read each word. XLA's CPU backend copies cheap arithmetic into
    every consumer, so each bit of a mask would redo its word's arithmetic;
    it never copies a division, and this divides by one, a one that XLA
    cannot see is one. (``jax.lax.optimization_barrier`` does not stop
    that fusion on the CPU.)"""
    one = (words | 1) // (words | 1)
    return words // one


def unpack_mask(words: Any, size: int) -> Any:
    """The ``size`` booleans of a mask held as uint32 words (action ``a`` is
    bit ``a % 32`` of word ``a // 32``). A legal action mask written this
    way costs a CPU a tenth of one computed as booleans: 32 is a power of
    two, so finding an action's bit is a shift, not a division.

    >>> unpack_mask(jnp.asarray([5], dtype=jnp.uint32), 4).tolist()
    [True, False, True, False]
    """
    bits = (computed_once(words)[..., :, None] >> jnp.arange(32, dtype=jnp.uint32)) & 1
    return bits.reshape(words.shape[:-1] + (-1,))[..., :size].astype(jnp.bool_)


def one_hot(size: int, index: Any) -> Any:
    """``size`` floats, 1 at ``index`` (all 0 when it is out of range, e.g. -1
    for none): the Python engines' ``Tensor.one_hot``.

    >>> one_hot(3, 1).tolist(), one_hot(3, -1).tolist()
    ([0.0, 1.0, 0.0], [0.0, 0.0, 0.0])
    """
    return (jnp.arange(size) == index).astype(jnp.float32)


def observation_vector(parts: Any) -> Any:
    """An observation written part by part, as the Python engines' ``Tensor``
    writes it: each part flattened, in order, as one float32 vector.

    >>> observation_vector([one_hot(2, 0), jnp.asarray([[True], [False]])]).tolist()
    [1.0, 0.0, 1.0, 0.0]
    """
    return jnp.concatenate([jnp.asarray(p, dtype=jnp.float32).reshape(-1) for p in parts])


def shared_win(points: Any) -> Any:
    """Returns where the highest score wins and a tie shares the win (1/k each).

    >>> shared_win(jnp.asarray([3, 5, 5])).tolist()
    [0.0, 0.5, 0.5]
    """
    won = points == points.max()
    return jnp.where(won, 1.0 / won.sum(), 0.0).astype(jnp.float32)


@dataclass
class TileworksState(pgx.core.State):
    """A tileworks game's state: Pgx's public fields, then (in each game's
    subclass) the whole table."""

    current_player: Any = jnp.int32(0)
    observation: Any = jnp.zeros(0, dtype=jnp.float32)
    rewards: Any = jnp.zeros(0, dtype=jnp.float32)
    terminated: Any = jnp.bool_(False)
    truncated: Any = jnp.bool_(False)
    legal_action_mask: Any = jnp.zeros(0, dtype=jnp.bool_)
    _step_count: Any = jnp.int32(0)
    # what every game's table holds besides its own fields
    _chance: Any = jnp.zeros(0, dtype=jnp.int32)  # the outcomes drawn by the last step, -1 padded
    _options: tuple = field(pytree_node=False, default=())
    #: the game's name (each game's subclass sets it)
    game_name: ClassVar[str] = ""

    @property
    def env_id(self) -> str:
        return ENV_PREFIX + self.game_name

    def to_svg(self, *, color_theme: Any = None, scale: Any = None) -> str:
        """The table drawn by the Python engine's renderer (the first element of a batch)."""
        return self.to_python().svg()

    def to_python(self) -> Any:
        """The Python engine's state of this state (the first element of a batch)."""
        from tileworks.jax import environment_of

        state = self
        if jnp.ndim(self.current_player) > 0:
            state = jax.tree_util.tree_map(lambda leaf: leaf[0], self)
        return environment_of(state).to_python(state)

    def save_position(self, filename: str) -> None:
        """Write the position (the first element of a batch) as the Python
        engine's JSON (``State.to_json``): ``tileworks render FILE`` draws
        it, ``load_position`` reads it back."""
        import json

        with open(filename, "w", encoding="utf-8") as out:
            json.dump(self.to_python().to_json(), out, ensure_ascii=False, indent=1)

    def save_svg(self, filename: str, *, color_theme: Any = None, scale: Any = None) -> None:
        if not str(filename).endswith(".svg"):
            raise ValueError(f"an SVG file name ends in .svg: {filename!r}")
        with open(filename, "w", encoding="utf-8") as out:
            out.write(self.to_svg())


class TileworksEnv(pgx.core.Env):
    """A tileworks game as a Pgx environment (see the module's docstring)."""

    game_name: str
    #: the phase of a finished game in the state's ``_phase``
    over_phase: int

    def __init__(self, **options: Any):
        super().__init__()
        info = game_info(self.game_name)
        self.options = info.options.resolve(info.name, options)
        self.game = load_game(self.game_name, **self.options)
        self.players = self.game.num_players()

    # -- Pgx's Env ---------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return ENV_PREFIX + self.game_name

    @property
    def version(self) -> str:
        return "v0"

    @property
    def num_players(self) -> int:
        return self.players

    # Pgx finds these two by running ``init`` op by op, which on a CPU costs
    # seconds (10 s for Azul): a training script asks for them first thing
    @property
    def num_actions(self) -> int:
        """The Python engine's ``num_distinct_actions()``: the ids are its own."""
        return self.game.num_distinct_actions()

    @functools.cached_property
    def observation_shape(self) -> tuple[int, ...]:
        """The observation's shape, from tracing ``init`` without running it."""
        return tuple(jax.eval_shape(self.init, jax.random.PRNGKey(0)).observation.shape)

    def _finish(self, state: Any, legal: Any = None) -> Any:
        """Pgx's public fields of a state whose table a step has just set:
        the seat to move (kept at the end), its legal actions (``legal``,
        where the game has found them already), the end and the returns."""
        over = state._phase == self.over_phase
        return state.replace(
            current_player=jnp.where(over, state.current_player, self._mover(state)).astype(jnp.int32),
            legal_action_mask=self._legal(state) if legal is None else legal,
            terminated=over,
            rewards=jnp.where(over, self._returns(state), jnp.zeros(self.players, dtype=jnp.float32)),
        )

    def _mover(self, state: Any) -> Any:
        return state._seat

    def _returns(self, state: Any) -> Any:
        """The Python engine's returns at the end: by default the highest score wins, ties shared."""
        return shared_win(state._points)

    def init(self, key: Any) -> Any:
        return self._observed_opening(self._init(key))

    def _init(self, key: Any) -> Any:
        return self._start(self._blank(), Chance.sampled(key, self.max_chance))

    def init_with_chance(self, outcomes: Any) -> Any:
        """The opening position with its chance outcomes imposed (as
        ``max_chance`` integers, ``-1`` padded), not drawn."""
        chance = Chance(outcomes=jnp.asarray(outcomes, dtype=jnp.int32))
        return self._observed_opening(self._start(self._blank(), chance))

    def _observed_opening(self, state: Any) -> Any:
        """An opening with its mover's observation, as Pgx's ``init`` gives it."""
        return state.replace(observation=jax.lax.stop_gradient(self._opening_observation(state)))

    def _opening_observation(self, state: Any) -> Any:
        """The mover's observation of an opening position. A game whose
        openings are nearly empty may write it directly: ``auto_reset`` runs
        ``init`` for every game at every step."""
        return self._observe(state, state.current_player)

    def _step(self, state: Any, action: Any, key: Any) -> Any:
        return self._applied(state, action, Chance.sampled(key, self.max_chance))

    def step_with_chance(self, state: Any, action: Any, outcomes: Any) -> Any:
        """:meth:`step` with the step's chance outcomes imposed (the i-th
        chance node after the action takes ``outcomes[i]``), as the Python
        engine would take them: a game replays exactly in both engines."""
        chance = Chance(outcomes=jnp.asarray(outcomes, dtype=jnp.int32))
        return self._step_as_pgx(state, action, lambda s, a: self._applied(s, a, chance))

    def step(self, state: Any, action: Any, key: Any = None) -> Any:
        if key is None:
            raise ValueError("tileworks environments draw chance inside step: pass a PRNG key (step(state, action, key))")
        return super().step(state, action, key)

    def _step_as_pgx(self, state: Any, action: Any, apply: Any) -> Any:
        """Pgx's step around ``apply``: a finished game stays as it is with no
        reward; an illegal action ends the game with the mover penalised."""
        illegal = ~state.legal_action_mask[action]
        mover = state.current_player
        state = jax.lax.cond(
            state.terminated | state.truncated,
            lambda: state.replace(rewards=jnp.zeros_like(state.rewards)),
            lambda: apply(state.replace(_step_count=state._step_count + 1), action),
        )
        state = jax.lax.cond(illegal, lambda: self._step_with_illegal_action(state, mover), lambda: state)
        state = jax.lax.cond(state.terminated, lambda: state.replace(legal_action_mask=jnp.ones_like(state.legal_action_mask)),
                             lambda: state)
        return state.replace(observation=self.observe(state))

    def _applied(self, state: Any, action: Any, chance: Any) -> Any:
        """The game's ``_apply`` from ``state`` with no chance outcome recorded
        yet, every field typed as in ``state``: a weakly typed result (say
        ``jnp.where`` of two Python numbers) would give the next step other
        argument types, and a Python loop of steps would compile twice."""
        after = self._apply(state.replace(_chance=jnp.full_like(state._chance, -1)), action, chance)
        return jax.tree.map(lambda new, old: new.astype(old.dtype), after, state)

    def scores(self, state: Any) -> Any:
        """Each seat's score as the Python engine's ``scores()`` gives it."""
        return state._points

    # -- the Python engine ---------------------------------------------------------------------
    def to_python(self, state: Any) -> Any:
        """The Python engine's state for one (unbatched) JAX state: look at
        it with ``tileworks render`` or in the browser, or play on from it."""
        fields = self.to_fields(jax.device_get(state))
        return type(self.game.new_initial_state()).notation.state_from_fields(self.game, fields)

    def from_python(self, python_state: Any) -> Any:
        """The JAX state of a Python engine state of this game and options."""
        if python_state.game().name != self.game_name or python_state.game().options() != self.game.options():
            raise ValueError(f"a state of {python_state.game().name} {python_state.game().options()}, "
                             f"not of this environment's {self.game_name} {self.game.options()}")
        state = self.from_fields(python_state._fields())
        return state.replace(observation=self._observe_compiled(state))

    @functools.cached_property
    def _observe_compiled(self) -> Any:
        # a conversion runs outside jit, where JAX would run observe op by op
        # (compiling each operation of it): Tiles' took 9 seconds
        return jax.jit(self.observe)
