"""One game's evaluation cost and search speed, quick enough to run before
and after a change to its heuristics (prints figures): microseconds per
``evaluate(seat)`` call and MCTS iterations per second at the game's own
rollout depth, on positions met in random play.

Usage: python bench/bench_game_search.py GAME [--positions 20] [--iterations 400]
"""

from __future__ import annotations

import argparse
import time

from bench_agents import positions  # run as a script, bench/ is on the path

from tileworks.agents import make


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=400)
    args = parser.parse_args()
    states = positions(args.game, args.positions)
    seats = range(states[0].game().num_players())
    start = time.perf_counter()
    for _ in range(20):
        for state in states:
            for seat in seats:
                state.evaluate(seat)
    per_call = (time.perf_counter() - start) / (20 * len(states) * len(seats)) * 1e6
    agent = make(f"mcts:iterations={args.iterations}", seed=1)
    searched = states[: max(1, len(states) // 2)]
    start = time.perf_counter()
    for state in searched:
        agent.restart()
        agent.step(state)
    rate = len(searched) * args.iterations / (time.perf_counter() - start)
    print(f"{args.game}: evaluate {per_call:.1f} µs a call; mcts {rate:,.0f} iterations/s at depth {states[0].rollout_depth()}")


if __name__ == "__main__":
    main()
