"""Every JAX engine against its Python engine: the same game step for step
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
import pytest

import tileworks
import tileworks.jax
from tileworks.core.records import load_position
from tileworks.games.tiles import DISCARD_HEAVY
from tileworks.jax.crosscheck import cross_check

#: each game's default options and others that change its rules or its size
#: (bench/bench_jax.py --check runs more, at full size)
CONFIGS = [
    ("azul", {}), ("azul", {"players": 4}),
    ("azul", {"players": 3, "variant": "grey", "tiebreak": "official"}), ("azul", {"players": 4, "variant": "grey"}),
    ("tuileries", {}), ("tuileries", {"players": 3, "bonus_tile": True}),
    ("tuileries", {"players": 6, "bonus_tile": True, "circles": "b2,g2,b7,g7"}),
    ("tiles", {}), ("tiles", {"players": 3, "tile_set": DISCARD_HEAVY}),
    ("kiln", {}), ("kiln", {"players": 4, "goal": 10, "turn_limit": 60}),
    ("kiln", {"variant": "advanced", "erase_rule": True, "heat_tokens": (5, 8, 14, 17, 19, 23, 26), "goal": 30,
              "turn_limit": 80}),
]
#: a whole game is at least this many decisions: Azul's five rounds or more
#: of drafts, Tuileries' 64 tiles, every Tiles tile but the first (45 by
#: default), and in KILN at least a push and a sale
SHORTEST = {"azul": 40, "tuileries": 64, "tiles": 19, "kiln": 2}


def _name(config):
    game, options = config
    return "-".join([game] + [f"{k}={v if len(str(v)) < 20 else 'custom'}" for k, v in options.items()])


@pytest.fixture(scope="module", params=CONFIGS, ids=_name)
def config(request):
    return request.param


@pytest.fixture(scope="module")
def env(config):
    game, options = config
    return tileworks.jax.make(game, **options)


#: every batched program here plays four games at once, as Pgx's API test
#: does, so that each environment compiles its batched init and step once
BATCH = 4


def test_random_games_agree_with_the_python_engine_at_every_step(env):
    report = cross_check(env, games=6, seed=7, batch=BATCH)
    assert report.disagreements == []
    assert report.games == 6 and report.steps >= 6 * SHORTEST[env.game_name]


def test_the_sizes_pgx_asks_for_are_the_python_engines_and_need_no_game_played(env):
    # (Pgx's own way plays init op by op: 3 to 11 seconds a game on a CPU)
    opening = jax.eval_shape(env.init, jax.random.PRNGKey(0))
    assert env.num_actions == opening.legal_action_mask.shape[0] == env.game.num_distinct_actions()
    assert env.observation_shape == opening.observation.shape == tuple(env.game.observation_tensor_shape())


#: Pgx's API test compiles each environment afresh (half a minute for Azul on
#: two cores), so here it covers one option set of each game, with as many of
#: its options as possible; `bench/bench_jax.py --api-test` runs it on every
#: set above (all pass: docs/performance.md)
API_TESTED = [CONFIGS[i] for i in (2, 6, 8, 11)]


@pytest.mark.parametrize("config", API_TESTED, ids=_name)
def test_pgx_api_test_passes(config, monkeypatch, tmp_path):
    game, options = config
    environment = tileworks.jax.make(game, **options)
    monkeypatch.chdir(tmp_path)
    with tileworks.jax.pgx_api_test_fixed():
        pgx.api_test(environment, num=1)


@pytest.mark.parametrize("game", ["azul", "kiln", "tiles", "tuileries"])
def test_pgx_make_builds_each_game_with_its_default_options(game):
    environment = pgx.make(f"tileworks-{game}")
    assert isinstance(environment, tileworks.jax.TileworksEnv) and environment.id == f"tileworks-{game}"
    assert environment.game.options() == tileworks.load_game(game).options()


@pytest.mark.parametrize("game, options", [("azul", {"players": 3, "variant": "grey"}), ("tuileries", {"bonus_tile": True}),
                                           ("tiles", {}), ("kiln", {"players": 3})])
def test_a_python_game_replays_exactly_with_its_chance_imposed(game, options):
    # (Tuileries, Tiles and KILN: the option sets of their own tests' jitted programs, compiled once)
    env = tileworks.jax.make(game, **options)
    game = tileworks.load_game(game, **options)
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
    assert plies >= 44


@pytest.mark.parametrize("game", ["azul", "tuileries", "tiles", "kiln"])
def test_an_illegal_action_ends_that_game_only_with_a_penalty_for_its_mover(game):
    # a batch as the cross-check's: the same programs, compiled once (make test caches them)
    env = tileworks.jax.make(game)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.PRNGKey(3), BATCH))
    mask = np.asarray(state.legal_action_mask)
    # a colour its factory lacks; a tile not in hand; a far cell; a push from where the outer tile lies
    actions = [int(np.flatnonzero(~mask[0])[0])] + [int(np.flatnonzero(row)[0]) for row in mask[1:]]
    movers = np.asarray(state.current_player)
    after = step(state, jnp.asarray(actions), jax.random.split(jax.random.PRNGKey(4), BATCH))
    assert np.asarray(after.terminated).tolist() == [True] + [False] * (BATCH - 1)
    rewards = np.asarray(after.rewards[0])
    assert rewards[movers[0]] == -1.0 and rewards[1 - movers[0]] == 1.0  # Pgx's rule: the mover loses
    assert np.asarray(after.legal_action_mask[0]).all()  # any action is accepted once over
    again = step(after, jnp.zeros(BATCH, dtype=jnp.int32), jax.random.split(jax.random.PRNGKey(5), BATCH))
    assert bool(again.terminated[0]) and not np.asarray(again.rewards[0]).any()


def test_step_without_a_key_unknown_games_and_options_are_refused_by_name():
    env = tileworks.jax.make("azul")
    with pytest.raises(ValueError, match="PRNG key"):
        env.step(jax.eval_shape(env.init, jax.random.PRNGKey(0)), jnp.int32(0))  # (refused before the state is read)
    with pytest.raises(ValueError, match="no JAX engine for 'chess'"):
        tileworks.jax.make("chess")
    with pytest.raises(ValueError, match="unknown option 'colour' for azul"):
        tileworks.jax.make("azul", colour="red")
    with pytest.raises(ValueError, match="players"):
        tileworks.jax.make("azul", players=5)
    with pytest.raises(ValueError, match="share a side"):
        tileworks.jax.make("tuileries", circles="c3,d3,c6,f6")
    with pytest.raises(ValueError, match="too small"):
        tileworks.jax.make("tiles", tile_set="wwww,gggg")
    with pytest.raises(ValueError, match="the advanced variant is for 2 players"):
        tileworks.jax.make("kiln", players=3, variant="advanced")


@pytest.mark.parametrize("config", API_TESTED, ids=_name)
def test_a_state_crosses_between_the_engines_and_the_observations_agree(config, tmp_path):
    # the option sets of Pgx's API test, whose jitted init and step these are (compiled once under make test)
    game, options = config
    env = tileworks.jax.make(game, **options)
    players = env.num_players
    step, observe = jax.jit(env.step), jax.jit(env.observe)
    state = opening = jax.jit(env.init)(jax.random.PRNGKey(21))
    key = jax.random.PRNGKey(22)
    for _ply in range(30):  # Azul: into the second round; short of the end everywhere
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
    for viewer in range(players):
        seen = observe(state.replace(current_player=jnp.int32(viewer)))
        assert np.allclose(np.asarray(seen), python.observation_tensor(viewer), atol=1e-6)
    back = env.from_python(python)
    assert back._options == state._options
    # every state is typed as the opening is (no weak types): a loop of steps compiles step once
    assert jax.tree.map(jax.typeof, following) == jax.tree.map(jax.typeof, back) == jax.tree.map(jax.typeof, opening)
    for name in state.__dataclass_fields__:
        if name not in ("_chance", "_step_count", "_options", "observation"):  # the last step's draws, Pgx's count
            assert np.array_equal(np.asarray(getattr(back, name)), np.asarray(getattr(state, name))), name
    # compiled, a division by a constant may become a multiplication: the same floats to the last bit or so
    assert np.allclose(np.asarray(back.observation), np.asarray(state.observation), atol=1e-6)
    assert "<svg" in state.to_svg() and state.to_svg() == python.svg()
    state.save_position(tmp_path / "position.json")  # for `tileworks render position.json`
    assert load_position(tmp_path / "position.json") == python
    with pytest.raises(ValueError, match="not of this environment"):
        tileworks.jax.make(game).from_python(python)
