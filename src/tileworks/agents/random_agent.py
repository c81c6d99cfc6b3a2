"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

from tileworks.agents.base import Agent
from tileworks.core import State


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    name = "random"

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if not legal:
            raise ValueError(f"no legal action to choose: {state.decision()}")
        return legal[self.rng.randrange(len(legal))]
