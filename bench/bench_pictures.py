"""Drawing the table: milliseconds a picture (SVG, wide and narrow) in
random games of each game, as the server draws them: every position where a
player decides, in the order of play, each once (a renderer may reuse what
did not change since the position before).

    .venv/bin/python bench/bench_pictures.py [--games 10]

Prints figures; asserts nothing. To compare two commits, run each
checkout's copy (it draws with the ``src`` beside it) in one sitting.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
import tileworks  # noqa: E402


def positions(name: str, games: int, seed: int = 1) -> list:
    """Every position where a player decides, in ``games`` random games, in
    the order of play."""
    game, rng, found = tileworks.load_game(name), random.Random(seed), []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choices(*zip(*state.chance_outcomes()))[0]
            else:
                found.append(state.clone())
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="random games of each game")
    args = parser.parse_args()
    print(f"{'game':10} {'positions':>9} {'wide ms':>8} {'narrow ms':>10} {'kB':>5}")
    for name in ("kiln", "azul", "tiles", "tuileries"):
        states = positions(name, args.games)
        figures, sizes = [], []
        for narrow in (False, True):
            started = time.perf_counter()
            for state in states:
                picture = state.svg(state.current_player(), narrow)
                sizes.append(len(picture))
            figures.append((time.perf_counter() - started) / len(states) * 1000)
        print(f"{name:10} {len(states):>9} {figures[0]:>8.2f} {figures[1]:>10.2f} {statistics.mean(sizes) / 1000:>5.0f}",
              flush=True)


if __name__ == "__main__":
    main()
