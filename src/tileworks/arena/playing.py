"""Play one seeded game between agents: shared by the arena and the balance lab.

A game is fixed by its seed: chance draws from ``random.Random(seed)`` and
the agent in seat ``s`` is seeded with ``seed * 7 + s``. Agents run without
time caps (:func:`tileworks.agents.make` with ``reproducible=True``), so the
same seed plays the same game on any machine, in any process.

>>> import tileworks
>>> game = tileworks.load_game("azul")
>>> first = play_seeded(game, ["greedy", "random"], seed=5)
>>> again = play_seeded(game, ["greedy", "random"], seed=5)
>>> first.state.history() == again.state.history()
True
>>> first.turns == len(first.trajectory)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tileworks.agents import make
from tileworks.core import Game, State, sample_chance


@dataclass
class Played:
    """A finished game and what was seen on the way.

    ``turns`` counts runs of decisions by one seat (an extra turn by the
    same seat continues its turn); ``trajectory`` holds every seat's score
    at the end of each turn.
    """

    state: State
    decisions: int
    turns: int
    trajectory: list[list[float]]


def play_seeded(game: Game, specs: list[str], seed: int) -> Played:
    """Play ``game`` with the agent ``specs[s]`` in seat ``s``, fixed by ``seed``."""
    agents = [make(spec, seed=seed * 7 + seat, reproducible=True) for seat, spec in enumerate(specs)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    trajectory: list[list[float]] = []
    mover = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        player = state.current_player()
        if mover is not None and player != mover:
            trajectory.append([float(s) for s in state.scores()])
        mover = player
        state.apply_action(agents[player].step(state))
        decisions += 1
    if mover is not None:
        trajectory.append([float(s) for s in state.scores()])
    return Played(state, decisions, len(trajectory), trajectory)
