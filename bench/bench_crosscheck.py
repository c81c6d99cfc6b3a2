"""The full cross-check of every JAX engine against its Python engine: the
table of ``bench_jax.py GAME --check N`` commands recorded in
docs/performance.md, run ``--jobs`` at a time, printed as that table.

Usage:
  python bench/bench_crosscheck.py [--jobs 2] [GAME ...]

Each command plays N random games in JAX and replays each in the Python
engine with the chance JAX drew, comparing after every step (seeded: the
same games every run). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from tileworks.games.tiles import DISCARD_HEAVY

HEAT = "heat_tokens=5,8,14,17,19,23,26"
#: (game, games, options): the option sets that change each game's rules or size
COMMANDS = [
    ("azul", 4000, []),
    ("azul", 2000, ["players=3", "variant=grey", "tiebreak=official"]),
    ("azul", 2000, ["players=4"]),
    ("azul", 2000, ["players=4", "variant=grey"]),
    ("tuileries", 4000, []),
    ("tuileries", 2000, ["players=3", "bonus_tile=true"]),
    ("tuileries", 2000, ["players=4"]),
    ("tuileries", 1000, ["players=5", "bonus_tile=true"]),
    ("tuileries", 1000, ["players=6", "circles=b2,g2,b7,g7"]),
    ("kiln", 3000, []),
    ("kiln", 1000, ["players=3", "turn_limit=60"]),
    ("kiln", 1000, ["players=4", "goal=10", "turn_limit=60"]),
    ("kiln", 1000, ["variant=advanced", "turn_limit=60"]),
    ("kiln", 1000, ["variant=advanced", "advanced_scoring=combined", "turn_limit=60"]),
    ("kiln", 1000, ["erase_rule=true", HEAT, "goal=30", "turn_limit=80"]),
    ("kiln", 1000, ["variant=advanced", "erase_rule=true", HEAT, "goal=30", "turn_limit=80"]),
    ("kiln", 500, ["variant=advanced", "advanced_scoring=combined", "erase_rule=true", HEAT, "goal=30",
                   "turn_limit=80"]),
    ("kiln", 500, ["players=3", "goal=6", "heat_tokens=5", "erase_rule=true"]),
    ("tiles", 4000, []),
    ("tiles", 3000, ["players=3"]),
    ("tiles", 1500, [f"tile_set={DISCARD_HEAVY}"]),
    ("tiles", 1500, ["players=3", f"tile_set={DISCARD_HEAVY}"]),
    ("dominoes", 4000, []),
    ("dominoes", 2000, ["players=3"]),
    ("dominoes", 2000, ["players=4"]),
    ("dominoes", 1000, ["draw=true"]),
    ("dominoes", 1000, ["players=4", "draw=true"]),
]
RESULT = re.compile(r"cross-check of (\d+) games, (\d+) steps: (\d+) disagreements")


def run(command: tuple[str, int, list[str]]) -> tuple[str, int, int, int, float]:
    game, games, options = command
    argv = [sys.executable, os.path.join(os.path.dirname(__file__), "bench_jax.py"), game, "--check", str(games)]
    for option in options:
        argv += ["-o", option]
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    found = RESULT.search(done.stdout)
    if done.returncode or not found:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")
    shown = " ".join([game, "--check", str(games)] + [f"-o {o}" for o in options]).replace(DISCARD_HEAVY, "$DISCARD_HEAVY")
    return shown, int(found[1]), int(found[2]), int(found[3]), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="only these games")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    chosen = [c for c in COMMANDS if not args.games or c[0] in args.games]
    started = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(run, chosen))
    print("| command (`python bench/bench_jax.py ...`) | games | steps | disagreements | time |")
    print("|---|---:|---:|---:|---:|")
    for shown, games, steps, wrong, seconds in rows:
        print(f"| `{shown}` | {games:,} | {steps:,} | {wrong} | {seconds:.0f} s |")
    totals: dict[str, list[int]] = {}
    for (game, _, _), (_, games, steps, wrong, _) in zip(chosen, rows, strict=True):
        total = totals.setdefault(game, [0, 0, 0])
        total[0] += games
        total[1] += steps
        total[2] += wrong
    for game, (games, steps, wrong) in totals.items():
        print(f"| **{game}, all** | **{games:,}** | **{steps:,}** | **{wrong}** | |")
    print(f"\n{sum(t[0] for t in totals.values()):,} games, {sum(t[1] for t in totals.values()):,} steps, "
          f"{sum(t[2] for t in totals.values())} disagreements in {time.perf_counter() - started:.0f} s "
          f"({args.jobs} at a time)")


if __name__ == "__main__":
    main()
