"""Does self-play's search improve on the network it searches with? A
diagnostic of the policy targets that ``tileworks train`` learns from,
apart from training: at the decisions of fresh games between two greedy
agents, compare the network's own policy (its prior) with the improved
policy of the training search (Gumbel MuZero through mctx, on the game's
batched engine, as ``tileworks.learn.selfplay`` runs it), for each number
of simulations asked, by

- **best first**: how often its likeliest legal action is one the game's
  evaluation rates best (``State.evaluate_after``: greedy's own choice,
  ties included), as ``bench_imitation.py`` measures agreement;
- **mass on the best**: the share of its probability on those actions.

A network weaker than greedy learns from targets that move towards
greedy's choices when the search helps; targets that move away from them
are noise it will learn. Prints figures; asserts nothing.

Usage:
  python bench/bench_search_targets.py GAME [-o option=value ...] [--network PATH] [--games 10]
      [--simulations 16 64 256] [--considered 16] [--chunk 128]

``--network`` defaults to the network the game ships for these options.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from bench_imitation import fresh_decisions  # noqa: E402

import tileworks  # noqa: E402
from tileworks.cli.main import parse_options  # noqa: E402


def scored(policies: list[np.ndarray], best: list[np.ndarray]) -> tuple[float, float]:
    """Best first and mass on the best, over policies given on each position's legal actions."""
    first = np.mean([chosen[int(np.argmax(policy))] for policy, chosen in zip(policies, best)])
    mass = np.mean([policy[chosen].sum() / policy.sum() for policy, chosen in zip(policies, best)])
    return float(first), float(mass)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("--network", help="a network's .npz (default: the one the game ships)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, nargs="+", default=[16, 64, 256])
    parser.add_argument("--considered", type=int, default=16)
    parser.add_argument("--chunk", type=int, default=128, help="positions searched at once")
    args = parser.parse_args(argv)

    import jax
    import jax.numpy as jnp

    from tileworks.agents.learned import shipped_network
    from tileworks.agents.network import Network
    from tileworks.learn.train import TrainConfig, compiled_for

    options = parse_options(args.game, args.option)
    game = tileworks.load_game(args.game, **options)
    network = Network.load(args.network) if args.network else shipped_network(game)
    # a run's settings, for what the search ranges over (every action id, or the likeliest slots)
    config = TrainConfig(args.game, options, network="flat" if network.board is None else "board",
                         considered=args.considered, eval_games=0)
    slots = config.slots
    states, legal_ids, best = fresh_decisions(game, "greedy", args.games)
    print(f"{args.game}, {args.network or 'the shipped network'}: {len(states)} decisions with a choice "
          f"in {args.games} greedy games; {slots or 'every'} action ids searched", flush=True)

    def softmax(logits: np.ndarray) -> np.ndarray:
        shifted = np.exp(logits - logits.max())
        return shifted / shifted.sum()

    priors = [softmax(network.evaluate(state.observation_tensor(state.current_player()))[0][legal])
              for state, legal in zip(states, legal_ids)]
    first, mass = scored(priors, best)
    print(f"  the network's policy: best first {first:.1%}, mass on the best {mass:.1%}", flush=True)

    def run_functions(simulations: int) -> tuple:  # a run's environment and jitted functions, made once
        return compiled_for(config.game, tuple(sorted(config.options.items())), config.network, simulations,
                            config.considered, config.learning_rate, config.weight_decay, config.value_weight, slots)

    params = jax.tree.map(jnp.asarray, network.params)
    env = run_functions(args.simulations[0])[0]
    batched = [env.from_python(state) for state in states]
    for simulations in args.simulations:
        play = run_functions(simulations)[3]
        started, targets = time.perf_counter(), []
        for start in range(0, len(batched), args.chunk):
            chunk = batched[start:start + args.chunk]
            stacked = jax.tree.map(lambda *leaves: jnp.stack(leaves), *chunk)
            _, trajectory = play(params, stacked, jax.random.PRNGKey(start), steps=1)
            policy, ids = np.asarray(trajectory.policy[0]), np.asarray(trajectory.legal[0])
            for row, legal in enumerate(legal_ids[start:start + args.chunk]):
                if slots:  # the policy is over the searched candidates' ids: put it on the legal ids
                    on_legal = dict(zip(ids[row].tolist(), policy[row].tolist()))
                    targets.append(np.asarray([on_legal.get(int(action), 0.0) for action in legal]) + 1e-12)
                else:
                    targets.append(policy[row][legal] + 1e-12)
        first, mass = scored(targets, best)
        print(f"  the search's target at {simulations} simulations ({args.considered} considered): best first "
              f"{first:.1%}, mass on the best {mass:.1%} ({time.perf_counter() - started:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
