"""Every tileworks game as a PettingZoo AEC environment.

>>> from tileworks.interfaces import pettingzoo
>>> env = pettingzoo.env("kiln", goal=10)
>>> env.reset(seed=1)
>>> env.agent_selection in env.agents
True
>>> observation, reward, termination, truncation, info = env.last()
>>> sorted(observation), observation["observation"].shape
(['action_mask', 'observation'], (360,))

Agents are ``player_0``, ``player_1``, ... in seat order. Each observes
``{"observation", "action_mask"}``: the seat's observation tensor (see the
game's rules document) and a 0/1 mask over every action id. Chance (setup,
deals, draws) is resolved inside the environment with a generator seeded
by ``reset(seed=...)``. Rewards come at the end: the game's returns (1 for
a win, shared on a tie). An illegal action raises ``IllegalActionError``
and changes nothing. ``render()`` is the table as text, as a spectator sees
it (no hidden hand).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tileworks.agents.learned import observation_array
from tileworks.core import SPECTATOR, State, load_game
from tileworks.interfaces.common import action_id, action_mask, action_mask_space, observation_space, resolve_chance


class TileworksEnv(AECEnv):
    """One tileworks game, its options fixed, as an AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; render modes: ansi, human")
        self.game = load_game(game, **options)
        self.metadata = {**self.metadata, "name": f"tileworks_{game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players())]
        space = spaces.Dict({"observation": observation_space(self.game), "action_mask": action_mask_space(self.game)})
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.game.num_distinct_actions()) for agent in self.possible_agents}
        self.state: State | None = None
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        resolve_chance(self.state, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        return {"observation": observation_array(self.state, seat), "action_mask": action_mask(self.state, seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply_action(action_id(action))  # an illegal action raises here, changing nothing
        self._cumulative_rewards[agent] = 0.0
        resolve_chance(self.state, self._rng)
        if self.state.is_terminal():
            for agent_name, value in zip(self.possible_agents, self.state.returns(), strict=True):
                self.rewards[agent_name] = value
                self.terminations[agent_name] = True
            self._accumulate_rewards()
            # every agent gets its last observation and reward, in seat order
            self.agent_selection = self.agents[0]
        else:
            self.rewards = {agent_name: 0.0 for agent_name in self.agents}
            self.agent_selection = self.possible_agents[self.state.current_player()]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = self.state.observation_string(SPECTATOR)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        # nothing to release; PettingZoo's api_test requires an environment that renders to define close
        pass


def env(game: str, render_mode: str | None = None, **options: Any) -> TileworksEnv:
    """The AEC environment of ``game`` with these options (as ``load_game`` takes them)."""
    return TileworksEnv(game, render_mode=render_mode, **options)
