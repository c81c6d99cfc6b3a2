"""Speed of training by self-play (``tileworks train``'s iterations): the
first iteration (compiling included) and the mean of the later ones, with
the self-play and the learning timed apart.

Usage:
  python bench/bench_training.py [GAME ...] [--iterations 6] [--games N] [--steps N]
                                 [--simulations N] [--hidden N] [--blocks N] [--batch N] [--epochs N]

Trains into a temporary folder from scratch, seeded, with no evaluation
games, at ``tileworks train``'s own sizes unless told others. To compare two checkouts, run this file with each one's ``src`` first
on ``PYTHONPATH``. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(__file__))
from bench_random_play import cpu_model  # noqa: E402

import jax  # noqa: E402

from tileworks.learn.train import Trainer, TrainConfig  # noqa: E402


def timed_iterations(game: str, iterations: int, **sizes: int) -> tuple[float, list[float], list[float], int]:
    """Seconds of the first iteration, then of each later one, and the
    later ones' learning seconds (the rest is self-play and targets)."""
    with tempfile.TemporaryDirectory() as folder:
        if "simulations" in sizes:
            sizes.setdefault("considered", sizes["simulations"])
        config = TrainConfig(game, iterations=iterations, checkpoint_every=10**6, eval_every=10**6, eval_games=0,
                             seed=1, **sizes)
        trainer = Trainer(config, Path(folder))
        spent = [0.0]

        def waited(run: Any, counted: bool) -> Any:
            """``run``, returning when its results are ready (JAX runs it
            asynchronously), its seconds counted as learning or not."""
            def call(*args: Any, **keywords: Any) -> Any:
                started = time.perf_counter()
                found = jax.block_until_ready(run(*args, **keywords))
                spent[0] += (time.perf_counter() - started) * counted
                return found
            return call

        trainer.play, trainer.value_targets = waited(trainer.play, False), waited(trainer.value_targets, False)
        trainer.learn = waited(trainer.learn, True)
        seconds, learning = [], []
        for _ in range(iterations):
            spent[0] = 0.0
            started = time.perf_counter()
            trainer.step()
            jax.block_until_ready(trainer.params)
            seconds.append(time.perf_counter() - started)
            learning.append(spent[0])
    return seconds[0], seconds[1:], learning[1:], config.games * config.steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", default=["azul"], metavar="GAME")
    parser.add_argument("--iterations", type=int, default=6)
    names = ("games", "steps", "simulations", "hidden", "blocks", "batch", "epochs")
    for name in names:
        parser.add_argument(f"--{name}", type=int, help=f"TrainConfig's {name} (its default if not given)")
    args = parser.parse_args()
    sizes = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    print(f"{datetime.date.today()}, {cpu_model()} ({os.cpu_count()} cores), {platform.python_version()}, "
          f"JAX {jax.__version__} on {jax.default_backend()}; sizes {sizes or 'as tileworks train'}")
    print(f"{'game':10} {'first s':>8} {'later s':>8} {'learning s':>10} {'decisions/s':>11}")
    for game in args.names:
        first, later, learning, decisions = timed_iterations(game, args.iterations, **dict(sizes))
        mean = statistics.mean(later)
        print(f"{game:10} {first:>8.2f} {mean:>8.3f} {statistics.mean(learning):>10.3f} "
              f"{decisions / mean:>11.0f}", flush=True)


if __name__ == "__main__":
    main()
