"""What do the teacher's decisions cost a training run? ``tileworks train
--imitate greedy`` plays the teacher's games on every core, brings their
decisions back to the trainer and keeps them for the whole run (the anchor
draws from them each iteration). This plays ``--games`` of them as the
trainer does (``Positions.of``) and prints

- the time to play and gather them, on ``--workers`` processes;
- the memory their observations hold, in all and per decision, beside
  what the same observations take as a dense float32 array;
- the time to make one chunk of the training loop's arrays from them
  (``Positions.arrays``, :data:`~tileworks.learn.imitate.CHUNK` positions
  drawn at random), as the imitation and each anchored iteration do.

Usage:
  python bench/bench_teacher.py GAME [-o option=value ...] [--games 100] [--workers N] [--teacher greedy]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from bench_random_play import cpu_model  # noqa: E402

import tileworks  # noqa: E402
from tileworks.cli.main import parse_options  # noqa: E402
from tileworks.learn.imitate import CHUNK, Positions  # noqa: E402
from tileworks.learn.train import TrainConfig  # noqa: E402


def held_bytes(observations) -> int:
    """The bytes an observations array holds, dense or sparse."""
    if isinstance(observations, np.ndarray):
        return observations.nbytes
    return sum(part.nbytes for part in (observations.data, observations.indices, observations.indptr))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--teacher", default="greedy")
    args = parser.parse_args(argv)

    options = parse_options(args.game, args.option)
    game = tileworks.load_game(args.game, **options)
    slots = TrainConfig(args.game, options).slots
    print(f"{datetime.date.today()}, {cpu_model()} ({os.cpu_count()} cores), Python {platform.python_version()}")
    started = time.perf_counter()
    positions = Positions.of(game, args.teacher, args.games, seed=0, workers=args.workers)
    gathered = time.perf_counter() - started
    count, size = len(positions), game.observation_tensor_size()
    held, dense = held_bytes(positions.observations), count * size * 4
    print(f"{args.game}: {args.games} games of {args.teacher}, {count:,} decisions, gathered on {args.workers} "
          f"processes in {gathered:.1f} s")
    print(f"  observations: {held / 1e6:.1f} MB held ({held / count:,.0f} bytes a decision); "
          f"dense float32: {dense / 1e6:.1f} MB ({size * 4:,} bytes a decision)")
    rng = np.random.default_rng(0)
    indices = rng.choice(count, CHUNK, replace=CHUNK > count)
    positions.arrays(indices, game.num_distinct_actions(), slots)
    started = time.perf_counter()
    for _ in range(3):
        positions.arrays(indices, game.num_distinct_actions(), slots)
    print(f"  a chunk of {CHUNK:,} positions' arrays: {(time.perf_counter() - started) / 3 * 1000:.0f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
