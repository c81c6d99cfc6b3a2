"""Drawing the table: milliseconds a picture (SVG, wide and narrow) in
positions from random games of each game, as the server draws one for each
viewer after every move.

    .venv/bin/python bench/bench_pictures.py [--positions 40] [--repeat 20]

Prints figures; asserts nothing. To compare two commits, run each
checkout's copy (it draws with the ``src`` beside it) in one sitting.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
import tileworks  # noqa: E402


def positions(name: str, count: int, seed: int = 1) -> list:
    """``count`` positions where a player decides, spread over random games."""
    game, rng, found = tileworks.load_game(name), random.Random(seed), []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                action = rng.choices(*zip(*state.chance_outcomes()))[0]
            else:
                if rng.random() < 0.25:
                    found.append(state.clone())
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':10} {'wide ms':>8} {'narrow ms':>10} {'kB':>5}")
    for name in ("kiln", "azul", "tiles", "tuileries"):
        states = positions(name, args.positions)
        figures = []
        for narrow in (False, True):
            started = time.perf_counter()
            for _ in range(args.repeat):
                for state in states:
                    picture = state.svg(state.current_player(), narrow)
            figures.append((time.perf_counter() - started) / (args.repeat * len(states)) * 1000)
        print(f"{name:10} {figures[0]:>8.2f} {figures[1]:>10.2f} {len(picture) / 1000:>5.0f}", flush=True)


if __name__ == "__main__":
    main()
