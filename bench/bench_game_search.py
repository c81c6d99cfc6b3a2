"""One game's evaluation cost and search speed, quick enough to run before
and after a change to its heuristics (prints figures): microseconds per
``evaluate(seat)`` call (best of ``--repeat``, as in bench_evaluate.py) and
MCTS iterations per second at the game's own rollout depth (as in
bench_agents.py), on positions met in random play.

Usage: python bench/bench_game_search.py GAME [--positions 20] [--iterations 400]
"""

from __future__ import annotations

import argparse

from bench_agents import iterations_per_second, positions  # run as a script, bench/ is on the path
from bench_evaluate import measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    states = positions(args.game, args.positions)
    per_call, _ = measure(states, args.repeat)
    rate = iterations_per_second(states[: max(1, len(states) // 2)], args.iterations)
    print(f"{args.game}: evaluate {per_call:.1f} µs a call; mcts {rate:,.0f} iterations/s at depth {states[0].rollout_depth()}")


if __name__ == "__main__":
    main()
