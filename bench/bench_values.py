"""What a network's value knows: on the positions of games between two
agents (greedy by default), how its value for the mover follows the
mover's result and points lead, and how many of its value layer's units
are dead (receive less than zero from every position: a plain ReLU unit
there passes nothing and learns nothing more).

Usage:
  python bench/bench_values.py GAME [GAME ...] [--network PATH.npz] [--games 30] [--agent greedy]

Each GAME's shipped network for its default set-up, or ``--network`` (a
run's ``network.npz``) for the one game named. A healthy value follows the
result (Azul's and KILN's shipped networks: about +0.4 to +0.6 over their
games); a value that says nothing has a spread near zero. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import tileworks
from tileworks.agents.learned import shipped_network
from tileworks.agents.network import Network, value_inputs
from tileworks.learn.imitate import teacher_games


def positions(game, agent: str, games: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every decision of ``games`` seeded games between two ``agent``s: the
    mover's observation, its result (1 a win, -1 a loss), its points less
    its best rival's, and how far into its game the decision was (0 to 1)."""
    observations, results, leads, stages = [], [], [], []
    for seen, game_results in teacher_games(game, agent, games):
        for index, (state, _action) in enumerate(seen):
            mover, points = state.current_player(), state.scores()
            observations.append(state.observation_tensor(mover))
            results.append(game_results[mover])
            leads.append(points[mover] - max(p for seat, p in enumerate(points) if seat != mover))
            stages.append(index / len(seen))
    return (np.asarray(observations, np.float32), np.asarray(results), np.asarray(leads, float),
            np.asarray(stages))


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else 0.0


def report(name: str, network: Network, game, agent: str, games: int) -> None:
    observation, result, lead, stage = positions(game, agent, games)
    _, values = network.evaluate(observation)
    value = values if values.ndim == 1 else values[:, 0]  # the mover's own value
    inputs = value_inputs(network.params, observation, network.board)
    dead = float((inputs.max(axis=0) <= 0).mean())
    late = stage >= 0.75
    units = "PReLU" if "value/slope" in network.params else "ReLU"
    print(f"{name} ({units}): {len(value)} positions of {games} {agent} games; value mean {value.mean():+.3f}, "
          f"spread {value.std():.3f}; follows the result {correlation(value, result):+.2f} "
          f"(last quarter {correlation(value[late], result[late]):+.2f}), the lead {correlation(value, lead):+.2f} "
          f"(the lead itself follows the result {correlation(lead, result):+.2f}); "
          f"value units dead {dead:.0%} of {inputs.shape[-1]}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_", nargs="+", metavar="GAME")
    parser.add_argument("--network", help="a network.npz (for one game); else the game's shipped network")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--agent", default="greedy")
    args = parser.parse_args(argv)
    if args.network and len(args.games_) != 1:
        parser.error("--network goes with one game")
    for name in args.games_:
        game = tileworks.load_game(name)
        network = Network.load(args.network) if args.network else shipped_network(game)
        report(args.network or name, network, game, args.agent, args.games)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
