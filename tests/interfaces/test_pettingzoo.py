"""PettingZoo: each game's AEC environment passes PettingZoo's own API and
seed tests, plays whole games by the action mask, refuses illegal actions
without changing anything, and renders no hidden hand."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tileworks import IllegalActionError  # noqa: E402
from tileworks.interfaces import pettingzoo as tw_pettingzoo  # noqa: E402

GAMES = ["kiln", "azul", "tiles", "tuileries"]


@pytest.mark.filterwarnings("ignore:Observation")  # PettingZoo warns about every dict observation
@pytest.mark.parametrize("name", GAMES)
def test_api_test(name):
    api_test(tw_pettingzoo.env(name), num_cycles=1000)


@pytest.mark.parametrize("name", GAMES)
def test_seed_test(name):
    seed_test(lambda: tw_pettingzoo.env(name), num_cycles=300)


def play_to_the_end(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {agent: 0.0 for agent in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _info = env.last()
        total[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
        steps += 1
    return total, steps


@pytest.mark.parametrize("name, options", [("kiln", {"goal": 8}), ("azul", {"players": 3}), ("tiles", {}),
                                           ("tuileries", {"players": 4})])
def test_whole_games_end_with_the_game_returns(name, options):
    env = tw_pettingzoo.env(name, **options)
    total, steps = play_to_the_end(env, seed=4)
    assert steps > 0 and env.agents == []
    assert env.state.is_terminal()
    assert [total[a] for a in env.possible_agents] == pytest.approx(env.state.returns())
    assert sum(total.values()) == pytest.approx(1.0)


def test_same_seed_same_game():
    first, _ = play_to_the_end(env_a := tw_pettingzoo.env("tuileries"), seed=9)
    second, _ = play_to_the_end(env_b := tw_pettingzoo.env("tuileries"), seed=9)
    assert env_a.state.history() == env_b.state.history() and first == second


def test_observations_show_only_the_agents_own_hand():
    env = tw_pettingzoo.env("tuileries")
    env.reset(seed=2)
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    hand_segment = slice(12 * 64 + 64, 12 * 64 + 128)
    own = env.observe(agent)["observation"][hand_segment]
    assert own.sum() == len(env.state.hands[seat])
    other = env.possible_agents[1 - seat]
    assert env.observe(other)["observation"][hand_segment].sum() == len(env.state.hands[1 - seat])
    assert env.observe(other)["action_mask"].sum() == 0  # not their turn


def test_illegal_action_raises_and_changes_nothing():
    env = tw_pettingzoo.env("azul")
    env.reset(seed=1)
    before = env.state.to_json()
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    assert env.state.to_json() == before and env.agent_selection == agent
    with pytest.raises(TypeError, match="action id"):
        env.step("3r2")


def test_render_is_the_public_table():
    env = tw_pettingzoo.env("tiles", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text == env.state.observation_string(-2)  # the spectator's table: hand sizes, no tiles
    assert text != env.state.observation_string(0)  # which the first seat would see with its hand
    with pytest.raises(ValueError, match="render_mode"):
        tw_pettingzoo.env("tiles", render_mode="rgb_array")
    with pytest.raises(ValueError, match="unknown option"):
        tw_pettingzoo.env("tiles", colours=4)
