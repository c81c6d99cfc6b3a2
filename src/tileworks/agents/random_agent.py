"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

from tileworks.agents.base import Agent
from tileworks.core import State


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    name = "random"

    def _choose(self, state: State, legal: list[int]) -> int:
        return legal[self.rng.randrange(len(legal))]
