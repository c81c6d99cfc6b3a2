"""Gymnasium: each game, one seat against tileworks agents, passes
Gymnasium's own environment checker and plays whole games."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from tileworks import IllegalActionError  # noqa: E402
from tileworks.interfaces import gymnasium as tw_gymnasium  # noqa: E402

GAMES = ["kiln", "azul", "tiles", "tuileries"]


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("name", GAMES)
def test_check_env(name, capsys):
    check_env(tw_gymnasium.make(name, opponents="greedy").unwrapped)


def test_check_env_with_three_players_and_a_search_opponent():
    check_env(tw_gymnasium.make("azul", opponents="mcts:iterations=20,greedy", players=3, seat=1).unwrapped)


def play(env, seed):
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards = []
    while True:
        assert observation.shape == env.observation_space.shape
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        if terminated or truncated:
            return rewards, terminated


@pytest.mark.parametrize("name, options", [("kiln", {"goal": 8}), ("azul", {}), ("tiles", {}), ("tuileries", {})])
def test_whole_games_pay_the_seat_its_return(name, options):
    env = tw_gymnasium.make(name, opponents="random", **options)
    rewards, terminated = play(env, seed=5)
    state = env.unwrapped.state
    assert terminated and state.is_terminal()
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == state.returns()[0]


def test_a_seeded_episode_replays_exactly():
    histories = []
    for _ in range(2):
        env = tw_gymnasium.make("tuileries", opponents="mcts:iterations=30")
        play(env, seed=11)
        histories.append(env.unwrapped.state.history())
    assert histories[0] == histories[1]


def test_illegal_action_loses_the_episode_by_default():
    env = tw_gymnasium.make("azul", opponents="greedy")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (tw_gymnasium.ILLEGAL_REWARD, True, False)
    assert "not legal" in info["illegal_action"]


def test_illegal_action_can_raise_instead_and_change_nothing():
    env = tw_gymnasium.make("azul", opponents="greedy", illegal_action="raise")
    _, info = env.reset(seed=1)
    before = env.unwrapped.state.to_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.unwrapped.state.to_json() == before


@pytest.mark.parametrize("kwargs, message", [
    ({"opponents": "greedy,random"}, "1 opponents needed"),
    ({"opponents": "grumpy"}, "unknown agent"),
    ({"seat": 2}, "not a seat"),
    ({"illegal_action": "ignore"}, "illegal_action"),
    ({"colours": 4}, "unknown option"),
])
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tw_gymnasium.make("azul", **{"opponents": "random", **kwargs})


def test_registered_ids():
    ids = tw_gymnasium.register()
    assert "tileworks/kiln-v0" in ids
    env = gymnasium.make("tileworks/kiln-v0", opponents="greedy")
    assert env.action_space.n == 174
