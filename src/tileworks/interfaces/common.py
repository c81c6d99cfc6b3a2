"""What the PettingZoo and Gymnasium adapters share: arrays and spaces
from a state, and chance resolved from the environment's seed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces

from tileworks.core import Game, State, sample_chance


def observation_space(game: Game) -> spaces.Box:
    """The observation tensor's space: floats in [0, 1]."""
    return spaces.Box(0.0, 1.0, shape=tuple(game.observation_tensor_shape()), dtype=np.float32)


def action_mask_space(game: Game) -> spaces.Box:
    """The action mask's space: 0 or 1 per action id."""
    return spaces.Box(0, 1, shape=(game.num_distinct_actions(),), dtype=np.int8)


def action_mask(state: State, seat: int) -> np.ndarray:
    """1 for each action ``seat`` may take now (all 0 when it is not their turn)."""
    mask = np.zeros(state.game().num_distinct_actions(), dtype=np.int8)
    if not state.is_chance_node():
        mask[state.legal_actions(seat)] = 1
    return mask


def resolve_chance(state: State, rng: random.Random) -> None:
    """Play chance outcomes, drawn with their probabilities, until a seat must decide or the game ends."""
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))


def seeded_rng(np_random: np.random.Generator) -> random.Random:
    """A Python RNG drawn from the environment's seeded NumPy generator."""
    return random.Random(int(np_random.integers(2**63)))


def action_id(action: Any) -> int:
    """An action as a Python int (NumPy integers included)."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an integer action id, not {action!r}")
    return int(action)
