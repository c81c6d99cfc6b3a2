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

Each seat's thinking time is measured too (``seconds``, over the decisions
that were a choice, ``timed``): it is the only part of a game that depends
on the machine, and it tells whether two agents had equal time a move.

>>> sum(first.timed) == sum(1 for n in first.choices if n > 1)
True
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from tileworks.agents import make
from tileworks.core import Game, State, sample_chance


@dataclass
class Played:
    """A finished game and what was seen on the way.

    ``turns`` counts runs of decisions by one seat (an extra turn by the
    same seat continues its turn); ``trajectory`` holds every seat's score
    at the end of each turn; ``first_player`` is the seat that made the
    first decision (chance picks it in some games); ``choices`` is the
    number of legal actions at each decision (1: a forced move).
    ``seconds[s]`` is the time seat ``s``'s agent took over its ``timed[s]``
    decisions that were a choice (a forced move is not timed).
    """

    state: State
    decisions: int
    turns: int
    trajectory: list[list[float]]
    first_player: int
    choices: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    timed: list[int] = field(default_factory=list)


def play_seeded(game: Game, specs: list[str], seed: int) -> Played:
    """Play ``game`` with the agent ``specs[s]`` in seat ``s``, fixed by ``seed``."""
    agents = [make(spec, seed=seed * 7 + seat, reproducible=True) for seat, spec in enumerate(specs)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    trajectory: list[list[float]] = []
    mover = first = None
    choices: list[int] = []
    seconds, timed = [0.0] * len(specs), [0] * len(specs)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        player = state.current_player()
        if first is None:
            first = player
        if mover is not None and player != mover:
            trajectory.append([float(s) for s in state.scores()])
        mover = player
        choices.append(len(state.legal_actions()))
        started = time.perf_counter()
        action = agents[player].step(state)
        if choices[-1] > 1:
            seconds[player] += time.perf_counter() - started
            timed[player] += 1
        state.apply_action(action)
        decisions += 1
    if mover is not None:
        trajectory.append([float(s) for s in state.scores()])
    return Played(state, decisions, len(trajectory), trajectory, 0 if first is None else first, choices, seconds,
                  timed)


def first_mover(game: Game, seed: int) -> int:
    """The seat that makes the first decision of the game ``seed`` fixes
    (what :func:`play_seeded` would find), from the set-up's chance alone.

    >>> import tileworks
    >>> game = tileworks.load_game("tuileries", players=4)
    >>> [first_mover(game, seed) for seed in range(6)] == [play_seeded(game, ["random"] * 4, seed).first_player
    ...                                                     for seed in range(6)]
    True
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    return 0 if state.is_terminal() else state.current_player()
