"""Speed of the learned agents: milliseconds a move for ``net`` and
``alpha``, and whole games a second of ``net`` against ``net`` across
worker processes, as the balance lab plays them (seeded games through
``tileworks.arena.playing.play_seeded``, on the arena's and the lab's
``LocalRunner``).

Usage:
  python bench/bench_learned.py [GAME ...] [--count 400] [--workers 2] [--alpha-moves 20] [--also mcts:medium]

``alpha`` searches as it plays by default (with the rollout share its
network ships with); ``--also`` times other specs on the same positions,
taking turns with it at each one (name a spec twice to time it twice).
``--alpha-moves`` positions are spread over whole games, so a search whose
time grows as the game goes on is timed as a game finds it.

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
from tileworks.core import State, sample_chance  # noqa: E402


def positions(game: str, count: int) -> list[tuple[State, float]]:
    """``count`` positions with a choice, spread evenly over whole games of
    greedy play (a fifth of its moves random, so the games differ), each with
    how far through its game it lies (0 the first decision, 1 the last). Every
    spec is timed on these same positions: a search's time a move changes as a
    game goes on (Tiles' legal placements grow with its board), so positions
    from the openings alone would not tell equal time over a game."""
    games, chosen, seed = max(1, round(count / 10)), [], 0
    while seed < games or len(chosen) < count:  # a game of positions for every ten asked, or more
        seed += 1
        state, rng, seen = tileworks.load_game(game).new_initial_state(), random.Random(seed), []
        agent = make("greedy", seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:  # a forced move costs nothing: time the real choices
                seen.append(state.clone())
            state.apply_action(agent.step(state) if rng.random() < 0.8 else rng.choice(legal))
        chosen += [(position, k / max(1, len(seen) - 1)) for k, position in enumerate(seen)]
    picks = [round(k * (len(chosen) - 1) / max(1, count - 1)) for k in range(count)]
    return [chosen[k] for k in picks]


def times_in_turns(chosen: list[tuple[State, float]], agents: list, alternate: bool = False) -> list[list[float]]:
    """Each agent's seconds a decision at each of the ``chosen`` positions
    (:func:`positions`), the agents taking turns at each position so that
    the machine's load falls on all alike (in reverse order at every other
    position where ``alternate``, so that none always goes first)."""
    times: list[list[float]] = [[] for _ in agents]
    with one_thread_for_products():  # as a worker or a game in the terminal reads it
        for k, (state, _) in enumerate(chosen):
            order = list(range(len(agents)))
            for index in reversed(order) if alternate and k % 2 else order:
                position = state.clone()
                started = time.perf_counter()
                agents[index].step(position)
                times[index].append(time.perf_counter() - started)
    return times


def move_times(game: str, specs: list[str], count: int) -> list[tuple[str, list[float], list[float]]]:
    """Each spec's seconds a decision on the same ``count`` positions
    (:func:`times_in_turns`); with each position's stage."""
    chosen = positions(game, count)
    times = times_in_turns(chosen, [make(spec, seed=1) for spec in specs])
    return [(spec, spent, [stage for _, stage in chosen]) for spec, spent in zip(specs, times)]


def described(seconds: list[float], stages: list[float]) -> str:
    """The median and mean of times a move, and the mean in each third of a game."""
    thirds: list[list[float]] = [[], [], []]
    for spent, stage in zip(seconds, stages):
        thirds[min(2, int(stage * 3))].append(spent)
    return (f"median {statistics.median(seconds):.3g} s, mean {statistics.fmean(seconds):.3g} s a move over "
            f"{len(seconds)} positions; by third of the game "
            + " / ".join(f"{statistics.fmean(third):.3g}" if third else "-" for third in thirds) + " s")


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
        [(_, net, _)] = move_times(game, ["net"], 300)
        print(f"{game}: net {statistics.median(net) * 1e3:.2f} ms a move (median of 300; p95 "
              f"{sorted(net)[int(0.95 * len(net))] * 1e3:.2f} ms)")
        specs = (["alpha:iterations=800"] if args.alpha_moves else []) + split_specs(args.also)
        for spec, seconds, stages in move_times(game, specs, args.alpha_moves or 20) if specs else ():
            print(f"{game}: {spec} {described(seconds, stages)}")
        per = args.count // args.workers
        started = time.perf_counter()
        played = sum(LocalRunner(args.workers).results(play_many, [(game, w * per, per) for w in range(args.workers)]))
        seconds = time.perf_counter() - started
        print(f"{game}: net against net, {played} seeded games on {args.workers} processes: {played / seconds:.1f} games/s")


if __name__ == "__main__":
    main()
