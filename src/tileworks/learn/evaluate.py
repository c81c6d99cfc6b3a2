"""How strong a network is: the ``net`` agent (NumPy, no search) against
another agent, seats alternating, every game seeded.

>>> import tileworks
>>> from tileworks.agents.network import Network, init_params
>>> import numpy as np
>>> game = tileworks.load_game("dominoes")
>>> untrained = Network(init_params(np.random.default_rng(0), game.observation_tensor_size(),
...                                 game.num_distinct_actions(), hidden=16, blocks=1))
>>> result = evaluate_against(game, untrained, "random", games=4, seed=1)
>>> result.games, 0 <= result.low <= result.score <= result.high <= 1
(4, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tileworks.agents import make
from tileworks.agents.learned import NetAgent
from tileworks.agents.network import Network
from tileworks.arena import wilson
from tileworks.core import sample_chance


@dataclass
class Result:
    """The network's score (a win 1, a shared win 1/k as the game's returns
    give it, a loss 0), averaged, with its 95% Wilson interval."""

    games: int
    score: float
    low: float
    high: float


def evaluate_against(game: Any, network: Network, opponent: str, games: int, seed: int) -> Result:
    """Play ``games`` games: the network in seat ``i % seats`` of game ``i``,
    the opponent in every other seat (so with three or more seats an even
    match scores 1/seats)."""
    total = 0.0
    seats = game.num_players()
    for index in range(games):
        seat = index % seats
        theirs = [make(opponent, seed=seed * 103 + index + 1_000_003 * k, reproducible=True) for k in range(seats - 1)]
        agents = theirs[:seat] + [NetAgent(seed=seed * 101 + index, network=network)] + theirs[seat:]
        rng = random.Random(seed * 107 + index)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(agents[state.current_player()].step(state))
        total += state.returns()[seat]
    low, high = wilson(total, games) if games else (0.0, 1.0)
    return Result(games, total / games if games else 0.0, low, high)
