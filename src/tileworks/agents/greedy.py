"""The greedy agent: one decision of lookahead with the game's evaluation."""

from __future__ import annotations

from tileworks.agents.base import Agent
from tileworks.core import State


class GreedyAgent(Agent):
    """Tries every legal action and keeps the one whose resulting position
    ``State.evaluate`` rates best for the mover (points now plus the features
    each game's heuristics define); ties are broken by the agent's RNG.

    ``evaluate`` reads only what the mover may see, so the agent never cheats.
    """

    name = "greedy"

    def _choose(self, state: State, legal: list[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        best: list[int] = []
        best_value = float("-inf")
        for action, value in zip(legal, state.evaluate_after(legal, state.current_player()), strict=True):
            if value > best_value + 1e-9:
                best, best_value = [action], value
            elif value >= best_value - 1e-9:
                best.append(action)
        return best[self.rng.randrange(len(best))]
