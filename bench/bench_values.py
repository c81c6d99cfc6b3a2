"""What a network's value knows: on the positions of games between two
agents (greedy by default), how its value for the mover follows the
mover's result and points lead, and how many of its value layer's units
are dead (receive less than zero from every position: a plain ReLU unit
there passes nothing and learns nothing more).

Beside it, the same figures for what ``mcts`` judges a position by: the
logistic of the mover's ``evaluate`` lead over its best rival (the
search's cut-off value, :func:`tileworks.agents.mcts.rollout` at depth 0),
on a copy whose hidden tiles are dealt afresh as the mover may see them.
The squared error against the result (the training's value loss, by
stage of the game) says which of the two judges better: a network whose
search should beat ``mcts`` needs a value at least as good.

Usage:
  python bench/bench_values.py GAME [GAME ...] [--network PATH.npz] [--games 30] [--agent greedy] [--seed 0]

Each GAME's shipped network for its default set-up, or ``--network`` (a
run's ``network.npz``) for the one game named. A healthy value follows the
result (Azul's and KILN's shipped networks: about +0.4 to +0.6 over their
games); a value that says nothing has a spread near zero. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

import tileworks
from tileworks.agents.learned import shipped_network
from tileworks.agents.mcts import rollout
from tileworks.agents.network import Network, value_inputs
from tileworks.learn.imitate import teacher_games

#: the stages of a game the squared errors are split by (how far into it, 0 to 1)
STAGES = ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0))


def positions(game, agent: str, games: int, first_seed: int = 0
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every decision of ``games`` seeded games between two ``agent``s: the
    mover's observation, its result (1 a win, -1 a loss), its points less
    its best rival's, how far into its game the decision was (0 to 1), and
    the search's evaluation for it (-1 to 1; see the module's docs)."""
    observations, results, leads, stages, judged = [], [], [], [], []
    rng = random.Random(first_seed)
    for seen, game_results in teacher_games(game, agent, games, first_seed):
        for index, (state, _action) in enumerate(seen):
            mover, points = state.current_player(), state.scores()
            observations.append(state.observation_tensor(mover))
            results.append(game_results[mover])
            leads.append(points[mover] - max(p for seat, p in enumerate(points) if seat != mover))
            stages.append(index / len(seen))
            seen_by_mover = state.resample_hidden(mover, rng)
            judged.append(2.0 * rollout(seen_by_mover, rng, 0, seen_by_mover.value_scale())[mover] - 1.0)
    return (np.asarray(observations, np.float32), np.asarray(results), np.asarray(leads, float),
            np.asarray(stages), np.asarray(judged))


def squared_errors(value: np.ndarray, result: np.ndarray, stage: np.ndarray) -> str:
    """The mean squared error of ``value`` against ``result``, in all and by stage."""
    parts = [f"{((value - result) ** 2).mean():.3f}"]
    for low, high in STAGES:
        part = (stage >= low) & (stage < high)
        parts.append(f"{((value[part] - result[part]) ** 2).mean():.3f}" if part.any() else "-")
    return f"{parts[0]} (by quarter: {' '.join(parts[1:])})"


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a, b)[0, 1]) if a.std() > 0 and b.std() > 0 else 0.0


def report(name: str, network: Network, game, agent: str, games: int, first_seed: int = 0) -> None:
    observation, result, lead, stage, judged = positions(game, agent, games, first_seed)
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
    print(f"  squared error against the result: the value {squared_errors(value, result, stage)}; "
          f"the search's evaluation {squared_errors(judged, result, stage)} "
          f"(it follows the result {correlation(judged, result):+.2f})")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games_", nargs="+", metavar="GAME")
    parser.add_argument("--network", help="a network.npz (for one game); else the game's shipped network")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (a run imitated games 0 on)")
    args = parser.parse_args(argv)
    if args.network and len(args.games_) != 1:
        parser.error("--network goes with one game")
    for name in args.games_:
        game = tileworks.load_game(name)
        network = Network.load(args.network) if args.network else shipped_network(game)
        report(args.network or name, network, game, args.agent, args.games, args.seed)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
