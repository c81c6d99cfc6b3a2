"""The checks every batched (JAX) engine passes, for any game that declares
one in its registration (``GameInfo.batched``), shipped or plugin: the
contract (:class:`BatchedEngine`), random games played in both engines and
compared at every step, Pgx's own API test, Pgx's handling of an illegal
action, a Python game replayed with its chance imposed, states passed both
ways between the engines, and a game that loads without importing JAX.

Use it from a game's own tests with one line (pytest finds the tests)::

    from tileworks.testing.batched import *  # noqa: F403

and choose the games with ``TILEWORKS_GAMES = ["dominoes"]`` in that module,
or ``pytest --tileworks-game=dominoes``; by default every registered game
that declares an engine. Each game's ``GameInfo.batched_test_configs``
(default: its ``test_configs``) are the option sets played; the first also
goes through Pgx's API test. Needs ``pip install 'tileworks[jax]'``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any, Protocol, runtime_checkable

import pytest

#: every batched program here plays four games at once, as Pgx's API test
#: does, so that each environment compiles its batched init and step once
BATCH = 4

__all__ = [
    "BATCH",
    "BatchedEngine",
    "HOOKS",
    "batched_env",
    "missing_hooks",
    "test_a_python_game_replays_exactly_with_its_chance_imposed",
    "test_a_state_crosses_between_the_engines_and_the_observations_agree",
    "test_an_illegal_action_ends_that_game_only_with_a_penalty_for_its_mover",
    "test_loading_the_game_never_imports_jax",
    "test_pgx_api_test_passes",
    "test_pgx_make_builds_it_with_its_default_options",
    "test_random_games_agree_with_the_python_engine_at_every_step",
    "test_the_engine_keeps_the_contract",
    "test_the_sizes_pgx_asks_for_are_the_python_engines",
]


@runtime_checkable
class BatchedEngine(Protocol):
    """What a game's batched engine is to its users: a Pgx environment
    (``pgx.Env``) whose action ids, chance and states are its Python
    engine's. Subclassing ``tileworks.jax.TileworksEnv`` and writing the
    :data:`HOOKS` gives all of it."""

    game_name: str
    #: the most chance outcomes one step takes (``-1`` pads the rest)
    max_chance: int

    @property
    def id(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> tuple[int, ...]: ...
    def init(self, key: Any) -> Any: ...
    def step(self, state: Any, action: Any, key: Any = None) -> Any: ...
    def observe(self, state: Any, player_id: Any) -> Any: ...
    def init_with_chance(self, outcomes: Any) -> Any: ...
    def step_with_chance(self, state: Any, action: Any, outcomes: Any) -> Any: ...
    def scores(self, state: Any) -> Any: ...
    def to_python(self, state: Any) -> Any: ...
    def from_python(self, python_state: Any) -> Any: ...


#: what a game writes in its ``TileworksEnv`` subclass, and why
HOOKS = {
    "game_name": "the registered game's name",
    "over_phase": "the value of the state's _phase once the game is over",
    "max_chance": "the most chance outcomes one step takes (set in __init__)",
    "_blank": "the arrays of an empty table",
    "_start": "the opening chance (drawn from a Chance, or imposed) and the first decision",
    "_apply": "a legal action and everything up to the next decision, chance included",
    "_legal": "the legal action mask of the seat to move",
    "_observe": "a seat's observation: the Python engine's observation_tensor, as float32",
    "to_fields": "the Python engine's state_fields of one state",
    "from_fields": "the state of the Python engine's state_fields",
}


def missing_hooks(engine: Any) -> list[str]:
    """The :data:`HOOKS` an engine (class or instance) lacks, by name
    (``max_chance`` is looked for on instances only: it comes from the options).

    >>> missing_hooks(object)  # doctest: +ELLIPSIS
    ['game_name', 'over_phase', '_blank', '_start', ...]
    """
    out = []
    for name in HOOKS:
        found = getattr(engine, name, None)
        if found is None and name == "max_chance" and isinstance(engine, type):
            continue  # set per instance, from the options
        if found is None or (name.startswith("_") and getattr(found, "__isabstractmethod__", False)):
            out.append(name)
    return out


# -- fixtures ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def batched_env(tileworks_batched_config: tuple[str, dict[str, Any]]) -> Any:
    """The environment of one declared option set (compiled once per module)."""
    import tileworks.jax

    game, options = tileworks_batched_config
    return tileworks.jax.make(game, **options)


def _first_config(game: str) -> dict[str, Any]:
    from tileworks.core.registry import game_info

    return dict(game_info(game).batched_configs()[0])


# -- the checks ----------------------------------------------------------------------------------
def test_the_engine_keeps_the_contract(tileworks_batched_game: str) -> None:
    import tileworks.jax
    from tileworks.core.registry import batched_engine, game_info

    engine = batched_engine(tileworks_batched_game)
    assert issubclass(engine, tileworks.jax.TileworksEnv), f"{engine} does not subclass tileworks.jax.TileworksEnv"
    assert missing_hooks(engine) == [], f"{engine.__module__}.{engine.__qualname__} lacks {missing_hooks(engine)}"
    env = tileworks.jax.make(tileworks_batched_game, **_first_config(tileworks_batched_game))
    assert isinstance(env, BatchedEngine) and env.game_name == tileworks_batched_game
    assert env.id == f"tileworks-{tileworks_batched_game}" and env.num_players == env.game.num_players()
    assert env.max_chance >= 1 and game_info(tileworks_batched_game).batched_configs()


def test_random_games_agree_with_the_python_engine_at_every_step(batched_env: Any) -> None:
    from tileworks.jax.crosscheck import cross_check

    report = cross_check(batched_env, games=6, seed=7, batch=BATCH)
    assert report.disagreements == []
    assert report.games == 6 and report.steps >= 6


def test_the_sizes_pgx_asks_for_are_the_python_engines(batched_env: Any) -> None:
    # (Pgx's own way plays init op by op: seconds a game on a CPU)
    import jax

    opening = jax.eval_shape(batched_env.init, jax.random.PRNGKey(0))
    game = batched_env.game
    assert batched_env.num_actions == opening.legal_action_mask.shape[0] == game.num_distinct_actions()
    assert batched_env.observation_shape == opening.observation.shape == tuple(game.observation_tensor_shape())


def test_pgx_api_test_passes(tileworks_batched_game: str, monkeypatch: Any, tmp_path: Any) -> None:
    """Pgx's API test on the game's first declared option set (it compiles
    each environment afresh: the slowest check here)."""
    import pgx

    import tileworks.jax

    environment = tileworks.jax.make(tileworks_batched_game, **_first_config(tileworks_batched_game))
    monkeypatch.chdir(tmp_path)
    with tileworks.jax.pgx_api_test_fixed():
        pgx.api_test(environment, num=1)


def test_pgx_make_builds_it_with_its_default_options(tileworks_batched_game: str) -> None:
    import pgx

    import tileworks
    import tileworks.jax

    environment = pgx.make(f"tileworks-{tileworks_batched_game}")
    assert isinstance(environment, tileworks.jax.TileworksEnv)
    assert environment.id == f"tileworks-{tileworks_batched_game}"
    assert environment.game.options() == tileworks.load_game(tileworks_batched_game).options()


def test_a_python_game_replays_exactly_with_its_chance_imposed(tileworks_batched_game: str) -> None:
    import jax
    import jax.numpy as jnp
    import numpy as np

    import tileworks.jax

    options = _first_config(tileworks_batched_game)
    env = tileworks.jax.make(tileworks_batched_game, **options)
    rng = random.Random(11)
    python = env.game.new_initial_state()

    def chance_run() -> list[int]:
        drawn = []
        while python.is_chance_node():
            outcomes, weights = zip(*python.chance_outcomes())
            drawn.append(rng.choices(outcomes, weights)[0])
            python.apply_action(drawn[-1])
        assert len(drawn) <= env.max_chance, f"a step took {len(drawn)} chance outcomes, max_chance is {env.max_chance}"
        return drawn + [-1] * (env.max_chance - len(drawn))

    init, step = jax.jit(env.init_with_chance), jax.jit(env.step_with_chance)
    state = init(jnp.asarray(chance_run()))
    while not python.is_terminal():
        assert int(state.current_player) == python.current_player()
        assert np.flatnonzero(np.asarray(state.legal_action_mask)).tolist() == sorted(python.legal_actions())
        action = rng.choice(python.legal_actions())
        python.apply_action(action)
        state = step(state, jnp.int32(action), jnp.asarray(chance_run()))
        assert np.asarray(env.scores(state)).tolist() == python.scores()
    assert bool(state.terminated) and np.allclose(np.asarray(state.rewards), python.returns())  # float32


def test_an_illegal_action_ends_that_game_only_with_a_penalty_for_its_mover(tileworks_batched_game: str) -> None:
    import jax
    import jax.numpy as jnp
    import numpy as np

    import tileworks.jax

    env = tileworks.jax.make(tileworks_batched_game)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.PRNGKey(3), BATCH))
    mask = np.asarray(state.legal_action_mask)
    actions = [int(np.flatnonzero(~mask[0])[0])] + [int(np.flatnonzero(row)[0]) for row in mask[1:]]
    movers = np.asarray(state.current_player)
    after = step(state, jnp.asarray(actions), jax.random.split(jax.random.PRNGKey(4), BATCH))
    assert np.asarray(after.terminated).tolist() == [True] + [False] * (BATCH - 1)
    rewards = np.asarray(after.rewards[0])
    others = [seat for seat in range(env.num_players) if seat != movers[0]]
    assert rewards[movers[0]] == -1.0 and (rewards[others] == 1.0).all()  # Pgx's rule: the mover loses
    assert np.asarray(after.legal_action_mask[0]).all()  # any action is accepted once over
    again = step(after, jnp.zeros(BATCH, dtype=jnp.int32), jax.random.split(jax.random.PRNGKey(5), BATCH))
    assert bool(again.terminated[0]) and not np.asarray(again.rewards[0]).any()


def test_a_state_crosses_between_the_engines_and_the_observations_agree(tileworks_batched_game: str,
                                                                       tmp_path: Any) -> None:
    import jax
    import jax.numpy as jnp
    import numpy as np

    import tileworks.jax
    from tileworks.core.records import load_position

    env = tileworks.jax.make(tileworks_batched_game, **_first_config(tileworks_batched_game))
    step, observe = jax.jit(env.step), jax.jit(env.observe)
    state = opening = jax.jit(env.init)(jax.random.PRNGKey(21))
    following = state
    key = jax.random.PRNGKey(22)
    for _ply in range(30):  # well into the game, short of its end
        key, pick, chance = jax.random.split(key, 3)
        legal = np.flatnonzero(np.asarray(state.legal_action_mask))
        following = step(state, jnp.int32(legal[int(jax.random.randint(pick, (), 0, len(legal)))]), chance)
        if bool(following.terminated):
            break
        state = following
    python = env.to_python(state)
    assert python.current_player() == int(state.current_player)
    assert sorted(python.legal_actions()) == np.flatnonzero(np.asarray(state.legal_action_mask)).tolist()
    assert python.scores() == np.asarray(env.scores(state)).tolist()
    for viewer in range(env.num_players):
        seen = observe(state.replace(current_player=jnp.int32(viewer)))
        assert np.allclose(np.asarray(seen), python.observation_tensor(viewer), atol=1e-6)
    back = env.from_python(python)
    assert back._options == state._options
    # every state is typed as the opening is (no weak types): a loop of steps compiles step once
    assert jax.tree.map(jax.typeof, following) == jax.tree.map(jax.typeof, back) == jax.tree.map(jax.typeof, opening)
    for name in state.__dataclass_fields__:
        if name not in ("_chance", "_step_count", "_options", "observation"):  # the last step's draws, Pgx's count
            assert np.array_equal(np.asarray(getattr(back, name)), np.asarray(getattr(state, name))), name
    assert np.allclose(np.asarray(back.observation), np.asarray(state.observation), atol=1e-6)
    assert "<svg" in state.to_svg() and state.to_svg() == python.svg()
    state.save_position(tmp_path / "position.json")  # for `tileworks render position.json`
    assert load_position(tmp_path / "position.json") == python


def test_loading_the_game_never_imports_jax(tileworks_batched_game: str) -> None:
    """A game's registration names its engine by an import path: playing the
    game (its Python engine) never imports JAX."""
    script = ("import sys, random, tileworks\n"
              f"state = tileworks.load_game({tileworks_batched_game!r}).new_initial_state()\n"
              "from tileworks.core import sample_chance\n"
              "while state.is_chance_node(): state.apply_action(sample_chance(state, random.Random(1)))\n"
              "state.legal_actions(); state.observation_tensor(state.current_player())\n"
              "assert 'jax' not in sys.modules, sorted(m for m in sys.modules if m.startswith('jax'))[:5]\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
