"""Does a new network change what a learned agent's move costs? Times one
spec (``alpha:iterations=4000`` by default) with each of two or more
network files on the same positions, spread over whole games
(``bench_learned.positions``), the networks taking turns at each position
(the first one first at even positions, last at odd ones) so that the
machine's load falls on all alike.

An equal-time row is timed once against its opponent; when the game's
network is replaced, this says whether the row's budget still holds.

Usage:
  python bench/bench_networks.py GAME OLD.npz NEW.npz [--spec alpha:iterations=4000] [--count 10]

Each file's JSON beside it gives the settings it ships with (e.g.
``alpha.guide``). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from bench_learned import positions, times_in_turns  # noqa: E402
from bench_random_play import cpu_model  # noqa: E402

from tileworks.agents import AGENTS, parse_spec  # noqa: E402
from tileworks.agents.learned import LearnedAgent  # noqa: E402
from tileworks.agents.network import Network  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("networks", nargs="+", help="network files (.npz, each with its .json beside it)")
    parser.add_argument("--spec", default="alpha:iterations=4000", help="a learned agent's spec (net or alpha)")
    parser.add_argument("--count", type=int, default=10, help="positions")
    args = parser.parse_args()
    if len(args.networks) < 2:
        parser.error("name at least two networks to compare")
    name, params = parse_spec(args.spec)
    if not issubclass(AGENTS[name], LearnedAgent):
        parser.error(f"{args.spec} is not a learned agent (net or alpha)")
    agents = [AGENTS[name](seed=1, network=Network.load(path), **params) for path in args.networks]
    print(f"# {args.spec} in {args.game}, {args.count} positions; {cpu_model()}, "
          f"{platform.python_version()}, {datetime.date.today()}")
    spent = times_in_turns(positions(args.game, args.count), agents, alternate=True)
    first = statistics.mean(spent[0])
    for path, seconds in zip(args.networks, spent):
        print(f"{path}: mean {statistics.mean(seconds):.2f} s, median {statistics.median(seconds):.2f} s a move "
              f"({statistics.mean(seconds) / first:.3f} of the first's mean)")


if __name__ == "__main__":
    main()
