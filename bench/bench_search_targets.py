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
import sys
import time

import numpy as np

import tileworks
from tileworks.cli.main import parse_options
from tileworks.learn.imitate import teacher_games


def positions(game, games: int) -> tuple[list, list[np.ndarray], list[np.ndarray]]:
    """The decisions with a choice in ``games`` fresh greedy games: each
    state, its legal action ids, and which of them the evaluation rates best."""
    states, legal_ids, best = [], [], []
    for seen, _ in teacher_games(game, "greedy", games, first_seed=1_000_000):
        for state, _action in seen:
            legal = state.legal_actions()
            if len(legal) < 2:
                continue
            values = np.asarray(state.evaluate_after(legal, state.current_player()))
            states.append(state)
            legal_ids.append(np.asarray(legal))
            best.append(values >= values.max() - 1e-9)
    return states, legal_ids, best


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
    import optax

    import tileworks.jax
    from tileworks.agents.learned import shipped_network
    from tileworks.agents.network import Network
    from tileworks.learn.selfplay import make_functions
    from tileworks.learn.train import DENSE_ACTIONS, SLOTS

    options = parse_options(args.game, args.option)
    game = tileworks.load_game(args.game, **options)
    network = Network.load(args.network) if args.network else shipped_network(game)
    slots = 0 if game.num_distinct_actions() <= DENSE_ACTIONS else SLOTS
    states, legal_ids, best = positions(game, args.games)
    print(f"{args.game}, {args.network or 'the shipped network'}: {len(states)} decisions with a choice "
          f"in {args.games} greedy games; {slots or 'every'} action ids searched", flush=True)

    def softmax(logits: np.ndarray) -> np.ndarray:
        shifted = np.exp(logits - logits.max())
        return shifted / shifted.sum()

    priors = [softmax(network.evaluate(state.observation_tensor(state.current_player()))[0][legal])
              for state, legal in zip(states, legal_ids)]
    first, mass = scored(priors, best)
    print(f"  the network's policy: best first {first:.1%}, mass on the best {mass:.1%}", flush=True)

    env = tileworks.jax.make(args.game, **options)
    params = jax.tree.map(jnp.asarray, network.params)
    batched = [env.from_python(state) for state in states]
    for simulations in args.simulations:
        play, _, _ = make_functions(env, simulations, args.considered, optax.adamw(1e-3), 1.0, slots, network.board)
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
