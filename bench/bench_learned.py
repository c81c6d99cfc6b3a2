"""Speed of the learned agents: milliseconds a move for ``net`` and
``alpha``, and whole games a second of ``net`` against ``net`` across
worker processes, as the balance lab plays them (seeded games through
``tileworks.arena.playing.play_seeded``, on the arena's and the lab's
``LocalRunner``).

Usage:
  python bench/bench_learned.py [GAME ...] [--count 400] [--workers 2] [--alpha-moves 20] [--also mcts:medium]

``alpha`` searches as it plays by default (with the rollout share its
network ships with); ``--also`` times other specs on the same positions.

Uses each game's shipped network for 2 players. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from bench_random_play import cpu_model  # noqa: E402

import tileworks  # noqa: E402
from tileworks.agents import make, split_specs  # noqa: E402
from tileworks.agents.network import one_thread_for_products  # noqa: E402
from tileworks.arena.playing import play_seeded  # noqa: E402
from tileworks.arena.runners import LocalRunner  # noqa: E402
from tileworks.core import sample_chance  # noqa: E402


def move_times(game: str, spec: str, moves: int) -> list[float]:
    """Seconds for each of ``moves`` decisions (with a choice) of ``spec`` in positions of self-play."""
    state = tileworks.load_game(game).new_initial_state()
    agent = make(spec, seed=1)
    rng = random.Random(1)
    times = []
    with one_thread_for_products():  # as a worker or a game in the terminal reads it
        while len(times) < moves:
            if state.is_terminal():
                state = tileworks.load_game(game).new_initial_state()
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            started = time.perf_counter()
            action = agent.step(state)
            if len(state.legal_actions()) > 1:  # a forced move costs nothing: time the real choices
                times.append(time.perf_counter() - started)
            state.apply_action(action if rng.random() < 0.8 else rng.choice(state.legal_actions()))
    return times


def play_many(job: tuple[str, int, int]) -> int:
    game, first, count = job
    loaded = tileworks.load_game(game)
    for seed in range(first, first + count):
        play_seeded(loaded, ["net", "net"], seed)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=["azul"])
    parser.add_argument("--count", type=int, default=400, help="games of net against net")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--alpha-moves", type=int, default=20)
    parser.add_argument("--also", default="", help="more specs to time as alpha is, e.g. mcts:medium")
    args = parser.parse_args()
    print(f"# {datetime.date.today()}  {cpu_model()}  python {platform.python_version()}  workers {args.workers}")
    for game in args.games:
        net = move_times(game, "net", 300)
        print(f"{game}: net {statistics.median(net) * 1e3:.2f} ms a move (median of 300; p95 "
              f"{sorted(net)[int(0.95 * len(net))] * 1e3:.2f} ms)")
        if args.alpha_moves:
            alpha = move_times(game, "alpha:iterations=800", args.alpha_moves)
            print(f"{game}: alpha:iterations=800 {statistics.median(alpha):.2f} s a move (median of {args.alpha_moves})")
        for spec in split_specs(args.also):
            other = move_times(game, spec, args.alpha_moves or 20)
            print(f"{game}: {spec} {statistics.median(other):.2f} s a move (median of {len(other)})")
        per = args.count // args.workers
        started = time.perf_counter()
        played = sum(LocalRunner(args.workers).results(play_many, [(game, w * per, per) for w in range(args.workers)]))
        seconds = time.perf_counter() - started
        print(f"{game}: net against net, {played} seeded games on {args.workers} processes: {played / seconds:.1f} games/s")


if __name__ == "__main__":
    main()
