"""The cost of ``resample_hidden``: milliseconds per call in positions with
and without public evidence about a hand (Tiles' forced discards). Each is
timed beside the replay of the rewritten history that a redeal from a copy
replaces (``HiddenHandState._copy_reaches``), in the same run.

Usage: python bench/bench_resample.py [--calls N] [--search SPEC --game GAME --moves N]

``--search`` also times an agent's move both ways, on the same positions
(``bench_learned.positions``) and taking turns at each,
e.g. ``--search alpha:iterations=800 --game tuileries``.

Prints figures; it asserts nothing. Record results in docs/performance.md
with the machine and the date.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from bench_learned import positions  # noqa: E402

import tileworks  # noqa: E402
from tileworks.agents import make  # noqa: E402
from tileworks.agents.network import one_thread_for_products  # noqa: E402
from tileworks.core import HiddenHandState, sample_chance  # noqa: E402

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


@contextlib.contextmanager
def copy_reaches_as(decide):
    """Within the block, ``decide(reaches, state, history, slots)`` says
    whether a redeal is made from a copy (``reaches``: the real check)."""
    reaches = HiddenHandState._copy_reaches
    HiddenHandState._copy_reaches = lambda state, history, slots: decide(reaches, state, history, slots)
    try:
        yield
    finally:
        HiddenHandState._copy_reaches = reaches


def replaying(measure):
    """``measure()`` with every redeal made by replaying the rewritten history."""
    with copy_reaches_as(lambda *_: False):
        return measure()


def copy_share(name: str, games: int) -> tuple[int, int]:
    """How many redeals are made from a copy, of every seat's redeal at every
    fifth position of ``games`` seeded random games (the rest are replayed)."""
    made = []

    def noted(reaches, state, history, slots):
        made.append(reaches(state, history, slots))
        return made[-1]

    with copy_reaches_as(noted):
        for seed in range(games):
            state, rng = tileworks.load_game(name).new_initial_state(), random.Random(seed)
            while not state.is_terminal():
                if len(state.history()) % 5 == 4:
                    for seat in range(state.game().num_players()):
                        state.resample_hidden(seat, random.Random(seat))
                state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                                   else rng.choice(state.legal_actions()))
    return sum(made), len(made)


def search_times(spec: str, game: str, moves: int) -> tuple[list[float], list[float]]:
    """Seconds a move of ``spec`` with the redeal made from a copy and by
    replaying, taking turns at each of the same positions (the same seed, so
    the same search)."""
    copied, replayed = [], []
    with one_thread_for_products():
        for state, _stage in positions(game, moves):
            for spent, measure in ((copied, lambda s: s()), (replayed, replaying)):
                position, agent = state.clone(), make(spec, seed=1)
                started = time.perf_counter()
                measure(lambda: agent.step(position))
                spent.append(time.perf_counter() - started)
    return copied, replayed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--search", help="an agent spec to time both ways, e.g. alpha:iterations=800")
    parser.add_argument("--game", default="tuileries")
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    cases = [
        ("tiles: the issue's forced discard (P2 resamples P1)", scripted(FORCED_DISCARD), 1),
        ("tiles: the same game before the discard", scripted(FORCED_DISCARD[:-3]), 1),
        ("tiles: default set, 60 plies, no discard", random_position("tiles", 60, 3), 0),
        ("tiles: single-colour set, 40 plies, discards", random_position("tiles", 40, 3, tile_set=DISCARD_HEAVY), 0),
        ("tuileries: 4 players, 80 plies", random_position("tuileries", 80, 3, players=4), 0),
        ("tuileries: 2 players, 20 plies", random_position("tuileries", 20, 3), 0),
        ("tuileries: 2 players, 80 plies", random_position("tuileries", 80, 3), 0),
        ("tuileries: 2 players, 140 plies", random_position("tuileries", 140, 3), 0),
    ]
    for label, state, seat in cases:
        discards = len(getattr(state, "discards", []))
        replayed = replaying(lambda: per_call(state, seat, args.calls))  # noqa: B023 (called at once)
        print(f"{label:55s} {per_call(state, seat, args.calls):8.3f} ms/call  (replayed: {replayed:.3f}; "
              f"discards so far: {discards})")
    for name in ("tiles", "tuileries"):
        copied, made = copy_share(name, 5)
        print(f"{name}: {copied} of {made} redeals over 5 random games made from a copy, the rest replayed")
    if args.search:
        copied, replayed = search_times(args.search, args.game, args.moves)
        print(f"{args.game}: {args.search} over {args.moves} positions, median {statistics.median(copied):.3f} s a "
              f"move (mean {statistics.fmean(copied):.3f}) with the redeal from a copy, "
              f"{statistics.median(replayed):.3f} s (mean {statistics.fmean(replayed):.3f}) replaying")


if __name__ == "__main__":
    main()
