"""OpenSpiel's Python MCTSBot on our games (through tileworks.interfaces.openspiel)
against our own mcts agent: simulations per second, same positions, same
number of simulations (prints a table).

Three searches per position: OpenSpiel's MCTSBot with its random-rollout
evaluator (each simulation plays to the end of the game); ours with the
same full random rollouts (``depth=100000``); ours as the levels play it
(rollouts cut at the game's depth and scored by its evaluation).

Usage: python bench/bench_openspiel.py [--simulations 200] [--positions 3] [games...]
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from bench_agents import positions  # run as a script, bench/ is on the path
from tileworks.agents.mcts import MCTSAgent
from tileworks.interfaces import openspiel


def spiel_positions(game: pyspiel.Game, name: str, count: int) -> list:
    """``bench_agents.positions`` (the same positions), as OpenSpiel states."""
    out = []
    for position in positions(name, count):
        state = game.new_initial_state()
        for action in position.history():
            state.apply_action(action)
        out.append(state)
    return out


def rate(search, states: list, simulations: int) -> float:
    start = time.perf_counter()
    for state in states:
        search(state)
    return simulations * len(states) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["kiln", "azul", "tiles", "tuileries"])
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--positions", type=int, default=3)
    args = parser.parse_args()
    openspiel.register()
    n = args.simulations
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}, {n} simulations a decision")
    print(f"{'game':<10} {'OpenSpiel MCTSBot':>18} {'ours, full rollouts':>20} {'ours, as the levels':>20}   simulations/s")
    for name in args.games:
        game = pyspiel.load_game(openspiel.short_name(name))
        states = spiel_positions(game, name, args.positions)
        rng = np.random.RandomState(1)
        bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=n,
                           evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), random_state=rng)
        theirs = rate(bot.step, states, n)
        full = MCTSAgent(seed=1, iterations=n, depth=100_000)
        ours_full = rate(lambda s: (full.restart(), full.step(s.tileworks_state.clone())), states, n)
        cut = MCTSAgent(seed=1, iterations=n)
        ours_cut = rate(lambda s: (cut.restart(), cut.step(s.tileworks_state.clone())), states, n)
        print(f"{name:<10} {theirs:>18,.0f} {ours_full:>20,.0f} {ours_cut:>20,.0f}")


if __name__ == "__main__":
    main()
