"""Every tileworks game as a single-agent Gymnasium environment.

>>> from tileworks.interfaces import gymnasium
>>> env = gymnasium.make("azul", opponents="random")
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["action_mask"].shape
((384,), (185,))

The learner holds one seat (``seat``, default 0); the other seats are
tileworks agents named by their specs (``opponents``: one spec for all, or
one per other seat, e.g. ``"mcts:easy,greedy"`` for three players). Chance
and the opponents' moves are played inside ``step`` until the learner must
decide again or the game ends. The observation is the seat's observation
tensor; ``info["action_mask"]`` marks the legal action ids. The reward is 0
until the end, then the game's return (1 for a win, shared on a tie).

An illegal action ends the episode with reward −1 and the reason in
``info["illegal_action"]``, the usual convention for masked environments
(``illegal_action="raise"`` raises ``IllegalActionError`` instead, changing
nothing).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from tileworks import agents as tw_agents
from tileworks.agents.learned import observation_array
from tileworks.core import IllegalActionError, State, load_game
from tileworks.interfaces.common import action_id, action_mask, observation_space, resolve_chance, seeded_rng

ILLEGAL_REWARD = -1.0


class TileworksEnv(gymnasium.Env):
    """One seat of a tileworks game against tileworks agents."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, game: str, opponents: str = "random", seat: int = 0, illegal_action: str = "lose",
                 render_mode: str | None = None, **options: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}; render modes: ansi, human")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"unknown illegal_action {illegal_action!r}; choose lose or raise")
        self.game = load_game(game, **options)
        players = self.game.num_players()
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat {seat!r} is not a seat of this game: 0-{players - 1}")
        specs = tw_agents.split_specs(opponents)
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"{players - 1} opponents needed (one spec for all, or one per other seat), got {len(specs)}")
        self.opponent_specs = specs
        self.opponents = {q: tw_agents.make(spec) for q, spec in zip([q for q in range(players) if q != seat], specs)}
        self.seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.state: State | None = None

    def _play_others(self) -> None:
        state = self.state
        while True:
            resolve_chance(state, self._rng)
            if state.is_terminal() or state.current_player() == self.seat:
                return
            state.apply_action(self.opponents[state.current_player()].step(state))

    def _result(self) -> tuple[np.ndarray, dict[str, Any]]:
        return observation_array(self.state, self.seat), {"action_mask": action_mask(self.state, self.seat)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._rng = seeded_rng(self.np_random)
        for _seat, agent in sorted(self.opponents.items()):
            agent.seed = self._rng.randrange(2**63)  # opponents replay exactly from a seeded reset
            agent.restart()
        self.state = self.game.new_initial_state()
        self._play_others()
        if self.render_mode == "human":
            self.render()
        return self._result()

    def step(self, action: Any):
        if self.state is None or self.state.is_terminal():
            raise RuntimeError("the episode is over: call reset()")
        try:
            self.state.apply_action(action_id(action))
        except (IllegalActionError, TypeError) as exc:
            if self.illegal_action == "raise":
                raise
            obs, info = self._result()
            info["illegal_action"] = str(exc)
            self.state = None
            return obs, ILLEGAL_REWARD, True, False, info
        self._play_others()
        done = self.state.is_terminal()
        reward = float(self.state.returns()[self.seat]) if done else 0.0
        if self.render_mode == "human":
            self.render()
        obs, info = self._result()
        return obs, reward, done, False, info

    def render(self) -> str | None:
        if self.state is None:
            return None
        text = self.state.observation_string(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def make(game: str, opponents: str = "random", seat: int = 0, **kwargs: Any) -> gymnasium.Env:
    """``gymnasium.make`` of ``game`` for ``seat`` against ``opponents``
    (agent specs), with Gymnasium's usual wrappers; other keywords are
    ``illegal_action``, ``render_mode`` and the game's options."""
    register()
    return gymnasium.make(f"tileworks/{game}-v0", opponents=opponents, seat=seat, **kwargs)


def register() -> list[str]:
    """Register ``tileworks/GAME-v0`` ids with Gymnasium, so that
    ``gymnasium.make("tileworks/kiln-v0", opponents="greedy")`` works."""
    from tileworks.core.registry import registered_games

    ids = []
    for info in registered_games():
        env_id = f"tileworks/{info.name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=TileworksEnv, kwargs={"game": info.name})
        ids.append(env_id)
    return ids

