"""Random-play throughput on one core: decisions/s, games/s, and the hot paths.

Usage: python bench/bench_random_play.py [GAME] [--seconds S] [-o KEY=VALUE ...]

Prints figures; it asserts nothing. Record results in docs/performance.md
with the machine and the date.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import random
import sys
import time

import tileworks
from tileworks.core import CHANCE, TERMINAL, sample_chance


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def playouts(game, seconds: float, seed: int = 0):
    """Random games until ``seconds`` pass: (decisions, chance outcomes, games, elapsed)."""
    rng = random.Random(seed)
    decisions = chances = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while True:
            player = state.current_player()
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                chances += 1
            elif player == TERMINAL:
                break
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
    return decisions, chances, games, time.perf_counter() - start


def sample_states(game, count: int, seed: int = 1):
    """Player-decision states met in random games."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if rng.random() < 0.2:
                states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return states


def per_call(fn, items, repeat: int = 5) -> float:
    """Best-of-``repeat`` mean microseconds of ``fn(item)`` over ``items``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter() - start) / len(items))
    return best * 1e6


def hot_paths(game, count: int = 2000):
    states = sample_states(game, count)
    fresh = [s.clone() for s in states]

    def legal(state):
        state._legal = None  # measure generation, not the cache
        return state.legal_actions()

    choices = [(s.clone(), s.legal_actions()[len(s.legal_actions()) // 2]) for s in states]

    def apply(pair):
        state, action = pair
        state.clone().apply_action(action)

    return {
        "legal_actions": per_call(legal, fresh),
        "clone": per_call(lambda s: s.clone(), states),
        "clone+apply_action": per_call(apply, choices),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="kiln")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("-o", "--option", action="append", default=[], help="KEY=VALUE")
    args = parser.parse_args()
    options = dict(pair.split("=", 1) for pair in args.option)
    from tileworks.cli.main import parse_options

    game = tileworks.load_game(args.game, **parse_options(args.game, [f"{k}={v}" for k, v in options.items()]))
    print(f"# {game!r}")
    print(f"# {datetime.date.today()}  {cpu_model()}  {os.cpu_count()} cores  "
          f"Python {platform.python_version()} ({platform.python_implementation()})  {sys.platform}")
    decisions, chances, games, elapsed = playouts(game, args.seconds)
    print(f"random playouts, one core, {elapsed:.1f} s:")
    print(f"  {decisions / elapsed:12,.0f} decisions/s   (player actions)")
    print(f"  {(decisions + chances) / elapsed:12,.0f} actions/s     (chance outcomes included)")
    print(f"  {games / elapsed:12,.1f} games/s       ({decisions / max(games, 1):.0f} decisions a game)")
    print("hot paths (mean per call over sampled decision states):")
    for name, micros in hot_paths(game).items():
        print(f"  {name:20s} {micros:8.2f} µs")


if __name__ == "__main__":
    main()
