"""The cost of ``resample_hidden``: milliseconds per call in positions with
and without public evidence about a hand (Tiles' forced discards).

Usage: python bench/bench_resample.py [--calls N]

Prints figures; it asserts nothing. Record results in docs/performance.md
with the machine and the date.
"""

from __future__ import annotations

import argparse
import random
import time

import tileworks
from tileworks.core import sample_chance

# Tiles, 2 players: only the all-white tile is down when P1 must discard, so
# P1 held no tile with a white triangle (tests/tiles/test_rules.py).
FORCED_DISCARD = [
    "white,grey", "P1",
    "bbbb", "gggg", "bggg", "bggg", "bbgg", "bbgg", "bgbg",
    "gwww", "gwww", "bwww", "bwww", "ggww", "ggww", "bbww",
    "wwww", "bgbg", "discard gggg", "gwgw", "wbww@0,-1",
]
DISCARD_HEAVY = ",".join(["wwww"] * 6 + ["gggg"] * 6 + ["bbbb"] * 6 + ["wwgg"] * 2)


def scripted(moves: list[str], **options):
    state = tileworks.load_game("tiles", **options).new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def random_position(name: str, plies: int, seed: int, **options):
    state = tileworks.load_game(name, **options).new_initial_state()
    rng = random.Random(seed)
    while len(state.history()) < plies and not state.is_terminal():
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


def per_call(state, seat: int, calls: int) -> float:
    rng = random.Random(0)
    start = time.perf_counter()
    for _ in range(calls):
        state.resample_hidden(seat, rng)
    return (time.perf_counter() - start) / calls * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args()
    cases = [
        ("tiles: the issue's forced discard (P2 resamples P1)", scripted(FORCED_DISCARD), 1),
        ("tiles: the same game before the discard", scripted(FORCED_DISCARD[:-3]), 1),
        ("tiles: default set, 60 plies, no discard", random_position("tiles", 60, 3), 0),
        ("tiles: single-colour set, 40 plies, discards", random_position("tiles", 40, 3, tile_set=DISCARD_HEAVY), 0),
        ("tuileries: 4 players, 80 plies", random_position("tuileries", 80, 3, players=4), 0),
    ]
    for label, state, seat in cases:
        discards = len(getattr(state, "discards", []))
        print(f"{label:55s} {per_call(state, seat, args.calls):8.3f} ms/call  (discards so far: {discards})")


if __name__ == "__main__":
    main()
