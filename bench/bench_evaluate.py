"""Cost of each game's heuristic evaluation (prints figures): microseconds per
``evaluate(seat)`` call, and per move for ``evaluate_after`` over all the
mover's legal moves (the one-step look greedy plays by and MCTS orders by).

Usage: python bench/bench_evaluate.py [--positions 40] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

from bench_agents import positions  # run as a script, bench/ is on the path

from tileworks.core.registry import registered_games


def measure(states, repeat: int) -> tuple[float, float]:
    """(µs per evaluate call, µs per move of evaluate_after), best of ``repeat``."""
    seats = range(states[0].game().num_players())
    calls = len(states) * len(seats)
    moves = sum(len(state.legal_actions()) for state in states)
    per_call = per_move = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for state in states:
            for seat in seats:
                state.evaluate(seat)
        per_call = min(per_call, (time.perf_counter() - start) / calls * 1e6)
        start = time.perf_counter()
        for state in states:
            state.evaluate_after(state.legal_actions(), state.current_player())
        per_move = min(per_move, (time.perf_counter() - start) / moves * 1e6)
    return per_call, per_move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d')}: heuristic evaluation, best of {args.repeat}")
    for info in registered_games():
        states = []
        seed = 0
        while len(states) < args.positions:  # several random games: one may be short
            states += positions(info.name, args.positions - len(states), seed=seed)
            seed += 1
        per_call, per_move = measure(states, args.repeat)
        print(f"{info.name:10s} evaluate {per_call:8.1f} us   evaluate_after {per_move:7.2f} us a move")


if __name__ == "__main__":
    main()
