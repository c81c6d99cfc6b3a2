"""Azul's JAX engine against the Python engine: the same game step for step
(random games, chance drawn by JAX and imposed from Python), Pgx's own API
test, Pgx's handling of an illegal action, the observation, and states
passed between the engines. Small sizes; bench/bench_jax.py runs the full
cross-check."""

from __future__ import annotations

import random

import jax
import jax.numpy as jnp
import numpy as np
import pgx
import pgx._src.api_test
import pytest

import tileworks
import tileworks.jax
from tileworks.jax.crosscheck import cross_check

CONFIGS = [
    {"players": 2}, {"players": 3}, {"players": 4}, {"players": 2, "variant": "grey"},
    {"players": 3, "variant": "grey", "tiebreak": "official"}, {"players": 4, "variant": "grey"},
]


def _name(config):
    return "-".join(f"{k}={v}" for k, v in config.items())


@pytest.fixture(scope="module", params=CONFIGS, ids=_name)
def env(request):
    return tileworks.jax.make("azul", **request.param)


def test_random_games_agree_with_the_python_engine_at_every_step(env):
    report = cross_check(env, games=6, seed=7)
    assert report.disagreements == []
    assert report.games == 6 and report.steps > 6 * 40  # whole games: dozens of drafts each


def _single_act_randomly(rng, legal_action_mask):
    # Pgx 2.6.0's act_randomly samples along axis 1, which fails on one
    # state's mask with JAX >= 0.10.1 (sotetsuk/pgx#1314, not yet released);
    # its api_test_single passes through it. The fix: the last axis.
    return jax.random.categorical(rng, logits=jnp.log(legal_action_mask.astype(jnp.float32)), axis=-1)


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[4]], ids=_name)
def test_pgx_api_test_passes(config, monkeypatch, tmp_path):
    monkeypatch.setattr(pgx._src.api_test, "act_randomly", jax.jit(_single_act_randomly))
    monkeypatch.chdir(tmp_path)
    environment = pgx.make("tileworks-azul") if config == CONFIGS[0] else tileworks.jax.make("azul", **config)
    assert isinstance(environment, tileworks.jax.TileworksEnv) and environment.id == "tileworks-azul"
    pgx.api_test(environment, num=1)


def test_a_python_game_replays_exactly_with_its_chance_imposed():
    env = tileworks.jax.make("azul", players=3, variant="grey")
    game = tileworks.load_game("azul", players=3, variant="grey")
    rng = random.Random(11)
    python = game.new_initial_state()

    def chance_run():
        drawn = []
        while python.is_chance_node():
            outcomes, weights = zip(*python.chance_outcomes())
            drawn.append(rng.choices(outcomes, weights)[0])
            python.apply_action(drawn[-1])
        return drawn + [-1] * (env.max_chance - len(drawn))

    init = jax.jit(env.init_with_chance)
    step = jax.jit(env.step_with_chance)
    state = init(jnp.asarray(chance_run()))
    plies = 0
    while not python.is_terminal():
        assert int(state.current_player) == python.current_player()
        assert np.flatnonzero(np.asarray(state.legal_action_mask)).tolist() == sorted(python.legal_actions())
        action = rng.choice(python.legal_actions())
        python.apply_action(action)
        state = step(state, jnp.int32(action), jnp.asarray(chance_run()))
        assert np.asarray(state._points).tolist() == python.scores()
        plies += 1
    assert bool(state.terminated) and np.asarray(state.rewards).tolist() == python.returns()
    assert plies > 60


def test_an_illegal_action_ends_that_game_only_with_a_penalty_for_its_mover():
    env = tileworks.jax.make("azul")
    state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(3), 2))
    mask = np.asarray(state.legal_action_mask)
    illegal = int(np.flatnonzero(~mask[0])[0])  # e.g. a colour its factory lacks
    legal = int(np.flatnonzero(mask[1])[0])
    movers = np.asarray(state.current_player)
    after = jax.vmap(env.step)(state, jnp.asarray([illegal, legal]), jax.random.split(jax.random.PRNGKey(4), 2))
    assert bool(after.terminated[0]) and not bool(after.terminated[1])
    rewards = np.asarray(after.rewards[0])
    assert rewards[movers[0]] == -1.0 and rewards[1 - movers[0]] == 1.0  # Pgx's rule: the mover loses
    assert np.asarray(after.legal_action_mask[0]).all()  # any action is accepted once over
    again = env.step(jax.tree_util.tree_map(lambda x: x[0], after), jnp.int32(0), jax.random.PRNGKey(5))
    assert bool(again.terminated) and not np.asarray(again.rewards).any()


def test_step_without_a_key_unknown_games_and_options_are_refused_by_name():
    env = tileworks.jax.make("azul")
    with pytest.raises(ValueError, match="PRNG key"):
        env.step(env.init(jax.random.PRNGKey(0)), jnp.int32(0))
    with pytest.raises(ValueError, match="no JAX engine for 'chess'"):
        tileworks.jax.make("chess")
    with pytest.raises(ValueError, match="unknown option 'colour' for azul"):
        tileworks.jax.make("azul", colour="red")
    with pytest.raises(ValueError, match="players"):
        tileworks.jax.make("azul", players=5)


def test_a_state_crosses_between_the_engines_and_the_observations_agree():
    env = tileworks.jax.make("azul", players=2)
    step = jax.jit(env.step)
    state = env.init(jax.random.PRNGKey(21))
    key = jax.random.PRNGKey(22)
    for _ply in range(25):  # into the second round
        key, pick, chance = jax.random.split(key, 3)
        legal = np.flatnonzero(np.asarray(state.legal_action_mask))
        state = step(state, jnp.int32(legal[int(jax.random.randint(pick, (), 0, len(legal)))]), chance)
    python = env.to_python(state)
    assert python.current_player() == int(state.current_player)
    assert sorted(python.legal_actions()) == np.flatnonzero(np.asarray(state.legal_action_mask)).tolist()
    assert python.scores() == np.asarray(state._points).tolist()
    for viewer in range(2):
        assert np.allclose(np.asarray(env.observe(state.replace(current_player=jnp.int32(viewer)))),
                           python.observation_tensor(viewer), atol=1e-6)
    back = env.from_python(python)
    for name in ("_bag", "_lid", "_factory", "_centre", "_line_colour", "_line_count", "_wall", "_floor_tiles",
                 "_points", "legal_action_mask", "current_player", "observation"):
        assert np.array_equal(np.asarray(getattr(back, name)), np.asarray(getattr(state, name))), name
    assert "<svg" in state.to_svg() and "Azul" in state.to_svg()
    with pytest.raises(ValueError, match="not of this environment"):
        tileworks.jax.make("azul", players=3).from_python(python)
