"""MCTS speed on each game: iterations per second, and seconds per decision
of each level (prints figures).

Usage: python bench/bench_agents.py [--levels beginner,easy,medium,hard,expert] [--positions 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import tileworks
from tileworks.agents import make
from tileworks.core import sample_chance
from tileworks.core.registry import registered_games


def positions(name: str, count: int, seed: int = 0):
    """Decision points reached by random play, a few moves apart (over as
    many games as that takes: a short game, such as the dominoes plugin's,
    may offer none with a choice)."""
    game = tileworks.load_game(name)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while len(out) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1 and rng.random() < 0.3:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


def iterations_per_second(states, iterations: int = 200) -> float:
    """MCTS iterations per second, one fresh search of ``iterations`` a state."""
    start = time.perf_counter()
    for i, state in enumerate(states):
        make(f"mcts:iterations={iterations}", seed=i).step(state)
    return iterations * len(states) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="beginner,easy,medium,hard")
    parser.add_argument("--positions", type=int, default=3)
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d')}: MCTS iterations per second (default depth, 200 iterations a decision)")
    for info in registered_games():
        rate = iterations_per_second(positions(info.name, args.positions))
        print(f"{info.name:10s} {rate:8.0f} iterations/s")
    print(f"# seconds per decision (mean and max over {args.positions} positions)")
    for info in registered_games():
        states = positions(info.name, args.positions)
        for level in args.levels.split(","):
            times = []
            for i, state in enumerate(states):
                agent = make(f"mcts:{level}", seed=i)
                start = time.perf_counter()
                agent.step(state)
                times.append(time.perf_counter() - start)
            print(f"{info.name:10s} {level:9s} mean {statistics.mean(times):6.2f} s  max {max(times):6.2f} s")


if __name__ == "__main__":
    main()
